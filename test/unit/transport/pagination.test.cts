/**
 * Cursor pagination of every Get Many: page sizes asked for, number of pages, filters kept on
 * every page, `limit` honoured exactly; and the guard against a missing or repeated cursor.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { Collection } from '../../../emulator/index.cjs';
import { createExecuteContext, createLoadOptionsContext, runNode, type RunResult } from '../../../scripts/harness/executeContext.cjs';
import { type FakeServer, startFakeServer } from '../../support/executeFakeServer.cjs';
import { searchPayouts } from '../../../nodes/Paycashless/methods/listSearch';
import { paycashlessApi } from '../../../nodes/Paycashless/transport';
import { useEmulator } from '../../support/emulator.cjs';
import { PollHarness } from '../../../scripts/harness/pollContext.cjs';

const emulator = useEmulator();

async function list(resource: string, parameters: INodeParameters = {}): Promise<RunResult> {
	return await runNode({
		parameters: { resource, operation: 'getAll', ...parameters },
		credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl },
	});
}

const RESOURCES: Array<[string, Collection, string]> = [
	['payout', 'payouts', '/v1/payouts'],
	['payment', 'payments', '/v1/payments'],
	['invoice', 'invoices', '/v1/invoices'],
	['dedicatedAccount', 'dedicatedAccounts', '/v1/dedicated_accounts'],
];

describe('Return All', () => {
	it.each([
		[0, 1],
		[1, 1],
		[100, 1],
		[101, 2],
		[250, 3],
	])('%i payouts: pages of 100, %i request(s), every record once', async (records, pages) => {
		emulator.reset({ payouts: records });
		const { output } = await list('payout', { returnAll: true });
		expect(emulator.requests).toHaveLength(pages);
		emulator.requests.forEach((request, index) => {
			expect(request.path).toBe('/v1/payouts');
			expect(request.query.limit).toBe('100');
			expect(request.query.cursor === undefined).toBe(index === 0);
		});
		const ids = output.map((item) => item.json.id);
		expect(new Set(ids).size).toBe(records);
		expect([...ids].sort()).toEqual(emulator.list('payouts').map((p) => p.id).sort());
		for (const item of output) expect(item.pairedItem).toEqual({ item: 0 });
	});

	it.each(RESOURCES)('%s: 101 records in two pages from %s', async (resource, collection, path) => {
		emulator.reset({ [collection]: 101 });
		const { output } = await list(resource, { returnAll: true });
		expect(emulator.requests.map((r) => [r.path, r.query.limit, r.query.cursor !== undefined])).toEqual([
			[path, '100', false],
			[path, '100', true],
		]);
		expect(output).toHaveLength(101);
		expect(new Set(output.map((item) => item.json.id)).size).toBe(101);
	});
});

describe('Limit', () => {
	it.each([
		// records, limit, page sizes asked (the last page asks only for what is missing), items returned
		[250, 1, ['1'], 1],
		[250, 10, ['10'], 10],
		[250, 50, ['50'], 50],
		[250, 100, ['100'], 100],
		[250, 101, ['100', '1'], 101],
		[250, 150, ['100', '50'], 150],
		[250, 250, ['100', '100', '50'], 250],
		[250, 1000, ['100', '100', '100'], 250],
		[101, 100, ['100'], 100],
		[100, 100, ['100'], 100],
		[1, 50, ['50'], 1],
		[0, 50, ['50'], 0],
	])('%i records, limit %i: page sizes %j, %i items', async (records, limit, pageSizes, items) => {
		emulator.reset({ payouts: records });
		const { output } = await list('payout', { limit });
		expect(emulator.requests.map((request) => request.query.limit)).toEqual(pageSizes);
		// Never more records fetched than the limit.
		const fetched = emulator.requests.reduce((sum, request) => sum + Number(request.query.limit), 0);
		expect(fetched).toBeLessThanOrEqual(limit);
		expect(output).toHaveLength(items);
		expect(new Set(output.map((item) => item.json.id)).size).toBe(items);
	});

	it('the default limit is 50', async () => {
		emulator.reset({ payments: 120 });
		const { output } = await list('payment');
		expect(emulator.requests.map((r) => r.query.limit)).toEqual(['50']);
		expect(output).toHaveLength(50);
	});

	it('the newest records come first, in the API order', async () => {
		emulator.reset({ invoices: 30 });
		const all = (await list('invoice', { returnAll: true })).output.map((item) => item.json.id);
		emulator.clearLogs();
		const first = (await list('invoice', { limit: 7 })).output.map((item) => item.json.id);
		expect(first).toEqual(all.slice(0, 7));
	});
});

describe('filters', () => {
	it('are sent on every page, with the cursor and the page size', async () => {
		emulator.reset({ payouts: 600 });
		const since = '2000-01-01T00:00:00Z';
		const statuses = emulator.list('payouts').map((p) => p.status as string);
		const status = statuses.sort((a, b) => statuses.filter((s) => s === b).length - statuses.filter((s) => s === a).length)[0];
		const expected = emulator.list('payouts').filter((p) => p.status === status);
		expect(expected.length).toBeGreaterThan(100);

		const { output } = await list('payout', { returnAll: true, filters: { status, createdOnOrAfter: since } });
		expect(emulator.requests.length).toBe(Math.ceil(expected.length / 100));
		emulator.requests.forEach((request, index) => {
			expect(request.query).toEqual({
				limit: '100',
				status,
				'createdAt.gte': '946684800',
				...(index > 0 ? { cursor: expect.any(String) } : {}),
			});
		});
		expect(output).toHaveLength(expected.length);
		for (const item of output) expect(item.json.status).toBe(status);
	});
});

describe('a misbehaving list', () => {
	let server: FakeServer;
	let pages: Array<{ hasMore: boolean; cursor: string | null; data: unknown[] }>;

	beforeAll(async () => {
		server = await startFakeServer((_request, index) => ({ body: pages[Math.min(index, pages.length - 1)] }));
	});
	afterAll(async () => {
		await server.close();
	});
	beforeEach(() => {
		server.requests.length = 0;
	});

	const records = (from: number, count: number) =>
		Array.from({ length: count }, (_, k) => ({ id: `po_${String(from + k).padStart(4, '0')}` }));

	async function listFake(parameters: INodeParameters): Promise<RunResult> {
		return await runNode({
			parameters: { resource: 'payout', operation: 'getAll', ...parameters },
			credentials: { apiSecret: 'sk_fake', baseUrl: server.baseUrl },
		});
	}

	it('stops on a repeated cursor, keeps the records and warns', async () => {
		pages = [
			{ hasMore: true, cursor: 'c1', data: records(0, 100) },
			{ hasMore: true, cursor: 'c2', data: records(100, 100) },
			{ hasMore: true, cursor: 'c1', data: records(200, 100) },
		];
		const { output, logs } = await listFake({ returnAll: true, filters: { status: 'sent' } });
		expect(server.requests.map((r) => r.query)).toEqual([
			{ limit: '100', status: 'sent' },
			{ limit: '100', status: 'sent', cursor: 'c1' },
			{ limit: '100', status: 'sent', cursor: 'c2' },
		]);
		expect(output).toHaveLength(300);
		const warnings = logs.filter((line) => line.level === 'warn');
		expect(warnings).toHaveLength(1);
		expect(warnings[0].message).toContain('cursor "c1" it had sent before');
		expect(warnings[0].message).toContain('stopped after 300 records');
	});

	it('`until` stops after the first page it is true for (a read of what is new: up to a record read before)', async () => {
		pages = [
			{ hasMore: true, cursor: 'c1', data: records(0, 100) },
			{ hasMore: true, cursor: 'c2', data: records(100, 100) },
			{ hasMore: true, cursor: 'c3', data: records(200, 100) },
		];
		const { context } = createExecuteContext({ parameters: { resource: 'payout', operation: 'getAll' }, credentials: { apiSecret: 'sk_fake', baseUrl: server.baseUrl } });
		const read = await paycashlessApi(context).paginate({ path: '/v1/payouts', qs: {} }, { returnAll: true, limit: 0, until: (page) => page.some((record) => record.id === 'po_0150') });
		expect(server.requests.map((r) => r.query.cursor)).toEqual([undefined, 'c1']);
		expect(read).toHaveLength(200);
	});

	it('stops when hasMore is true but the cursor is missing, and warns', async () => {
		pages = [
			{ hasMore: true, cursor: 'c1', data: records(0, 100) },
			{ hasMore: true, cursor: null, data: records(100, 40) },
		];
		const { output, logs } = await listFake({ returnAll: true });
		expect(server.requests).toHaveLength(2);
		expect(output).toHaveLength(140);
		expect(logs.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
			'Paycashless said more records follow on /v1/payouts but answered without a cursor; stopped after 140 records',
		]);
	});

	it('a poll (a list that must be complete) fails instead: nothing emitted, nothing marked as seen', async () => {
		pages = [
			{ hasMore: true, cursor: 'c1', data: records(0, 100) },
			{ hasMore: true, cursor: null, data: records(100, 40) },
		];
		const trigger = new PollHarness({ parameters: { resource: 'payout', event: 'created' } as never, credentials: { apiSecret: 'sk_fake', baseUrl: server.baseUrl } });
		await expect(trigger.activate()).rejects.toThrow('Paycashless said more records follow on /v1/payouts but answered without a cursor');
		expect(server.requests).toHaveLength(2);
	});

	it('stops on an empty page that claims more', async () => {
		pages = [
			{ hasMore: true, cursor: 'c1', data: records(0, 3) },
			{ hasMore: true, cursor: 'c2', data: [] },
			{ hasMore: true, cursor: 'c3', data: records(3, 3) },
		];
		const { output, logs } = await listFake({ limit: 10 });
		expect(server.requests).toHaveLength(2);
		expect(output).toHaveLength(3);
		expect(logs.filter((line) => line.level === 'warn')[0].message).toContain('empty page');
	});

	it('does not warn when the limit is reached first', async () => {
		pages = [{ hasMore: true, cursor: null, data: records(0, 20) }];
		const { output, logs } = await listFake({ limit: 20 });
		expect(output).toHaveLength(20);
		expect(logs.filter((line) => line.level === 'warn')).toEqual([]);
	});

	it('a missing cursor with hasMore false is the normal end', async () => {
		pages = [{ hasMore: false, cursor: null, data: records(0, 5) }];
		const { output, logs } = await listFake({ returnAll: true });
		expect(output).toHaveLength(5);
		expect(logs).toEqual([]);
	});
});

describe('list search of the resource locators', () => {
	it('gives one page of 100 with the cursor as pagination token, and filters by text', async () => {
		emulator.reset({ payouts: 150 });
		const credentials = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl };
		const { context } = createLoadOptionsContext({ credentials });
		const first = await searchPayouts.call(context);
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toEqual(expect.any(String));
		const second = await searchPayouts.call(context, undefined, first.paginationToken);
		expect(second.results).toHaveLength(50);
		expect(second.paginationToken).toBeUndefined();
		expect(new Set([...first.results, ...second.results].map((r) => r.value)).size).toBe(150);
		expect(emulator.requests.map((r) => [r.query.limit, r.query.cursor])).toEqual([
			['100', undefined],
			['100', first.paginationToken],
		]);

		const target = emulator.list('payouts')[149];
		const found = await searchPayouts.call(context, String(target.reference));
		expect(found.results).toEqual([{ name: expect.stringContaining(String(target.reference)), value: target.id }]);
	});
});
