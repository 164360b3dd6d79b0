/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	// The tests and the tooling they use are CommonJS TypeScript (.cts); see docs/development.md.
	testMatch: ['**/*.test.cts'],
	moduleFileExtensions: ['cts', 'ts', 'js', 'cjs', 'json'],
	// A tooling module is imported as `./x.cjs` (the name TypeScript gives `x.cts`'s output).
	resolver: '<rootDir>/jest.resolver.js',
	transform: {
		// tsconfig.json sets isolatedModules: ts-jest only transpiles; `npm run typecheck` checks types.
		'^.+\\.c?ts$': 'ts-jest',
	},
	testTimeout: 30000,
	// Two files at a time on CI's 2 cores: the end-to-end files mostly wait on n8n, the emulator and
	// timers, so two overlap well (jest's default on 2 cores is one).
	maxWorkers: 2,
};
