/**
 * The period limits of payouts (Maximum Total and Maximum Count per Period): what the Paycashless
 * account paid out in the period, read from Paycashless's own payout list (`createdAt.gte` the
 * period's start), so the limit holds across executions, workers, restarts, MCP calls, other
 * workflows and anything else that uses the same account. Nothing is kept between executions:
 * every run of the node reads the period in full, and Paycashless's record is the authority.
 *
 * Within one run, ./periodList.ts reads the list (the whole period first, then what is new, and the
 * lag window every few seconds). Payouts of this running n8n that the list does not show yet are
 * counted by ./inFlight.ts until it does. A run starts a new read once a second, in the
 * background; a check waits for one only when the newest read it has started more than `STALE_MS`
 * ago (or there is none).
 */
import { DateTime } from 'luxon';

import type { Currency } from '../helpers/amount';
import type { PaycashlessApi } from '../transport';
import type { InFlightPayout, ListedPayouts } from './inFlight';
import { isListedAs, type PeriodPayout } from './listed';
import { read, type PaidInPeriod, type View } from './periodList';
import type { MoneyRun } from './run';

export type { PaidInPeriod } from './periodList';

export { readListedPayout, samePayout } from './listed';

export const PERIODS = ['day', 'rolling24h'] as const;
export type Period = (typeof PERIODS)[number];

/**
 * A run starts a new read when its newest started this long ago (ms), without waiting for it: its
 * own payouts, and every other payout of this running n8n, are counted in flight until listed
 * (./inFlight.ts), so a later read only catches payouts of other processes.
 */
const REREAD_AFTER_MS = 1000;

/** A check waits for a read when the newest that came back started longer ago than this (ms). */
const STALE_MS = 3000;

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
export async function payoutsInPeriod(run: MoneyRun, window: PeriodWindow, api: PaycashlessApi, account: string): Promise<PeriodRecord> {
	let view = run.periodView;
	if (!view || view.since !== window.since) {
		view = { since: window.since, readStartedAt: 0, lastStartedAt: 0, windowStartedAt: 0, lastRecords: 0, byId: new Map(), byReference: new Map(), unreadable: new Map(), paid: new Map() };
		run.periodView = view;
	}
	const current = view;
	const now = Date.now();
	if (!current.reading && now - current.lastStartedAt >= REREAD_AFTER_MS) {
		current.reading = read(run.transport, current, api, account)
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
