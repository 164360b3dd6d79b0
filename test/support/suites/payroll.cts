/**
 * Payroll in a real n8n (docs/payroll.md): a batch of 50 payouts posted to a webhook, split into
 * items, checked by Payout → Check Batch and paid by Payout → Create with All or Nothing.
 * - the check names the 3 bad rows (a wrong name, an account that does not exist, an amount over
 *   Maximum Amount) and sends no POST;
 * - All or Nothing pays 0 of the 50; 0 of the 47 good rows when they would pass the period total;
 *   the 47 (output in input order) under a period total they fit; a re-run pays 0 and says so in n8n's
 *   execution hints.
 * Unit tests: test/unit/node/payroll.test.cts.
 */
import { randomUUID } from 'crypto';

import { accountName } from '../../../emulator/banks.cjs';
import { ACCESS_BANK } from '../reliability.cjs';
import { paycashlessNode, selectE2eRuntime, SETUP_TIMEOUT_MS, useE2eLab, webhookNode, type E2eLab, type E2eRuntime } from '../e2e/harness.cjs';
import { freshFetch } from '../e2e/freshFetch.cjs';

interface Row {
	reference: string;
	amount: number;
	account: string;
	name: string;
}

export function describePayroll(runtime: Partial<E2eRuntime>): void {
	selectE2eRuntime(runtime);
	jest.setTimeout(SETUP_TIMEOUT_MS);

	let lab: E2eLab;
	const prefix = `payroll-${randomUUID().slice(0, 8)}`;
	// 50 staff, each their own account; amounts NGN 50,000 + 100 per row.
	const rows: Row[] = Array.from({ length: 50 }, (_, k) => {
		const account = String(2_000_000_000 + k * 104_729);
		return { reference: `${prefix}-${String(k + 1).padStart(2, '0')}`, amount: 50_000 + 100 * k, account, name: accountName(account, ACCESS_BANK) };
	});
	const bad = rows.map((row) => ({ ...row }));
	bad[4].name = 'Somebody Else';
	bad[19].account = '0009876543';
	bad[41].amount = 5_000_000;
	const good = rows.filter((_, k) => ![4, 19, 41].includes(k));
	const goodTotal = good.reduce((sum, row) => sum + row.amount, 0);

	// The emulator's list shows a payout 3 s after its create, as Paycashless's may after its 202
	// (issue 48): the checks and the re-run hold on the payouts in flight and on look-ups by reference.
	useE2eLab((started) => (lab = started), { emulator: { listLagMs: 3000 } });

	/** Webhook → Split Out → Paycashless (`operation`), the rows posted; the last node's items and the run's hints. */
	async function runBatch(operation: 'checkBatch' | 'create', batch: Row[], periodTotal: number, extra: Record<string, unknown> = {}) {
		const webhookPath = `payroll-${randomUUID().slice(0, 8)}`;
		const pay = {
			...paycashlessNode(lab.good, {
				resource: 'payout',
				operation,
				reference: '={{ $json.reference }}',
				amount: '={{ $json.amount }}',
				currency: 'NGN',
				destinationAccountNumber: '={{ $json.account }}',
				bankId: ACCESS_BANK,
				moneyLimits: { maxAmount: 100_000, periodTotal, expectedAccountName: '={{ $json.name }}', beneficiaryBankCode: '044' },
				...extra,
			}),
			name: 'Pay',
			onError: 'continueRegularOutput' as const,
		};
		const split = { name: 'Rows', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'body.rows', include: 'noOtherFields', options: {} } };
		const workflowId = await lab.createActiveWorkflow(`payroll ${operation} ${webhookPath}`, [webhookNode(webhookPath), split, pay], {
			Webhook: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] },
			Rows: { main: [[{ node: 'Pay', type: 'main', index: 0 }]] },
		}, [webhookPath]);
		const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rows: batch }) });
		const text = await response.text();
		expect(response.status).toBe(200);
		const items = JSON.parse(text) as Array<Record<string, unknown>>;
		const [execution] = await lab.executions(workflowId);
		const runs = (execution.data?.resultData.runData.Pay ?? []) as Array<{ hints?: Array<{ message: string }> }>;
		return { items: Array.isArray(items) ? items : [items], hints: runs.flatMap((run) => run.hints ?? []).map((hint) => hint.message) };
	}

	const posts = () => lab.emulator.requests.filter((request) => request.method !== 'GET' && request.path.startsWith('/v1/payouts'));
	const paid = () => lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix)).map((payout) => payout.reference);

	it('Payout → Check Batch: 50 rows with 3 bad ones are checked with no POST, and the check names the 3', async () => {
		const before = posts().length;
		const { items } = await runBatch('checkBatch', bad, 10_000_000);
		expect(posts()).toHaveLength(before);
		expect(items).toHaveLength(1);
		const summary = items[0];
		expect(summary).toMatchObject({ fits: false, count: 47, total: goodTotal * 100, inMainUnits: { currency: 'NGN', total: goodTotal }, refusedCount: 3 });
		expect((summary.refused as Array<Record<string, unknown>>).map(({ row, code }) => [row, code])).toEqual([
			[5, 'NAME_MISMATCH'],
			[20, 'LOOKUP_FAILED'],
			[42, 'MAX_AMOUNT'],
		]);
		expect(summary.batchHash).toMatch(/^[0-9a-f]{64}$/);
	});

	it('Payout → Create with All or Nothing pays 0 of the 50, and 0 of the 47 good rows when they would pass the period total', async () => {
		const all = await runBatch('create', bad, 10_000_000, { batchOptions: { allOrNothing: true } });
		expect(paid()).toEqual([]);
		expect(all.items).toHaveLength(50);
		expect(all.items.filter((item) => (item.error as Record<string, unknown> | undefined)?.code === 'BATCH_REFUSED')).toHaveLength(47);
		const period = await runBatch('create', good, goodTotal - 1, { batchOptions: { allOrNothing: true } });
		expect(paid()).toEqual([]);
		expect(period.items.filter((item) => (item.error as Record<string, unknown> | undefined)?.code === 'MAX_TOTAL_PERIOD')).toHaveLength(1);
		expect(period.hints).toContain('0 payouts new, 0 found again (made before: not made twice), 47 refused or failed');
	});

	it('Payout → Create with All or Nothing pays the 47 good rows (at Requests in Parallel), output in input order; a re-run pays 0 and says so', async () => {
		const { batchHash } = (await runBatch('checkBatch', good, 10_000_000)).items[0];
		// No n8n user approves here (a webhook starts it): the hash alone, allowed as unsafe.
		const first = await runBatch('create', good, 10_000_000, { batchOptions: { allOrNothing: true, approvedBatchHash: batchHash, approveWithoutLogin: true } });
		expect([...paid()].sort()).toEqual(good.map((row) => row.reference).sort());
		expect(first.items.map((item) => item.reference)).toEqual(good.map((row) => row.reference));
		expect(first.hints).toContain('47 payouts new, 0 found again (made before: not made twice), 0 refused or failed');
		const again = await runBatch('create', good, 10_000_000, { batchOptions: { allOrNothing: true, approvedBatchHash: batchHash, approveWithoutLogin: true } });
		expect(paid()).toHaveLength(47);
		expect(again.hints).toContain('0 payouts new, 47 found again (made before: not made twice), 0 refused or failed');
		expect(again.items.every((item) => (item._paycashless as Record<string, unknown>).repeated === true)).toBe(true);
	});
}
