/**
 * How a node run goes, decided once from its operation's declaration (./types.ts) before any item
 * runs: items one by one or a batch check over all of them, how many at once ("Requests in
 * Parallel"), whether its creates are read back from their list, whether its API is sealed by the
 * money step, and what its output carries (the tool's simplified records, the limits-off note, the
 * execution hint). The router (./router.ts) only follows it.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CONCURRENCY_PARAMETER, MAX_CONCURRENCY } from './fields/concurrency';
import { readRequestOptions } from './fields/requestOptions';
import { asNodeError } from '../helpers/errorCodes';
import { requireInteger } from '../helpers/validation';
import { LIMITS_OFF_NOTE, limitsOff } from '../money/limitFields';
import { moneyApi } from '../money/step';
import { paycashlessApi, type PaycashlessApi } from '../transport';
import { defaultConcurrency, findOperation, writePolicy } from './registry';
import type { NodeRun } from './run';
import { offeredAsTool, SIMPLIFY_PARAMETER, simplifyForTool } from './tool';
import { batchKind, limitsKind, moneyKind, type PaycashlessOperation } from './types';

export interface RunPlan {
	/** Item 0's Resource and Operation: the run's (n8n gives them no expressions). */
	resource: string;
	operation: string;
	handler: PaycashlessOperation;
	/** A batch check (./types.ts BATCH_CHECK_OF): one call for all items, one record paired with every input. */
	batch: boolean;
	/** Items in flight at once: "Requests in Parallel", or 1 where the operation has none. */
	concurrency: number;
	/** Many creates of the run are read back from their list, 100 a request (transport/readBacks.ts). */
	readsBack: boolean;
	/** Creates say in n8n's execution hints how many were new, found again and refused (not as a tool). */
	hintsCreates: boolean;
}

function namesOf(context: IExecuteFunctions, i: number): { resource: string; operation: string } {
	return { resource: context.getNodeParameter('resource', i) as string, operation: context.getNodeParameter('operation', i) as string };
}

/**
 * The plan of `run` over `count` input items (at least one), or why there is none (an operation
 * this version does not have: every item fails with it). Throws what a bad Requests in Parallel is.
 */
export function planRun(run: NodeRun, count: number): RunPlan | { unsupported: string } {
	const { context } = run;
	const { resource, operation } = namesOf(context, 0);
	const handler = findOperation(resource, operation);
	if (!handler) return { unsupported: `The operation "${operation}" of "${resource}" is not supported` };
	const { declaration } = handler;
	const batch = batchKind(declaration) !== undefined;
	const fallback = batch ? undefined : defaultConcurrency(declaration);
	let concurrency = 1;
	if (fallback !== undefined) {
		try {
			concurrency = requireInteger(context.getNodeParameter(CONCURRENCY_PARAMETER, 0, fallback), 'Requests in Parallel', 1, MAX_CONCURRENCY);
		} catch (error) {
			throw asNodeError(context, error, 0);
		}
	}
	return {
		resource,
		operation,
		handler,
		batch,
		concurrency: Math.min(concurrency, count),
		readsBack: count > 1 && declaration.kind === 'create' && declaration.findsAgain.listedSince !== undefined,
		hintsCreates: declaration.kind === 'create' && !run.asTool && typeof context.addExecutionHints === 'function',
	};
}

/**
 * The operation of item `i`: the run's, unless the item's Resource and Operation name another (n8n
 * gives them no expressions, but a run may be given items that differ). Checked again at run time:
 * a tool stored with an operation it does not offer (edited JSON) runs nothing.
 */
export function itemOperation(run: NodeRun, plan: RunPlan, i: number): PaycashlessOperation {
	const { resource, operation } = i === 0 ? plan : namesOf(run.context, i);
	const handler = resource === plan.resource && operation === plan.operation ? plan.handler : findOperation(resource, operation);
	if (!handler) throw new NodeOperationError(run.node, `The operation "${operation}" of "${resource}" is not supported`, { itemIndex: i });
	if (run.asTool && !offeredAsTool(handler)) {
		throw new NodeOperationError(run.node, `Refused: "${operation}" of "${resource}" is not offered to an AI agent`, {
			itemIndex: i,
			description: 'Nothing was sent. Operations that wait for a callback or check a received callback run only in a regular Paycashless node.',
		});
	}
	return handler;
}

/** A tool moving money with its limits off: every result of `handler` says so, refusals and failures too. */
export function limitsOffNoted(run: NodeRun, handler: PaycashlessOperation): boolean {
	return run.asTool && moneyKind(handler.declaration) !== undefined && limitsOff(run.money);
}

/**
 * The API item `i` is given for `handler`: its Request Options and write policy; sealed by the money
 * step when it moves money (money/step.ts), or checks a batch that would (only reads: no body can leave it).
 */
export function itemApi(run: NodeRun, handler: PaycashlessOperation, i: number): PaycashlessApi {
	const transport = paycashlessApi(run.transport, { settings: readRequestOptions.call(run.context, i), itemIndex: i, policy: writePolicy(handler.declaration) });
	return limitsKind(handler.declaration) !== undefined ? moneyApi(run.money, transport) : transport;
}

/** The API of an operation's `beforeItems` (./types.ts): reads only, sealed so that no body can leave it. */
export function beforeItemsApi(run: NodeRun): PaycashlessApi {
	return moneyApi(run.money, paycashlessApi(run.transport, { settings: readRequestOptions.call(run.context, 0), itemIndex: 0 }));
}

/** What item `i`'s records become (with main units): the tool's simplified records, with the limits-off note where it is due. */
export function shownRecords(run: NodeRun, i: number, records: IDataObject | IDataObject[], limitsOffNote: boolean): IDataObject | IDataObject[] {
	const simplified = run.asTool && run.context.getNodeParameter(SIMPLIFY_PARAMETER, i, true) === true ? simplifyForTool(records) : records;
	return limitsOffNote ? withLimitsOffNote(simplified) : simplified;
}

/** What the tool's results carry while its limits are off. */
function withLimitsOffNote(records: IDataObject | IDataObject[]): IDataObject | IDataObject[] {
	const note = (record: IDataObject) => ({ ...record, moneyLimits: LIMITS_OFF_NOTE });
	return Array.isArray(records) ? records.map(note) : note(records);
}

export { LIMITS_OFF_NOTE };
