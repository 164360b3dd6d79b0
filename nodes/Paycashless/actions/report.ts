/**
 * What a node run says of itself when it ends: a run that stops says what it already did and what
 * it did not (the error's description and `context.paycashless.done`), and a run of creates says in
 * n8n's execution hints (and the execution's custom data) how many were new, found again and refused.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PAYOUT } from '../catalog/objects';
import { foundAgain } from '../transport';
import type { PaycashlessOperation } from './types';

/** How one item ended: its output items, or its error (with what identifies the item). */
export type Outcome = { items: INodeExecutionData[] } | { error: NodeApiError | NodeOperationError; identity: IDataObject };

/**
 * A write that stops the node still says what this run already did: the items created or found
 * before (or beside) the failure, by reference and id, in the error's description and in
 * `context.paycashless.done`. n8n shows no output items for a failed node, so without this a
 * batch that paid 195 of 300 would look as if it paid nothing.
 */
export function withWhatWasDone(
	this: IExecuteFunctions,
	handler: PaycashlessOperation | undefined,
	error: NodeApiError | NodeOperationError,
	outcomes: Array<Outcome | undefined>,
): NodeApiError | NodeOperationError {
	if (!handler || handler.declaration.kind === 'read') return error;
	const done: IDataObject[] = [];
	outcomes.forEach((outcome, item) => {
		if (!outcome || !('items' in outcome)) return;
		for (const { json } of outcome.items) {
			done.push({ item, ...(json.reference !== undefined ? { reference: json.reference } : {}), ...(json.id !== undefined ? { id: json.id } : {}), ...(json.status !== undefined ? { status: json.status } : {}) });
		}
	});
	if (done.length === 0) return error;
	const listed = done.map((entry) => `item ${Number(entry.item) + 1}: ${[entry.reference, entry.id, entry.status].filter((part) => part !== undefined).join(' / ')}`).join('; ');
	const count = `${done.length} item${done.length === 1 ? '' : 's'}`;
	// Only a create is found again by its reference; any other write would be done again.
	const { declaration } = handler;
	const found = declaration.kind === 'create';
	const what = declaration.kind === 'create' ? ` (${declaration.findsAgain.object}s created or found again)` : '';
	const rerun = found
		? 'Running the same input again finds them by their references instead of creating them twice.'
		: 'Running the same input again would do them again: remove these items from the input first.';
	// And what it did not: the items that failed or were refused, and those never sent.
	const failed = outcomes.flatMap((outcome, item) => (outcome && 'error' in outcome ? [item] : []));
	const notSent = outcomes.length === 0 ? [] : Array.from({ length: outcomes.length }, (_, item) => item).filter((item) => !outcomes[item]);
	const notDone = [failed.length > 0 ? `${itemRanges(failed)} failed or refused` : '', notSent.length > 0 ? `${itemRanges(notSent)} not sent` : ''].filter((part) => part !== '').join('; ');
	error.description = `${error.description ?? ''} Before stopping, this run already completed ${count}${what}, which are not lost: ${listed}. Not done: ${notDone}. ${rerun}`.trim();
	const details = (error.context.paycashless ?? {}) as IDataObject;
	error.context.paycashless = { ...details, done, notDone: { failed, notSent } } as IDataObject as typeof error.context.paycashless;
	return error;
}

/** Item indexes as people count them, in ranges: "items 4, 7–300". */
function itemRanges(items: number[]): string {
	const ranges: string[] = [];
	for (let k = 0; k < items.length; k++) {
		let end = k;
		while (end + 1 < items.length && items[end + 1] === items[end] + 1) end += 1;
		ranges.push(end === k ? `${items[k] + 1}` : `${items[k] + 1}–${items[end] + 1}`);
		k = end;
	}
	return `item${items.length === 1 ? '' : 's'} ${ranges.join(', ')}`;
}

/** Final statuses of a payout found again after which the money did not arrive: not paid. */
const NOT_ARRIVED = new Set(PAYOUT.finalStatuses.filter((status) => status !== 'succeeded'));

/** Says where n8n shows it (execution hints) how many creates were new, found again and refused. */
export function hintCreates(this: IExecuteFunctions, handler: PaycashlessOperation, outcomes: Array<Outcome | undefined>): void {
	if (handler.declaration.kind !== 'create' || typeof this.addExecutionHints !== 'function') return;
	const object = handler.declaration.findsAgain.object;
	let made = 0;
	let repeated = 0;
	let refused = 0;
	// Found again, but the money did not arrive (a failed payout is not "paid": docs/payroll.md).
	let notPaid = 0;
	for (const outcome of outcomes) {
		if (!outcome) continue;
		if ('error' in outcome) {
			refused += 1;
			continue;
		}
		for (const { json } of outcome.items) {
			if (foundAgain(json)) {
				repeated += 1;
				if (object === PAYOUT.label && typeof json.status === 'string' && NOT_ARRIVED.has(json.status)) notPaid += 1;
			} else made += 1;
		}
	}
	const plural = (count: number) => `${count} ${object}${count === 1 ? '' : 's'}`;
	const failedBefore = notPaid > 0 ? `; ${notPaid} of those found again had failed or been reversed: NOT paid` : '';
	const message = `${plural(made)} new, ${repeated} found again (made before: not made twice), ${refused} refused or failed${failedBefore}`;
	this.addExecutionHints({ message, type: refused > 0 || notPaid > 0 ? 'warning' : 'info', location: 'outputPane' });
	// Also in the execution's custom data (n8n's Executions list and API): a run that paid, told apart from a re-run that paid nothing.
	try {
		// A key of letters, digits and underscores only (n8n refuses any other), e.g. paycashless_Pay_Salaries.
		this.customData?.set(`paycashless_${this.getNode().name}`.replace(/[^\p{L}\p{N}\p{M}_]/gu, '_').slice(0, 50), message.slice(0, 255));
	} catch {
		// Custom data full (n8n keeps 10 keys) or not offered: the hint above still says it.
	}
}
