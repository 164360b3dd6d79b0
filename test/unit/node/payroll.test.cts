/**
 * Payroll, a batch of payouts as a whole, against the emulator (docs/payroll.md):
 * - Payout → Check Batch runs every check of Payout → Create on all items and sends no POST: one
 *   summary item paired with every input, the refused items with their codes, the period so far
 *   and what is left, the items counting against each other, the batch hash; the real ledger and
 *   the payouts in flight are left as they were;
 * - Payout → Create's All or Nothing sends none when any item would be refused, else pays the batch
 *   (reserved whole first: test/unit/node/reservedBatch.test.cts); Approved Batch Hash refuses a
 *   batch other than the one approved;
 * - a run says in n8n's execution hints how many payouts were new, found again and refused.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { accountName } from '../../../emulator/banks.cjs';
import { useEmulator } from '../../support/emulator.cjs';
import { runNode, type RunResult } from '../../../scripts/harness/executeContext.cjs';

const emulator = useEmulator();
beforeEach(() => emulator.reset({ payouts: 0 }));

const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';

interface Row {
	reference: string;
	amount: number;
	account: string;
	name: string;
}

/** `count` staff, each its own account and holder's name; amounts NGN 1,000 + 10 per row. */
function rows(count: number, prefix: string): Row[] {
	return Array.from({ length: count }, (_, k) => {
		const account = String(1_000_000_000 + k * 7919);
		return { reference: `${prefix}-${k + 1}`, amount: 1000 + 10 * k, account, name: accountName(account, ACCESS_BANK) };
	});
}

/** Three bad rows: a wrong name (item 3), an account that does not exist (item 6), an amount over Maximum Amount (item 9). */
function withBadRows(list: Row[]): Row[] {
	const bad = list.map((row) => ({ ...row }));
	bad[2].name = 'Somebody Else';
	bad[5].account = '0001234567';
	bad[8].amount = 500_000;
	return bad;
}

const LIMITS = { maxAmount: 100_000, periodTotal: 1_000_000 };

function items(list: Row[], operation: 'checkBatch' | 'create', limits: IDataObject = LIMITS, extra: INodeParameters = {}): INodeParameters[] {
	return list.map((row) => ({
		resource: 'payout',
		operation,
		reference: row.reference,
		amount: row.amount,
		currency: 'NGN',
		destinationAccountNumber: row.account,
		bankId: ACCESS_BANK,
		moneyLimits: { ...limits, expectedAccountName: row.name, beneficiaryBankCode: '044' } as INodeParameters,
		...extra,
	}));
}

async function run(parameters: INodeParameters[], options: { continueOnFail?: boolean; nodeContext?: IDataObject } = {}): Promise<RunResult> {
	return await runNode({ parameters, credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl }, ...options });
}

const posts = () => emulator.requests.filter((request) => request.method !== 'GET');
const paidReferences = () => posts().map((request) => (request.body as IDataObject).reference);

describe('Payout → Check Batch', () => {
	it('checks every item, sends no POST, names the 3 bad rows, and gives one summary paired with every input', async () => {
		const list = withBadRows(rows(12, 'chk'));
		const { output, hints } = await run(items(list, 'checkBatch'));
		expect(posts()).toHaveLength(0);
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual(list.map((_, item) => ({ item })));
		const summary = output[0].json;
		expect(summary.fits).toBe(false);
		expect((summary.refused as IDataObject[]).map(({ item, reference, code }) => ({ item, reference, code }))).toEqual([
			{ item: 3, reference: 'chk-3', code: 'NAME_MISMATCH' },
			{ item: 6, reference: 'chk-6', code: 'LOOKUP_FAILED' },
			{ item: 9, reference: 'chk-9', code: 'MAX_AMOUNT' },
		]);
		const good = list.filter((_, k) => ![2, 5, 8].includes(k));
		const kobo = good.reduce((sum, row) => sum + row.amount * 100, 0);
		expect(summary).toMatchObject({ count: 9, total: kobo, currency: 'NGN', inMainUnits: { currency: 'NGN', total: kobo / 100 }, alreadyPaidCount: 0 });
		expect((summary.payable as IDataObject[]).map((payout) => payout.reference)).toEqual(good.map((row) => row.reference));
		expect(summary.period).toMatchObject({ paidSoFar: 0, limit: 100_000_000, left: 100_000_000, leftAfter: 100_000_000 - kobo });
		expect(String((summary.period as IDataObject).label)).toMatch(/^today/);
		expect(summary.batchHash).toMatch(/^[0-9a-f]{64}$/);
		expect(summary.text).toMatch(/9 payouts to pay, NGN [\d,]+\.\d\d in all; 3 refused; 0 already paid/);
		// The person sees whom Paycashless names for the wrong-name row.
		expect((summary.refused as IDataObject[])[0].description).toContain(`Paycashless names the holder "${accountName(list[2].account, ACCESS_BANK)}"`);
		expect(hints).toEqual([]);
	});

	it('items count against each other (execution count, period total) as a real run would, and the real ledger and payouts in flight stay as they were', async () => {
		const list = rows(5, 'cnt');
		const nodeContext: IDataObject = {};
		const counted = await run(items(list, 'checkBatch', { maxAmount: 100_000, maxCount: 3 }), { nodeContext });
		expect((counted.output[0].json.refused as IDataObject[]).map((refusal) => [refusal.item, refusal.code])).toEqual([
			[4, 'MAX_COUNT_EXECUTION'],
			[5, 'MAX_COUNT_EXECUTION'],
		]);
		expect(nodeContext).toEqual({});
		// The period total fits items 1 and 2 only (NGN 1,000 + 1,010 of 2,500).
		const period = await run(items(list, 'checkBatch', { maxAmount: 100_000, periodTotal: 2500 }));
		expect((period.output[0].json.refused as IDataObject[]).map((refusal) => refusal.code)).toEqual(['MAX_TOTAL_PERIOD', 'MAX_TOTAL_PERIOD', 'MAX_TOTAL_PERIOD']);
		// Nothing of the check was entered in flight: the same period total still pays items 1 and 2 for real.
		await run(items(list.slice(0, 2), 'create', { maxAmount: 100_000, periodTotal: 2500 }));
		expect(emulator.list('payouts')).toHaveLength(2);
	});

	it('a payout made before is reported as already paid (not to pay), also without a period limit', async () => {
		const list = rows(3, 'again');
		await run(items(list.slice(0, 1), 'create', { maxAmount: 100_000 }));
		const { output } = await run(items(list, 'checkBatch', { maxAmount: 100_000 }));
		expect(output[0].json).toMatchObject({ fits: true, count: 2, alreadyPaidCount: 1 });
		expect((output[0].json.alreadyPaid as IDataObject[])[0]).toMatchObject({ item: 1, reference: 'again-1', status: expect.any(String) });
	});
});

describe('Payout → Create, All or Nothing', () => {
	const ALL_OR_NOTHING = { batchOptions: { allOrNothing: true } };

	it('a batch with 3 bad rows pays none; each item says why (Continue On Fail), a stopping run names the 3', async () => {
		const list = withBadRows(rows(12, 'aon'));
		const stopped = await run(items(list, 'create', LIMITS, ALL_OR_NOTHING)).then(
			() => undefined,
			(error: Error & { description?: string }) => error,
		);
		expect(stopped?.message).toBe('Refused: 3 of 12 payouts would be refused, so All or Nothing sent none');
		expect(stopped?.description).toMatch(/item 3 \(aon-3\): NAME_MISMATCH.*item 6 \(aon-6\): LOOKUP_FAILED.*item 9 \(aon-9\): MAX_AMOUNT/);
		expect(posts()).toHaveLength(0);

		const { output, hints } = await run(items(list, 'create', LIMITS, ALL_OR_NOTHING), { continueOnFail: true });
		expect(posts()).toHaveLength(0);
		expect(output.map((item) => (item.json.error as IDataObject).code)).toEqual(list.map((_, k) => ({ 2: 'NAME_MISMATCH', 5: 'LOOKUP_FAILED', 8: 'MAX_AMOUNT' })[k] ?? 'BATCH_REFUSED'));
		expect(output[0].json.message).toBe('Not paid: item 3 of this batch was refused, and All or Nothing sends none');
		expect(hints).toEqual([{ message: '0 payouts new, 0 found again (made before: not made twice), 12 refused or failed', type: 'warning', location: 'outputPane' }]);
	});

	it('the good rows pay (at Requests in Parallel), each once, output in input order; a re-run pays none and says so', async () => {
		const list = rows(9, 'order');
		const first = await run(items(list, 'create', LIMITS, { ...ALL_OR_NOTHING, concurrency: 50 }));
		expect([...paidReferences()].sort()).toEqual(list.map((row) => row.reference).sort());
		expect(first.output.map((item) => item.json.reference)).toEqual(list.map((row) => row.reference));
		expect(first.hints[0].message).toBe('9 payouts new, 0 found again (made before: not made twice), 0 refused or failed');
		const again = await run(items(list, 'create', LIMITS, ALL_OR_NOTHING));
		expect(emulator.list('payouts')).toHaveLength(9);
		expect(again.output.every((item) => (item.json._paycashless as IDataObject).repeated === true)).toBe(true);
		expect(again.hints[0].message).toBe('0 payouts new, 9 found again (made before: not made twice), 0 refused or failed');
	});

	it('pays none when the batch would pass the period total', async () => {
		const list = rows(9, 'period');
		const total = list.reduce((sum, row) => sum + row.amount, 0);
		const error = await run(items(list, 'create', { maxAmount: 100_000, periodTotal: total - 1 }, ALL_OR_NOTHING)).then(
			() => undefined,
			(thrown: Error & { description?: string }) => thrown,
		);
		expect(error?.message).toBe('Refused: 1 of 9 payouts would be refused, so All or Nothing sent none');
		expect(error?.description).toMatch(/item 9 \(period-9\): MAX_TOTAL_PERIOD/);
		expect(posts()).toHaveLength(0);
	});

	it('All or Nothing stored as an expression refuses the run', async () => {
		const list = rows(2, 'expr');
		const error = await run(items(list, 'create', LIMITS, { batchOptions: { allOrNothing: '={{ true }}' } })).then(
			() => undefined,
			(thrown: Error) => thrown,
		);
		expect(error?.message).toBe('Refused: Batch Options → All or Nothing is not typed in (on or off)');
		expect(posts()).toHaveLength(0);
	});
});

describe('Payout → Create, Approved Batch Hash', () => {
	it('pays the batch that was checked; a batch that differs in one amount is refused whole', async () => {
		const list = rows(4, 'hash');
		const { batchHash } = (await run(items(list, 'checkBatch'))).output[0].json;
		const changed = list.map((row, k) => (k === 2 ? { ...row, amount: row.amount + 1 } : row));
		const error = await run(items(changed, 'create', LIMITS, { batchOptions: { approvedBatchHash: batchHash as string } })).then(
			() => undefined,
			(thrown: Error) => thrown,
		);
		expect(error?.message).toBe('Refused: these 4 payouts are not the batch that was approved');
		expect(posts()).toHaveLength(0);
		// In another order it is the same batch.
		await run(items([...list].reverse(), 'create', LIMITS, { batchOptions: { approvedBatchHash: batchHash as string, allOrNothing: true } }));
		expect([...paidReferences()].sort()).toEqual(list.map((row) => row.reference).sort());
	});
});
