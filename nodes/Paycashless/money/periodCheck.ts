/**
 * The period limits of a payout (Maximum Total and Count per Period), checked on Paycashless's own
 * record of the period (./period.ts) plus the payouts in flight of this running n8n that it does
 * not list yet (./inFlight.ts): read the record, whether one payout more fits, the refusal that
 * says why not, and the standing of the period for Check Batch.
 */

import type { Currency } from '../helpers/amount';
import { formatMainUnits, fromSmallestUnit } from '../helpers/mainUnits';
import type { PaycashlessApi } from '../transport';
import { unknownOwners, type InFlightCount } from './inFlight';
import type { Counted } from './ledger';
import { readLimits, type Limits } from './limitFields';
import { payoutsInPeriod, periodWindow, type PaidInPeriod, type PeriodRecord, type PeriodWindow } from './period';
import { learnRelations } from './questions';
import { refuse } from './refusal';
import type { MoneyRun } from './run';

/** What a person can do about a period refusal. */
const PERIOD_ADVICE =
	'Running the same input again later is safe: payouts already made are found by their references, not paid twice. Pay the rest in the next period, or ask the person who set up this workflow to raise the limit.';

/**
 * Paycashless's record of the period for item `i`, read through credential `account` (refused,
 * nothing sent, when it cannot be read for sure); the credentials whose payouts in flight count
 * until this running n8n knows their account are asked about first (./accounts.ts).
 */
export async function readPeriod(run: MoneyRun, i: number, period: PeriodWindow, api: PaycashlessApi, account: string): Promise<PeriodRecord> {
	const record = await payoutsInPeriod(run, period, api, account).catch((error: Error) =>
		refuse(run, i, 'PERIOD_UNREADABLE', `Refused: the payouts of ${period.label} could not be read to check the period limits`, `Nothing was sent. ${error.message}`),
	);
	const unreadable = record.unreadable();
	if (unreadable.length > 0) {
		refuse(
			run,
			i,
			'PERIOD_UNREADABLE',
			`Refused: Paycashless lists a payout of ${period.label} that the period limits cannot read`,
			`Nothing was sent: a payout the limits cannot count could hide any amount. ${unreadable.slice(0, 3).join('; ')}${unreadable.length > 3 ? ` (and ${unreadable.length - 3} more)` : ''}. Ask Paycashless support why the list shows it so.`,
		);
	}
	// Other credentials' payouts in flight count until this running n8n knows whose account they are in (./accounts.ts).
	const others = unknownOwners(account);
	if (others.owners.size > 0 || others.entries.length > 0) await learnRelations(account, others, api);
	return record;
}

/** What a period check of one payout needs. */
export interface PeriodCheck {
	limits: Limits;
	period: PeriodWindow;
	/** The period so far as the limits count it, without this payout. */
	soFar: { count: number; total: number };
	value: number;
	currency: Currency;
	reference: string;
}

/** Whether one payout more (`value`) stays within the period limits. */
export function withinPeriod({ limits, soFar, value }: Pick<PeriodCheck, 'limits' | 'soFar' | 'value'>): boolean {
	return (limits.periodCount === undefined || soFar.count + 1 <= limits.periodCount) && (limits.periodTotal === undefined || soFar.total + value <= limits.periodTotal);
}

/** Refuses item `i` (nothing sent) when one payout more would pass a period limit. */
export function refuseOverPeriod(run: MoneyRun, i: number, { limits, period, soFar, value, currency, reference }: PeriodCheck): void {
	const show = (kobo: number) => formatMainUnits(fromSmallestUnit(kobo, currency), currency);
	const asTool = run.asTool;
	const { count: periodCount, total: periodTotal } = soFar;
	// A tool's model learns that the limit was reached, never the account's totals or what is left.
	const whose = asTool ? '' : ` The count covers every payout of this Paycashless account in the period that has not failed, in every currency (${periodCount} so far).`;
	if (limits.periodCount !== undefined && periodCount + 1 > limits.periodCount) {
		refuse(
			run,
			i,
			'MAX_COUNT_PERIOD',
			asTool ? `Refused: this payout would pass the Maximum Count per Period` : `Refused: ${periodCount} payouts were already made ${period.label}, the Maximum Count per Period`,
			`Nothing was sent for reference "${reference}".${whose} ${PERIOD_ADVICE}`,
		);
	}
	if (limits.periodTotal !== undefined && periodTotal + value > limits.periodTotal) {
		refuse(
			run,
			i,
			'MAX_TOTAL_PERIOD',
			asTool
				? `Refused: this payout would pass the Maximum Total per Period`
				: `Refused: ${show(value)} would bring the payouts of ${period.label} to ${show(periodTotal + value)}, above the Maximum Total per Period of ${show(limits.periodTotal)}`,
			`Nothing was sent for reference "${reference}".${asTool ? '' : ' The total covers every payout of this Paycashless account in the period that has not failed, whoever made it.'} ${PERIOD_ADVICE}`,
		);
	}
}

/** The period's count and total (in `currency`) as the limits count them: listed and live, plus unlisted in flight. */
export function periodSoFar(paid: PaidInPeriod, unlisted: InFlightCount, currency: Currency): { count: number; total: number } {
	return { count: paid.count + unlisted.count, total: paid.total + unlisted.total(currency) };
}

/** The period so far as the period limits of item `i` count it (nothing reserved), or undefined without a period limit. */
export interface PeriodStanding {
	label: string;
	currency: Currency;
	/** Smallest unit, in the Limits Currency. */
	total: number;
	/** Every currency. */
	count: number;
}

export async function periodStanding(run: MoneyRun, i: number, api: PaycashlessApi, counted: Counted): Promise<PeriodStanding | undefined> {
	const limits = readLimits(run, i);
	if (limits.periodTotal === undefined && limits.periodCount === undefined) return undefined;
	const period = periodWindow(limits.period, run.context.getTimezone());
	const account = await run.accountKey();
	const record = await payoutsInPeriod(run, period, api, account);
	const others = unknownOwners(account);
	if (others.owners.size > 0 || others.entries.length > 0) await learnRelations(account, others, api);
	const paid = record.paid(limits.currency);
	return { label: period.label, currency: limits.currency, ...periodSoFar(paid, counted.unlisted(account, record.listed), limits.currency) };
}
