/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		// Type checking runs separately (`npm run typecheck`); jest only transpiles.
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true }],
	},
	testTimeout: 30000,
};
