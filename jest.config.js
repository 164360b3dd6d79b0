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
	// Two files at a time on CI's 2 cores: the end-to-end files mostly wait on n8n, the emulator and
	// timers, so two overlap well (jest's default on 2 cores is one).
	maxWorkers: 2,
};
