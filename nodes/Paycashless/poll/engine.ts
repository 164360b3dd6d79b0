/**
 * The Paycashless Poll Trigger's engine, without n8n's node description (its Event lists are
 * in events.ts): which list requests one
 * poll sends, which records are new events, and the state kept in the workflow's static data.
 *
 * Paycashless lists can only be filtered by `status` and by creation time (`createdAt.*`), newest
 * first; nothing tells what changed since a moment. So:
 * - "New record" events read the records created since the newest creation time known to be
 *   read (minus CREATION_OVERLAP_SECONDS for records that show up late) and emit the ones not
 *   emitted before. "Known to be read": the newest record seen, or the start of the last poll
 *   minus the clock difference Paycashless accepts (MAX_CLOCK_SKEW_SECONDS), since anything
 *   created after a poll began carries at least that time.
 * - "Status" events read, per watched status, every record created within the look-back window
 *   (e.g. the last 72 hours) that is in that status now, and emit the ones not emitted before. A
 *   record created earlier that reaches the status later is caught as long as it was created
 *   within the window; older ones are not (the API cannot tell).
 * What was emitted is remembered as keys (`<id>|<status>`) with an upper bound of the record's
 * creation time, so a key is forgotten only once its record can no longer be listed by any later
 * poll (its creation time is before the window's start, which never moves back: `floor`).
 * At most MAX_REMEMBERED keys are kept: beyond that the window's start moves forward until the
 * newest MAX_REMEMBERED fit, and status changes of older records are no longer caught (logged).
 *
 * A poll computes the new state on the side and writes it into the static data only when every
 * page was read, right before returning its items: a poll that fails half-way changes nothing,
 * so the next poll reads the same records again and nothing is lost or emitted twice.
 *
 * Longer than 250 lines on purpose: the window (planPoll), the events (collectEvents) and the
 * state left behind (decide) are one algorithm whose promises (the floor never moves back, a key is forgotten only once no later poll
 * can list its record) hold only read together. The item an event becomes: ./items.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { CREATED_STATUS } from '../catalog/eventKeys';
import { creationTime, MAX_CLOCK_SKEW_SECONDS } from './creation';
import type { PollResource } from './events';

/** What a trigger watches: records appearing, or records being in one of `statuses`. */
export type Watch = { type: 'created' } | { type: 'status'; statuses: string[] };

type StartFrom = { mode: 'now' } | { mode: 'date'; seconds: number };

export interface PollSettings {
	resource: PollResource;
	watch: Watch;
	startFrom: StartFrom;
	/** Status events: how long after its creation a record's status change is still caught. */
	lookbackSeconds: number;
	/** Anything else that makes remembered keys meaningless when it changes (the credential). */
	scope: string;
}

/** Version of the state's layout. */
const STATE_VERSION = 1;
/** Most event keys remembered (about 40 bytes each in the workflow's static data). */
export const MAX_REMEMBERED = 10_000;
/**
 * "New record" events re-read this many seconds before the newest creation time known to be
 * read, for records that show up in a list a little after the time they carry.
 */
const CREATION_OVERLAP_SECONDS = 60;
/** A poll counts as running for at most this long; an overlapping poll of the same node is skipped. */
export const LEASE_MS = 10 * 60_000;

export interface PollState {
	v: number;
	/** Fingerprint of the settings the keys belong to. */
	cfg: string;
	/** Unix seconds: no poll reads records created before this (it only moves forward). */
	floor: number;
	/** "New record" events: Unix seconds, the newest creation time known to be read. */
	high?: number;
	/** `<id>|<status>` → Unix seconds no earlier than the record's creation. */
	seen: Record<string, number>;
}

/** One list request series (all pages). */
export interface ListQuery {
	/** `status` filter, when watching statuses. */
	status?: string;
	/** `createdAt.gte`. */
	createdFrom: number;
}

export interface PollPlan {
	/** Start of this poll's window (Unix seconds). */
	start: number;
	/** No usable state: the settings are new or changed. */
	fresh: boolean;
	/** Fresh with Start From "now": remember what is there, emit nothing. */
	baseline: boolean;
	queries: ListQuery[];
	/** The state this poll starts from (a fresh one when `fresh`). */
	state: PollState;
}

export interface PollEvent {
	key: string;
	id: string;
	status: string;
	record: IDataObject;
	/** Exact creation time in ms, when the record says. */
	createdMs?: number;
	/** Upper bound of the creation time, Unix seconds. */
	createdBound: number;
	/** Order within the poll when creation times are unknown or equal. */
	rank: number;
}

function fingerprint(settings: PollSettings): string {
	const watch =
		settings.watch.type === 'created' ? CREATED_STATUS : [...settings.watch.statuses].map((s) => s.toLowerCase()).sort().join(',');
	const start = settings.startFrom.mode === 'date' ? `date:${settings.startFrom.seconds}` : 'now';
	return [settings.resource, watch, start, settings.scope].join(' ');
}

function isState(value: IDataObject): boolean {
	return (
		value.v === STATE_VERSION &&
		typeof value.cfg === 'string' &&
		typeof value.floor === 'number' &&
		typeof value.seen === 'object' &&
		value.seen !== null &&
		!Array.isArray(value.seen)
	);
}

/** Decides this poll's window from the stored state (or a fresh one). */
export function planPoll(stored: IDataObject, settings: PollSettings, nowSeconds: number): PollPlan {
	const cfg = fingerprint(settings);
	const usable = isState(stored) && stored.cfg === cfg;
	const created = settings.watch.type === 'created';
	let state: PollState;
	let baseline = false;
	if (usable) {
		state = {
			v: STATE_VERSION,
			cfg,
			floor: stored.floor as number,
			seen: { ...(stored.seen as Record<string, number>) },
			...(typeof stored.high === 'number' ? { high: stored.high } : {}),
		};
	} else if (settings.startFrom.mode === 'date') {
		const from = settings.startFrom.seconds;
		state = { v: STATE_VERSION, cfg, floor: from, seen: {}, ...(created ? { high: from + CREATION_OVERLAP_SECONDS } : {}) };
	} else {
		baseline = true;
		const high = nowSeconds - MAX_CLOCK_SKEW_SECONDS;
		const from = created ? high - CREATION_OVERLAP_SECONDS : nowSeconds - settings.lookbackSeconds;
		state = { v: STATE_VERSION, cfg, floor: Math.max(1, from), seen: {}, ...(created ? { high } : {}) };
	}

	let start: number;
	if (created) start = Math.max(state.floor, (state.high ?? state.floor) - CREATION_OVERLAP_SECONDS);
	else if (!usable && settings.startFrom.mode === 'date') start = state.floor; // the first poll reads back to the date
	else start = Math.max(state.floor, nowSeconds - settings.lookbackSeconds);
	start = Math.max(1, start);

	const queries: ListQuery[] =
		settings.watch.type === 'created'
			? [{ createdFrom: start }]
			: settings.watch.statuses.map((status) => ({ status, createdFrom: start }));
	return { start, fresh: !usable, baseline, queries, state };
}

export interface CollectResult {
	/** Every record that matches, as events (new or not), deduplicated. */
	events: PollEvent[];
	/** Records skipped because they had no id. */
	withoutId: number;
}

/**
 * Turns the pages read for each query into events: one per record and status, checked again on
 * this side (status in the watched set, created within the window when the record says when).
 */
export function collectEvents(
	settings: PollSettings,
	plan: PollPlan,
	results: IDataObject[][],
	nowSeconds: number,
): CollectResult {
	const wanted =
		settings.watch.type === 'status' ? new Set(settings.watch.statuses.map((s) => s.toLowerCase())) : undefined;
	const byKey = new Map<string, PollEvent>();
	let withoutId = 0;
	let rank = 0;
	results.forEach((records, queryIndex) => {
		// Lists are newest first: walk them backwards so `rank` follows creation order.
		for (let index = records.length - 1; index >= 0; index--) {
			const record = records[index];
			rank += 1;
			if (typeof record !== 'object' || record === null) continue;
			const id = typeof record.id === 'string' ? record.id.trim() : '';
			if (!id) {
				withoutId += 1;
				continue;
			}
			let status = CREATED_STATUS;
			if (wanted) {
				status = typeof record.status === 'string' ? record.status.toLowerCase() : '';
				if (!wanted.has(status)) continue;
			}
			const time = creationTime(record, nowSeconds);
			if (time.exactMs !== undefined && Math.floor(time.exactMs / 1000) < plan.queries[queryIndex].createdFrom) continue;
			if (time.exactMs === undefined && time.bound < plan.queries[queryIndex].createdFrom) continue;
			const key = `${id}|${status}`;
			if (byKey.has(key)) continue;
			byKey.set(key, {
				key,
				id,
				status,
				record,
				createdMs: time.exactMs,
				createdBound: time.bound,
				rank: queryIndex * 1_000_000_000 + rank,
			});
		}
	});
	return { events: [...byKey.values()], withoutId };
}

/** Creation order: by creation time when every event has one, else by list order. */
function inCreationOrder(events: PollEvent[]): PollEvent[] {
	const allTimed = events.every((event) => event.createdMs !== undefined);
	return [...events].sort((a, b) => {
		if (allTimed && a.createdMs !== b.createdMs) return (a.createdMs as number) - (b.createdMs as number);
		return a.rank - b.rank;
	});
}

export interface PollOutcome {
	/** Events to emit, in creation order (empty on a baseline poll). */
	emit: PollEvent[];
	/** The state to store once the poll is committed. */
	next: PollState;
	/** Set when the bound forced the window's start forward: the new start (Unix seconds). */
	trimmedTo?: number;
}

/** What this poll emits and the state it leaves. Pure. */
export function decide(settings: PollSettings, plan: PollPlan, events: PollEvent[], nowSeconds: number): PollOutcome {
	const state = plan.state;
	const fresh = events.filter((event) => state.seen[event.key] === undefined);
	const emit = plan.baseline ? [] : inCreationOrder(fresh);

	const seen: Record<string, number> = { ...state.seen };
	for (const event of fresh) seen[event.key] = event.createdBound;

	let floor = Math.max(state.floor, plan.start);
	let high = state.high;
	if (settings.watch.type === 'created') {
		const newest = events.reduce((max, event) => (event.createdMs === undefined ? max : Math.max(max, Math.floor(event.createdMs / 1000))), 0);
		// Records created after this poll began carry at least (this host's clock − the accepted skew).
		high = Math.max(high ?? 0, newest, nowSeconds - MAX_CLOCK_SKEW_SECONDS);
	}

	let trimmedTo: number | undefined;
	let times = Object.values(seen);
	if (times.length > MAX_REMEMBERED) {
		times = times.sort((a, b) => b - a);
		const cut = times[MAX_REMEMBERED] + 1;
		if (cut > floor) {
			floor = cut;
			trimmedTo = cut;
		}
	}
	for (const [key, time] of Object.entries(seen)) if (time < floor) delete seen[key];

	const next: PollState = { v: STATE_VERSION, cfg: state.cfg, floor, seen, ...(high === undefined ? {} : { high }) };
	return { emit, next, trimmedTo };
}

/** Replaces the stored state in place (n8n watches the static data object itself). */
export function writeState(target: IDataObject, next: PollState): void {
	for (const key of Object.keys(target)) if (!(key in next)) delete target[key];
	Object.assign(target, next);
}
