/**
 * Runs the chosen operation for every input item: a loop and a dispatch. One place for item
 * handling: pairing each output with its input, turning bad input into NodeOperationError (with the
 * item index), honouring "Continue On Fail", and working on several items at once where the
 * operation allows it. Output is always in input order.
 *
 * What a run holds is its run object (./run.ts), made here once; how it goes is its plan (./plan.ts),
 * decided once from the operation's declaration; what it says when it ends is ./report.ts.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../helpers/errorCodes';
import { withMainUnits } from '../helpers/mainUnits';
import { InvalidInputError } from '../helpers/validation';
import { releaseUnsent } from '../money/reservedBatch';
import { openReadBacks } from '../transport';
import { errorJson, failedBeforeError, itemIdentity } from './failedItems';
import { beforeItemsApi, itemApi, itemOperation, LIMITS_OFF_NOTE, limitsOffNoted, planRun, shownRecords, type RunPlan } from './plan';
import { hintCreates, withWhatWasDone, type Outcome } from './report';
import { NodeRun } from './run';
import type { BeforeItems } from './types';

/** Runs item `i` and never throws: the records, or the error as an n8n error of that item. */
async function runItem(run: NodeRun, plan: RunPlan, i: number, paired: number[] = [i]): Promise<Outcome> {
	const { context } = run;
	let limitsOffNote = false;
	try {
		const handler = itemOperation(run, plan, i);
		limitsOffNote = limitsOffNoted(run, handler);
		const records = withMainUnits(await handler.execute.call(context, i, itemApi(run, handler, i), run));
		const shown = shownRecords(run, i, records, limitsOffNote);
		return {
			items: context.helpers.constructExecutionMetaData(context.helpers.returnJsonArray(shown), { itemData: paired.length === 1 ? { item: paired[0] } : paired.map((item) => ({ item })) }),
		};
	} catch (error) {
		const before = error instanceof InvalidInputError ? failedBeforeError.call(context, i, error) : undefined;
		const failure = before ?? asNodeError(context, error, i);
		if (limitsOffNote) failure.context.paycashless = { ...((failure.context.paycashless ?? {}) as IDataObject), moneyLimits: LIMITS_OFF_NOTE } as IDataObject as typeof failure.context.paycashless;
		return { error: failure, identity: itemIdentity.call(context, i) };
	}
}

/** The operation's `beforeItems` (./types.ts): what it decided, or the error every item gets. */
async function beforeItemsOf(run: NodeRun, plan: RunPlan): Promise<BeforeItems> {
	if (!plan.handler.beforeItems) return {};
	try {
		return await plan.handler.beforeItems.call(run.context, beforeItemsApi(run), run);
	} catch (error) {
		const failure = asNodeError(run.context, error, 0);
		return { refuseAll: { errors: run.context.getInputData().map(() => failure), summary: failure } };
	}
}

/** Item outcomes as output: the items' records in input order, a failed item as its error item. */
function output(outcomes: Array<Outcome | undefined>): INodeExecutionData[][] {
	const returnData: INodeExecutionData[] = [];
	for (let i = 0; i < outcomes.length; i++) {
		const outcome = outcomes[i];
		// Only items after a stopping failure are missing, and that failure comes first.
		if (!outcome) break;
		// A failed item is routed by "Continue (using error output)" through its JSON keys (see errorJson).
		if ('items' in outcome) returnData.push(...outcome.items);
		else returnData.push({ json: errorJson(outcome.error, outcome.identity), pairedItem: { item: i } });
	}
	return [returnData];
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	if (items.length === 0) return [[]];
	const run = new NodeRun(this);
	const plan = planRun(run, items.length);
	// As an AI agent's tool, a failure is an item the model reads (message and advice), not a stop.
	const stopOnError = !this.continueOnFail() && !run.asTool;
	if ('unsupported' in plan) {
		const unsupported = items.map((_, i) => ({ error: new NodeOperationError(this.getNode(), plan.unsupported, { itemIndex: i }), identity: itemIdentity.call(this, i) }));
		if (stopOnError) throw unsupported[0].error;
		return output(unsupported);
	}

	// A batch check runs once over all items: one record paired with every input.
	if (plan.batch) {
		const outcome = await runItem(run, plan, 0, items.map((_, i) => i));
		if ('error' in outcome && stopOnError) throw outcome.error;
		return 'error' in outcome ? [[{ json: errorJson(outcome.error, outcome.identity), pairedItem: items.map((_, i) => ({ item: i })) }]] : [outcome.items];
	}
	const before = await beforeItemsOf(run, plan);
	if (before.refuseAll) {
		if (stopOnError) throw before.refuseAll.summary;
		const refusedAll = before.refuseAll.errors.map((error, i) => ({ error, identity: itemIdentity.call(this, i) }));
		if (plan.hintsCreates) hintCreates.call(this, plan.handler, refusedAll);
		return output(refusedAll);
	}

	// Many creates of one run are read back from the list, 100 a request (transport/readBacks.ts):
	// an item whose create answered waits for that read and gives its place to the next item.
	const outcomes: Array<Outcome | undefined> = new Array(items.length);
	const waiting = new Map<number, () => void>();
	const readBacks = plan.readsBack ? openReadBacks(run.transport, { startedAt: Date.now(), concurrency: plan.concurrency, onWaiting: (i) => (i === undefined ? undefined : waiting.get(i)?.()) }) : undefined;
	const running: Array<Promise<void>> = [];
	let next = 0;
	let failed = false;
	// Workers take the next item in input order. After a failure that stops the node, no new item
	// starts; the ones in flight finish (a create under way is never abandoned half-way).
	const worker = async () => {
		while (next < items.length && !failed) {
			const i = next++;
			const done = runItem(run, plan, i).then((outcome) => {
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
	await Promise.all(Array.from({ length: plan.concurrency }, worker));
	// Every item was sent (or none more will be): the creates still waiting are read back now.
	await Promise.all([readBacks?.finish(), ...running]);
	// A batch reserved whole that stopped: the items not sent give their reservations back.
	releaseUnsent(run.money);
	if (plan.hintsCreates) hintCreates.call(this, plan.handler, outcomes);

	const firstError = outcomes.find((outcome) => !!outcome && 'error' in outcome);
	if (stopOnError && firstError && 'error' in firstError) throw withWhatWasDone.call(this, plan.handler, firstError.error, outcomes);
	return output(outcomes);
}
