/**
 * Cursor pagination shared by every list endpoint.
 *
 * Order: newest first, i.e. reverse order of creation (seeded records are older than anything
 * created while the emulator runs). The cursor is opaque to clients: base64url of the list name
 * and the position of the last item returned; the next page continues just below it, so
 * records created meanwhile never shift a page. `cursor` is null on the last page.
 *
 * With a list lag (`listLagMs`), a record created while running is left out of every list until
 * that long after its create, at its place by `createdAt` once it shows: as a list served from an
 * index that catches up with the records later would. Reads by id or reference see it at once.
 */
import { apiError, invalidField } from './errors.cjs';
import type { Row, Table } from './store.cjs';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

type RowFilter<T, M> = (row: Row<T, M>, value: string) => boolean;

export interface ListSpec<T extends object, M> {
	/** Cursor namespace: a cursor of one list is refused by another. */
	name: string;
	/** Accepted values of `status` (any value accepted when absent). */
	statuses?: readonly string[];
	/** Equality filters beyond `status`, by query parameter name. */
	filters?: Record<string, RowFilter<T, M>>;
	/** Turns a stored row into the list item. */
	present: (row: Row<T, M>) => unknown;
	/** Where `status` lives (default `obj.status`). */
	status?: (row: Row<T, M>) => string;
}

export interface Page {
	hasMore: boolean;
	cursor: string | null;
	data: unknown[];
}

const TIME_BOUNDS: Record<string, (created: number, bound: number) => boolean> = {
	'createdAt.gte': (created, bound) => created >= bound,
	'createdAt.lte': (created, bound) => created <= bound,
	'createdAt.lt': (created, bound) => created < bound,
	'createdAt.gt': (created, bound) => created > bound,
};

function positiveInteger(query: Record<string, string>, name: string): number | undefined {
	const raw = query[name];
	if (raw === undefined || raw === '') return undefined;
	if (!/^\d+$/.test(raw) || Number(raw) <= 0) {
		throw invalidField(name, `\`${name}\` must be a positive integer (got ${JSON.stringify(raw)}).`, 400);
	}
	return Number(raw);
}

function encodeCursor(name: string, index: number): string {
	return Buffer.from(JSON.stringify([name, index])).toString('base64url');
}

function decodeCursor(name: string, cursor: string, size: number): number {
	try {
		const [cursorName, index] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
		if (cursorName === name && Number.isSafeInteger(index) && (index as number) >= 0 && (index as number) <= size) {
			return index as number;
		}
	} catch {
		// fall through
	}
	throw apiError(400, 'invalid_request_error', 'invalid_cursor', '`cursor` is not a cursor returned by this list.', ['cursor'], 'cursor');
}

export function listPage<T extends object, M>(table: Table<T, M>, query: Record<string, string>, spec: ListSpec<T, M>): Page {
	const limit = positiveInteger(query, 'limit') ?? DEFAULT_LIMIT;
	if (limit > MAX_LIMIT) throw invalidField('limit', `\`limit\` must be between 1 and ${MAX_LIMIT}.`, 400);

	const checks: Array<(row: Row<T, M>) => boolean> = [];
	for (const [name, compare] of Object.entries(TIME_BOUNDS)) {
		const bound = positiveInteger(query, name);
		if (bound !== undefined) checks.push((row) => compare(row.createdAt, bound));
	}
	const status = query.status;
	if (status) {
		if (spec.statuses && !spec.statuses.includes(status)) {
			throw invalidField('status', `\`status\` must be one of ${spec.statuses.join(', ')}.`, 400);
		}
		const statusOf = spec.status ?? ((row: Row<T, M>) => String((row.obj as { status?: unknown }).status));
		checks.push((row) => statusOf(row) === status);
	}
	for (const [name, filter] of Object.entries(spec.filters ?? {})) {
		const value = query[name];
		if (value) checks.push((row) => filter(row, value));
	}

	const rows = table.rows;
	if (table.listLagMs > 0) {
		const shownBefore = Date.now() - table.listLagMs;
		checks.push((row) => row.addedAt === undefined || row.addedAt <= shownBefore);
	}
	const start = query.cursor ? decodeCursor(spec.name, query.cursor, rows.length) - 1 : rows.length - 1;
	const data: unknown[] = [];
	let lastIndex = -1;
	let hasMore = false;
	for (let index = start; index >= 0; index--) {
		const row = rows[index];
		if (!checks.every((check) => check(row))) continue;
		if (data.length === limit) {
			hasMore = true;
			break;
		}
		data.push(spec.present(row));
		lastIndex = index;
	}
	return { hasMore, cursor: hasMore ? encodeCursor(spec.name, lastIndex) : null, data };
}
