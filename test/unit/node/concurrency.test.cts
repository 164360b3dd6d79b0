/**
 * "Requests in Parallel" (actions/fields/concurrency.ts, actions/router.ts) against the emulator:
 * how many requests are in flight (counted around the node's HTTP helper), output order and
 * pairedItem, failures, Continue On Fail, and creates under faults with several in flight.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { NodeHelpers } from 'n8n-workflow';

import { operationPairs, type OperationPair } from '../../../nodes/Paycashless/actions/registry';
import { batchKind } from '../../../nodes/Paycashless/actions/types';
import {
	CONCURRENCY_PARAMETER,
	DEFAULT_READ_CONCURRENCY,
	DEFAULT_WRITE_CONCURRENCY,
	MAX_CONCURRENCY,
} from '../../../nodes/Paycashless/actions/fields/concurrency';
import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { createExecuteContext } from '../../../scripts/harness/executeContext.cjs';
import { credentialsOf, FAST, payoutItem } from '../../support/reliability.cjs';
import { useEmulator } from '../../support/emulator.cjs';

const emulator = useEmulator();
beforeEach(() => {
	emulator.reset({ payouts: 40 });
	emulator.setFaults({ latencyMs: 15 });
});

interface Flight {
	/** Most requests in flight at one moment. */
	max: number;
	/** Requests in flight now. */
	now: number;
	started: number;
}

/** Runs the node over `parameters` (one set per item) and counts requests in flight. */
async function runCounting(
	parameters: INodeParameters[],
	continueOnFail = false,
): Promise<{ output?: INodeExecutionData[]; error?: Error & { context?: { itemIndex?: number } }; flight: Flight }> {
	const { context } = createExecuteContext({ parameters, credentials: credentialsOf(emulator), continueOnFail });
	const helpers = context.helpers as unknown as { httpRequestWithAuthentication: (...args: unknown[]) => Promise<unknown> };
	const send = helpers.httpRequestWithAuthentication;
	const flight: Flight = { max: 0, now: 0, started: 0 };
	helpers.httpRequestWithAuthentication = async function (this: unknown, ...args: unknown[]) {
		flight.started += 1;
		flight.now += 1;
		flight.max = Math.max(flight.max, flight.now);
		try {
			return await send.apply(this, args);
		} finally {
			flight.now -= 1;
		}
	};
	try {
		const [output] = await new Paycashless().execute.call(context as IExecuteFunctions);
		return { output, flight };
	} catch (error) {
		return { error: error as Error, flight };
	}
}

function references(): string[] {
	return emulator.list('payouts').map((payout) => String(payout.reference));
}

function verifyItems(refs: string[], extra: INodeParameters = {}): INodeParameters[] {
	return refs.map((reference) => ({ resource: 'payout', operation: 'verify', reference, ...extra }));
}

describe('the "Requests in Parallel" field', () => {
	const description = new Paycashless().description;
	const fields = description.properties.filter((p) => p.name === CONCURRENCY_PARAMETER);
	const names = (pairs: OperationPair[]) => pairs.map(({ resource, operation }) => `${resource}.${operation}`);
	// From the declarations: a batch check (Payout → Check Batch) reads, once for all items, so it has no field.
	const BATCH_CHECKS = names(operationPairs((declaration) => batchKind(declaration) !== undefined));
	const READS = names(operationPairs((declaration) => declaration.kind === 'read')).filter((name) => !BATCH_CHECKS.includes(name));
	const CREATES = names(operationPairs((declaration) => declaration.kind === 'create'));
	const OTHER_WRITES = names(operationPairs((declaration) => declaration.kind === 'write'));

	it('sorts the operations as their declarations say (a known one of each kind, none left out)', () => {
		expect(READS).toEqual(expect.arrayContaining(['payout.verify', 'payout.getAll', 'callback.verify', 'payment.waitForPayment']));
		expect(CREATES).toEqual(expect.arrayContaining(['payout.create', 'payout.createAndWait', 'invoice.create']));
		expect(OTHER_WRITES).toEqual(expect.arrayContaining(['taxRate.create', 'invoice.cancel', 'dedicatedAccount.create']));
		expect(BATCH_CHECKS).toEqual(['payout.checkBatch']);
		expect(READS.length + CREATES.length + OTHER_WRITES.length + BATCH_CHECKS.length).toBe(operationPairs().length);
	});

	it(`exists for every read with ${DEFAULT_READ_CONCURRENCY}, for every create found by reference with ${DEFAULT_WRITE_CONCURRENCY}, and nowhere else (as n8n shows it)`, () => {
		const shown = (name: string) => {
			const [resource, operation] = name.split('.');
			return fields.filter((f) => NodeHelpers.displayParameter({ resource, operation }, f, { typeVersion: 1 }, description)).map((f) => f.default);
		};
		expect(Object.fromEntries(READS.map((name) => [name, shown(name)]))).toEqual(Object.fromEntries(READS.map((name) => [name, [DEFAULT_READ_CONCURRENCY]])));
		expect(Object.fromEntries(CREATES.map((name) => [name, shown(name)]))).toEqual(Object.fromEntries(CREATES.map((name) => [name, [DEFAULT_WRITE_CONCURRENCY]])));
		const elsewhere = [...OTHER_WRITES, ...BATCH_CHECKS];
		expect(Object.fromEntries(elsewhere.map((name) => [name, shown(name)]))).toEqual(Object.fromEntries(elsewhere.map((name) => [name, []])));
		expect(fields).toHaveLength(2);
		expect(DEFAULT_READ_CONCURRENCY).toBeGreaterThan(1);
		expect(DEFAULT_WRITE_CONCURRENCY).toBeGreaterThan(1);
		for (const field of fields) expect(field.typeOptions).toEqual({ minValue: 1, maxValue: MAX_CONCURRENCY });
	});
});

describe('reads', () => {
	it(`keep ${DEFAULT_READ_CONCURRENCY} requests in flight by default, output in input order with pairedItem`, async () => {
		const refs = references().slice(0, 30).reverse();
		const { output, error, flight } = await runCounting(verifyItems(refs));
		expect(error).toBeUndefined();
		expect(flight.max).toBe(DEFAULT_READ_CONCURRENCY);
		expect(output!.map((item) => item.json.reference)).toEqual(refs);
		expect(output!.map((item) => item.pairedItem)).toEqual(refs.map((_, i) => ({ item: i })));
	});

	it.each([1, 4, 25])('keep exactly %i in flight when asked', async (concurrency) => {
		const refs = references().slice(0, 25);
		const { output, flight } = await runCounting(verifyItems(refs, { [CONCURRENCY_PARAMETER]: concurrency }));
		expect(flight.max).toBe(concurrency);
		expect(output!.map((item) => item.json.reference)).toEqual(refs);
	});

	it('Get Many for several items: each item its own complete list, in order', async () => {
		emulator.reset({ payouts: 250 });
		const statuses = ['succeeded', 'failed', 'pending', 'succeeded'];
		const { output, flight } = await runCounting(
			statuses.map((status) => ({ resource: 'payout', operation: 'getAll', returnAll: true, filters: { status } })),
		);
		expect(flight.max).toBeGreaterThan(1);
		const expected = statuses.map((status) => emulator.list('payouts').filter((p) => p.status === status).length);
		const counts = statuses.map((_, i) => output!.filter((item) => (item.pairedItem as { item: number }).item === i).length);
		expect(counts).toEqual(expected);
		const order = output!.map((item) => (item.pairedItem as { item: number }).item);
		expect(order).toEqual([...order].sort((a, b) => a - b));
		expect(output!.every((item, k) => item.json.status === statuses[order[k]])).toBe(true);
	});

	it('stop starting items after a failure, let those in flight finish, and report the first failed item', async () => {
		const refs = references().slice(0, 12);
		refs[3] = 'no-such-payout-3';
		refs[9] = 'no-such-payout-9';
		const { error, flight } = await runCounting(verifyItems(refs, { [CONCURRENCY_PARAMETER]: 4 }));
		expect(error).toBeDefined();
		expect(error!.context?.itemIndex).toBe(3);
		expect(flight.now).toBe(0);
		expect(flight.started).toBeLessThanOrEqual(3 + 4);
		expect(emulator.requests.some((r) => r.path.endsWith('no-such-payout-9'))).toBe(false);
	});

	it('with Continue On Fail: an error item in the failed item\'s place, all others answered', async () => {
		const refs = references().slice(0, 12);
		refs[3] = 'no-such-payout-3';
		refs[9] = 'no-such-payout-9';
		const { output } = await runCounting(verifyItems(refs, { [CONCURRENCY_PARAMETER]: 4 }), true);
		expect(output).toHaveLength(12);
		output!.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			if (i === 3 || i === 9) expect(item.json).toMatchObject({ message: expect.any(String), error: { httpCode: '404' } });
			else expect(item.json.reference).toBe(refs[i]);
		});
	});

	it.each([0, MAX_CONCURRENCY + 1, 2.5])('refuse Requests in Parallel = %p before any request', async (concurrency) => {
		emulator.clearLogs();
		const { error } = await runCounting(verifyItems(references().slice(0, 2), { [CONCURRENCY_PARAMETER]: concurrency }));
		expect(error?.message).toMatch(/Requests in Parallel/);
		expect(emulator.requests).toHaveLength(0);
	});
});

describe('writes', () => {
	it(`payout creates keep ${DEFAULT_WRITE_CONCURRENCY} in flight by default, output in input order`, async () => {
		const items = Array.from({ length: DEFAULT_WRITE_CONCURRENCY + 10 }, (_, i) => payoutItem(`conc-default-${i}`));
		const { output, flight } = await runCounting(items);
		expect(flight.max).toBe(DEFAULT_WRITE_CONCURRENCY);
		expect(output!.map((item) => item.json.reference)).toEqual(items.map((item) => item.reference));
	});

	it('tax rate creates always go one at a time, whatever the parameters say', async () => {
		const items = Array.from({ length: 5 }, (_, i) => ({
			resource: 'taxRate',
			operation: 'create',
			name: `VAT ${i}`,
			percentage: 7.5,
			taxType: 'vat',
			inclusive: false,
			[CONCURRENCY_PARAMETER]: 5,
		}));
		const { output, flight } = await runCounting(items);
		expect(flight.max).toBe(1);
		expect(output!.map((item) => item.json.name)).toEqual(items.map((item) => item.name));
	});

	it('a 429 holds every item of the run for the wait Paycashless asked for, not only the one that got it', async () => {
		emulator.reset({});
		// Seed 8 draws: the first payout create gets 429 (Retry-After 0.4 s) at once, the next three
		// are answered after 100 ms; every later request at once.
		emulator.setFaults({ rateLimitRate: 0.25, slowRate: 0.75, slowMs: 100, maxFaults: 4, retryAfterSeconds: 0.4, seed: 8, match: '^POST /v1/payouts$' });
		const items: INodeParameters[] = Array.from({ length: 12 }, (_, i) => ({ ...payoutItem(`conc-429-${i}`, FAST), [CONCURRENCY_PARAMETER]: 4 }));
		const { output, error } = await runCounting(items);
		expect(error).toBeUndefined();
		expect(output!.map((item) => item.json.reference)).toEqual(items.map((item) => item.reference));
		const limited = emulator.requests.find((r) => r.fault === 'rateLimit');
		expect(limited).toBeDefined();
		// Only the creates already under way when the 429 came (3 others, 4 in parallel) went through
		// before the 0.4 s were over; without the hold the other items would go on after 100 ms and
		// all 11 would be created well before.
		const t0 = limited!.receivedAt;
		const createdBeforeWaitEnded = emulator.requests.filter((r) => r.method === 'POST' && r.status === 202 && r.receivedAt - t0 < 400);
		expect(createdBeforeWaitEnded.length).toBeLessThanOrEqual(3);
		expect(emulator.list('payouts')).toHaveLength(12);
	});

	it('8 payout creates in flight under dropped connections, 5xx and 429: exactly one payout per reference, output in order', async () => {
		emulator.reset({});
		emulator.setFaults({ latencyMs: 10, dropAfterCommitRate: 0.2, error5xxRate: 0.1, rateLimitRate: 0.1, retryAfterSeconds: 0, seed: 7 });
		const items: INodeParameters[] = Array.from({ length: 60 }, (_, i) => ({ ...payoutItem(`conc-faults-${i}`, { ...FAST, maxAttempts: 10 }), [CONCURRENCY_PARAMETER]: 8 }));
		const { output, error, flight } = await runCounting(items);
		expect(error).toBeUndefined();
		expect(flight.max).toBeGreaterThan(1);
		expect(emulator.requests.filter((r) => r.fault === 'dropAfterCommit').length).toBeGreaterThan(0);
		expect(output!.map((item) => item.json.reference)).toEqual(items.map((item) => item.reference));
		expect(output!.map((item) => item.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
		const perReference = new Map<string, number>();
		for (const payout of emulator.list('payouts')) perReference.set(String(payout.reference), (perReference.get(String(payout.reference)) ?? 0) + 1);
		expect(perReference.size).toBe(60);
		expect([...perReference.values()].every((count) => count === 1)).toBe(true);
	});
});
