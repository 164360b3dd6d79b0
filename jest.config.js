// Projects: each folder under test/ but test/support/ is one project (test/engine/ two: the same
// files on n8n 2.41 and 1.123), listed below; `npm run test:<project>` runs one, `npm test` all.
// The test map: test/README.md. The end-to-end projects share one build and one n8n per runtime
// through the run's shared services (test/support/setup/): started idle by the global setup, they
// build, pack and start n8n only when a test file asks.
const base = {
	testEnvironment: 'node',
	// The tests and the tooling they use are CommonJS TypeScript (.cts); see docs/development.md.
	moduleFileExtensions: ['cts', 'ts', 'js', 'cjs', 'json'],
	// A tooling module is imported as `./x.cjs` (the name TypeScript gives `x.cts`'s output).
	resolver: '<rootDir>/jest.resolver.js',
	transform: {
		// tsconfig.json sets isolatedModules: ts-jest only transpiles; `npm run typecheck` checks types.
		'^.+\\.c?ts$': 'ts-jest',
	},
};

/** A project: the test files under test/<folder>/. */
function project(displayName, folder) {
	return { ...base, displayName, roots: [`<rootDir>/test/${folder}`], testMatch: ['**/*.test.cts'] };
}

/**
 * n8n's engine in the test process (test/support/engine/engine.cts) of one n8n line: n8n-workflow
 * and luxon are that install's, for the package, n8n-core and the tests alike
 * (test/support/engine/n8nModule.cts).
 */
function engine(displayName, line) {
	return {
		...project(displayName, 'engine'),
		globals: { paycashlessEngineN8n: line },
		moduleNameMapper: { '^(n8n-workflow|luxon)$': '<rootDir>/test/support/engine/$1.cts' },
	};
}

/** @type {import('jest').Config} */
module.exports = {
	projects: [
		// The package's own tests that need no n8n, no long fault run and no browser.
		project('unit', 'unit'),
		// The tooling around the package, with nothing started either: the emulator, the lab scripts
		// and jest's setup, the repository (docs, examples, workflows, layering, this tree).
		project('tooling', 'tooling'),
		// Workflows run in n8n-core's WorkflowExecute in the test process, n8n 2.41 and 1.123.
		engine('engine', '2'),
		engine('engine-1x', '1'),
		// n8n 2.41, one process (the shared one, or a file's own: see test/support/e2e/harness.cts).
		project('e2e', 'e2e'),
		// n8n's queue mode (PostgreSQL, Redis, main, workers, webhook processor): one set per file.
		project('e2e-queue', 'e2e-queue'),
		// n8n 1.123, the maintained 1.x line.
		project('e2e-1x', 'e2e-1x'),
		// Long fault runs (thousands of requests under injected faults) and crash runs, against the
		// emulator in the test process and in n8n 2.41.
		project('reliability', 'reliability'),
		// n8n's editor in Chromium.
		project('browser', 'browser'),
	],
	globalSetup: '<rootDir>/test/support/setup/globalSetup.cts',
	globalTeardown: '<rootDir>/test/support/setup/globalTeardown.cts',
	// The longest files first, and on a machine without n8n the files that need none (test/support/setup/sequencer.js).
	testSequencer: '<rootDir>/test/support/setup/sequencer.js',
	testTimeout: 30000,
	// Two files at a time on CI's 2 cores: the end-to-end files mostly wait on n8n, the emulator and
	// timers, so two overlap well (jest's default on 2 cores is one).
	maxWorkers: 2,
};
