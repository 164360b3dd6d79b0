/**
 * Payout → Check Batch: every check Payout → Create would make (Money Limits, the payee checks,
 * the period totals with the batch's own payouts counted, each reference on Paycashless) on all
 * input items at once, paying nothing (../../money/batch.ts). One output item for the approver:
 * whether the batch fits, count and total to pay, refused items with their codes, items already
 * paid, the period so far and what is left, and the batch hash Payout → Create's Approved Batch
 * Hash compares.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { batchSummary, checkBatch } from '../../money/batch';
import type { PaycashlessApi } from '../../transport';
import { withoutCallbackUrl } from '../../wait/fields';
import { BATCH_CHECK_OF, type OperationOption, type PaycashlessOperation } from '../types';
import { CHECK_BATCH_ACTION, payoutFields, payoutCreateBody } from './create.operation';

export const description: INodeProperties[] = [
	{
		displayName:
			'Checks every input item as Payout → Create would (Money Limits below, payee lookups, period totals) and pays nothing. Gives one item: the batch summary, with a batchHash to give Payout → Create\'s Approved Batch Hash.',
		name: 'checkBatchNotice',
		type: 'notice',
		default: '',
	},
	// No Callback URL: nothing is sent that could call back.
	...withoutCallbackUrl(payoutFields),
];

export const option: OperationOption = {
	name: 'Check Batch',
	description: 'Check all items as payouts without paying: what fits, what is refused, the total, the period left',
	action: CHECK_BATCH_ACTION,
};

/** Only reads (lookups, the payout list, references): never retried as a write, never moves money. */
export const declaration = BATCH_CHECK_OF('payout');

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const indexes = this.getInputData().map((_, index) => index);
	const check = await checkBatch.call(this, indexes, api, (item) => payoutCreateBody.call(this, item).body);
	return batchSummary.call(this, check, i);
}

/** One summary of all items: an AI agent's tool call is one item, so it is not offered as a tool. */
export const asTool = false;

/** Its row in docs/operations.md (npm run docs). */
export const docs: PaycashlessOperation['docs'] = {
	notes: 'Every check of Create on all items, pays nothing; one summary item with `batchHash` ([Payroll](payroll.md))',
	// What it reads: each payout by reference, the period's list, each payee's account.
	requests: [
		{ resource: 'payout', operation: 'verify' },
		{ resource: 'payout', operation: 'getAll' },
		{ resource: 'bankAccount', operation: 'lookUp' },
	],
};
