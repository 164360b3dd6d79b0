/**
 * Payroll, a batch of payouts as a whole, against the emulator (docs/payroll.md):
 * - Payout → Check Batch runs every check of Payout → Create on all items and sends no POST: one
 *   summary item paired with every input, the refused rows with their codes (rows counted from 1),
 *   a row whose account lookup failed before it refused with its reference, the period so far and
 *   what is left (one currency's count with its total), the items counting against each other,
 *   what was paid before (with its date) apart from what failed before (not paid), the rows to look
 *   at first from the account's payout history, the approver's page, the batch hash;
 * - Payout → Create's All or Nothing sends none when any row would be refused and says so, naming
 *   every refused row, else pays the batch (reserved whole first: reservedBatch.test.cts); Pay
 *   Again If Failed pays a failed row again once, under `-repay-1`;
 * - a run says in n8n's execution hints how many payouts were new, found again and refused.
 * Approvals and the metadata of each payout: payrollApproval.test.cts.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { accountName } from '../../../emulator/banks.cjs';
import { useEmulator } from '../../support/emulator.cjs';
import { ACCESS_BANK, payoutItems, type PayrollRow } from '../../support/payrollRows.cjs';
import { runNode, type ContextOptions, type RunResult } from '../../../scripts/harness/executeContext.cjs';

// A new emulator (a new account) for every test: the payouts one test makes count in the process's
// payouts in flight, and no test's exact totals may include another's.
const emulator = useEmulator({ seed: { payouts: 0 } }, { each: true });


type Row = PayrollRow;

/** `count` staff, each its own account and holder's name; amounts NGN 1,000 + 10 per row. */
function rows(count: number, prefix: string): Row[] {
	return Array.from({ length: count }, (_, k) => {
		const account = String(1_000_000_000 + k * 7919);
		return { reference: `${prefix}-${k + 1}`, amount: 1000 + 10 * k, account, name: accountName(account, ACCESS_BANK), key: `S${k + 1}` };
	});
}

/** Three bad rows: a wrong name (row 3), an account that does not exist (row 6), an amount over Maximum Amount (row 9). */
function withBadRows(list: Row[]): Row[] {
	const bad = list.map((row) => ({ ...row }));
	bad[2].name = 'Somebody Else';
	bad[5].account = '0001234567';
	bad[8].amount = 500_000;
	return bad;
}

const LIMITS = { maxAmount: 100_000, periodTotal: 1_000_000 };
const ALL_OR_NOTHING = { batchOptions: { allOrNothing: true } };

const items = (list: Row[], operation: 'checkBatch' | 'create', limits: IDataObject = LIMITS, extra: INodeParameters = {}) => payoutItems(list, operation, limits, extra);

async function run(parameters: INodeParameters[], options: Partial<ContextOptions> = {}): Promise<RunResult> {
	return await runNode({ parameters, credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl }, ...options });
}

const failure = async (promise: Promise<unknown>) =>
	await promise.then(
		() => undefined,
		(thrown: Error & { description?: string; context?: IDataObject }) => thrown,
	);

const posts = () => emulator.requests.filter((request) => request.method !== 'GET');
const gets = (path: string) => emulator.requests.filter((request) => request.method === 'GET' && request.path.startsWith(path));
const paidReferences = () => posts().map((request) => (request.body as IDataObject).reference);

describe('Payout → Check Batch', () => {
	it('checks every row, sends no POST, names the 3 bad rows, and gives one summary paired with every input', async () => {
		const list = withBadRows(rows(12, 'chk'));
		const { output, hints } = await run(items(list, 'checkBatch'));
		expect(posts()).toHaveLength(0);
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual(list.map((_, item) => ({ item })));
		const summary = output[0].json;
		expect(summary.fits).toBe(false);
		expect((summary.refused as IDataObject[]).map(({ row, reference, code }) => ({ row, reference, code }))).toEqual([
			{ row: 3, reference: 'chk-3', code: 'NAME_MISMATCH' },
			{ row: 6, reference: 'chk-6', code: 'LOOKUP_FAILED' },
			{ row: 9, reference: 'chk-9', code: 'MAX_AMOUNT' },
		]);
		const good = list.filter((_, k) => ![2, 5, 8].includes(k));
		const kobo = good.reduce((sum, row) => sum + row.amount * 100, 0);
		expect(summary).toMatchObject({ count: 9, total: kobo, currency: 'NGN', inMainUnits: { currency: 'NGN', total: kobo / 100 }, alreadyPaidCount: 0, notPaidCount: 0 });
		const payable = summary.payable as IDataObject[];
		expect(payable.map((payout) => payout.reference)).toEqual(good.map((row) => row.reference));
		// The holder's name as Paycashless returns it, the bank's name, the row as a person counts it, the amount in naira.
		expect(payable[0]).toMatchObject({ row: 1, holder: accountName(list[0].account, ACCESS_BANK), bankName: expect.stringMatching(/Access/), inMainUnits: { amount: 1000 } });
		expect(summary.period).toMatchObject({ paidSoFar: 0, limit: 100_000_000, left: 100_000_000, leftAfter: 100_000_000 - kobo });
		expect(String((summary.period as IDataObject).label)).toMatch(/^today/);
		expect(summary.batchHash).toMatch(/^[0-9a-f]{64}$/);
		expect(summary.batchId).toBe(String(summary.batchHash).slice(0, 16));
		expect(summary.text).toMatch(/^9 payouts to make, NGN [\d,]+\.\d\d in all \(batch [0-9a-f]{16}\)\./);
		expect(summary.text).toContain('Row 6 (chk-6): LOOKUP_FAILED');
		expect(summary.text).toContain('The batch does not fit: 3 rows refused.');
		// The period advice names the whole account's day.
		expect(summary.text).toContain("it counts the whole account's payouts, not this batch's alone");
		// The person sees whom Paycashless names for the wrong-name row.
		expect((summary.refused as IDataObject[])[0].description).toContain(`Paycashless names the holder "${accountName(list[2].account, ACCESS_BANK)}"`);
		// The page: the refused rows, then every payout, no 64-character hash.
		const html = String(summary.approvalHtml);
		expect(html).toContain('Refused: 3 rows');
		expect(html).toContain(`<td>${accountName(list[0].account, ACCESS_BANK)}</td>`);
		expect(html).not.toContain(String(summary.batchHash));
		expect(hints).toEqual([]);
	});

	it('a row whose account lookup failed before it (Continue On Fail) is a refused row with its reference; the others are checked', async () => {
		const list = rows(3, 'lk');
		const inputs: INodeExecutionData[] = [
			{ json: { accountNumber: list[0].account, accountName: list[0].name, bank: { id: ACCESS_BANK, name: 'Access Bank' } } },
			{ json: { message: 'Not found: account 0001234567', error: { message: 'Not found: account 0001234567', code: 'resource_missing', httpCode: '404' } } },
			{ json: { accountNumber: list[2].account, accountName: list[2].name, bank: { id: ACCESS_BANK, name: 'Access Bank' } } },
		];
		const { output } = await run(items(list, 'checkBatch'), { items: inputs, previousNode: 'Look Up Account' });
		const summary = output[0].json;
		expect(summary).toMatchObject({ fits: false, count: 2, refusedCount: 1 });
		expect(summary.refused).toEqual([
			expect.objectContaining({ row: 2, reference: 'lk-2', code: 'LOOKUP_FAILED', message: 'Refused: the row\'s account lookup ("Look Up Account") failed: Not found: account 0001234567' }),
		]);
		expect(posts()).toHaveLength(0);
	});

	it('rows count against each other (execution count, period total) as a real run would, and the real ledger and payouts in flight stay as they were', async () => {
		const list = rows(5, 'cnt');
		const nodeContext: IDataObject = {};
		const counted = await run(items(list, 'checkBatch', { maxAmount: 100_000, maxCount: 3 }), { nodeContext });
		expect((counted.output[0].json.refused as IDataObject[]).map((refusal) => [refusal.row, refusal.code])).toEqual([
			[4, 'MAX_COUNT_EXECUTION'],
			[5, 'MAX_COUNT_EXECUTION'],
		]);
		expect(nodeContext).toEqual({});
		// The period total fits rows 1 and 2 only (NGN 1,000 + 1,010 of 2,500).
		const period = await run(items(list, 'checkBatch', { maxAmount: 100_000, periodTotal: 2500 }));
		expect((period.output[0].json.refused as IDataObject[]).map((refusal) => refusal.code)).toEqual(['MAX_TOTAL_PERIOD', 'MAX_TOTAL_PERIOD', 'MAX_TOTAL_PERIOD']);
		// Nothing of the check was entered in flight: the same period total still pays rows 1 and 2 for real.
		await run(items(list.slice(0, 2), 'create', { maxAmount: 100_000, periodTotal: 2500 }));
		expect(emulator.list('payouts')).toHaveLength(2);
	});

	it('"already paid" is split: paid (with its date) and failed (NOT paid, with how to pay it again); one currency\'s count with its total', async () => {
		const list = rows(4, 'split');
		await run(items(list.slice(0, 3), 'create', { maxAmount: 100_000 }));
		await emulator.completePayout('split-1', 'succeeded');
		await emulator.completePayout('split-2', 'failed', { failureCode: 'insufficient_funds', failureMessage: 'Insufficient balance' });
		// A USD payout today: the NGN total stays NGN, its count apart.
		await run([{ resource: 'payout', operation: 'create', reference: 'split-usd', amount: 50, currency: 'USD', destinationAccountNumber: '2000000001', bankId: ACCESS_BANK }]);
		const { output } = await run(items(list, 'checkBatch'));
		const summary = output[0].json;
		expect(summary).toMatchObject({ fits: true, count: 1, alreadyPaidCount: 2, notPaidCount: 1 });
		expect(summary.alreadyPaid).toEqual([
			expect.objectContaining({ row: 1, reference: 'split-1', status: 'succeeded', paidAt: expect.any(String) }),
			expect.objectContaining({ row: 3, reference: 'split-3', status: 'pending', paidAt: expect.any(String) }),
		]);
		expect(summary.notPaid).toEqual([
			expect.objectContaining({ row: 2, reference: 'split-2', status: 'failed', failure: 'Insufficient balance', payAgain: expect.stringContaining('split-2-repay-1') }),
		]);
		expect(summary.text).toContain('1 row failed before and is NOT paid:');
		expect(summary.text).toContain('- Row 2 (split-2): failed: Insufficient balance.');
		expect(summary.text).toMatch(/2 rows paid before, not paid again \(the last made on \d{4}-\d\d-\d\d\); 1 of them not settled yet\./);
		// 51.6: the NGN total with the NGN count; the USD payout apart, with its own total.
		expect(summary.text).toMatch(/Payouts today \(since 00:00 UTC\) as the limits count them: NGN 2,020\.00 \(2 NGN payouts\); also 1 payout in USD, USD 50\.00 \(the count limit counts every currency: 3 in all\)\./);
		expect(String(summary.approvalHtml)).toContain('Failed before, NOT paid: 1 row');
	});

	it('flags the rows to look at first from the account\'s payout history (read in pages, not per row): a new account, a person\'s account changed, an amount changed, one account on two rows', async () => {
		const list = rows(6, 'hist-1');
		await run(items(list, 'create'));
		const next = rows(6, 'hist-2');
		// Row 2 (S2) is paid into a new account; row 4's amount doubles; row 6 pays into row 5's account.
		next[1] = { ...next[1], account: '2222222222', name: accountName('2222222222', ACCESS_BANK) };
		next[3] = { ...next[3], amount: next[3].amount * 2 };
		next[5] = { ...next[5], account: next[4].account, name: next[4].name };
		emulator.clearLogs();
		const { output } = await run(items(next, 'checkBatch'));
		const summary = output[0].json;
		const flags = Object.fromEntries((summary.flagged as IDataObject[]).map((row) => [row.row, (row.flags as IDataObject[]).map((flag) => flag.code)]));
		expect(flags).toEqual({ 2: ['NEW_PAYEE', 'ACCOUNT_CHANGED'], 4: ['AMOUNT_CHANGED'], 5: ['SHARED_ACCOUNT'], 6: ['ACCOUNT_CHANGED', 'SHARED_ACCOUNT'] });
		const why = (summary.flagged as IDataObject[]).find((row) => row.row === 2)!.flags as IDataObject[];
		expect(why[1].message).toMatch(/^Account changed: S2 was last paid into 1000007919 \(hist-1-2, \d{4}-\d\d-\d\d\)$/);
		// One list read for the history, whatever the number of rows.
		expect(gets('/v1/payouts').filter((request) => request.query['createdAt.gte'] !== undefined && Number(request.query.limit) === 100).length).toBeLessThanOrEqual(3);
		// The page lists the flagged rows first, with why.
		const html = String(summary.approvalHtml);
		expect(html.indexOf('Look at these first: 4 rows')).toBeLessThan(html.indexOf('The other payouts: 2 rows'));
		expect(html).toMatch(/<td>2222222222<\/td>.*?New payee: this account at this bank was never paid \(since \d{4}-\d\d-\d\d\)/);
		expect(summary.text).toContain('4 rows to look at first:');
	});

	it('a row without Expected Account Name is flagged: nobody compared its holder', async () => {
		const list = rows(1, 'noname');
		const parameters = items(list, 'checkBatch').map((p) => ({ ...p, moneyLimits: { maxAmount: 100_000 } }));
		const { output } = await run(parameters);
		expect((output[0].json.flagged as IDataObject[])[0].flags).toEqual([
			expect.objectContaining({ code: 'NEW_PAYEE' }),
			expect.objectContaining({ code: 'NAME_NOT_CHECKED' }),
		]);
	});
});

describe('Payout → Create, All or Nothing', () => {
	it('a batch with 3 bad rows pays none; the stop lists every refused row and says nothing was sent; each row says why (Continue On Fail)', async () => {
		const list = withBadRows(rows(12, 'aon'));
		const stopped = await failure(run(items(list, 'create', LIMITS, ALL_OR_NOTHING)));
		expect(stopped?.message).toMatch(/^Nothing was sent: 3 of 12 rows would be refused, and All or Nothing pays all or none\. row 3 \(aon-3\): NAME_MISMATCH: .*; row 6 \(aon-6\): LOOKUP_FAILED: .*; row 9 \(aon-9\): MAX_AMOUNT: /);
		expect(stopped?.description).toMatch(/^Nothing was sent, not even the 9 rows that passed\./);
		// No item of its own: n8n adds no "[item 0]" to it.
		expect((stopped?.context as IDataObject).itemIndex).toBeUndefined();
		expect(posts()).toHaveLength(0);

		const { output, hints } = await run(items(list, 'create', LIMITS, ALL_OR_NOTHING), { continueOnFail: true });
		expect(posts()).toHaveLength(0);
		expect(output.map((item) => (item.json.error as IDataObject).code)).toEqual(list.map((_, k) => ({ 2: 'NAME_MISMATCH', 5: 'LOOKUP_FAILED', 8: 'MAX_AMOUNT' })[k] ?? 'BATCH_REFUSED'));
		expect(output[0].json.message).toBe('Not paid: rows 3, 6 and 9 of this batch were refused, and All or Nothing sent nothing');
		expect(String((output[2].json.error as IDataObject).description)).toContain('Nothing of this batch was sent: All or Nothing pays all or none (refused: rows 3, 6 and 9).');
		expect(hints).toEqual([{ message: '0 payouts new, 0 found again (made before: not made twice), 12 refused or failed', type: 'warning', location: 'outputPane' }]);
	});

	it('the good rows pay (at Requests in Parallel), each once, output in input order; a re-run pays none and says so', async () => {
		const list = rows(9, 'order');
		const first = await run(items(list, 'create', LIMITS, { ...ALL_OR_NOTHING, concurrency: 50 }));
		expect([...paidReferences()].sort()).toEqual(list.map((row) => row.reference).sort());
		expect(first.output.map((item) => item.json.reference)).toEqual(list.map((row) => row.reference));
		expect(first.hints[0].message).toBe('9 payouts new, 0 found again (made before: not made twice), 0 refused or failed');
		emulator.clearLogs();
		const again = await run(items(list, 'create', LIMITS, ALL_OR_NOTHING));
		expect(emulator.list('payouts')).toHaveLength(9);
		// Found by the check before the first payout: no create is sent for them.
		expect(posts()).toHaveLength(0);
		expect(again.output.every((item) => (item.json._paycashless as IDataObject).repeated === true)).toBe(true);
		expect(again.hints[0].message).toBe('0 payouts new, 9 found again (made before: not made twice), 0 refused or failed');
	});

	it('pays none when the batch would pass the period total', async () => {
		const list = rows(9, 'period');
		const total = list.reduce((sum, row) => sum + row.amount, 0);
		const error = await failure(run(items(list, 'create', { maxAmount: 100_000, periodTotal: total - 1 }, ALL_OR_NOTHING)));
		expect(error?.message).toMatch(/^Nothing was sent: 1 of 9 rows would be refused, and All or Nothing pays all or none\. row 9 \(period-9\): MAX_TOTAL_PERIOD/);
		expect(posts()).toHaveLength(0);
	});

	it('All or Nothing stored as an expression refuses the run', async () => {
		const list = rows(2, 'expr');
		const error = await failure(run(items(list, 'create', LIMITS, { batchOptions: { allOrNothing: '={{ true }}' } })));
		expect(error?.message).toBe('Refused: Batch Options → All or Nothing is not typed in (on or off)');
		expect(posts()).toHaveLength(0);
	});
});

describe('each reference asked once per execution (nodes/Paycashless/money/references.ts)', () => {
	const verified = () => gets('/v1/payouts/verify/').map((request) => request.path.split('/').pop());

	it('Check Batch asks every row at once; All or Nothing right after takes its "no such payout", and asks again what it had not answered', async () => {
		const list = rows(45, 'asked');
		await run(items(list.slice(0, 1), 'create'));
		emulator.clearLogs();
		// Each answer 500 ms late: one after the other, a second question would come only after the first answer.
		emulator.setFaults({ latencyMs: 500, match: '^GET /v1/payouts/verify/' });
		const flowContext: IDataObject = {};
		const checked = await run(items(list, 'checkBatch'), { flowContext });
		emulator.clearFaults();
		expect(checked.output[0].json).toMatchObject({ count: 44, alreadyPaidCount: 1 });
		// Every row asked, each once, side by side: many questions came before the first could be answered.
		// Row 1 is answered by the account's payout history (Check Batch reads 92 days of it) with no question.
		expect(verified().sort()).toEqual(list.slice(1).map((row) => row.reference).sort());
		const asked = gets('/v1/payouts/verify/').map((request) => request.receivedAt);
		expect(asked.filter((at) => at < Math.min(...asked) + 500).length).toBeGreaterThan(5);
		emulator.clearLogs();
		// The same execution pays it: the 44 "no such payout" answers stand. Row 1 is asked again by the check
		// (it was not "no such payout") and found again: no create is sent for it.
		await run(items(list, 'create', LIMITS, ALL_OR_NOTHING), { flowContext });
		expect(verified()).toEqual(['asked-1']);
		expect(paidReferences()).toHaveLength(44);
		expect(paidReferences()).not.toContain('asked-1');
		expect(emulator.list('payouts')).toHaveLength(45);
		// A Check Batch after the payment, in the same execution (without the history, which would show them),
		// asks again for what was sent: all paid now, none "no such payout" from before.
		emulator.clearLogs();
		const after = await run(items(list, 'checkBatch', LIMITS, { approverView: { historyDays: 0 } }), { flowContext });
		expect(after.output[0].json).toMatchObject({ count: 0, alreadyPaidCount: 45 });
		expect(verified()).toHaveLength(45);
		// Another execution (its own context) asks every reference again, once, and finds every row: no create.
		emulator.clearLogs();
		await run(items(list, 'create', LIMITS, ALL_OR_NOTHING));
		expect(verified().sort()).toEqual(list.map((row) => row.reference).sort());
		expect(posts()).toHaveLength(0);
		expect(emulator.list('payouts')).toHaveLength(45);
	});

	it('"no such payout" stands for 10 minutes: after a longer wait (an approval), every reference is asked again', async () => {
		const list = rows(3, 'stale');
		const flowContext: IDataObject = {};
		await run(items(list, 'checkBatch'), { flowContext });
		// Eleven minutes later (an approval): the answers kept in the execution's context are that old.
		const kept = flowContext.paycashlessNoPayoutUnder as Record<string, number>;
		expect(Object.keys(kept)).toHaveLength(3);
		for (const key of Object.keys(kept)) kept[key] -= 11 * 60_000;
		emulator.clearLogs();
		await run(items(list, 'checkBatch'), { flowContext });
		expect(verified().sort()).toEqual(['stale-1', 'stale-2', 'stale-3']);
		emulator.clearLogs();
		await run(items(list, 'checkBatch'), { flowContext });
		expect(verified()).toEqual([]);
	});

	it('"no such payout" stands 10 minutes from the end of the check that asked, however long the check took', async () => {
		const list = rows(3, 'long');
		const flowContext: IDataObject = {};
		// Eleven minutes pass between Paycashless's answers and the end of the check (as in a check of
		// 10,000 rows): the answers kept are made that old at the check's first account lookup, which comes
		// after them (n8n's clock is left alone: Paycashless refuses a request signed 11 minutes off).
		const realNow = Date.now.bind(Date);
		let aged = false;
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => {
			const kept = flowContext.paycashlessNoPayoutUnder as Record<string, number> | undefined;
			if (!aged && kept && gets('/v1/banks/account_lookup').length > 0) {
				for (const key of Object.keys(kept)) kept[key] -= 11 * 60_000;
				aged = true;
			}
			return realNow();
		});
		try {
			await run(items(list, 'checkBatch'), { flowContext });
			expect(aged).toBe(true);
			// (Earlier tests' payouts in flight are asked about too, once: ./inFlight.test.cts.)
			const mine = () => verified().filter((reference) => reference?.startsWith('long-'));
			expect(mine().sort()).toEqual(['long-1', 'long-2', 'long-3']);
			// The Create right after it asks none again, and pays the three.
			emulator.clearLogs();
			await run(items(list, 'create', LIMITS, ALL_OR_NOTHING), { flowContext });
			expect(mine()).toEqual([]);
			expect(paidReferences()).toEqual(['long-1', 'long-2', 'long-3']);
		} finally {
			clock.mockRestore();
		}
	});
});

describe('Pay Again If Failed', () => {
	it('a failed salary is reported failed, never paid, and with the switch on is paid once under <reference>-repay-1; a second run pays nothing more', async () => {
		const list = rows(3, 'repay');
		await run(items(list, 'create'));
		await emulator.completePayout('repay-1', 'succeeded');
		await emulator.completePayout('repay-2', 'failed', { failureMessage: 'Account closed' });
		// Without the switch: found again, failed, not paid again.
		const payouts = () => emulator.list('payouts').map((payout) => payout.reference);
		const plain = await run(items(list, 'create', LIMITS, ALL_OR_NOTHING));
		expect(payouts()).toEqual(['repay-1', 'repay-2', 'repay-3']);
		expect(plain.output[1].json).toMatchObject({ reference: 'repay-2', status: 'failed' });
		expect(plain.hints[0].message).toBe('0 payouts new, 3 found again (made before: not made twice), 0 refused or failed; 1 of those found again had failed or been reversed: NOT paid');
		// The check with the switch: row 2 pays again under its -repay-1 reference.
		const payAgain = { additionalFields: { payAgainIfFailed: true } };
		const { output } = await run(items(list, 'checkBatch', LIMITS, payAgain));
		expect(output[0].json).toMatchObject({ count: 1, notPaidCount: 0, alreadyPaidCount: 2 });
		expect((output[0].json.payable as IDataObject[])[0]).toMatchObject({ row: 2, reference: 'repay-2-repay-1', rowReference: 'repay-2', repays: { reference: 'repay-2', status: 'failed', failure: 'Account closed' } });
		const hash = output[0].json.batchHash as string;
		// Paid once, in a batch approved with that hash, without All or Nothing (the reference looked up before it is sent).
		const paid = await run(items(list, 'create', LIMITS, { ...payAgain, batchOptions: { approvedBatchHash: hash, approveWithoutLogin: true } }));
		expect(paid.output[1].json).toMatchObject({ reference: 'repay-2-repay-1', _paycashless: { repeated: false } });
		expect(payouts()).toEqual(['repay-1', 'repay-2', 'repay-3', 'repay-2-repay-1']);
		// A second run, with All or Nothing, finds it again: paid once. The check before the first payout looked the
		// references up (the 3 rows at once, then row 2's -repay-1) and found every row: no create is sent.
		emulator.clearLogs();
		const again = await run(items(list, 'create', LIMITS, { ...payAgain, ...ALL_OR_NOTHING }));
		expect(again.output[1].json).toMatchObject({ reference: 'repay-2-repay-1', _paycashless: { repeated: true } });
		expect(gets('/v1/payouts/verify/').map((request) => request.path.split('/').pop())).toEqual(['repay-1', 'repay-2', 'repay-3', 'repay-2-repay-1']);
		expect(posts()).toHaveLength(0);
		expect(payouts()).toEqual(['repay-1', 'repay-2', 'repay-3', 'repay-2-repay-1']);
		// The new payout says which row it pays again.
		expect((emulator.list('payouts')[3].metadata as IDataObject).n8nPaysAgain).toBe('repay-2');
	});
});

describe('Payout → Create, Approved Batch Hash', () => {
	const UNSAFE = { approveWithoutLogin: true };

	it('needs an approval: a hash alone pays nothing unless Approve Without Login (Unsafe) is on', async () => {
		const list = rows(2, 'need');
		const { batchHash } = (await run(items(list, 'checkBatch'))).output[0].json;
		const error = await failure(run(items(list, 'create', LIMITS, { batchOptions: { approvedBatchHash: batchHash as string } })));
		expect(error?.message).toBe("Refused: Approved Batch Hash is set, but no n8n user's approval is asked for, so nothing was sent");
		expect(posts()).toHaveLength(0);
		await run(items(list, 'create', LIMITS, { batchOptions: { approvedBatchHash: batchHash as string, ...UNSAFE } }));
		expect(paidReferences()).toEqual(['need-1', 'need-2']);
	});

	it('pays the batch that was checked; a batch that differs is refused whole, naming the rows that differ', async () => {
		const list = rows(4, 'hash');
		const summary = (await run(items(list, 'checkBatch'))).output[0].json;
		const changed = list.map((row, k) => (k === 2 ? { ...row, amount: row.amount + 1 } : k === 3 ? { ...row, reference: 'hash-9' } : row));
		const upstream = [{ name: 'Check Batch', type: 'n8n-nodes-paycashless.paycashless', parameters: { resource: 'payout', operation: 'checkBatch' }, output: summary }];
		const error = await failure(run(items(changed, 'create', LIMITS, { batchOptions: { approvedBatchHash: summary.batchHash as string, ...UNSAFE } }), { upstream }));
		expect(error?.message).toBe(
			'Refused: these 4 payouts are not the batch that was approved: row 3 (hash-3) pays NGN 1,021.00, approved NGN 1,020.00; row 4 (hash-9) is not in the approved batch; hash-4 (row 4 of the check) was approved but is not among these payouts. Nothing was sent',
		);
		// The batches by the ids a person reads (Check Batch's batchId), never 64 characters that overflow a form page's card (51.7).
		expect(error?.description).toContain(`(given: batch ${String(summary.batchId)})`);
		expect(error?.description).toMatch(/these rows are batch [0-9a-f]{16}\)/);
		expect(`${error?.message} ${error?.description}`).not.toMatch(/[0-9a-f]{64}/);
		expect(posts()).toHaveLength(0);
		// In another order it is the same batch.
		await run(items([...list].reverse(), 'create', LIMITS, { batchOptions: { approvedBatchHash: summary.batchHash as string, allOrNothing: true, ...UNSAFE } }));
		expect([...paidReferences()].sort()).toEqual(list.map((row) => row.reference).sort());
	});
});

describe('Payout → Get Batch Status', () => {
	it("a batch's status in one read: counts and naira totals per status, each failure with its reason and how to pay it again, what is pending; a row paid again counts as its last payment", async () => {
		const list = rows(4, 'status');
		const summary = (await run(items(list, 'checkBatch'))).output[0].json;
		await run(items(list, 'create', LIMITS, { batchOptions: { allOrNothing: true, approvedBatchHash: summary.batchHash as string, approveWithoutLogin: true } }));
		await emulator.completePayout('status-1', 'succeeded');
		await emulator.completePayout('status-2', 'succeeded');
		await emulator.completePayout('status-3', 'failed', { failureMessage: 'Beneficiary bank unavailable' });
		emulator.clearLogs();
		const byBatch = { resource: 'payout', operation: 'batchStatus', findBatchBy: 'batchId', batchId: summary.batchId as string };
		const [status] = (await run([byBatch])).output.map((item) => item.json);
		expect(status).toMatchObject({ rows: 4, payouts: 4, paid: 2, pending: 1, notPaid: 1, settled: false });
		expect(status.byStatus).toEqual(
			expect.arrayContaining([
				{ outcome: 'paid', currency: 'NGN', count: 2, total: 201_000, inMainUnits: { currency: 'NGN', total: 2010 } },
				{ outcome: 'notPaid', currency: 'NGN', count: 1, total: 102_000, inMainUnits: { currency: 'NGN', total: 1020 } },
				{ outcome: 'pending', currency: 'NGN', count: 1, total: 103_000, inMainUnits: { currency: 'NGN', total: 1030 } },
			]),
		);
		expect(status.failures).toEqual([expect.objectContaining({ reference: 'status-3', status: 'failed', failure: 'Beneficiary bank unavailable', payAgain: 'Pay Again If Failed pays it under status-3-repay-1, once' })]);
		expect(status.pendingPayouts).toEqual([expect.objectContaining({ reference: 'status-4', status: 'pending' })]);
		expect(status.text).toContain('Paid: 2 (NGN 2,010.00). Pending: 1 (NGN 1,030.00). Not paid: 1 (NGN 1,020.00).');
		// One read of the list, not one request per row.
		expect(emulator.requests.filter((request) => request.method === 'GET')).toHaveLength(1);

		// Row 3 paid again: the row is pending under its -repay-1 payment; Wait Until Settled reads until both settle.
		await run(items(list, 'create', LIMITS, { additionalFields: { payAgainIfFailed: true }, batchOptions: { allOrNothing: true, approvedBatchHash: summary.batchHash as string, approveWithoutLogin: true } }));
		expect(emulator.list('payouts').map((payout) => payout.reference)).toEqual(['status-1', 'status-2', 'status-3', 'status-4', 'status-3-repay-1']);
		emulator.clearLogs();
		const waiting = run([{ ...byBatch, waitUntilSettled: true, settleTimeLimit: 1, settleInterval: 5 }]);
		// Settled only once the node has read the batch pending.
		const listReads = () => emulator.requests.filter((request) => request.method === 'GET' && request.path === '/v1/payouts').length;
		while (listReads() === 0) await new Promise((resolve) => setTimeout(resolve, 50));
		await emulator.completePayout('status-4', 'succeeded');
		await emulator.completePayout('status-3-repay-1', 'succeeded');
		const [settled] = (await waiting).output.map((item) => item.json);
		expect(settled).toMatchObject({ rows: 4, payouts: 5, paid: 4, pending: 0, notPaid: 0, settled: true, timeLimitReached: false, failures: [] });
		expect(listReads()).toBe(2);
	}, 30_000);
});
