/** Cursor pagination, filters and the deterministic seed data. */
import { startEmulator, type EmulatorHandle } from '../../../emulator/index.cjs';
import { call, control, payoutBody } from '../../support/emulatorClient.cjs';
import { useEmulator } from '../../support/emulator.cjs';

const seconds = (iso: unknown) => Date.parse(String(iso)) / 1000;

/** Follows cursors to the end; returns every page. */
async function allPages(emulator: EmulatorHandle, path: string, query: Record<string, string | number> = {}) {
	const pages: Array<{ hasMore: boolean; cursor: string | null; data: any[] }> = [];
	let cursor: string | null = null;
	do {
		const answer: { status: number; body: any } = await call(emulator, 'GET', path, { query: cursor ? { ...query, cursor } : query });
		expect(answer.status).toBe(200);
		expect(Object.keys(answer.body).sort()).toEqual(['cursor', 'data', 'hasMore']);
		pages.push(answer.body);
		cursor = answer.body.cursor;
		expect(pages.length).toBeLessThan(50);
	} while (cursor);
	return pages;
}

describe('list pagination', () => {
	const emulator = useEmulator();

	it.each([
		[0, [0]],
		[1, [1]],
		[100, [100]],
		[101, [100, 1]],
		[250, [100, 100, 50]],
	])('%i payouts with limit 100 → pages of %j, cursor null on the last', async (count, sizes) => {
		emulator.reset({ payouts: count });
		const pages = await allPages(emulator, '/v1/payouts', { limit: 100 });
		expect(pages.map((p) => p.data.length)).toEqual(sizes);
		pages.forEach((page, index) => {
			const last = index === pages.length - 1;
			expect(page.hasMore).toBe(!last);
			expect(page.cursor === null).toBe(last);
		});
		const ids = pages.flatMap((p) => p.data.map((item) => item.id));
		expect(new Set(ids).size).toBe(count);
		// newest first, across page boundaries
		const stored = emulator.list('payouts').map((p) => p.id).reverse();
		expect(ids).toEqual(stored);
		const times = pages.flatMap((p) => p.data.map((item) => seconds(item.createdAt)));
		for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]);
	});

	it('limit defaults to 10; created objects join the list at the top', async () => {
		emulator.reset({ payouts: 30 });
		const first = await call(emulator, 'GET', '/v1/payouts');
		expect(first.body.data).toHaveLength(10);
		expect(first.body.hasMore).toBe(true);
		await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('new-on-top') });
		// A page fetched with the old cursor is not shifted by the new record.
		const second = await call(emulator, 'GET', '/v1/payouts', { query: { cursor: first.body.cursor } });
		const stored = emulator.list('payouts').map((p) => p.id);
		expect(second.body.data.map((p: any) => p.id)).toEqual(stored.slice(0, 30).reverse().slice(10, 20));
		const top = await call(emulator, 'GET', '/v1/payouts', { query: { limit: 1 } });
		expect(top.body.data[0].reference).toBe('new-on-top');
	});

	it('with a list lag, a new payout joins its lists that late, at its place; a read by reference sees it at once', async () => {
		emulator.reset({ payouts: 3 });
		emulator.setListLag(400);
		try {
			await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('lagging-1') });
			const since = { 'createdAt.gte': Math.floor(Date.now() / 1000) - 5, limit: 100 };
			expect((await call(emulator, 'GET', '/v1/payouts', { query: since })).body.data).toEqual([]);
			expect((await call(emulator, 'GET', '/v1/payouts', { query: { limit: 100 } })).body.data).toHaveLength(3);
			expect((await call(emulator, 'GET', '/v1/payouts/verify/lagging-1')).status).toBe(200);
			// The reference is taken at once: a second create under it is refused.
			expect((await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('lagging-1') })).status).toBe(409);
			await new Promise((resolve) => setTimeout(resolve, 450));
			const shown = await call(emulator, 'GET', '/v1/payouts', { query: since });
			expect(shown.body.data.map((payout: { reference: string }) => payout.reference)).toEqual(['lagging-1']);
			// Set from another process through the control API too.
			expect((await control(emulator, 'PUT', '/__emulator/list-lag', { ms: 0 })).body).toEqual({ ok: true, listLagMs: 0 });
			expect((await control(emulator, 'PUT', '/__emulator/list-lag', { ms: -1 })).status).toBe(400);
		} finally {
			emulator.setListLag(0);
		}
	});

	it('filters by status, destination account and time bounds, page by page', async () => {
		emulator.reset({ payouts: 400 });
		const stored = emulator.list('payouts');
		const failed = stored.filter((p) => p.status === 'failed');
		expect(failed.length).toBeGreaterThan(5);
		const failedPages = await allPages(emulator, '/v1/payouts', { status: 'failed', limit: 7 });
		expect(failedPages.flatMap((p) => p.data.map((i) => i.id))).toEqual(failed.map((p) => p.id).reverse());

		const account = String(stored[5].destinationAccountNumber);
		const forAccount = stored.filter((p) => p.destinationAccountNumber === account);
		expect(forAccount.length).toBeGreaterThan(1);
		const accountPage = await call(emulator, 'GET', '/v1/payouts', { query: { destinationAccountNumber: account, limit: 100 } });
		expect(accountPage.body.data.map((p: any) => p.id)).toEqual(forAccount.map((p) => p.id).reverse());

		const from = seconds(stored[100].createdAt);
		const to = seconds(stored[200].createdAt);
		const between = (await allPages(emulator, '/v1/payouts', { 'createdAt.gte': from, 'createdAt.lt': to, limit: 100 })).flatMap((p) => p.data);
		const expected = stored.filter((p) => seconds(p.createdAt) >= from && seconds(p.createdAt) < to);
		expect(between.map((p) => p.id)).toEqual(expected.map((p) => p.id).reverse());
		const gtLte = (await allPages(emulator, '/v1/payouts', { 'createdAt.gt': from, 'createdAt.lte': to, limit: 100 })).flatMap((p) => p.data);
		expect(gtLte.map((p) => p.id)).toEqual(stored.filter((p) => seconds(p.createdAt) > from && seconds(p.createdAt) <= to).map((p) => p.id).reverse());
	});

	it('filters invoices by currency and status, payments by status, dedicated accounts by status', async () => {
		emulator.reset({ invoices: 150, payments: 150, dedicatedAccounts: 150 });
		const usd = (await allPages(emulator, '/v1/invoices', { currency: 'USD', limit: 100 })).flatMap((p) => p.data);
		expect(usd.length).toBe(emulator.list('invoices').filter((i) => i.currency === 'USD').length);
		expect(usd.length).toBeGreaterThan(0);
		expect(usd.every((i) => i.currency === 'USD' && Array.isArray(i.taxRates))).toBe(true);
		const paidInvoices = (await allPages(emulator, '/v1/invoices', { status: 'paid', limit: 100 })).flatMap((p) => p.data);
		expect(paidInvoices.every((i) => i.status === 'paid' && i.amountPaid === i.amountDue)).toBe(true);
		const expired = (await allPages(emulator, '/v1/payments', { status: 'expired', limit: 100 })).flatMap((p) => p.data);
		expect(expired.map((p) => p.id)).toEqual(emulator.list('payments').filter((p) => p.status === 'expired').map((p) => p.id).reverse());
		const inactive = (await allPages(emulator, '/v1/dedicated_accounts', { status: 'inactive', limit: 100 })).flatMap((p) => p.data);
		expect(inactive.length).toBe(emulator.list('dedicatedAccounts').filter((a) => a.status === 'inactive').length);
		for (const path of ['/v1/invoices', '/v1/payments', '/v1/dedicated_accounts']) {
			const pages = await allPages(emulator, path, { limit: 100 });
			expect(pages.map((p) => p.data.length)).toEqual([100, 50]);
		}
	});

	it.each([
		['limit', '0'],
		['limit', '101'],
		['limit', 'ten'],
		['createdAt.gte', '0'],
		['createdAt.lte', '-5'],
		['createdAt.lt', '1.5'],
		['createdAt.gt', 'yesterday'],
	])('%s=%s → 400 naming the parameter', async (name, value) => {
		for (const path of ['/v1/payouts', '/v1/payments', '/v1/invoices', '/v1/dedicated_accounts']) {
			const answer = await call(emulator, 'GET', path, { query: { [name]: value } });
			expect(answer.status).toBe(400);
			expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', params: [name] });
			expect(answer.body.error.message).toContain(name);
		}
	});

	it('refuses a forged cursor, a cursor of another list and an unknown payment status', async () => {
		emulator.reset({ payouts: 20, payments: 20 });
		const payoutsPage = await call(emulator, 'GET', '/v1/payouts', { query: { limit: 5 } });
		const crossed = await call(emulator, 'GET', '/v1/payments', { query: { cursor: payoutsPage.body.cursor } });
		expect(crossed.status).toBe(400);
		expect(crossed.body.error.code).toBe('invalid_cursor');
		expect((await call(emulator, 'GET', '/v1/payouts', { query: { cursor: 'garbage' } })).status).toBe(400);
		const status = await call(emulator, 'GET', '/v1/payments', { query: { status: 'done' } });
		expect(status.status).toBe(400);
		expect(status.body.error.params).toEqual(['status']);
	});
});

describe('seed data', () => {
	it('is deterministic per seedValue and per collection', async () => {
		const a = await startEmulator({ seed: { payouts: 300, payments: 50 }, seedValue: 7 });
		const b = await startEmulator({ seed: { payouts: 300, payments: 50 }, seedValue: 7 });
		const c = await startEmulator({ seed: { payouts: 300, payments: 50 }, seedValue: 8 });
		const d = await startEmulator({ seed: { payments: 50 }, seedValue: 7 });
		try {
			expect(a.list('payouts')).toEqual(b.list('payouts'));
			expect(a.list('payments')).toEqual(b.list('payments'));
			expect(c.list('payouts').map((p) => p.id)).not.toEqual(a.list('payouts').map((p) => p.id));
			// Seeding payouts does not change the payments.
			expect(d.list('payments')).toEqual(a.list('payments'));
			const first = await call(a, 'GET', '/v1/payouts', { query: { limit: 50 } });
			const same = await call(b, 'GET', '/v1/payouts', { query: { limit: 50 } });
			expect(first.body).toEqual(same.body);
		} finally {
			await Promise.all([a, b, c, d].map((e) => e.close()));
		}
	});

	it('dates the same records over a chosen period (npm start: the 30 days up to its start)', async () => {
		const to = Math.floor(Date.now() / 1000);
		const from = to - 30 * 86_400;
		const moved = await startEmulator({ seed: { payments: 60 }, seedPeriod: { from, to } });
		const fixed = await startEmulator({ seed: { payments: 60 } });
		try {
			const times = moved.list('payments').map((p) => Date.parse(String(p.createdAt)) / 1000);
			expect(Math.min(...times)).toBeGreaterThanOrEqual(from);
			expect(Math.max(...times)).toBeLessThanOrEqual(to);
			// Some fall in the last two days, so "since yesterday" finds payments on a fresh start.
			expect(times.filter((t) => t >= to - 2 * 86_400).length).toBeGreaterThan(0);
			const strip = (p: Record<string, unknown>) => ({ id: p.id, reference: p.reference, expectedAmount: p.expectedAmount, status: p.status });
			expect(moved.list('payments').map(strip)).toEqual(fixed.list('payments').map(strip));
			await expect(startEmulator({ seed: { payments: 1 }, seedPeriod: { from: to, to: from } })).rejects.toThrow(/seed period/);
		} finally {
			await Promise.all([moved, fixed].map((e) => e.close()));
		}
	});

	it('has varied statuses, both currencies and spread timestamps', async () => {
		const emulator = await startEmulator({ seed: { payouts: 1000, payments: 1000, invoices: 1000, dedicatedAccounts: 200 } });
		try {
			for (const collection of ['payouts', 'payments', 'invoices'] as const) {
				const items = emulator.list(collection);
				expect(items).toHaveLength(1000);
				expect(new Set(items.map((i) => i.status)).size).toBeGreaterThanOrEqual(4);
				expect(new Set(items.map((i) => i.currency))).toEqual(new Set(['NGN', 'USD']));
			}
			const times = emulator.list('payouts').map((p) => seconds(p.createdAt));
			expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(300 * 86_400);
			expect(new Set(emulator.list('dedicatedAccounts').map((a) => a.status)).size).toBeGreaterThan(1);
			// Seeded account requests answer their status endpoint too.
			const account = emulator.list('dedicatedAccounts')[0];
			const status = await call(emulator, 'GET', `/v1/dedicated_accounts/requests/${account.accountRequestCode}/status`);
			expect(status.body.account.id).toBe(account.id);
		} finally {
			await emulator.close();
		}
	});

	// How fast seeding is belongs to bench/ (a timed assertion here failed on a loaded 2-core machine).
	it('generates 100,000 payouts and pages through them', async () => {
		const emulator = await startEmulator({ seed: { payouts: 100_000 } });
		try {
			expect((await control(emulator, 'GET', '/__emulator/health')).body.counts.payouts).toBe(100_000);
			const page = await call(emulator, 'GET', '/v1/payouts', { query: { limit: 100, status: 'pending' } });
			expect(page.body.data).toHaveLength(100);
			const deep = await call(emulator, 'GET', '/v1/payouts', { query: { limit: 100, cursor: page.body.cursor, status: 'pending' } });
			expect(deep.body.data).toHaveLength(100);
			expect(deep.body.data[0].id).not.toBe(page.body.data[0].id);
		} finally {
			await emulator.close();
		}
	});

	it('rejects seed sizes outside 0..100,000', async () => {
		await expect(startEmulator({ seed: { payouts: 100_001 } })).rejects.toThrow(/100000/);
		await expect(startEmulator({ seed: { payouts: -1 } })).rejects.toThrow(/payouts/);
	});
});
