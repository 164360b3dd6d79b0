/**
 * jest's global setup (test/support/setup/globalSetup.cts) starts nothing for the unit and tooling
 * projects (`npm run test:unit`, `npm run test:tooling`) and for their files chosen by name
 * (`npx jest test/unit/node/money.test.cts`): no shared-run service, no lab folder link.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SHARED_RUN_ENV = 'PAYCASHLESS_SHARED_RUN';

describe('the global setup of a run of unit or tooling files', () => {
	const saved = { shared: process.env[SHARED_RUN_ENV], lab: process.env.LAB, argv: process.argv };
	afterEach(() => {
		process.argv = saved.argv;
		for (const [name, value] of [[SHARED_RUN_ENV, saved.shared], ['LAB', saved.lab]] as const) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	});

	/** The global setup with a LAB that it would make (and fail loudly on) if it went on to start services. */
	function setup(): { globalSetup: (config: { testPathPattern?: string }) => Promise<void>; lab: string } {
		delete process.env[SHARED_RUN_ENV];
		const lab = path.join(ROOT, '.tmp', `no-such-lab-${process.pid}`);
		process.env.LAB = lab;
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return { globalSetup: require('../../support/setup/globalSetup.cts') as (config: { testPathPattern?: string }) => Promise<void>, lab };
	}
	function expectNothingStarted(lab: string): void {
		expect(process.env[SHARED_RUN_ENV]).toBeUndefined();
		expect((globalThis as { paycashlessSharedRun?: unknown }).paycashlessSharedRun).toBeUndefined();
		expect(fs.existsSync(lab)).toBe(false);
	}

	it('returns at once for unit and tooling files named on the command line: nothing spawned, no LAB folder touched', async () => {
		const { globalSetup, lab } = setup();
		process.argv = [process.argv[0], 'jest'];
		await globalSetup({ testPathPattern: 'test/unit/node/money.test.cts' });
		await globalSetup({ testPathPattern: 'test/unit/(node|transport)/' });
		await globalSetup({ testPathPattern: 'test/tooling/emulator/auth.test.cts' });
		await globalSetup({ testPathPattern: 'test/(unit|tooling)/.*/(amount|labPorts|docs)' });
		expectNothingStarted(lab);
	});

	it('returns at once for `--selectProjects unit`, `tooling` or both', async () => {
		const { globalSetup, lab } = setup();
		for (const args of [['--selectProjects', 'unit'], ['--selectProjects', 'tooling'], ['--selectProjects', 'unit', 'tooling'], ['--selectProjects=tooling']]) {
			process.argv = [process.argv[0], 'jest', ...args];
			await globalSetup({});
		}
		expectNothingStarted(lab);
	});
});
