/**
 * Many payouts of one run read back from the payout list, 100 a request (transport/readBacks.ts,
 * opened by actions/router.ts): the same output as one read per payout, in input order with
 * pairedItem; one list request per 100 payouts; what the list does not show, or every payout when
 * the list cannot be read, read back on its own; lost answers reconciled; nothing created twice.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { CONCURRENCY_PARAMETER } from '../../../nodes/Paycashless/actions/fields/concurrency';
import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { useEmulator } from '../../support/emulator.cjs';
import { createExecuteContext } from '../../../scripts/harness/executeContext.cjs';
import { credentialsOf, duplicatesAndLosses, FAST, payoutItem, run } from '../../support/reliability.cjs';

const emulator = useEmulator();
beforeEach(() => {
	emulator.reset({ payouts: 30 });
});

function batch(prefix: string, count: number, concurrency: number, options: INodeParameters = FAST): INodeParameters[] {
	return Array.from({ length: count }, (_, k) => ({ ...payoutItem(`${prefix}-${k}`, options, 1000 + k), [CONCURRENCY_PARAMETER]: concurrency }));
}

function requestsOf(kind: 'creates' | 'lists' | 'reads'): number {
	return emulator.requests.filter(({ method, path }) =>
		kind === 'creates' ? method === 'POST' && path === '/v1/payouts' : kind === 'lists' ? method === 'GET' && path === '/v1/payouts' : method === 'GET' && path.startsWith('/v1/payouts/'),
	).length;
}

/** What Payout → Verify returns for the reference now, as the node's output has it (no marker). */
async function verified(reference: string): Promise<IDataObject> {
	const { output } = await run(emulator, { resource: 'payout', operation: 'verify', reference });
	return output[0].json;
}

function withoutMarker(json: IDataObject): IDataObject {
	const { _paycashless: marker, ...rest } = json;
	void marker;
	return rest;
}

function expectInOrder(output: INodeExecutionData[], prefix: string, count: number): void {
	expect(output).toHaveLength(count);
	output.forEach((item, k) => {
		expect(item.json.reference).toBe(`${prefix}-${k}`);
		expect(item.pairedItem).toEqual({ item: k });
	});
}

describe('payouts of one run read back from the list', () => {
	it('250 payouts at 20 in flight: one list request per 100 payouts, no read per payout, the same output as Verify', async () => {
		emulator.setFaults({ latencyMs: 5 });
		const { output } = await run(emulator, batch('list', 250, 20));
		emulator.clearFaults();
		expectInOrder(output, 'list', 250);
		expect(requestsOf('creates')).toBe(250);
		// No read per payout (that would be 250). A create whose answer comes after the run's last
		// list read is read back on its own: alone none is, and this once failed at 0 in a full unit
		// run on a loaded machine; a handful is the bound.
		expect(requestsOf('reads')).toBeLessThanOrEqual(5);
		expect(requestsOf('lists')).toBeLessThanOrEqual(Math.ceil(250 / 100) + 3);
		for (const k of [0, 1, 99, 100, 249]) {
			expect(output[k].json._paycashless).toEqual({ reconciled: false, repeated: false });
			expect(withoutMarker(output[k].json)).toEqual(await verified(`list-${k}`));
		}
		expect(duplicatesAndLosses(emulator, output.map((item) => String(item.json.reference)))).toEqual({ duplicates: 0, losses: 0 });
	});

	it('under a period limit, read back from the period\'s own reads of the list: no list read of the read-back\'s own before the end', async () => {
		emulator.reset({ payouts: 0 });
		emulator.setFaults({ latencyMs: 20 });
		const limits = { moneyLimits: { maxAmount: 5000, periodTotal: 10_000_000 } };
		const startedAt = Math.floor(Date.now() / 1000);
		const { output } = await run(emulator, batch('fed', 1000, 20).map((item) => ({ ...item, ...limits })));
		emulator.clearFaults();
		expectInOrder(output, 'fed', 1000);
		expect(requestsOf('reads')).toBe(0);
		// The read-back's own list reads start a minute before the run (transport/readBacks.ts); the
		// period's, at the day's start (the first) or 10 s before the newest payout read. Alone, the
		// read-back lists about 20 pages for 1,000 payouts, during the run; fed, only what the period's
		// last read had not shown, at the end.
		const lists = emulator.requests.filter(({ method, path }) => method === 'GET' && path === '/v1/payouts');
		const own = lists.filter((request) => Number(request.query['createdAt.gte']) <= startedAt - 50 && Number(request.query['createdAt.gte']) >= startedAt - 70);
		expect(own.length).toBeLessThanOrEqual(6);
		// Each payout listed about once: the period reads once a second what is new (and the window every 5 s).
		expect(lists.length).toBeLessThan(1000 / 100 + own.length + 15);
		expect(duplicatesAndLosses(emulator, output.map((item) => String(item.json.reference)))).toEqual({ duplicates: 0, losses: 0 });
		for (const k of [0, 500, 999]) expect(withoutMarker(output[k].json)).toEqual(await verified(`fed-${k}`));
	});

	it('at Requests in Parallel 1 too: each payout sent after the one before answered, read back 100 at a time', async () => {
		const { output } = await run(emulator, batch('one', 120, 1));
		expectInOrder(output, 'one', 120);
		expect(requestsOf('reads')).toBe(0);
		expect(requestsOf('lists')).toBeLessThanOrEqual(4);
		// Sent in input order, one at a time.
		const sent = emulator.requests.filter((r) => r.method === 'POST').map((r) => (r.body as IDataObject).reference);
		expect(sent).toEqual(output.map((item) => item.json.reference));
		expect(output[119].json.fee).toEqual(expect.any(Number));
	});

	it('a payout the list does not show (yet) is read back on its own', async () => {
		// The list pages come back without miss-2, as a list that has not caught up would.
		const { context } = createExecuteContext({ parameters: batch('miss', 5, 5), credentials: credentialsOf(emulator) });
		const helpers = context.helpers as unknown as { httpRequestWithAuthentication: (...args: unknown[]) => Promise<unknown> };
		const send = helpers.httpRequestWithAuthentication;
		helpers.httpRequestWithAuthentication = async function (this: unknown, ...args: unknown[]) {
			const response = (await send.apply(this, args)) as { body: unknown };
			const options = args[1] as { method: string; url: string };
			if (options.method === 'GET' && options.url === '/v1/payouts') {
				const body = (typeof response.body === 'string' ? JSON.parse(response.body) : response.body) as { data: IDataObject[] };
				body.data = body.data.filter((record) => record.reference !== 'miss-2');
				response.body = body;
			}
			return response;
		};
		const [output] = await new Paycashless().execute.call(context as IExecuteFunctions);
		expectInOrder(output, 'miss', 5);
		const reads = emulator.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/payouts/'));
		expect(reads.map((r) => r.path)).toEqual(['/v1/payouts/verify/miss-2']);
		expect(withoutMarker(output[2].json)).toEqual(await verified('miss-2'));
		expect(withoutMarker(output[3].json)).toEqual(await verified('miss-3'));
	});

	it('every payout read back on its own when the list cannot be read, and the output is the same', async () => {
		emulator.setFaults({ error5xxRate: 1, match: '^GET /v1/payouts$' });
		const { output } = await run(emulator, batch('nolist', 12, 4, { ...FAST, maxAttempts: 2 }));
		emulator.clearFaults();
		expectInOrder(output, 'nolist', 12);
		expect(requestsOf('reads')).toBe(12);
		// One list read tried (and its retry), then none: the run does not keep asking.
		expect(requestsOf('lists')).toBeLessThanOrEqual(2);
		for (const item of output) {
			expect(item.json._paycashless).toEqual({ reconciled: false, repeated: false });
			expect(withoutMarker(item.json)).toEqual(await verified(String(item.json.reference)));
		}
	});

	it('under dropped answers, 5xx and 429 on the creates: one payout per reference, reconciled ones marked, all complete', async () => {
		emulator.setFaults({ dropAfterCommitRate: 0.1, error5xxRate: 0.05, rateLimitRate: 0.05, retryAfterSeconds: 0.01, seed: 11, match: '^POST /v1/payouts$' });
		const { output } = await run(emulator, batch('fault', 150, 25));
		emulator.clearFaults();
		expectInOrder(output, 'fault', 150);
		expect(duplicatesAndLosses(emulator, output.map((item) => String(item.json.reference)))).toEqual({ duplicates: 0, losses: 0 });
		expect(output.filter((item) => (item.json._paycashless as IDataObject).reconciled === true).length).toBeGreaterThan(0);
		for (const item of output) expect(item.json.fee).toEqual(expect.any(Number));
	});

	it('a run that stops still says what it paid, with the payouts read back', async () => {
		// The 4th payout's account does not resolve: Paycashless refuses it (400) and the node stops.
		const items = batch('stop', 6, 1);
		items[3] = { ...items[3], destinationAccountNumber: '0001234567' };
		const error = (await run(emulator, items).catch((caught: Error) => caught)) as Error & { context?: { paycashless?: { done?: IDataObject[] } } };
		expect(error).toBeInstanceOf(Error);
		expect(error.context?.paycashless?.done?.map((entry) => entry.reference)).toEqual(['stop-0', 'stop-1', 'stop-2']);
		expect(emulator.list('payouts').filter((p) => String(p.reference).startsWith('stop-'))).toHaveLength(3);
	});
});
