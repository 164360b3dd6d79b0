/**
 * The period limits of payouts (Maximum Total and Maximum Count per Period): what the Paycashless
 * account paid out in the period, read from Paycashless's own payout list (`createdAt.gte` the
 * period's start), so the limit holds across executions, workers, restarts, MCP calls, other
 * workflows and anything else that uses the same account. Nothing is kept between executions:
 * every run of the node reads the period in full, and Paycashless's record is the authority.
 *
 * Paycashless's list may show a payout seconds after its create was accepted (202). So within one
 * run a later read asks again for everything created since `LAG_WINDOW_SECONDS` before the newest
 * payout already read (Paycashless's own `createdAt`, so the two clocks never meet): a payout of
 * another n8n (another worker) that the list shows up to that late is counted by a later read. Payouts
 * of this running n8n that the list does not show yet are counted by ./inFlight.ts until it does.
 * A run starts a new read once a second, in the background; a check waits for one only when the
 * newest read it has started more than `STALE_MS` ago (or there is none). Every `WINDOW_EVERY_MS`
 * such a read goes back the whole window; the reads between ask only for what is new (newest first,
 * up to the first page holding a payout already read), which is where a payout the list shows at
 * once stands: the window's payouts are not listed again every second.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { PAYOUT } from '../catalog/objects';
import type { Currency } from '../helpers/amount';
import { offerToReadBacks, type PaycashlessApi } from '../transport';
import { listedBy, type InFlightPayout, type ListedPayouts } from './inFlight';
import { createdSeconds, isListedAs, readListedPayout, type PeriodPayout } from './listed';

export { readListedPayout, samePayout } from './listed';

export const PERIODS = ['day', 'rolling24h'] as const;
export type Period = (typeof PERIODS)[number];

/**
 * How far before the newest payout already read a later read of the run starts, in Paycashless's
 * seconds: how late the list may show a payout of another n8n (another worker) and still be counted by the
 * run (docs/money.md, "A list that lags").
 */
const LAG_WINDOW_SECONDS = 10;

/**
 * A run starts a new read when its newest started this long ago (ms), without waiting for it: its
 * own payouts, and every other payout of this running n8n, are counted in flight until listed
 * (./inFlight.ts), so a later read only catches payouts of other processes.
 */
const REREAD_AFTER_MS = 1000;

/** A check waits for a read when the newest that came back started longer ago than this (ms). */
const STALE_MS = 3000;

/**
 * How often (ms) a later read goes back the whole lag window: a payout of another process that the
 * list shows late is counted within this time of its showing (the reads between see the new ones).
 */
const WINDOW_EVERY_MS = 5000;

/** Records per page of a read of what is new (the largest page Paycashless serves). */
const PAGE_SIZE = 100;

export interface PeriodWindow {
	/** Unix seconds of the period's start. */
	since: number;
	/** How messages name it, e.g. "today (since 00:00 Africa/Lagos)". */
	label: string;
}

/** The current period: the calendar day in the workflow's time zone, or the last 24 hours. */
export function periodWindow(period: Period, timezone: string, now: DateTime = DateTime.now()): PeriodWindow {
	if (period === 'rolling24h') return { since: Math.floor(now.toSeconds()) - 86_400, label: 'the last 24 hours' };
	const zoned = now.setZone(timezone);
	const start = (zoned.isValid ? zoned : now.setZone('UTC')).startOf('day');
	return { since: Math.floor(start.toSeconds()), label: `today (since 00:00 ${start.zoneName ?? 'UTC'})` };
}

interface View {
	since: number;
	/** Paycashless's `createdAt` (Unix seconds) of the newest payout read. */
	newest?: number;
	/** n8n's clock (ms) when the last read that came back started. */
	readStartedAt: number;
	/** When the newest read (under way or back) started. */
	lastStartedAt: number;
	/** When the newest read of the whole period or lag window started. */
	windowStartedAt: number;
	/** How many records the last later read (after the first) listed. */
	lastRecords: number;
	byId: Map<string, PeriodPayout>;
	byReference: Map<string, PeriodPayout[]>;
	/** Listed records the limits cannot read, by id: any one refuses a period-limited payout. */
	unreadable: Map<string, string>;
	reading?: Promise<void>;
	/** What was paid, per currency, from the records as they are now (cleared by every read). */
	paid: Map<Currency, PaidInPeriod>;
}

/** One view per node run (the context object lives for one run; see transport/index.ts's base URLs). */
const views = new WeakMap<object, View>();

/**
 * The `createdAt` ranges a read asks for at once: the whole period first; then the window of a later
 * read (from `from` on), cut into as many ranges as the last later read had pages (8 at most), so
 * that its pages come side by side instead of one after the other.
 */
function ranges(view: View, from: number): IDataObject[] {
	const pieces = view.newest === undefined ? 1 : Math.min(8, Math.max(1, Math.ceil(view.lastRecords / 100)));
	if (pieces === 1 || view.newest === undefined) return [{ 'createdAt.gte': from }];
	const width = Math.max(1, Math.ceil((view.newest + 1 - from) / pieces));
	const cuts: IDataObject[] = [];
	for (let start = from; start <= view.newest; start += width) cuts.push({ 'createdAt.gte': start, 'createdAt.lt': start + width });
	// The last range is open: payouts created since the newest read one.
	delete cuts[cuts.length - 1]['createdAt.lt'];
	return cuts;
}

/**
 * What is new since the view's reads, newest first, up to the first page holding a payout already
 * read (never further back than the lag window).
 */
async function readNew(view: View, api: PaycashlessApi, from: number): Promise<IDataObject[]> {
	const list = { path: PAYOUT.path, qs: { 'createdAt.gte': from } };
	const records: IDataObject[] = [];
	const cursors = new Set<string>();
	let cursor: string | undefined;
	for (;;) {
		const page = await api.page(list, PAGE_SIZE, cursor);
		records.push(...page.data);
		const readBefore = page.data.some((record) => typeof record.id === 'string' && (view.byId.has(record.id) || view.unreadable.has(record.id)));
		if (readBefore || !page.hasMore) return records;
		if (page.cursor === undefined || cursors.has(page.cursor)) throw new Error(`Paycashless said more payouts follow on ${PAYOUT.path} but gave no new cursor`);
		cursors.add(page.cursor);
		cursor = page.cursor;
	}
}

async function read(this: IExecuteFunctions, view: View, api: PaycashlessApi, account: string): Promise<void> {
	const startedAt = Date.now();
	view.lastStartedAt = startedAt;
	const from = view.newest === undefined ? view.since : Math.max(view.since, view.newest - LAG_WINDOW_SECONDS);
	// Not the run's first read (which may have found no payout at all: then `newest` is unknown).
	const later = view.windowStartedAt !== 0;
	const whole = !later || startedAt - view.windowStartedAt >= WINDOW_EVERY_MS;
	let records: IDataObject[];
	if (whole) {
		view.windowStartedAt = startedAt;
		const pages = await Promise.all(ranges(view, from).map(async (qs) => await api.paginate({ path: PAYOUT.path, qs }, { returnAll: true, limit: 0, incomplete: 'fail' })));
		records = pages.flat();
		if (later) view.lastRecords = records.length;
	} else records = await readNew(view, api, from);
	// The run's new payouts are read back from these records rather than from reads of their own
	// (transport/readBacks.ts), from the first read on. Not the first read's records: the whole
	// period, older than the run's payouts.
	offerToReadBacks(this, later ? records : []);
	const read: PeriodPayout[] = [];
	for (const record of records) {
		const payout = readListedPayout(record);
		const key = typeof record.id === 'string' ? record.id : JSON.stringify(record);
		if (typeof payout === 'string') view.unreadable.set(key, payout);
		else {
			view.unreadable.delete(key);
			// A payout read again replaces what an earlier read showed of it (its status may have changed).
			const same = (view.byReference.get(payout.reference) ?? []).filter((earlier) => earlier.id !== payout.id);
			view.byReference.set(payout.reference, [...same, payout]);
			view.byId.set(payout.id, payout);
			read.push(payout);
		}
		const created = createdSeconds(record);
		if (created !== undefined && (view.newest === undefined || created > view.newest)) view.newest = created;
	}
	view.readStartedAt = startedAt;
	view.paid.clear();
	listedBy(account, read);
}

/**
 * What the period limits know of the period: Paycashless's list as the run's newest read showed
 * it (read at the moment of use: a check that waited for something else sees the newest read).
 */
export interface PeriodRecord {
	/** What was paid in the period in `currency` (computed once per read, not per item). */
	paid(currency: Currency): PaidInPeriod;
	/** Why listed records could not be read (empty: every record was read). */
	unreadable(): string[];
	/** What the read shows of the payouts in flight (./inFlight.ts). */
	listed: ListedPayouts;
}

/** Whether the view's list shows a payout in flight: by its id, or by its reference and money. */
function shows(view: View, entry: InFlightPayout): boolean {
	if (entry.id !== undefined) return view.byId.has(entry.id);
	return (view.byReference.get(entry.reference) ?? []).some((payout) => isListedAs(entry, payout));
}

/**
 * Paycashless's payouts of the period as read for this run through credential `account` (one read
 * at a time per node run: see the header for when a check waits for one).
 */
export async function payoutsInPeriod(this: IExecuteFunctions, window: PeriodWindow, api: PaycashlessApi, account: string): Promise<PeriodRecord> {
	let view = views.get(this);
	if (!view || view.since !== window.since) {
		view = { since: window.since, readStartedAt: 0, lastStartedAt: 0, windowStartedAt: 0, lastRecords: 0, byId: new Map(), byReference: new Map(), unreadable: new Map(), paid: new Map() };
		views.set(this, view);
	}
	const current = view;
	const now = Date.now();
	if (!current.reading && now - current.lastStartedAt >= REREAD_AFTER_MS) {
		current.reading = read.call(this, current, api, account)
			.catch((error: unknown) => {
				// The next check starts a read again at once.
				current.lastStartedAt = current.readStartedAt;
				throw error;
			})
			.finally(() => {
				current.reading = undefined;
			});
		// A background read that fails is the next waiting check's failure, not an unhandled one.
		current.reading.catch(() => undefined);
	}
	if (current.readStartedAt === 0 || now - current.readStartedAt > STALE_MS) {
		while (current.reading && (current.readStartedAt === 0 || Date.now() - current.readStartedAt > STALE_MS)) await current.reading;
		if (current.readStartedAt === 0) throw new Error('the payout list could not be read');
	}
	const paid = (currency: Currency): PaidInPeriod => {
		let sums = current.paid.get(currency);
		if (!sums) {
			sums = paidInPeriod([...current.byId.values()], currency);
			current.paid.set(currency, sums);
		}
		return sums;
	};
	return {
		paid,
		unreadable: () => (current.unreadable.size === 0 ? [] : [...current.unreadable.values()]),
		listed: {
			get readStartedAt() {
				return current.readStartedAt;
			},
			shows: (entry) => shows(current, entry),
		},
	};
}

/** What was paid in the period (failed, reversed and cancelled payouts left out). */
export interface PaidInPeriod {
	/** In `currency`, smallest unit. */
	total: number;
	/** Every currency. */
	count: number;
	byReference: Map<string, PeriodPayout>;
}

function paidInPeriod(payouts: PeriodPayout[], currency: Currency): PaidInPeriod {
	let total = 0;
	let count = 0;
	const byReference = new Map<string, PeriodPayout>();
	for (const payout of payouts) {
		// A live payout under a reference wins over a failed one (a reference may be tried again).
		const earlier = byReference.get(payout.reference);
		if (!earlier || (!earlier.live && payout.live)) byReference.set(payout.reference, payout);
		if (!payout.live) continue;
		count += 1;
		if (payout.currency === currency) total += payout.value;
	}
	return { total, count, byReference };
}
