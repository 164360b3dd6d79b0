/**
 * jest's global setup (test/support/setup/globalSetup.cts) starts nothing for unit files chosen by
 * name (`npx jest test/unit/node/money.test.cts`): no shared-run service, no lab folder link.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SHARED_RUN_ENV = 'PAYCASHLESS_SHARED_RUN';

describe('the global setup of a run of unit files', () => {
	const saved = { shared: process.env[SHARED_RUN_ENV], lab: process.env.LAB };
	afterEach(() => {
		for (const [name, value] of [[SHARED_RUN_ENV, saved.shared], ['LAB', saved.lab]] as const) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	});

	it('returns at once for unit files named on the command line: nothing spawned, no LAB folder touched', async () => {
		delete process.env[SHARED_RUN_ENV];
		// A LAB that would fail loudly if the setup went on to make its folder.
		const lab = path.join(ROOT, '.tmp', `no-such-lab-${process.pid}`);
		process.env.LAB = lab;
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const globalSetup = require('../../support/setup/globalSetup.cts') as (config: { testPathPattern?: string }) => Promise<void>;
		await globalSetup({ testPathPattern: 'test/unit/node/money.test.cts' });
		await globalSetup({ testPathPattern: 'test/unit/(node|transport)/' });
		expect(process.env[SHARED_RUN_ENV]).toBeUndefined();
		expect((globalThis as { paycashlessSharedRun?: unknown }).paycashlessSharedRun).toBeUndefined();
		expect(fs.existsSync(lab)).toBe(false);
	});
});
