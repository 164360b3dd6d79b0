/**
 * Who approves a batch, and where each payout came from (docs/payroll.md), against the emulator with
 * the nodes before Payout → Create as n8n 2.41 gives them (an n8n Form Trigger that asks for n8n's
 * login outputs its submitter as `user`, and so does a Form page after it; what a real n8n gives is
 * test/support/suites/payrollApproval.cts):
 * - an approval counts only from an n8n user other than the preparer, on the page named in Batch
 *   Options → Approval Form Page, after a Form Trigger with n8n User Auth, and (with Approvers) one
 *   of them: otherwise nothing is sent, and the refusal says why;
 * - each payout's metadata names its workflow, execution, node, batch, preparer and approver, beside
 *   the user's own metadata (whose keys win); Leave Out Run Details leaves them out.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { accountName } from '../../../emulator/banks.cjs';
import { useEmulator } from '../../support/emulator.cjs';
import { ACCESS_BANK, payoutItems } from '../../support/payrollRows.cjs';
import { runNode, type ContextOptions, type RunResult, type UpstreamNode } from '../../../scripts/harness/executeContext.cjs';

const emulator = useEmulator();
beforeEach(() => emulator.reset({ payouts: 0 }));

const PREPARER = { id: 'u-ada', email: 'ada@paycashless.test', firstName: 'Ada', lastName: 'Obi' };
const APPROVER = { id: 'u-funke', email: 'funke@paycashless.test', firstName: 'Funke', lastName: 'Adebayo' };
const LIMITS = { maxAmount: 100_000, periodTotal: 1_000_000 };

const ROWS = [0, 1, 2].map((k) => {
	const account = String(3_000_000_000 + k * 7919);
	return { reference: `appr-${k + 1}`, amount: 5000 + k, account, name: accountName(account, ACCESS_BANK) };
});

const items = (operation: 'checkBatch' | 'create', extra: INodeParameters = {}) => payoutItems(ROWS, operation, LIMITS, extra);

async function run(parameters: INodeParameters[], options: Partial<ContextOptions> = {}): Promise<RunResult> {
	return await runNode({ parameters, credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl }, ...options });
}

const failure = async (promise: Promise<unknown>) =>
	await promise.then(
		() => undefined,
		(thrown: Error & { description?: string }) => thrown,
	);

/** Form Trigger (n8n User Auth) → Check Batch → Approve Payroll (Form page): the nodes before Pay Salaries, and what they output. */
function upstream(options: { approver?: IDataObject | null; auth?: string; approved?: boolean; summary: IDataObject }): UpstreamNode[] {
	const approver = options.approver === undefined ? APPROVER : options.approver;
	return [
		{ name: 'Start Payroll', type: 'n8n-nodes-base.formTrigger', parameters: { authentication: options.auth ?? 'n8nUserAuth' }, output: { user: PREPARER } },
		{ name: 'Check Batch', type: 'n8n-nodes-paycashless.paycashless', parameters: { resource: 'payout', operation: 'checkBatch' }, output: options.summary, parents: ['Start Payroll'] },
		{
			name: 'Approve Payroll',
			type: 'n8n-nodes-base.form',
			parameters: { operation: 'page' },
			parents: ['Check Batch', 'Start Payroll'],
			...(options.approved === false ? {} : { output: { Decision: 'Approve', ...(approver ? { user: approver } : {}) } }),
		},
	];
}

const payouts = () => emulator.list('payouts');

async function checked(): Promise<IDataObject> {
	return (await run(items('checkBatch'))).output[0].json;
}

function pay(summary: IDataObject, batchOptions: IDataObject = {}, additionalFields: IDataObject = {}): INodeParameters[] {
	return items('create', { batchOptions: { allOrNothing: true, approvedBatchHash: summary.batchHash as string, approvalPage: 'Approve Payroll', ...batchOptions }, additionalFields } as INodeParameters);
}

describe('only an approver approves, as themselves', () => {
	it('the preparer approving their own batch pays nothing', async () => {
		const summary = await checked();
		const error = await failure(run(pay(summary), { upstream: upstream({ approver: PREPARER, summary }) }));
		expect(error?.message).toBe('Refused: Ada Obi (ada@paycashless.test) prepared this batch and approved it too, so nothing was sent');
		expect(error?.description).toContain('another n8n user');
		expect(payouts()).toEqual([]);
	});

	it('an approval without an n8n login pays nothing: a page after a Form Trigger without n8n User Auth, or a page that names nobody', async () => {
		const summary = await checked();
		const open = await failure(run(pay(summary), { upstream: upstream({ auth: 'none', summary }) }));
		expect(open?.message).toBe('Refused: the approval page "Approve Payroll" does not ask for an n8n login, so nobody\'s approval can be told apart');
		const nobody = await failure(run(pay(summary), { upstream: upstream({ approver: null, summary }) }));
		expect(nobody?.message).toBe('Refused: n8n named no approver for this batch');
		const notYet = await failure(run(pay(summary), { upstream: upstream({ approved: false, summary }) }));
		expect(notYet?.message).toBe('Refused: nobody approved this batch on "Approve Payroll"');
		const elsewhere = await failure(run(pay(summary, { approvalPage: 'Check Batch' }), { upstream: upstream({ summary }) }));
		expect(elsewhere?.message).toBe('Refused: Batch Options → Approval Form Page "Check Batch" is not an n8n Form page before this node');
		const expression = await failure(run(pay(summary, { approvalPage: "={{ 'Approve Payroll' }}" }), { upstream: upstream({ summary }) }));
		expect(expression?.message).toBe('Refused: Batch Options → Approval Form Page, Approvers and Approve Without Login are typed in only');
		expect(payouts()).toEqual([]);
	});

	it('with Approvers set, another n8n user who is not one of them pays nothing; one of them pays', async () => {
		const summary = await checked();
		const error = await failure(run(pay(summary, { approvers: 'boss@paycashless.test' }), { upstream: upstream({ summary }) }));
		expect(error?.message).toBe('Refused: Funke Adebayo (funke@paycashless.test) is not among this node\'s Approvers, so nothing was sent');
		expect(payouts()).toEqual([]);
		await run(pay(summary, { approvers: 'boss@paycashless.test, FUNKE@paycashless.test' }), { upstream: upstream({ summary }) });
		expect(payouts().map((payout) => payout.reference)).toEqual(ROWS.map((row) => row.reference));
	});
});

describe("what an AI agent's tool reads of a batch refusal", () => {
	it('only the code: never who prepared or approved, nor the rows, amounts or accounts of the batch', async () => {
		const summary = await checked();
		const own = await run(pay(summary), { upstream: upstream({ approver: PREPARER, summary }), asTool: true });
		const changed = pay(summary, { approvalPage: '', approveWithoutLogin: true }).map((item, k) => (k === 0 ? { ...item, amount: 9999 } : item));
		const differs = await run(changed, { upstream: upstream({ summary }), asTool: true });
		for (const [output, code] of [
			[own.output, 'APPROVER_IS_PREPARER'],
			[differs.output, 'BATCH_NOT_APPROVED'],
		] as const) {
			const told = JSON.stringify(output[0].json);
			expect((output[0].json.error as IDataObject).code).toBe(code);
			expect(told).toContain(`Refused by this node's Batch Options (${code})`);
			// Its own call's reference and amount are the model's; the other rows, the approved amounts and the people are not.
			for (const secret of ['Ada', 'ada@', 'Funke', 'appr-2', 'appr-3', ROWS[1].account, '5,000.00', String(summary.batchId)]) expect(told).not.toContain(secret);
		}
		// The person reads it all.
		const person = await failure(run(changed, { upstream: upstream({ summary }) }));
		expect(person?.message).toContain('row 1 (appr-1) pays NGN 9,999.00, approved NGN 5,000.00');
		expect(payouts()).toEqual([]);
	});
});

describe('every payout leads back', () => {
	it("each payout's metadata names its workflow, execution, node, batch, preparer and approver, beside the user's own metadata (whose keys win)", async () => {
		const summary = await checked();
		const own = { metadata: { metadataValues: [{ key: 'department', value: 'ops' }, { key: 'n8nNode', value: 'mine' }] } };
		await run(pay(summary, {}, own), { upstream: upstream({ summary }), workflow: { id: 'wfPayroll0001', name: 'Payroll November' }, executionId: '4711' });
		expect(payouts().map((payout) => payout.metadata)).toEqual(
			ROWS.map((row) => ({
				department: 'ops',
				n8nNode: 'mine',
				n8nWorkflowId: 'wfPayroll0001',
				n8nWorkflowName: 'Payroll November',
				n8nExecutionId: '4711',
				n8nBatch: summary.batchId,
				n8nPreparedBy: 'Ada Obi (ada@paycashless.test)',
				n8nApprovedBy: 'Funke Adebayo (funke@paycashless.test)',
				n8nPayeeName: row.name,
			})),
		);
	});

	it('Leave Out Run Details leaves them out; the user\'s own metadata stays', async () => {
		const summary = await checked();
		await run(pay(summary, {}, { leaveOutRunDetails: true, metadata: { metadataValues: [{ key: 'department', value: 'ops' }] } }), { upstream: upstream({ summary }) });
		expect(payouts().map((payout) => payout.metadata)).toEqual(ROWS.map(() => ({ department: 'ops' })));
	});
});
