/**
 * The run table (scripts/harness/operationRuns.cts) needs no order: each entry runs alone on an
 * empty emulator (it seeds what it needs itself), and all of them run one after another in a
 * shuffled order on one emulator (each meets what the others left). The order comes from a seed,
 * in the test's title: `PAYCASHLESS_RUN_TABLE_SEED=<seed> npx jest test/unit/node/runTable.test.cts`
 * runs that order again. In the fake n8n contexts (scripts/harness/operationOutputs.cts), with
 * every entry's checks; n8n's engine runs each alone too (test/engine/operations.test.cts).
 */
import { fakeRunContext, runEntry } from '../../../scripts/harness/operationOutputs.cjs';
import { OPERATION_RUNS, RUN_SEED, type OperationRun } from '../../../scripts/harness/operationRuns.cjs';
import { useEmulator } from '../../support/emulator.cjs';

jest.setTimeout(120_000);

const emulator = useEmulator({ callbackRetries: 0 });

const SEED = Number(process.env.PAYCASHLESS_RUN_TABLE_SEED ?? Math.floor(Math.random() * 2 ** 31));
const named = (entry: OperationRun) => `${entry.resource}/${entry.operation}`;

/** `entries` shuffled by `seed` (Fisher–Yates over mulberry32: the same seed, the same order). */
function shuffled<T>(entries: readonly T[], seed: number): T[] {
	let state = seed >>> 0;
	const random = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
	};
	const order = [...entries];
	for (let i = order.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[order[i], order[j]] = [order[j], order[i]];
	}
	return order;
}

describe('the run table, in no particular order', () => {
	it.each(OPERATION_RUNS.map((entry) => [named(entry), entry] as const))('%s runs alone on an empty emulator', async (_name, entry) => {
		emulator.reset({});
		await runEntry(entry, fakeRunContext(emulator, expect));
	});

	const order = shuffled(OPERATION_RUNS, SEED);
	it(`all run one after another in a shuffled order (seed ${SEED}; PAYCASHLESS_RUN_TABLE_SEED=${SEED} repeats it)`, async () => {
		emulator.reset(RUN_SEED);
		const context = fakeRunContext(emulator, expect);
		for (const [index, entry] of order.entries()) {
			try {
				await runEntry(entry, context);
			} catch (error) {
				(error as Error).message = `seed ${SEED}, entry ${index + 1} of ${order.length} (after ${order.slice(0, index).map(named).join(', ') || 'none'}): ${(error as Error).message}`;
				throw error;
			}
		}
	});

	it('the shuffle is the seed\'s: the same seed, the same order; another seed, another', () => {
		expect(shuffled(OPERATION_RUNS, 7).map(named)).toEqual(shuffled(OPERATION_RUNS, 7).map(named));
		expect(shuffled(OPERATION_RUNS, 7).map(named)).not.toEqual(shuffled(OPERATION_RUNS, 8).map(named));
		expect([...shuffled(OPERATION_RUNS, SEED)].map(named).sort()).toEqual(OPERATION_RUNS.map(named).sort());
	});
});
