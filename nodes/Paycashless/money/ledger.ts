/**
 * What the Money Limits count a new create against and where they reserve it: this execution's
 * ledger (the references it made, in n8n's per-execution node context, `getContext('node')`, saved
 * with the execution) and this running n8n's payouts in flight (./inFlight.ts) (`realCounted`), or for a
 * check only a scratch copy of both (`scratchCounted`), so the items of a batch count against each
 * other as a real run would (./batch.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../helpers/body';
import { countedFor, reserve, underWay, type InFlightCount, type InFlightPayout, type ListedPayouts, type Reservation } from './inFlight';
import type { PayoutMoney } from './listed';
import type { MoneyRun } from './run';

const LEDGER_KEY = 'paycashlessMoneyMoved';

/** What this execution asked for under each reference: the same reference must ask for the same again. */
export type LedgerEntry = PayoutMoney;

export interface Ledger {
	[reference: string]: LedgerEntry;
}

/**
 * A ledger's count and totals per currency, kept as it changes (keyed by the ledger object, which
 * only this file changes; a ledger read back from a saved execution is summed once). Summing the
 * whole ledger for every item cost O(items²): 1.3 s of CPU at 3,000 payouts, 16 s at 10,000.
 */
const ledgerSums = new WeakMap<Ledger, { count: number; totals: Map<string, number> }>();

export function sumsOf(ledger: Ledger): { count: number; totals: Map<string, number> } {
	let sums = ledgerSums.get(ledger);
	if (!sums) {
		sums = { count: 0, totals: new Map() };
		for (const counted of Object.values(ledger)) {
			sums.count += 1;
			sums.totals.set(counted.currency, (sums.totals.get(counted.currency) ?? 0) + counted.value);
		}
		ledgerSums.set(ledger, sums);
	}
	return sums;
}

export function addToLedger(ledger: Ledger, reference: string, entry: LedgerEntry): void {
	removeFromLedger(ledger, reference);
	const sums = sumsOf(ledger);
	ledger[reference] = entry;
	sums.count += 1;
	sums.totals.set(entry.currency, (sums.totals.get(entry.currency) ?? 0) + entry.value);
}

export function removeFromLedger(ledger: Ledger, reference: string): void {
	const earlier = ledger[reference];
	if (!earlier) return;
	const sums = sumsOf(ledger);
	delete ledger[reference];
	sums.count -= 1;
	sums.totals.set(earlier.currency, (sums.totals.get(earlier.currency) ?? 0) - earlier.value);
}

/** What a check counts against and where it reserves (see the header). */
export interface Counted {
	ledger(): Ledger;
	save(ledger: Ledger): void;
	/** Creates under `reference` under way that a check through `account` must take into account. */
	underWay(account: string, reference: string, listed?: ListedPayouts): InFlightPayout[];
	/** The payouts in flight that count for a check through `account` with the read `listed`. */
	unlisted(account: string, listed: ListedPayouts): InFlightCount;
	reserve(account: string, payout: PayoutMoney & { reference: string }): Reservation;
}

function ledgerOf(context: IDataObject): Ledger {
	return isObject(context[LEDGER_KEY]) ? (context[LEDGER_KEY] as Ledger) : {};
}

export function realCounted(run: MoneyRun): Counted {
	const context = run.context.getContext('node');
	return {
		ledger: () => ledgerOf(context),
		save: (ledger) => {
			context[LEDGER_KEY] = ledger;
		},
		underWay: (account, reference, listed) => underWay(account, reference, listed),
		unlisted: (account, listed) => countedFor(account, listed),
		reserve: (account, payout) => reserve(account, payout),
	};
}

/**
 * A scratch view for checks only: it starts from this execution's ledger and this running n8n's payouts
 * in flight, keeps its own reservations, and writes neither.
 */
export function scratchCounted(run: MoneyRun): Counted {
	let ledger = JSON.parse(JSON.stringify(ledgerOf(run.context.getContext('node')))) as Ledger;
	const mine = new Map<string, InFlightPayout>();
	return {
		ledger: () => ledger,
		save: (next) => {
			ledger = next;
		},
		underWay: (account, reference, listed) => [...underWay(account, reference, listed), ...(mine.has(reference) ? [mine.get(reference) as InFlightPayout] : [])],
		unlisted: (account, listed) => {
			const real = countedFor(account, listed);
			const own = [...mine.values()];
			return {
				count: real.count + own.length,
				total: (currency) => real.total(currency) + own.reduce((total, entry) => total + (entry.currency === currency ? entry.value : 0), 0),
				entries: () => [...real.entries(), ...own],
			};
		},
		reserve: (account, payout) => {
			mine.set(payout.reference, { ...payout, account, reservedAt: Date.now() });
			return { sent: () => undefined, release: () => mine.delete(payout.reference) };
		},
	};
}
