/**
 * The proof of "never pay twice, never lose one": 1,000 payouts, each with its own reference,
 * through the real node and credential against the emulator with injected faults (dropped
 * connections after the payout was committed, 5xx, 429 with Retry-After, slow answers, and
 * answers slower than the timeout). Then the same 1,000 items again (a re-run of the workflow),
 * and n8n's node-level "Retry On Fail" (the whole node re-run with the same input).
 * The figures are printed as a markdown table at the end.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { type EmulatorHandle, type FaultConfig, startEmulator } from '../../emulator';
import {
	duplicatesAndLosses,
	FAST,
	faultCounts,
	itemsPerInput,
	markdownTable,
	payoutItem,
	run,
	secretLeaks,
	type FaultCounts,
} from './helpers';

const TOTAL = 1000;
/** Items 0..MIXED-1 run under the mix; the rest with every payout POST slower than the timeout. */
const MIXED = 900;
const references = Array.from({ length: TOTAL }, (_, i) => `rel-payout-${String(i).padStart(4, '0')}`);

/** 5xx 5%, 429 5% (Retry-After 0.01 s), dropped after commit 6%, every answer 2 ms late. */
const MIX: FaultConfig = {
	error5xxRate: 0.05,
	rateLimitRate: 0.05,
	retryAfterSeconds: 0.01,
	dropAfterCommitRate: 0.06,
	latencyMs: 2,
	seed: 20240601,
};
/** The first 60 payout POSTs answer after 150 ms, the client gives up after 40 ms. */
const SLOW_MS = 150;
const TIMEOUT_MS = 40;
const SLOW: FaultConfig = { latencyMs: SLOW_MS, match: '^POST /v1/payouts$', maxFaults: 60, seed: 7 };

let emulator: EmulatorHandle;
const figures: Array<Array<string | number>> = [];

function addFigures(scenario: string, cases: number, faults: FaultCounts, extra: { timeouts?: number; duplicates: number; losses: number; items: number; reconciled: number }): void {
	figures.push([
		scenario,
		cases,
		faults.dropAfterCommit,
		faults.error5xx,
		faults.rateLimit,
		extra.timeouts ?? 0,
		faults.latency,
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
	// eslint-disable-next-line no-console
	console.log(
		`Reliability figures (payouts)\n\n${markdownTable(
			[
				'Scenario',
				'Cases',
				'Dropped after commit',
				'5xx',
				'429',
				'Timeouts',
				'Slow answers',
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
		const mixed = await run(
			emulator,
			references.slice(0, MIXED).map((reference) => payoutItem(reference)),
		);
		const mixedFaults = faultCounts(emulator.requests);
		emulator.clearLogs();

		emulator.setFaults(SLOW);
		const slow = await run(
			emulator,
			references.slice(MIXED).map((reference) => payoutItem(reference, { ...FAST, timeout: TIMEOUT_MS })),
		);
		const slowFaults = faultCounts(emulator.requests);
		const timeouts = emulator.requests.filter((request) => request.fault === 'latency').length;
		emulator.clearFaults();

		// Faults really happened, of every kind.
		expect(mixedFaults.dropAfterCommit).toBeGreaterThan(20);
		expect(mixedFaults.error5xx).toBeGreaterThan(20);
		expect(mixedFaults.rateLimit).toBeGreaterThan(20);
		expect(timeouts).toBeGreaterThan(10);

		const output = [...mixed.output, ...slow.output];
		expect(output).toHaveLength(TOTAL);
		expect(itemsPerInput(mixed.output, MIXED).every((count) => count === 1)).toBe(true);
		expect(itemsPerInput(slow.output, TOTAL - MIXED).every((count) => count === 1)).toBe(true);
		output.forEach((item, index) => {
			expect(item.json.reference).toBe(references[index]);
			expect(item.json.id).toMatch(/^po_/);
			firstIds.set(references[index], item.json.id as string);
		});

		const { duplicates, losses } = duplicatesAndLosses(emulator, references);
		expect({ duplicates, losses }).toEqual({ duplicates: 0, losses: 0 });
		expect(emulator.list('payouts')).toHaveLength(TOTAL);
		// The id in each output item is the payout stored under its reference.
		const stored = new Map(emulator.list('payouts').map((payout) => [payout.reference as string, payout.id as string]));
		for (const reference of references) expect(firstIds.get(reference)).toBe(stored.get(reference));
		expect(secretLeaks([mixed.output, slow.output, mixed.logs, slow.logs], [emulator.apiKey, emulator.apiSecret])).toEqual([]);

		addFigures(`First run, ${MIXED} items under the mix`, MIXED, mixedFaults, {
			duplicates: duplicatesAndLosses(emulator, references.slice(0, MIXED)).duplicates,
			losses: duplicatesAndLosses(emulator, references.slice(0, MIXED)).losses,
			items: mixed.output.length,
			reconciled: reconciledCount(mixed.output),
		});
		addFigures(`First run, ${TOTAL - MIXED} items with POSTs slower than the timeout`, TOTAL - MIXED, { ...slowFaults, latency: 0 }, {
			timeouts,
			duplicates: duplicatesAndLosses(emulator, references.slice(MIXED)).duplicates,
			losses: duplicatesAndLosses(emulator, references.slice(MIXED)).losses,
			items: slow.output.length,
			reconciled: reconciledCount(slow.output),
		});
		// Wait for the slow POSTs still in flight, then check again: late arrivals created nothing.
		await new Promise((resolve) => setTimeout(resolve, SLOW_MS * 2));
		expect(emulator.list('payouts')).toHaveLength(TOTAL);
	});

	it('a re-run of the same 1,000 items (faults again) creates no payout and returns the existing ones', async () => {
		expect(firstIds.size).toBe(TOTAL);
		emulator.clearLogs();
		emulator.setFaults({ ...MIX, seed: 99 });
		const rerun = await run(
			emulator,
			references.map((reference) => payoutItem(reference)),
		);
		const faults = faultCounts(emulator.requests);
		emulator.clearFaults();

		expect(faults.dropAfterCommit + faults.error5xx + faults.rateLimit).toBeGreaterThan(60);
		expect(emulator.list('payouts')).toHaveLength(TOTAL);
		expect(rerun.output).toHaveLength(TOTAL);
		expect(itemsPerInput(rerun.output, TOTAL).every((count) => count === 1)).toBe(true);
		rerun.output.forEach((item, index) => {
			expect(item.json.id).toBe(firstIds.get(references[index]));
			expect(item.json._paycashless).toEqual({
				reconciled: true,
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
