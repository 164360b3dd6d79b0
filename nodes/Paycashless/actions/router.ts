/**
 * Runs the chosen operation for every input item. One place for item handling: pairing each
 * output with its input, turning bad input into NodeOperationError (with the item index),
 * honouring "Continue On Fail", and working on several items at once where the operation allows
 * it ("Requests in Parallel", descriptions/concurrency.ts). Output is always in input order.
 * The operations and what their declarations become are in registry.ts.
 *
 * Longer than 250 lines on purpose: the item runner, the batch hook (one run for a batch check, an operation's beforeItems) and the hints are one loop over the items, read whole.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PAYOUT } from '../catalog/objects';
import { CONCURRENCY_PARAMETER, MAX_CONCURRENCY } from '../descriptions/concurrency';
import { readRequestOptions } from '../descriptions/requestOptions';
import { asNodeError } from '../helpers/errorCodes';
import { withMainUnits } from '../helpers/mainUnits';
import { InvalidInputError, requireInteger } from '../helpers/validation';
import { foundAgain, openReadBacks, paycashlessApi } from '../transport';
import { errorJson, failedBeforeError, itemIdentity } from './failedItems';
import { LIMITS_OFF_NOTE, limitsOff } from '../money/limitFields';
import { releaseUnsent } from '../money/reservedBatch';
import { moneyApi } from '../money/step';
import { defaultConcurrency, findOperation, writePolicy } from './registry';
import { runsAsTool } from '../helpers/runsAsTool';
import { offeredAsTool, SIMPLIFY_PARAMETER, simplifyForTool } from './tool';
import { batchKind, limitsKind, moneyKind, type BeforeItems, type PaycashlessOperation } from './types';

type Outcome = { items: INodeExecutionData[] } | { error: NodeApiError | NodeOperationError; identity: IDataObject };

/** What the tool's results carry while its limits are off. */
function withLimitsOffNote(records: IDataObject | IDataObject[]): IDataObject | IDataObject[] {
	const note = (record: IDataObject) => ({ ...record, moneyLimits: LIMITS_OFF_NOTE });
	return Array.isArray(records) ? records.map(note) : note(records);
}

/** Runs item `i` and never throws: the records, or the error as an n8n error of that item. */
async function runItem(this: IExecuteFunctions, i: number, paired: number[] = [i]): Promise<Outcome> {
	// A tool moving money with its limits off says so in every result, refusals and failures too.
	let limitsOffNote = false;
	try {
		const resource = this.getNodeParameter('resource', i) as string;
		const operation = this.getNodeParameter('operation', i) as string;
		const handler = findOperation(resource, operation);
		if (!handler) {
			throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`, {
				itemIndex: i,
			});
		}
		const asTool = runsAsTool.call(this);
		// Checked again at run time: a tool stored with another operation (edited JSON) runs nothing.
		if (asTool && !offeredAsTool(handler)) {
			throw new NodeOperationError(this.getNode(), `Refused: "${operation}" of "${resource}" is not offered to an AI agent`, {
				itemIndex: i,
				description: 'Nothing was sent. Operations that wait for a callback or check a received callback run only in a regular Paycashless node.',
			});
		}
		limitsOffNote = asTool && moneyKind(handler.declaration) !== undefined && limitsOff.call(this);
		const transport = paycashlessApi(this, {
			settings: readRequestOptions.call(this, i),
			itemIndex: i,
			policy: writePolicy(handler.declaration),
		});
		// Operations that move money send their creates through the money step (money/step.ts).
		// A batch check only reads: sealed too, so that no body can leave it.
		const sealed = limitsKind(handler.declaration) !== undefined;
		const api = sealed ? moneyApi(transport) : transport;
		const records = withMainUnits(await handler.execute.call(this, i, api));
		const simplified = asTool && this.getNodeParameter(SIMPLIFY_PARAMETER, i, true) === true ? simplifyForTool(records) : records;
		const shown = limitsOffNote ? withLimitsOffNote(simplified) : simplified;
		return {
			items: this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(shown), { itemData: paired.length === 1 ? { item: paired[0] } : paired.map((item) => ({ item })) }),
		};
	} catch (error) {
		const before = error instanceof InvalidInputError ? failedBeforeError.call(this, i, error) : undefined;
		const failure = before ?? asNodeError(this, error, i);
		if (limitsOffNote) failure.context.paycashless = { ...((failure.context.paycashless ?? {}) as IDataObject), moneyLimits: LIMITS_OFF_NOTE } as IDataObject as typeof failure.context.paycashless;
		return { error: failure, identity: itemIdentity.call(this, i) };
	}
}

/**
 * A write that stops the node still says what this run already did: the items created or found
 * before (or beside) the failure, by reference and id, in the error's description and in
 * `context.paycashless.done`. n8n shows no output items for a failed node, so without this a
 * batch that paid 195 of 300 would look as if it paid nothing.
 */
function withWhatWasDone(
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

/** Items in flight at once: "Requests in Parallel" of the operation, or 1 when it has none. */
function concurrencyOf(this: IExecuteFunctions, handler: PaycashlessOperation | undefined): number {
	const fallback = handler ? defaultConcurrency(handler.declaration) : undefined;
	if (fallback === undefined) return 1;
	const value = this.getNodeParameter(CONCURRENCY_PARAMETER, 0, fallback);
	try {
		return requireInteger(value, 'Requests in Parallel', 1, MAX_CONCURRENCY);
	} catch (error) {
		throw asNodeError(this, error, 0);
	}
}

/** The operation reads its new objects back from a list (a payout create). */
function readsBackFromList(handler: PaycashlessOperation | undefined): boolean {
	return handler?.declaration.kind === 'create' && handler.declaration.findsAgain.listedSince !== undefined;
}

/** The operation of the run (item 0's Resource and Operation: n8n gives them no expressions). */
function operationOfRun(this: IExecuteFunctions): PaycashlessOperation | undefined {
	return findOperation(this.getNodeParameter('resource', 0) as string, this.getNodeParameter('operation', 0) as string);
}

/** The operation's `beforeItems` (./types.ts), with a read-only, sealed API: what it decided, or the error every item gets. */
async function beforeItemsOf(this: IExecuteFunctions, handler: PaycashlessOperation): Promise<BeforeItems> {
	if (!handler.beforeItems) return {};
	try {
		const transport = paycashlessApi(this, { settings: readRequestOptions.call(this, 0), itemIndex: 0, policy: undefined });
		return await handler.beforeItems.call(this, moneyApi(transport));
	} catch (error) {
		const failure = asNodeError(this, error, 0);
		return { refuseAll: { errors: this.getInputData().map(() => failure), summary: failure } };
	}
}

/** Final statuses of a payout found again after which the money did not arrive: not paid. */
const NOT_ARRIVED = new Set(PAYOUT.finalStatuses.filter((status) => status !== 'succeeded'));

/** Says where n8n shows it (execution hints) how many creates were new, found again and refused. */
function hintCreates(this: IExecuteFunctions, handler: PaycashlessOperation | undefined, outcomes: Array<Outcome | undefined>): void {
	if (!handler || handler.declaration.kind !== 'create' || typeof this.addExecutionHints !== 'function' || runsAsTool.call(this)) return;
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

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const outcomes: Array<Outcome | undefined> = new Array(items.length);
	// As an AI agent's tool, a failure is an item the model reads (message and advice), not a stop.
	const stopOnError = !this.continueOnFail() && !runsAsTool.call(this);
	let next = 0;
	let failed = false;
	const handler = items.length === 0 ? undefined : operationOfRun.call(this);

	// A batch check (./types.ts BATCH_CHECK_OF) runs once over all items: one record paired with every input.
	if (handler && batchKind(handler.declaration) !== undefined) {
		const outcome = await runItem.call(this, 0, items.map((_, i) => i));
		if ('error' in outcome) {
			if (stopOnError) throw outcome.error;
			return [[{ json: errorJson(outcome.error, outcome.identity), pairedItem: items.map((_, i) => ({ item: i })) }]];
		}
		return [outcome.items];
	}
	const plan = handler ? await beforeItemsOf.call(this, handler) : {};
	if (plan.refuseAll) {
		if (stopOnError) throw plan.refuseAll.summary;
		const refusedAll = plan.refuseAll.errors.map((error, i) => ({ error, identity: itemIdentity.call(this, i) }));
		hintCreates.call(this, handler, refusedAll);
		return [refusedAll.map(({ error, identity }, i) => ({ json: errorJson(error, identity), pairedItem: { item: i } }))];
	}
	// All or Nothing too runs at Requests in Parallel: its batch is reserved whole before (money/reservedBatch.ts).
	const workers = items.length === 0 ? 0 : Math.min(concurrencyOf.call(this, handler), items.length);

	// Many creates of one run are read back from the list, 100 a request (transport/readBacks.ts):
	// an item whose create answered waits for that read and gives its place to the next item.
	const waiting = new Map<number, () => void>();
	const readBacks =
		items.length > 1 && readsBackFromList(handler)
			? openReadBacks(this, { startedAt: Date.now(), concurrency: workers, onWaiting: (i) => (i === undefined ? undefined : waiting.get(i)?.()) })
			: undefined;
	const running: Array<Promise<void>> = [];

	// Workers take the next item in input order. After a failure that stops the node, no new item
	// starts; the ones in flight finish (a create under way is never abandoned half-way).
	const worker = async () => {
		while (next < items.length && !failed) {
			const i = next++;
			const done = runItem.call(this, i).then((outcome) => {
				outcomes[i] = outcome;
				if ('error' in outcome && stopOnError) failed = true;
			});
			running.push(done);
			// Until the item is done, or its create answered and waits to be read back.
			await new Promise<void>((resolve) => {
				waiting.set(i, resolve);
				void done.then(resolve);
			});
			waiting.delete(i);
		}
	};
	await Promise.all(Array.from({ length: workers }, worker));
	// Every item was sent (or none more will be): the creates still waiting are read back now.
	await Promise.all([readBacks?.finish(), ...running]);
	// A batch reserved whole that stopped: the items not sent give their reservations back.
	releaseUnsent.call(this);
	hintCreates.call(this, handler, outcomes);

	const returnData: INodeExecutionData[] = [];
	const firstError = outcomes.find((outcome): outcome is { error: NodeApiError | NodeOperationError; identity: IDataObject } => !!outcome && 'error' in outcome);
	if (stopOnError && firstError) throw withWhatWasDone.call(this, handler, firstError.error, outcomes);
	for (let i = 0; i < items.length; i++) {
		const outcome = outcomes[i];
		// Only items after a stopping failure are missing, and that failure comes first.
		if (!outcome) break;
		if ('items' in outcome) {
			returnData.push(...outcome.items);
			continue;
		}
		// Routed by "Continue (using error output)" through its JSON keys (see errorJson).
		returnData.push({ json: errorJson(outcome.error, outcome.identity), pairedItem: { item: i } });
	}

	return [returnData];
}
