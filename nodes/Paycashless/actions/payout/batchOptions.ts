/**
 * Payout → Create's Batch Options, checked before its first payout: the approval (who prepared,
 * who approved: ./approval.ts), Approved Batch Hash (the items must be the batch that was
 * approved; the rows that differ are named) and All or Nothing (every item checked first; none
 * sent if any would be refused; then the whole batch reserved under the limits:
 * money/reservedBatch.ts). What it decided goes into each payout's metadata (./runDetails.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { payoutMoneyOf } from '../../../../lib/payoutBody';
import { isObject } from '../../helpers/body';
import { checkBatch } from '../../money/batch';
import { batchHash, batchIdOf, batchLines, batchPayoutOf, type BatchLine } from '../../money/batchRows';
import { reserveBatch } from '../../money/reservedBatch';
import type { PaycashlessApi } from '../../transport';
import type { BeforeItems } from '../types';
import { approvalOnPage, approverList, type Approval, type ApprovalRefusal } from './approval';
import { allOrNothingRefusal, approvedLines, differences, refuseEvery } from './batchRefusals';
import type { BatchRun, NodeRun } from '../run';

const BATCH_OPTIONS = 'batchOptions';

/**
 * Payout → Check Batch's action: what n8n's panel lists and names a node added with it
 * (n8n-workflow's makeNodeName), so the placeholder below names that node.
 */
export const CHECK_BATCH_ACTION = 'Check a payout batch';

/** Create only: the batch as a whole (../../money/batch.ts; docs/payroll.md). */
export const batchOptionsField: INodeProperties = {
	displayName: 'Batch Options',
	name: BATCH_OPTIONS,
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'All or Nothing',
			name: 'allOrNothing',
			type: 'boolean',
			noDataExpression: true,
			// On once added: adding the option is the choice (issue 51).
			default: true,
			description:
				'Whether to check every item first (the checks of Payout → Check Batch: Money Limits, payees, the period total for the whole batch) and send none if any would be refused; otherwise reserve the whole batch under the limits and pay it at Requests in Parallel. Typed in only.',
		},
		{
			displayName: 'Approval Form Page',
			name: 'approvalPage',
			type: 'string',
			noDataExpression: true,
			default: '',
			placeholder: 'Approve Payroll',
			description:
				'The name of the n8n Form node (a page after an n8n Form Trigger whose Authentication is n8n User Auth) on which the approver approves. The payouts are sent only when an n8n user other than the one who submitted the Form Trigger submitted that page; n8n names them, and each payout\'s metadata keeps who prepared and who approved. Typed in only.',
		},
		{
			displayName: 'Approve Without Login (Unsafe)',
			name: 'approveWithoutLogin',
			type: 'boolean',
			noDataExpression: true,
			default: true,
			description:
				'Whether Approved Batch Hash alone is enough, with no n8n user named as the approver (n8n 1.x, or an approval given outside n8n). Whoever can submit the approval then approves: on n8n 1.x a Wait form behind Basic Auth is a shared secret, not a person. Typed in only.',
		},
		{
			displayName: 'Approved Batch Hash',
			name: 'approvedBatchHash',
			type: 'string',
			default: '',
			// The name n8n's editor gives a Check Batch node added from the panel (its action).
			placeholder: `{{ $('${CHECK_BATCH_ACTION}').item.json.batchHash }}`,
			description:
				'The batchHash of the Payout → Check Batch that was approved. The payouts are sent only if this node\'s items are exactly that batch (each reference, amount, currency, account and bank); otherwise none is sent, and the rows that differ are named. Needs an Approval Form Page, or Approve Without Login (Unsafe).',
		},
		{
			displayName: 'Approvers',
			name: 'approvers',
			type: 'string',
			noDataExpression: true,
			default: '',
			placeholder: 'funke@example.com, ada@example.com',
			description: 'The n8n users (their e-mail addresses) whose approval on the Approval Form Page counts. Empty: any n8n user but the one who prepared the batch. Typed in only.',
		},
	],
};

/**
 * A batch hash as a person reads it in a refusal: the batch id (its first 16 characters, as Check
 * Batch shows it) rather than 64 characters no one reads, which overflow a form page's card (issue 51).
 */
function shownHash(given: string | undefined): string {
	if (!given) return 'empty';
	return /^[0-9a-f]{64}$/.test(given) ? `batch ${batchIdOf(given)}` : `"${given.length > 24 ? `${given.slice(0, 24)}…` : given}", not a batch hash`;
}

/** The typed-in text of a Batch Options field, or why it is refused (an expression). */
function typedText(stored: IDataObject, name: string): string | { expression: true } {
	const value = stored[name];
	if (typeof value !== 'string') return '';
	return value.startsWith('=') || value.includes('{{') ? { expression: true } : value.trim();
}

/** The approval a batch with an Approved Batch Hash needs: who approved on the Approval Form Page, or none (unsafe, when allowed). */
function approvalFor(this: IExecuteFunctions, stored: IDataObject): { approval: Approval } | { refusal: ApprovalRefusal } {
	const page = typedText(stored, 'approvalPage');
	const approvers = typedText(stored, 'approvers');
	if (typeof page !== 'string' || typeof approvers !== 'string' || (stored.approveWithoutLogin !== undefined && typeof stored.approveWithoutLogin !== 'boolean')) {
		return { refusal: { code: 'LIMIT_EXPRESSION', message: 'Refused: Batch Options → Approval Form Page, Approvers and Approve Without Login are typed in only', description: 'Nothing was sent. Only the person who set up this workflow sets who may approve, in the node: no expression.' } };
	}
	if (page !== '') return approvalOnPage.call(this, page, approverList(approvers));
	if (stored.approveWithoutLogin === true) return { approval: { withoutLogin: true } };
	return {
		refusal: {
			code: 'APPROVAL_NOT_SET',
			message: "Refused: Approved Batch Hash is set, but no n8n user's approval is asked for, so nothing was sent",
			description:
				'Nothing was sent. Set Batch Options → Approval Form Page to the n8n Form page on which another n8n user approves (n8n 2.x: after a Form Trigger with Authentication "n8n User Auth"). Where n8n cannot name the approver (n8n 1.x), turn on Approve Without Login (Unsafe): whoever can submit your approval form then approves.',
		},
	};
}

/**
 * Batch Options, before the first payout: the approval (who prepared, who approved: ./approval.ts),
 * Approved Batch Hash (the items must be the batch that was approved; the rows that differ are
 * named) and All or Nothing (every item checked first; none sent if any would be refused; then the
 * whole batch reserved under the limits and sent at Requests in Parallel: money/reservedBatch.ts).
 * What it decided goes into each payout's metadata (./runDetails.ts).
 */
export async function batchBeforeItems(run: NodeRun, api: PaycashlessApi, bodyOf: (i: number) => IDataObject, payAgain: boolean): Promise<BeforeItems> {
	const raw = run.node.parameters[BATCH_OPTIONS];
	const stored: IDataObject = isObject(raw) ? (raw as IDataObject) : {};
	const count = run.context.getInputData().length;
	if (stored.allOrNothing !== undefined && typeof stored.allOrNothing !== 'boolean') {
		return refuseEvery(run, count, 'LIMIT_EXPRESSION', 'Refused: Batch Options → All or Nothing is not typed in (on or off)', 'Nothing was sent. Only the person who set up this workflow sets All or Nothing, in the node: no expression.');
	}
	const allOrNothing = stored.allOrNothing === true;
	const approved = 'approvedBatchHash' in stored || typedText(stored, 'approvalPage') !== '';
	const indexes = Array.from({ length: count }, (_, i) => i);
	const batch: BatchRun = { payAgain: new Map() };
	run.batch = batch;
	if (approved) {
		const approval = approvalFor.call(run.context, stored);
		if ('refusal' in approval) return refuseEvery(run, count, approval.refusal.code, approval.refusal.message, approval.refusal.description);
		batch.approval = approval.approval;
		const lines: Array<BatchLine & { row: number }> = [];
		for (const i of indexes) {
			const money = payoutMoneyOf(bodyOf(i));
			if (money) lines.push({ ...batchPayoutOf(money), row: i + 1 });
		}
		const hash = batchHash(lines);
		// Read from the first item only: the hash covers every row, so a batch whose rows hash to it is
		// the batch approved, whatever the field gives on other rows. (Read per row, n8n resolved
		// `$('Check Batch').item` through every row's pairing each time: 29 ms a row at 3,000 rows.)
		const given = count > 0 ? String(run.context.getNodeParameter(`${BATCH_OPTIONS}.approvedBatchHash`, 0, '') ?? '').trim() : '';
		if (given === '' || given !== hash || lines.length !== count) {
			const differ = given ? differences(lines, approvedLines.call(run.context, given) ?? []) : [];
			const why =
				given === ''
					? 'Approved Batch Hash is empty'
					: differ.length > 0
						? `these ${count} payouts are not the batch that was approved: ${differ.slice(0, 5).join('; ')}${differ.length > 5 ? `; and ${differ.length - 5} more` : ''}`
						: `these ${count} payouts are not the batch that was approved`;
			return refuseEvery(
				run,
				count,
				'BATCH_NOT_APPROVED',
				`Refused: ${why}. Nothing was sent`,
				`Nothing was sent.${differ.length > 0 ? ` What differs from the approved batch: ${differ.join('; ')}.` : ''} Approved Batch Hash must be the batchHash of the Payout → Check Batch that was approved (given: ${shownHash(given)}), and this node's rows exactly that batch: the same references, amounts, currencies, accounts and banks (these rows are batch ${batchIdOf(hash)}). Check the batch again and have it approved again.`,
				{ batchHash: hash, ...(given ? { givenBatchHash: given } : {}), ...(differ.length > 0 ? { differences: differ } : {}) },
			);
		}
		batch.batchId = batchIdOf(hash);
	}
	if (!allOrNothing) return {};
	const check = await checkBatch(run.money, indexes, api, { bodyOf, payAgain });
	batch.batchId ??= batchIdOf(batchHash(batchLines(check)));
	// A row paid again is sent (or found again) under its -repay-N reference.
	for (const payout of [...check.payable, ...check.alreadyPaid]) if (payout.rowReference !== undefined) batch.payAgain.set(payout.item, payout.reference);
	// Every reference looked up; a row found under its reference is found again, not sent
	// (./create.operation.ts): it takes no room.
	batch.found = check.foundPayouts;
	// It fits: the new payouts of the batch reserved for real (the bodies as they will be sent), then
	// sent at Requests in Parallel (money/reservedBatch.ts).
	if (check.refused.length === 0) check.refused.push(...(await reserveBatch(run.money, check.payable.map((payout) => payout.item), api, bodyOf)));
	if (check.refused.length === 0) return {};
	return allOrNothingRefusal(run, count, check.refused);
}
