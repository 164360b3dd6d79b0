/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		// tsconfig.json sets isolatedModules: ts-jest only transpiles; `npm run typecheck` checks types.
		'^.+\\.ts$': 'ts-jest',
	},
	testTimeout: 30000,
};
