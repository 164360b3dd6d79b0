/**
 * The period limits of payouts (Maximum Total and Maximum Count per Period): what the Paycashless
 * account paid out in the period, read from Paycashless's own payout list (`createdAt.gte` the
 * period's start), so the limit holds across executions, workers, restarts, MCP calls, other
 * workflows and anything else that uses the same API key. Nothing is kept between executions:
 * Paycashless's record is the authority.
 *
 * Within one run of the node the list is read once in full; a later read (at most one a second)
 * asks only for what was created since shortly before the newest payout already read
 * (Paycashless's own `createdAt`, so the two clocks never meet), and items waiting for a read
 * share it. Payouts of this process that Paycashless does not list yet are counted by
 * ./inFlight.ts.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { PAYOUT } from '../catalog/objects';
import { CURRENCIES, type Currency } from '../helpers/amount';
import { isObject } from '../helpers/body';
import type { PaycashlessApi } from '../transport';

export const PERIODS = ['day', 'rolling24h'] as const;
export type Period = (typeof PERIODS)[number];

/** Payouts that ended without the money arriving (every final status but success) do not count. */
const NOT_PAID = new Set(PAYOUT.finalStatuses.filter((status) => status !== 'succeeded'));

/**
 * How far before the newest payout already read a later read starts, in Paycashless's seconds: a
 * payout created in the same second, or listed a moment after it was created, is read again.
 */
const OVERLAP_SECONDS = 2;

/**
 * A run reads the list again at most this often (ms): its own payouts, and every other payout of
 * this process, are counted in flight until listed (./inFlight.ts), so a later read only
 * catches payouts of other processes, and reading for every item of a fast batch cost more list
 * requests than payouts.
 */
const REREAD_AFTER_MS = 1000;

/** One payout of the period as the limits read it. */
export interface PeriodPayout {
	id: string;
	reference: string;
	/** Smallest unit (kobo or cents). */
	value: number;
	currency: Currency;
	status: string;
	/** Not failed, reversed or cancelled: the money left or is leaving. */
	live: boolean;
	accountNumber: string;
	bankId: string;
}

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
	byId: Map<string, PeriodPayout>;
	/** Listed records the limits cannot read, by id: any one refuses a period-limited payout. */
	unreadable: Map<string, string>;
	reading?: Promise<void>;
	/** What was paid, per currency, from the records as they are now (cleared by every read). */
	paid: Map<Currency, PaidInPeriod>;
}

/** One view per node run (the context object lives for one run; see transport/index.ts's base URLs). */
const views = new WeakMap<object, View>();

/** Unix seconds of a record's `createdAt` (ISO text or seconds), if it has one. */
function createdSeconds(record: IDataObject): number | undefined {
	const value = record.createdAt;
	if (typeof value === 'number' && Number.isFinite(value)) return value > 1e11 ? Math.floor(value / 1000) : value;
	if (typeof value !== 'string') return undefined;
	const parsed = DateTime.fromISO(value);
	return parsed.isValid ? Math.floor(parsed.toSeconds()) : undefined;
}

/** A listed payout as the limits read it, or why it cannot be read for sure. */
/**
 * Whether a payout Paycashless has is the one asked for: the same amount (smallest unit), currency,
 * account number and bank. The one comparison of the period limits and the batch check.
 */
export function samePayout(listed: PeriodPayout, asked: { value: number; currency: string; accountNumber?: string; bankId?: string }): boolean {
	return listed.value === asked.value && listed.currency === asked.currency && listed.accountNumber === asked.accountNumber && listed.bankId === asked.bankId;
}

export function readListedPayout(record: IDataObject): PeriodPayout | string {
	const id = typeof record.id === 'string' && record.id !== '' ? record.id : undefined;
	const name = id === undefined ? 'a listed payout without an id' : `payout ${id}`;
	if (id === undefined) return `${name}`;
	// A status the limits do not know (or none) counts as live: counting it is the safe side.
	const status = typeof record.status === 'string' ? record.status : '';
	const nested = isObject(record.amount) ? record.amount : undefined;
	const value = nested ? nested.value : record.amount;
	const currencies = [nested?.currency, record.currency].filter((currency) => currency !== undefined && currency !== null);
	const named = [...new Set(currencies.map((currency) => String(currency).trim().toUpperCase()))];
	const live = !NOT_PAID.has(status);
	if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
		if (!live) return { id, reference: String(record.reference ?? ''), value: 0, currency: 'NGN', status, live, accountNumber: '', bankId: '' };
		return `${name} has no amount in whole kobo or cents (it lists ${JSON.stringify(value)})`;
	}
	if (named.length !== 1 || !(CURRENCIES as readonly string[]).includes(named[0])) {
		return `${name} names ${named.length === 0 ? 'no currency' : named.length > 1 ? 'two currencies' : `the currency ${JSON.stringify(named[0])}`}`;
	}
	return {
		id,
		reference: String(record.reference ?? ''),
		value,
		currency: named[0] as Currency,
		status,
		live,
		accountNumber: String(record.destinationAccountNumber ?? ''),
		bankId: String(record.destinationBankId ?? record.bankId ?? ''),
	};
}

async function read(view: View, api: PaycashlessApi): Promise<void> {
	const startedAt = Date.now();
	const from = view.newest === undefined ? view.since : Math.max(view.since, view.newest - OVERLAP_SECONDS);
	const records = await api.paginate({ path: PAYOUT.path, qs: { 'createdAt.gte': from } }, { returnAll: true, limit: 0, incomplete: 'fail' });
	for (const record of records) {
		const payout = readListedPayout(record);
		const key = typeof record.id === 'string' ? record.id : JSON.stringify(record);
		if (typeof payout === 'string') view.unreadable.set(key, payout);
		else {
			view.unreadable.delete(key);
			view.byId.set(payout.id, payout);
		}
		const created = createdSeconds(record);
		if (created !== undefined && (view.newest === undefined || created > view.newest)) view.newest = created;
	}
	view.readStartedAt = startedAt;
	view.paid.clear();
}

/** What the period limits know of the period: Paycashless's list, read fresh for this check. */
export interface PeriodRecord {
	/** What was paid in the period in `currency` (computed once per read, not per item). */
	paid(currency: Currency): PaidInPeriod;
	/** Why listed records could not be read (empty: every record was read). */
	unreadable: string[];
	/** n8n's clock (ms) when the read behind it started (./inFlight.ts). */
	readStartedAt: number;
}

/** Paycashless's payouts of the period, read for this check (one read at a time per node run, at most one a second). */
export async function payoutsInPeriod(this: IExecuteFunctions, window: PeriodWindow, api: PaycashlessApi): Promise<PeriodRecord> {
	let view = views.get(this);
	if (!view || view.since !== window.since) {
		view = { since: window.since, readStartedAt: 0, byId: new Map(), unreadable: new Map(), paid: new Map() };
		views.set(this, view);
	}
	// Items that ask while a read is under way use that read (it started moments before they
	// asked; payouts in flight are counted by ./inFlight.ts); otherwise they start one,
	// unless the last read started less than REREAD_AFTER_MS ago.
	const fresh = view.readStartedAt > 0 && Date.now() - view.readStartedAt < REREAD_AFTER_MS;
	if (!view.reading && !fresh) {
		const current = view;
		current.reading = read(current, api).finally(() => {
			current.reading = undefined;
		});
	}
	const current = view;
	if (current.reading) await current.reading;
	const paid = (currency: Currency): PaidInPeriod => {
		let sums = current.paid.get(currency);
		if (!sums) {
			sums = paidInPeriod([...current.byId.values()], currency);
			current.paid.set(currency, sums);
		}
		return sums;
	};
	return { paid, unreadable: current.unreadable.size === 0 ? [] : [...current.unreadable.values()], readStartedAt: current.readStartedAt };
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
