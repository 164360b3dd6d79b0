/**
 * All or Nothing without one at a time (nodes/Paycashless/money/reservedBatch.ts), against the
 * emulator: a batch that fits is reserved whole before its first payout (another execution in the
 * process counts all of it at once), then sent at Create's Requests in Parallel, one payout per
 * reference; a batch that no longer fits when it is reserved sends none; a stop mid-batch caused
 * from outside (a payout made elsewhere, Paycashless refusing one) says what was paid and what was
 * not, and gives back what it did not send. The checks before (Check Batch's): test/unit/node/payroll.test.cts.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startEmulator, type EmulatorHandle } from '../../../emulator/index.cjs';
import { call, payoutBody } from '../../support/emulatorClient.cjs';
import { runNode, type RunResult } from '../../../scripts/harness/executeContext.cjs';

// Each test pays from an account of its own: a whole batch in flight is the process's to count
// (the ledger keeps what the list has not shown; resetting one emulator would be an account that
// forgets its payouts).
let emulator: EmulatorHandle;
beforeEach(async () => {
	emulator = await startEmulator({});
});
afterEach(async () => {
	await emulator.close();
});

const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';
const ALL_OR_NOTHING = { batchOptions: { allOrNothing: true } };

function batch(prefix: string, count: number, moneyLimits: INodeParameters, extra: INodeParameters = {}): INodeParameters[] {
	return Array.from({ length: count }, (_, k) => ({
		resource: 'payout',
		operation: 'create',
		reference: `${prefix}-${k + 1}`,
		amount: 1000,
		currency: 'NGN',
		destinationAccountNumber: String(1_000_000_000 + k * 7919),
		bankId: ACCESS_BANK,
		moneyLimits,
		...ALL_OR_NOTHING,
		...extra,
	}));
}

async function run(parameters: INodeParameters[], options: { continueOnFail?: boolean } = {}): Promise<RunResult> {
	return await runNode({ parameters, credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl }, nodeContext: {}, ...options });
}

async function stopped(promise: Promise<unknown>): Promise<Error & { description?: string; context: { paycashless?: IDataObject } }> {
	return (await promise.then(
		() => {
			throw new Error('the run did not stop');
		},
		(error: unknown) => error,
	)) as Error & { description?: string; context: { paycashless?: IDataObject } };
}

const creates = () => emulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payouts');

/** The most creates Paycashless had under way at once. */
function mostAtOnce(): number {
	const events = creates().flatMap((request) => [
		{ at: request.receivedAt, step: 1 },
		{ at: request.receivedAt + 100, step: -1 },
	]);
	events.sort((a, b) => a.at - b.at || a.step - b.step);
	let now = 0;
	let most = 0;
	for (const event of events) most = Math.max(most, (now += event.step));
	return most;
}

describe('All or Nothing: the whole batch reserved, then sent at Requests in Parallel', () => {
	it('a batch that fits goes at Create\'s speed, one payout per reference, output in input order', async () => {
		emulator.setFaults({ latencyMs: 100 });
		const { output } = await run(batch('fast', 40, { maxAmount: 1000, periodTotal: 40_000 }, { concurrency: 20 }));
		emulator.clearFaults();
		expect(output.map((item) => item.json.reference)).toEqual(Array.from({ length: 40 }, (_, k) => `fast-${k + 1}`));
		expect(new Set(creates().map((request) => (request.body as IDataObject).reference)).size).toBe(40);
		expect(emulator.list('payouts')).toHaveLength(40);
		// Not one at a time: creates were under way side by side (each answered 100 ms late).
		expect(mostAtOnce()).toBeGreaterThan(5);
	});

	it('from the moment it is reserved, another execution of the process counts the whole batch', async () => {
		emulator.setFaults({ latencyMs: 100 });
		// 10 × NGN 1,000 under NGN 12,000: once reserved, NGN 3,000 more cannot pass, although
		// Paycashless has made none of the batch yet.
		let settled = false;
		const paying = run(batch('whole', 10, { maxAmount: 5000, periodTotal: 12_000 }, { concurrency: 1 })).finally(() => (settled = true));
		while (creates().length === 0 && !settled) await new Promise((resolve) => setTimeout(resolve, 10));
		const other = await run(
			[{ resource: 'payout', operation: 'create', reference: 'other-1', amount: 3000, currency: 'NGN', destinationAccountNumber: '0123456789', bankId: ACCESS_BANK, moneyLimits: { maxAmount: 5000, periodTotal: 12_000 } }],
			{ continueOnFail: true },
		);
		await paying;
		emulator.clearFaults();
		expect((other.output[0].json.error as IDataObject | undefined)?.code).toBe('MAX_TOTAL_PERIOD');
		expect(emulator.list('payouts')).toHaveLength(10);
	});

	it('a payout made elsewhere mid-batch stops it: the run says what it paid and what it did not, and gives back the rest', async () => {
		// 200 ms an answer: the dashboard's payout must land while the batch is between its 3rd and 20th
		// payout (3.4 s at this pace; at 50 ms a machine at load 20 sometimes let the batch get past it).
		emulator.setFaults({ latencyMs: 200 });
		const limits = { maxAmount: 100_000, periodTotal: 40_000 };
		const paying = stopped(run(batch('stop', 30, limits, { concurrency: 1 })));
		// Once a few are paid, the dashboard pays NGN 20,000 from the same account.
		let settled = false;
		void paying.finally(() => (settled = true));
		while (creates().length < 3 && !settled) await new Promise((resolve) => setTimeout(resolve, 10));
		await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('dashboard', { amount: { value: 2_000_000, currency: 'NGN' } }) });
		const error = await paying;
		emulator.clearFaults();
		const paid = emulator.list('payouts').filter((payout) => String(payout.reference).startsWith('stop-'));
		expect(paid.length).toBeGreaterThanOrEqual(3);
		expect(paid.length).toBeLessThanOrEqual(20);
		expect(error.message).toMatch(/above the Maximum Total per Period of NGN 40,000\.00$/);
		// Exactly what was paid, by reference, and what was not.
		const done = (error.context.paycashless?.done as IDataObject[]).map((entry) => entry.reference);
		expect([...done].sort()).toEqual(paid.map((payout) => payout.reference).sort());
		expect(error.description).toMatch(new RegExp(`already completed ${paid.length} items .*Not done: item ${paid.length + 1} failed or refused; items ${paid.length + 2}–30 not sent\\.`));
		// The items not sent gave back their places: NGN 40,000 − 20,000 − what was paid is free again.
		const left = 40_000 - 20_000 - paid.length * 1000;
		const after = await run(batch('after', 1, limits, { amount: left, batchOptions: {} }), { continueOnFail: true });
		expect(after.output[0].json.error).toBeUndefined();
	});

	it('Paycashless refusing one mid-batch stops it the same way; a re-run pays the rest and none twice', async () => {
		const list = batch('refused', 12, { maxAmount: 1000, periodTotal: 100_000 }, { concurrency: 1 });
		// Item 6's account passes every check here, but Paycashless cannot resolve it (400).
		list[5] = { ...list[5], destinationAccountNumber: '0001234567' };
		const error = await stopped(run(list));
		expect(emulator.list('payouts').map((payout) => payout.reference)).toEqual(['refused-1', 'refused-2', 'refused-3', 'refused-4', 'refused-5']);
		expect(error.description).toMatch(/already completed 5 items .*Not done: item 6 failed or refused; items 7–12 not sent\./);
		list[5] = { ...list[5], destinationAccountNumber: '0123456789' };
		await run(list);
		expect(emulator.list('payouts')).toHaveLength(12);
	});
});
