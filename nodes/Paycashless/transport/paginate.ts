/**
 * Cursor pagination, written once for every Get Many and list search. Pages are
 * `{ hasMore, cursor, data }`; the next page is asked for with `cursor`. The query (filters and
 * page size) is rebuilt for every page. Stops on `hasMore: false`, once `limit` records are in,
 * or when the cursor is missing or repeats (then it warns and keeps what it has).
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { failureError, stoppedError } from './errors';
import { succeeded } from './classify';
import { sendWithRetries, TRANSIENT } from './retry';
import type { Call } from './send';
import type { PaycashlessPage } from './types';

/** The largest page the API serves. */
export const MAX_PAGE_SIZE = 100;

export interface ListRequest {
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
}

/** Page size to ask for: 100 when returning all, otherwise the limit up to 100. */
function pageSizeFor(options: ListOptions): number {
	return options.returnAll ? MAX_PAGE_SIZE : Math.min(Math.max(1, Math.floor(options.limit)), MAX_PAGE_SIZE);
}

/** Fetches one page of a list. */
export async function fetchPage(call: Call, list: ListRequest, pageSize: number, cursor?: string): Promise<PaycashlessPage> {
	const request = { method: 'GET' as const, path: list.path, qs: { ...list.qs, limit: pageSize, cursor } };
	const result = await sendWithRetries(call, request, TRANSIENT);
	const { attempt } = result;
	if (result.failure !== undefined || !succeeded(attempt)) throw stoppedError(call, request, result);
	const body = attempt.body;
	if (!Array.isArray(body.data)) throw failureError(call, request, attempt, result.attempts, { kind: 'notAList' });
	const next = typeof body.cursor === 'string' && body.cursor !== '' ? body.cursor : undefined;
	return { data: body.data as IDataObject[], hasMore: body.hasMore === true, cursor: next };
}

/** All records of a list (or the first `limit`), following cursors. */
export async function paginate(call: Call, list: ListRequest, options: ListOptions): Promise<IDataObject[]> {
	const pageSize = pageSizeFor(options);
	const records: IDataObject[] = [];
	const seenCursors = new Set<string>();
	let cursor: string | undefined;
	for (;;) {
		// The last page of a Limit asks only for what is still missing (Limit 250: 100, 100, 50).
		const size = options.returnAll ? pageSize : Math.min(pageSize, options.limit - records.length);
		const page = await fetchPage(call, list, size, cursor);
		records.push(...page.data);
		if (!options.returnAll && records.length >= options.limit) return records.slice(0, options.limit);
		if (!page.hasMore) return records;
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
