/**
 * Payout → Check Batch: every check Payout → Create would make (Money Limits, the payee checks,
 * the period totals with the batch's own payouts counted, each reference on Paycashless) on all
 * input items at once, paying nothing (../../money/batch.ts), and what the approver reads
 * (../../money/batchSummary.ts): every payout with the holder's name Paycashless returns, the rows
 * to look at first (a payee never paid, an account changed, an amount far from the last one: read
 * from the account's payout history, ../../money/payeeHistory.ts), what was paid before and what
 * failed before, what is refused and why (also a row whose account lookup failed before it), the
 * period so far, and the batch hash Payout → Create's Approved Batch Hash compares.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checkBatch } from '../../money/batch';
import { batchSummary } from '../../money/batchSummary';
import type { PaycashlessApi } from '../../transport';
import { withoutCallbackUrl } from '../../wait/fields';
import { failedInputOf } from '../failedItems';
import { BATCH_CHECK_OF, type OperationOption, type PaycashlessOperation } from '../types';
import { CHECK_BATCH_ACTION } from './batchOptions';
import { payoutFields, payoutCreateBody, paysAgain } from './create.operation';
import { payeeKeyOf } from './runDetails';
import { itemParameter } from '../../money/itemParameters';
import type { NodeRun } from '../run';

const APPROVER_VIEW = 'approverView';

export const description: INodeProperties[] = [
	{
		displayName:
			"Checks every input item as Payout → Create would (Money Limits below, payee lookups, period totals) and pays nothing. Gives one item for the approver: every payout, the rows to look at first, approvalHtml for a Form page, and a batchHash to give Payout → Create's Approved Batch Hash.",
		name: 'checkBatchNotice',
		type: 'notice',
		default: '',
	},
	// No Callback URL: nothing is sent that could call back.
	...withoutCallbackUrl(payoutFields),
	{
		displayName: 'Approver View',
		name: APPROVER_VIEW,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: "How the rows to look at first are found, from the payouts this Paycashless account made before (read from Paycashless's payout list, 100 a request)",
		options: [
			{
				displayName: 'History (Days)',
				name: 'historyDays',
				type: 'number',
				default: 92,
				typeOptions: { minValue: 0 },
				description: 'How many days of earlier payouts are read to flag a payee never paid, an account changed and an amount changed (92 when not added; 0: none read, no such flags)',
			},
			{
				displayName: 'Flag Amount Change Above (%)',
				name: 'amountChangePercent',
				type: 'number',
				default: 25,
				typeOptions: { minValue: 0 },
				description: "A payout further than this from the payee's last one is flagged (25 when not added)",
			},
		],
	},
];

export const option: OperationOption = {
	name: 'Check Batch',
	description: 'Check all items as payouts without paying: what fits, what is refused, the total, the rows to look at first',
	action: CHECK_BATCH_ACTION,
};

/** Only reads (lookups, the payout list, references): never retried as a write, never moves money. */
export const declaration = BATCH_CHECK_OF('payout');

/** A row that came in as a failed item of the node before (e.g. its account lookup): refused with that reason. */
function failedRow(this: IExecuteFunctions, i: number): { code: string; message: string; description?: string } | undefined {
	const failed = failedInputOf.call(this, i);
	if (!failed) return undefined;
	const step = failed.step ? `"${failed.step}"` : 'the node before';
	const lookup = /look ?up/i.test(failed.step ?? '') || failed.code === 'resource_missing' || failed.code === 'HTTP_404';
	return {
		code: lookup ? 'LOOKUP_FAILED' : 'FAILED_BEFORE',
		message: `Refused: ${lookup ? "the row's account lookup" : 'the step before'} (${step}) failed: ${failed.reason}`,
		description: `Nothing was sent. This row reached Check Batch as a failed item of ${step}${failed.code ? ` (${failed.code})` : ''}, so it has no account to pay. Check the row's account number and bank code, then run again.`,
	};
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi, run: NodeRun): Promise<IDataObject> {
	const indexes = this.getInputData().map((_, index) => index);
	const view = this.getNodeParameter(APPROVER_VIEW, i, {}) as IDataObject;
	const number = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback);
	const check = await checkBatch(run.money, indexes, api, {
		bodyOf: (item) => payoutCreateBody.call(this, item, undefined, run).body,
		payeeKeyOf: (item) => payeeKeyOf(run, item),
		failedInput: (item) => failedRow.call(this, item),
		referenceOf: (item) => {
			try {
				const reference = itemParameter(run.money, 'reference', item, '');
				return typeof reference === 'string' && reference.trim() !== '' ? reference.trim() : undefined;
			} catch {
				return undefined;
			}
		},
		payAgain: paysAgain(run),
		history: { days: number(view.historyDays, 92), amountChangePercent: number(view.amountChangePercent, 25) },
		periodStanding: true,
	});
	return batchSummary(run.money, check, i);
}

/** One summary of all items: an AI agent's tool call is one item, so it is not offered as a tool. */
export const asTool = false;

/** Its row in docs/operations.md (npm run docs). */
export const docs: PaycashlessOperation['docs'] = {
	notes: 'Every check of Create on all items, pays nothing; one summary item for the approver (rows to look at first, `approvalHtml`, `batchHash`) ([Payroll](payroll.md))',
	// What it reads: each payout by reference, the payout list (period and history), each payee's account.
	requests: [
		{ resource: 'payout', operation: 'verify' },
		{ resource: 'payout', operation: 'getAll' },
		{ resource: 'bankAccount', operation: 'lookUp' },
	],
};
