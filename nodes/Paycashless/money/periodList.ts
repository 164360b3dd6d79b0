/**
 * How a run of the node reads the period's payouts on Paycashless's list (./period.ts keeps the view
 * and decides when a read starts). Paycashless's list may show a payout seconds after its create was
 * accepted (202). So the run's first read takes the whole period; a later read asks only for what is
 * new (newest first, up to the first page holding a payout already read), which is where a payout the
 * list shows at once stands; and every `WINDOW_EVERY_MS` one asks again for everything created since
 * `LAG_WINDOW_SECONDS` before the newest payout already read (Paycashless's own `createdAt`, so the two
 * clocks never meet): a payout of another n8n (another worker) that the list shows up to that late is
 * counted then, and a status that changed is read again. The window's payouts are not listed again
 * every second. What the reads show is offered to the run's read-back of its new payouts
 * (transport/readBacks.ts), which then reads nothing of its own.
 */
import type { IDataObject } from 'n8n-workflow';

import { PAYOUT } from '../catalog/objects';
import type { Currency } from '../helpers/amount';
import type { PaycashlessApi, TransportRun } from '../transport';
import { listedBy } from './inFlight';
import { createdSeconds, readListedPayout, type PeriodPayout } from './listed';

/**
 * How far before the newest payout already read a later read of the run starts, in Paycashless's
 * seconds: how late the list may show a payout of another n8n (another worker) and still be counted by the
 * run (docs/money.md, "A list that lags").
 */
const LAG_WINDOW_SECONDS = 10;

/**
 * How often (ms) a later read goes back the whole lag window: a payout of another process that the
 * list shows late is counted within this time of its showing (the reads between see the new ones).
 */
const WINDOW_EVERY_MS = 5000;

/** What was paid in the period (failed, reversed and cancelled payouts left out). */
export interface PaidInPeriod {
	/** In `currency`, smallest unit. */
	total: number;
	/** Every currency. */
	count: number;
	byReference: Map<string, PeriodPayout>;
}

export interface View {
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
	const readBefore = (record: IDataObject) => typeof record.id === 'string' && (view.byId.has(record.id) || view.unreadable.has(record.id));
	return await api.paginate({ path: PAYOUT.path, qs: { 'createdAt.gte': from } }, { returnAll: true, limit: 0, incomplete: 'fail', until: (page) => page.some(readBefore) });
}

export async function read(transport: TransportRun, view: View, api: PaycashlessApi, account: string): Promise<void> {
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
	transport.offerToReadBacks(later ? records : []);
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

