/**
 * The transport: `paycashlessApi(run, options)` gives the rest of the node an object that sends
 * requests and pages through lists with the settings, item and write policy it was made with, in a
 * run (run.ts: the Base URL read once, the 429 hold, the read-backs). Everything is plain values:
 * the transport reads no node parameters.
 *
 * A request goes down one pipe, in these files:
 *
 *   index.ts   paycashlessApi → sendRequest (picks the create policy) / paginate
 *   run.ts     what the requests of one run share
 *     retry.ts   sendWithRetries: the one loop; decides which failures it retries
 *       send.ts    sendAttempt → httpRequestWithAuthentication (the credential signs) → classify
 *       create.ts  a create's reconciliation by reference (the loop's step), its read-back, its output
 *       readBacks.ts  a run's many creates read back from their list, 100 a request
 *     errors.ts  the one place an error is made
 *   types.ts   the vocabulary: request, settings, write policy, attempt
 *
 * Signing happens in the credential's `authenticate`. The policies:
 * - the requests of an operation declared a read, and a write's look-ups on the way (GETs):
 *   retried on 429, 5xx and network failures; a read that would write is refused, nothing sent;
 * - creates with a reference (the operation's create policy): reconciled by the reference in the
 *   body that was sent, never resent blindly, and returned as the one create output with its
 *   `_paycashless` marker;
 * - other writes: resent only after failures that changed nothing (429, refused connection);
 *   otherwise they end with "outcome unknown" and how to check (the operation's check policy).
 * Every non-2xx answer (and the 2xx payout failure form) becomes an error in errors.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { createdOutput, readBack, reconcileStep } from './create';
import { failureError, stoppedError } from './errors';
import { ReadBackRun, type ReadBackRunOptions } from './readBacks';
import { sendWithRetries } from './retry';
import { TransportRun } from './run';
import { succeeded } from './send';
import {
	DEFAULT_TRANSPORT_SETTINGS,
	checkDeclared,
	isRepeatable,
	referenceOf,
	type Call,
	type PaycashlessContext,
	type PaycashlessPage,
	type PaycashlessRequest,
	type TransportSettings,
	type WritePolicy,
} from './types';

/**
 * Opens a run of read-backs for this run: from now on, a create of it that answers short waits to
 * be read back from the list (transport/readBacks.ts), and `onWaiting` tells the caller its item
 * may give its place. Call `finish` on the result once every item has been sent.
 */
export function openReadBacks(run: TransportRun, options: ReadBackRunOptions): { finish(): Promise<void> } {
	const readBacks = new ReadBackRun({ page: fetchPage, readOne: readBack }, options);
	run.readBacks = readBacks;
	return {
		finish: async () => {
			try {
				await readBacks.finish();
			} finally {
				if (run.readBacks === readBacks) run.readBacks = undefined;
			}
		},
	};
}

export { foundAgain, foundBeforeSending, MARKER } from './create';
export { TransportRun } from './run';
export { apiPath, DEFAULT_TRANSPORT_SETTINGS, SETTING_LIMITS, type RepeatedReferenceMode, type TransportSettings } from './types';
export type { FoundByReference, KeyField, PaycashlessRequest, WritePolicy } from './types';

export interface TransportOptions {
	/** Default: DEFAULT_TRANSPORT_SETTINGS. */
	settings?: TransportSettings;
	/** The input item the requests are for (errors name it). */
	itemIndex?: number;
	/** How the operation's writes are treated; reads need none. */
	policy?: WritePolicy;
}

export interface PaycashlessApi {
	/** Sends one request with the retries (and reconciliation) its kind allows; the JSON answer. */
	request(request: PaycashlessRequest): Promise<IDataObject>;
	/** All records of a list, or the first `limit`, following cursors. */
	paginate(list: ListRequest, options: ListOptions): Promise<IDataObject[]>;
	/** One page of a list. */
	page(list: ListRequest, pageSize: number, cursor?: string): Promise<PaycashlessPage>;
}

/**
 * An API for `run`'s requests (../actions/run.ts makes a node run's), or for n8n's `context` alone
 * (a poll, a webhook call, a list search): then the API is its own run.
 */
export function paycashlessApi(runOrContext: TransportRun | PaycashlessContext, options: TransportOptions = {}): PaycashlessApi {
	const run = runOrContext instanceof TransportRun ? runOrContext : new TransportRun(runOrContext);
	const settings = options.settings ?? { ...DEFAULT_TRANSPORT_SETTINGS };
	const call = async (): Promise<Call> => ({
		context: run.context,
		hold: run.hold,
		settings,
		baseURL: await run.baseUrlOf(),
		itemIndex: options.itemIndex,
		policy: options.policy,
	});
	return {
		request: async (request) => await sendRequest(run, await call(), request),
		paginate: async (list, listOptions) => await paginate(await call(), list, listOptions),
		page: async (list, pageSize, cursor) => await fetchPage(await call(), list, pageSize, cursor),
	};
}

/**
 * Sends one request through the one retry loop and returns the parsed JSON answer. Under a create
 * policy the request carries its reconciliation as the loop's step; a short answer the policy
 * declares (`readBack`) is completed by reading the object back; the answer leaves as the one
 * create output (create.ts).
 */
async function sendRequest(run: TransportRun, call: Call, request: PaycashlessRequest): Promise<IDataObject> {
	const undeclared = checkDeclared(request, call.policy);
	if (undeclared !== undefined) throw new NodeOperationError(call.context.getNode(), undeclared, { itemIndex: call.itemIndex });
	const create = !isRepeatable(request, call.policy) && call.policy?.kind === 'create' ? call.policy.findsAgain : undefined;
	const reference = referenceOf(request);
	const result = await sendWithRetries(call, request, create && reference !== undefined ? reconcileStep(call, request, create, reference) : undefined);
	if (result.found) return result.found;
	if (!result.body) throw stoppedError(call, request, result);
	if (!create) return result.body;
	if (reference !== undefined && create.readBack?.(result.body)) {
		const readBacks = run.readBacks;
		const whole = readBacks ? await readBacks.readBack(call, create, reference, result.body) : await readBack(call, create.lookup(reference));
		return createdOutput(create, reference, result.body, whole);
	}
	return createdOutput(create, reference, result.body);
}

// ---- Lists: cursor pagination, written once for every Get Many and list search. Pages are
// `{ hasMore, cursor, data }`; the next page is asked for with `cursor`. The query (filters and
// page size) is rebuilt for every page. Stops on `hasMore: false`, once `limit` records are in, or
// when the cursor is missing or repeats (then it warns and keeps what it has).

/** The largest page the API serves. */
export const MAX_PAGE_SIZE = 100;

interface ListRequest {
	/** List path, e.g. `/v1/payouts`. */
	path: string;
	/** Filters, sent on every page. */
	qs?: IDataObject;
}

export interface ListOptions {
	returnAll: boolean;
	/** Maximum number of records when not returning all (1 or more). */
	limit: number;
	/**
	 * When Paycashless says more records follow but gives no usable cursor: `keep` what was read
	 * and warn (a Get Many, the default), or `fail` (a list that must be complete, e.g. a poll
	 * that would otherwise mark records as seen that it never read).
	 */
	incomplete?: 'keep' | 'fail';
	/**
	 * Filters the records after the read (a filter the list does not take): only kept records
	 * count towards `limit`, and every page asks for 100.
	 */
	keep?: (record: IDataObject) => boolean;
	/**
	 * Stops after the first page for which it is true (a read of what is new since an earlier read:
	 * up to the first page holding a record that read had).
	 */
	until?: (page: IDataObject[]) => boolean;
}

/** Page size to ask for: 100 when returning all, otherwise the limit up to 100. */
function pageSizeFor(options: ListOptions): number {
	return options.returnAll || options.keep ? MAX_PAGE_SIZE : Math.min(Math.max(1, Math.floor(options.limit)), MAX_PAGE_SIZE);
}

/** Fetches one page of a list. */
async function fetchPage(call: Call, list: ListRequest, pageSize: number, cursor?: string): Promise<PaycashlessPage> {
	const request = { method: 'GET' as const, path: list.path, qs: { ...list.qs, limit: pageSize, cursor } };
	const result = await sendWithRetries(call, request);
	const { attempt } = result;
	if (result.failure !== undefined || !succeeded(attempt)) throw stoppedError(call, request, result);
	const body = attempt.body;
	if (!Array.isArray(body.data)) throw failureError(call, request, attempt, result.attempts, { kind: 'notAList' });
	const next = typeof body.cursor === 'string' && body.cursor !== '' ? body.cursor : undefined;
	return { data: body.data as IDataObject[], hasMore: body.hasMore === true, cursor: next };
}

/** All records of a list (or the first `limit`), following cursors. */
async function paginate(call: Call, list: ListRequest, options: ListOptions): Promise<IDataObject[]> {
	const pageSize = pageSizeFor(options);
	const records: IDataObject[] = [];
	const seenCursors = new Set<string>();
	let cursor: string | undefined;
	for (;;) {
		// The last page of a Limit asks only for what is still missing (Limit 250: 100, 100, 50).
		const size = options.returnAll || options.keep ? pageSize : Math.min(pageSize, options.limit - records.length);
		const page = await fetchPage(call, list, size, cursor);
		records.push(...(options.keep ? page.data.filter(options.keep) : page.data));
		if (!options.returnAll && records.length >= options.limit) return records.slice(0, options.limit);
		if (!page.hasMore || options.until?.(page.data)) return records;
		const next = page.cursor;
		const stuck =
			next === undefined
				? 'without a cursor'
				: seenCursors.has(next)
					? `with the cursor "${next}" it had sent before`
					: page.data.length === 0
						? 'with an empty page'
						: undefined;
		if (next === undefined || stuck !== undefined) {
			if (options.incomplete === 'fail') {
				throw new NodeOperationError(call.context.getNode(), `Paycashless said more records follow on ${list.path} but answered ${stuck}`, {
					description: `${records.length} records were read before that; nothing of this list is used. The next run reads it again.`,
				});
			}
			call.context.logger.warn(
				`Paycashless said more records follow on ${list.path} but answered ${stuck}; stopped after ${records.length} records`,
				{ path: list.path, records: records.length },
			);
			return records;
		}
		seenCursors.add(next);
		cursor = next;
	}
}
