/**
 * The proof of "never pay twice, never lose one": 1,000 payouts, each with its own reference,
 * through the real node and credential against the emulator with injected faults (dropped
 * connections after the payout was committed, 5xx, 429 with Retry-After, and answers later than
 * the node's timeout that still create the payout), all in one run. Then the same 1,000 items
 * again (a re-run of the workflow), and n8n's node-level "Retry On Fail" (the whole node re-run
 * with the same input).
 * The figures are printed as a markdown table at the end.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { type EmulatorHandle, type FaultConfig, startEmulator } from '../../emulator/index.cjs';
import { patience, underLoad } from '../../scripts/n8n/patience.cjs';
import {
	duplicatesAndLosses,
	FAST,
	faultCounts,
	itemsPerInput,
	markdownTable,
	payoutFaultMix,
	payoutItem,
	run,
	secretLeaks,
	type FaultCounts,
} from '../support/reliability.cjs';

const TOTAL = 1000;
const references = Array.from({ length: TOTAL }, (_, i) => `rel-payout-${String(i).padStart(4, '0')}`);

/**
 * One draw per request: 5xx 5%, 429 5% (Retry-After 0.01 s), dropped after commit 6%, and 5%
 * answered SLOW_MS late (then processed) while the node gives up after TIMEOUT_MS; every answer
 * 2 ms late. The emulator answers in this same process, 100 requests in flight: on a busy 2-core
 * machine an ordinary answer waits for the CPU, so the node's timeout grows with the machine's load
 * when the file starts (scripts/n8n/patience.cts `underLoad`: 2,500 ms alone; at load 16 one
 * reference lookup timed out at 2,500 ms ten times in a row, and one run's failure fails the run),
 * and the late answers come twice as late as it.
 */
const TIMEOUT_MS = Math.max(2500, underLoad(1250));
const SLOW_MS = 2 * TIMEOUT_MS;
const MIX: FaultConfig = { ...payoutFaultMix(SLOW_MS), latencyMs: 2 };
// maxAttempts 10 is the node's default (FAST has 5): 100 items in flight draw the faults in a different
// order every run, and 5 attempts let one lookup in a few thousand fail 5 times in a row.
const OPTIONS = { ...FAST, maxAttempts: 10, timeout: TIMEOUT_MS };

// A guard against hangs, not a speed target: each run of 1,000 takes a few seconds (100 in flight).
jest.setTimeout(patience(30_000));

let emulator: EmulatorHandle;
const figures: Array<Array<string | number>> = [];

function addFigures(scenario: string, cases: number, faults: FaultCounts, extra: { duplicates: number; losses: number; items: number; reconciled: number }): void {
	figures.push([
		scenario,
		cases,
		faults.dropAfterCommit,
		faults.error5xx,
		faults.rateLimit,
		faults.slow,
		extra.items,
		extra.reconciled,
		extra.duplicates,
		extra.losses,
	]);
}

function reconciledCount(output: INodeExecutionData[]): number {
	return output.filter((item) => (item.json._paycashless as { reconciled?: boolean } | undefined)?.reconciled === true).length;
}

beforeAll(async () => {
	emulator = await startEmulator();
});
afterAll(async () => {
	await emulator.close();
	 
	console.log(
		`Reliability figures (payouts)\n\n${markdownTable(
			[
				'Scenario',
				'Cases',
				'Dropped after commit',
				'5xx',
				'429',
				'Answers later than the timeout',
				'Output items',
				'Reconciled items',
				'Duplicates',
				'Losses',
			],
			figures,
		)}\n`,
	);
});

describe('1,000 payouts under faults', () => {
	const firstIds = new Map<string, string>();

	it('first run: every reference has exactly one payout and exactly one output item', async () => {
		emulator.reset();
		emulator.setFaults(MIX);
		const first = await run(
			emulator,
			references.map((reference) => payoutItem(reference, OPTIONS)),
		);
		const faults = faultCounts(emulator.requests);
		emulator.clearFaults();

		// Faults really happened, of every kind.
		expect(faults.dropAfterCommit).toBeGreaterThan(20);
		expect(faults.error5xx).toBeGreaterThan(20);
		expect(faults.rateLimit).toBeGreaterThan(20);
		expect(faults.slow).toBeGreaterThan(20);

		expect(first.output).toHaveLength(TOTAL);
		expect(itemsPerInput(first.output, TOTAL).every((count) => count === 1)).toBe(true);
		first.output.forEach((item, index) => {
			expect(item.json.reference).toBe(references[index]);
			expect(item.json.id).toMatch(/^po_/);
			firstIds.set(references[index], item.json.id as string);
		});

		// Wait for slow requests still in flight to land: late arrivals must create nothing either.
		await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 1500));
		const { duplicates, losses } = duplicatesAndLosses(emulator, references);
		expect({ duplicates, losses }).toEqual({ duplicates: 0, losses: 0 });
		expect(emulator.list('payouts')).toHaveLength(TOTAL);
		// The id in each output item is the payout stored under its reference.
		const stored = new Map(emulator.list('payouts').map((payout) => [payout.reference as string, payout.id as string]));
		for (const reference of references) expect(firstIds.get(reference)).toBe(stored.get(reference));
		expect(secretLeaks([first.output, first.logs], [emulator.apiKey, emulator.apiSecret])).toEqual([]);

		addFigures('First run under the mix', TOTAL, faults, {
			duplicates,
			losses,
			items: first.output.length,
			reconciled: reconciledCount(first.output),
		});
	});

	it('a re-run of the same 1,000 items (faults again) creates no payout and returns the existing ones', async () => {
		expect(firstIds.size).toBe(TOTAL);
		emulator.clearLogs();
		emulator.setFaults({ ...MIX, seed: 99 });
		const rerun = await run(
			emulator,
			references.map((reference) => payoutItem(reference, OPTIONS)),
		);
		const faults = faultCounts(emulator.requests);
		emulator.clearFaults();
		// Let slow requests still in flight land before counting.
		await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 1500));

		expect(faults.dropAfterCommit + faults.error5xx + faults.rateLimit + faults.slow).toBeGreaterThan(80);
		expect(emulator.list('payouts')).toHaveLength(TOTAL);
		expect(rerun.output).toHaveLength(TOTAL);
		expect(itemsPerInput(rerun.output, TOTAL).every((count) => count === 1)).toBe(true);
		rerun.output.forEach((item, index) => {
			expect(item.json.id).toBe(firstIds.get(references[index]));
			expect(item.json._paycashless).toEqual({
				reconciled: true,
				repeated: expect.any(Boolean),
				reason: expect.stringMatching(/^(repeatedReference|uncertainOutcome)$/),
				via: 'verify',
			});
		});
		// Every create the emulator accepted was refused as a repeat: no new payout at all.
		const accepted = emulator.requests.filter((request) => request.method === 'POST' && request.status === 202);
		expect(accepted).toHaveLength(0);
		const { duplicates, losses } = duplicatesAndLosses(emulator, references);
		expect({ duplicates, losses }).toEqual({ duplicates: 0, losses: 0 });
		addFigures('Re-run of the same 1,000 items under the mix', TOTAL, faults, {
			duplicates,
			losses,
			items: rerun.output.length,
			reconciled: reconciledCount(rerun.output),
		});
	});
});

describe("n8n's node-level Retry On Fail (the whole node re-run with the same input)", () => {
	it('creates no duplicate: failed runs are re-run until one succeeds, one payout and one item per input', async () => {
		emulator.reset();
		const inputs = Array.from({ length: 200 }, (_, i) => `rel-retry-${String(i).padStart(3, '0')}`);
		// No retries inside the node, so faults make the node fail and n8n re-runs it.
		const parameters = inputs.map((reference) => payoutItem(reference, { ...FAST, maxAttempts: 1 }));
		// Rare faults, so runs fail at different depths; at most 10 in all, so a run finally succeeds.
		emulator.setFaults({ error5xxRate: 0.006, rateLimitRate: 0.004, retryAfterSeconds: 0.01, dropAfterCommitRate: 0.006, maxFaults: 10, seed: 3 });

		let runs = 0;
		let failures = 0;
		let output: INodeExecutionData[] | undefined;
		while (output === undefined && runs < 30) {
			runs += 1;
			try {
				output = (await run(emulator, parameters)).output;
			} catch (error) {
				failures += 1;
				expect(secretLeaks(error, [emulator.apiKey, emulator.apiSecret])).toEqual([]);
			}
		}
		const faults = faultCounts(emulator.requests);
		emulator.clearFaults();

		expect(failures).toBeGreaterThan(0);
		expect(output).toBeDefined();
		expect(output).toHaveLength(inputs.length);
		expect(itemsPerInput(output as INodeExecutionData[], inputs.length).every((count) => count === 1)).toBe(true);
		const { duplicates, losses } = duplicatesAndLosses(emulator, inputs);
		expect({ duplicates, losses }).toEqual({ duplicates: 0, losses: 0 });
		expect(emulator.list('payouts')).toHaveLength(inputs.length);
		addFigures(`Node-level retry: ${runs} runs of 200 items, ${failures} failed`, inputs.length, faults, {
			duplicates,
			losses,
			items: (output as INodeExecutionData[]).length,
			reconciled: reconciledCount(output as INodeExecutionData[]),
		});
	});
});
