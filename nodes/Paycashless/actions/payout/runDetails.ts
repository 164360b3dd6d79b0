/**
 * Where a payout came from, written into its Paycashless `metadata` beside the user's own keys
 * (which win: a key the user set is never replaced): the n8n workflow (id and name), the execution,
 * the node, and for a batch paid by Payout → Create with Batch Options its batch id, who prepared it
 * and who approved it as n8n said it (./approval.ts), the person paid (Expected Account Name, Payee
 * Key: what Check Batch's flags read back, money/payeeHistory.ts) and the row a payment again
 * replaces. Additional Fields → Leave Out Run Details leaves all of it out. Values are text (the
 * metadata's key/value pairs), each at most 100 characters.
 */
import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../helpers/body';
import { PAYEE_METADATA } from '../../money/payeeHistory';
import { userLabel } from './approval';
import { itemParameter } from '../../money/itemParameters';
import type { NodeRun } from '../run';

const MAX_VALUE = 100;
const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).slice(0, MAX_VALUE) : undefined);

/** The run details of item `i` (only the keys n8n gives a value for). */
export function runDetails(run: NodeRun, i: number, rowReference: string, sentReference: string): IDataObject {
	const details: IDataObject = {};
	const put = (key: string, value: unknown) => {
		const written = text(value);
		if (written !== undefined && written !== '') details[key] = written;
	};
	const { context } = run;
	const workflow = typeof context.getWorkflow === 'function' ? context.getWorkflow() : undefined;
	put('n8nWorkflowId', workflow?.id);
	put('n8nWorkflowName', workflow?.name);
	put('n8nExecutionId', typeof context.getExecutionId === 'function' ? context.getExecutionId() : undefined);
	put('n8nNode', run.node.name);
	put('n8nBatch', run.batch?.batchId);
	const approval = run.batch?.approval;
	if (approval?.preparedBy) put('n8nPreparedBy', userLabel(approval.preparedBy));
	if (approval?.approvedBy) put('n8nApprovedBy', userLabel(approval.approvedBy));
	else if (approval?.withoutLogin) put('n8nApprovedBy', 'no n8n login (Approve Without Login)');
	const limits = itemParameter(run.money, 'moneyLimits', i, {}) as IDataObject;
	put(PAYEE_METADATA.name, typeof limits.expectedAccountName === 'string' ? limits.expectedAccountName.trim() : undefined);
	put(PAYEE_METADATA.key, payeeKeyOf(run, i));
	if (sentReference !== rowReference) put('n8nPaysAgain', rowReference);
	return details;
}

/**
 * Additional Fields → Payee Key of item `i`, trimmed (undefined when empty), from the collection the
 * body is built from: read on its own, n8n would evaluate its expression a second time per row.
 */
export function payeeKeyOf(run: NodeRun, i: number): string | undefined {
	const key = (itemParameter(run.money, 'additionalFields', i, {}) as IDataObject).payeeKey;
	return typeof key === 'string' || typeof key === 'number' ? String(key).trim() || undefined : undefined;
}

/** `body` with the run details added to its metadata, the user's keys kept as they are. */
export function withRunDetails(body: IDataObject, details: IDataObject): IDataObject {
	const own = isObject(body.metadata) ? (body.metadata as IDataObject) : {};
	return { ...body, metadata: { ...details, ...own } };
}
