/**
 * The period's reads within one run (nodes/Paycashless/money/periodList.ts): the first reads the whole
 * period; a later read asks only for what is new (newest first, up to the first page holding a
 * payout already read); every 5 s one goes back the whole lag window (10 s before the newest payout
 * read), where a payout of another process that the list showed late stands. A fake list (newest
 * first, 100 a page, `createdAt.gte`/`createdAt.lt` as Paycashless filters) and n8n's clock moved by
 * the test. In a real run: test/unit/node/ledger.test.cts ("a list that lags"), bench/PAYROLL.md.
 */
import type { IDataObject } from 'n8n-workflow';

import { payoutsInPeriod } from '../../../nodes/Paycashless/money/period';
import type { PaycashlessApi } from '../../../nodes/Paycashless/transport';

const SINCE = 1_780_000_000;

/** Paycashless's list of the account, as the test makes payouts show on it. */
class FakeList {
	readonly shown: IDataObject[] = [];
	readonly asked: Array<{ how: 'page' | 'paginate'; qs: IDataObject; cursor?: string }> = [];

	show(id: string, createdAt: number, naira: number): void {
		this.shown.push({ id, reference: `ref-${id}`, amount: naira * 100, currency: 'NGN', status: 'pending', destinationAccountNumber: '0123456789', destinationBankId: 'bank_1', createdAt });
	}

	private matching(qs: IDataObject): IDataObject[] {
		const gte = Number(qs['createdAt.gte'] ?? 0);
		const lt = qs['createdAt.lt'] === undefined ? Infinity : Number(qs['createdAt.lt']);
		// Newest first; the order they showed in breaks ties (the later shown first).
		return this.shown
			.map((record, order) => ({ record, order }))
			.filter(({ record }) => Number(record.createdAt) >= gte && Number(record.createdAt) < lt)
			.sort((a, b) => Number(b.record.createdAt) - Number(a.record.createdAt) || b.order - a.order)
			.map(({ record }) => record);
	}

	api(): PaycashlessApi {
		return {
			request: () => Promise.reject(new Error('no request expected')),
			paginate: async (list, options) => {
				// Up to a page (`until`): page by page, as the transport reads it.
				if (options.until) {
					const read: IDataObject[] = [];
					for (let cursor: string | undefined; ; ) {
						const page = await this.api().page(list, 100, cursor);
						read.push(...page.data);
						if (!page.hasMore || options.until(page.data)) return read;
						cursor = page.cursor;
					}
				}
				this.asked.push({ how: 'paginate', qs: list.qs ?? {} });
				return this.matching(list.qs ?? {});
			},
			page: async (list, pageSize, cursor) => {
				this.asked.push({ how: 'page', qs: list.qs ?? {}, cursor });
				const all = this.matching(list.qs ?? {});
				const start = cursor === undefined ? 0 : Number(cursor);
				const data = all.slice(start, start + pageSize);
				const more = start + pageSize < all.length;
				return { data, hasMore: more, cursor: more ? String(start + pageSize) : undefined };
			},
		};
	}
}

describe("the period's reads in one run", () => {
	let now = 0;
	beforeEach(() => {
		now = 1_780_000_100_000;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
	});
	afterEach(() => jest.restoreAllMocks());

	const window = { since: SINCE, label: 'today' };

	/**
	 * A check of the run `run` after `ms` more of n8n's clock (it starts a read when one is due), then
	 * what the next check at the same moment counts as paid, in naira, once that read came back.
	 */
	async function check(run: { id: string }, list: FakeList, ms: number): Promise<number> {
		now += ms;
		const account = `account-${run.id}`;
		// The money run's parts these reads use: its view of the period and its transport (no read-backs open).
		const moneyRun = Object.assign(run, { transport: { offerToReadBacks: () => undefined } }) as never;
		await payoutsInPeriod(moneyRun, window, list.api(), account);
		await new Promise((resolve) => setImmediate(resolve));
		return (await payoutsInPeriod(moneyRun, window, list.api(), account)).paid('NGN').total / 100;
	}

	it('reads the whole period first, then only what is new: 250 new payouts cost 3 pages, not the window again', async () => {
		const list = new FakeList();
		for (let k = 0; k < 150; k++) list.show(`old-${k}`, SINCE + 10 + k, 10);
		const run = { id: 'new-only' };
		expect(await check(run, list, 0)).toBe(1500);
		expect(list.asked).toEqual([{ how: 'paginate', qs: { 'createdAt.gte': SINCE } }]);
		list.asked.length = 0;
		// 250 payouts made in the next second, all shown at once.
		for (let k = 0; k < 250; k++) list.show(`new-${k}`, SINCE + 160 + Math.floor(k / 100), 1);
		expect(await check(run, list, 1100)).toBe(1750);
		// Pages of 100 from the newest, up to the page that holds old-149: 3 pages (the 250 new and 50 old).
		expect(list.asked.map((asked) => asked.how)).toEqual(['page', 'page', 'page']);
		expect(list.asked[0].qs).toEqual({ 'createdAt.gte': SINCE + 159 - 10 });
	});

	it('a payout of another process that the list shows late (behind a page of payouts read) is counted by the window read, within 5 s', async () => {
		const list = new FakeList();
		list.show('mine-0', SINCE + 100, 1);
		const run = { id: 'late' };
		expect(await check(run, list, 0)).toBe(1);
		// This run's next 120 payouts, read.
		for (let k = 1; k <= 120; k++) list.show(`mine-${k}`, SINCE + 102, 1);
		expect(await check(run, list, 1000)).toBe(121);
		// Created at +101 by another process, shown only now: behind the 120 already read.
		list.show('other-late', SINCE + 101, 1000);
		list.show('mine-121', SINCE + 103, 1);
		// A read of what is new stops at its first page (mine-121 and 99 read before): not counted yet.
		expect(await check(run, list, 1000)).toBe(122);
		expect(await check(run, list, 1000)).toBe(122);
		list.asked.length = 0;
		// 5 s after the first read, a read goes back the whole window (10 s before the newest) and counts it.
		expect(await check(run, list, 2000)).toBe(1122);
		expect(list.asked.map((asked) => asked.how)).toEqual(['paginate']);
		expect(list.asked[0].qs).toEqual({ 'createdAt.gte': SINCE + 103 - 10 });
	});

	it('a payout of another process that the list shows at once is counted by the next read', async () => {
		const list = new FakeList();
		list.show('mine-0', SINCE + 100, 100);
		const run = { id: 'at-once' };
		expect(await check(run, list, 0)).toBe(100);
		list.show('other-now', SINCE + 102, 5000);
		expect(await check(run, list, 1000)).toBe(5100);
	});

	it('a status read again in the window replaces what an earlier read showed (a payout that failed counts no more)', async () => {
		const list = new FakeList();
		for (let k = 0; k < 150; k++) list.show(`mine-${k}`, SINCE + 100 + Math.floor(k / 50), 1);
		const run = { id: 'failed' };
		expect(await check(run, list, 0)).toBe(150);
		// The oldest fails: it stands behind the first page of the list.
		list.shown[0].status = 'failed';
		// A read of what is new finds nothing new and changes nothing; the window read sees the failure.
		expect(await check(run, list, 1000)).toBe(150);
		expect(await check(run, list, 4000)).toBe(149);
	});
});
