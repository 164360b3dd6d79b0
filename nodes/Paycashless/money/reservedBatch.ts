/**
 * All or Nothing without one at a time (Payout → Create's Batch Options): once the batch check
 * (./batch.ts `checkBatch`) found that every item fits, the whole batch is counted against the
 * Money Limits and reserved for real before the first payout goes (`reserveBatch`): every item in
 * input order through the one check (./limits.ts `enforceMoneyLimits`), so the execution's ledger
 * and this running n8n's payouts in flight (./inFlight.ts) hold the whole batch, and other executions
 * of this running n8n count it at once. No item of a batch that fits can then be refused by the batch
 * itself. If one no longer fits (another payout took the room since the check), every reservation
 * is given back and none is sent.
 *
 * Then the items go at Create's own Requests in Parallel. Each one's money step (./step.ts) takes
 * its reservation (`takeReserved`) and checks again only what can change from outside this
 * execution, the period (`recheckReserved`): payouts Paycashless lists that another n8n (another worker), the
 * dashboard or another n8n made since, with the whole batch still counted. A stop mid-batch gives
 * back the reservations of the items that were not sent (`releaseUnsent`); the run says what it
 * paid and what it did not (actions/report.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { readPayoutBody } from '../../../lib/payoutBody';
import { asNodeError, errorCodeOf } from '../helpers/errorCodes';
import type { Currency } from '../helpers/amount';
import type { PaycashlessApi } from '../transport';
import { countedFor } from './inFlight';
import { enforceMoneyLimits } from './limits';
import { readLimits } from './limitFields';
import { periodSoFar, readPeriod, refuseOverPeriod, withinPeriod } from './periodCheck';
import { periodWindow } from './period';
import { askable, askAbout } from './questions';
import type { MoneyCheck, MoneyRun } from './run';

/** An item the reservation refused: what the batch's refusal names (as ./batch.ts reports one). */
export interface ReservationRefusal {
	item: number;
	reference?: string;
	code: string;
	message: string;
	description?: string;
	error: ReturnType<typeof asNodeError>;
}

/**
 * Reserves items `indexes` for real, in input order (bodies from `bodyOf`). Every one fits: the
 * reservations stay for the items' money steps, and nothing is returned. One does not: every
 * reservation is given back, and the refusals are returned (nothing was sent).
 */
export async function reserveBatch(run: MoneyRun, indexes: number[], api: PaycashlessApi, bodyOf: (i: number) => IDataObject): Promise<ReservationRefusal[]> {
	const reserved = new Map<number, MoneyCheck>();
	const refused: ReservationRefusal[] = [];
	for (const i of indexes) {
		const body = bodyOf(i);
		try {
			reserved.set(i, await enforceMoneyLimits(run, i, 'payout', body, api));
		} catch (error) {
			const failure = asNodeError(run.context, error, i);
			refused.push({ item: i, reference: String(body.reference ?? ''), code: errorCodeOf(failure), message: failure.message, ...(failure.description ? { description: failure.description } : {}), error: failure });
			break;
		}
	}
	if (refused.length > 0) {
		for (const reservation of reserved.values()) reservation.release();
		return refused;
	}
	run.reservedBatch = reserved;
	return [];
}

/** Item `i`'s reservation in this run's reserved batch, once (undefined: the item has none). */
export function takeReserved(run: MoneyRun, i: number): MoneyCheck | undefined {
	const reserved = run.reservedBatch?.get(i);
	run.reservedBatch?.delete(i);
	return reserved;
}

/** Gives back the reservations of the batch's items that were not sent (a stop mid-batch). */
export function releaseUnsent(run: MoneyRun): number[] {
	const left = run.reservedBatch;
	if (!left) return [];
	run.reservedBatch = undefined;
	for (const reservation of left.values()) reservation.release();
	return [...left.keys()];
}

/**
 * Item `i`'s reserved payout, checked again right before it is sent against the period as it is
 * now (payouts made outside this execution since the batch was reserved count; the batch's own
 * are counted already, this one among them). Refused: its reservation is given back and nothing is sent.
 */
export async function recheckReserved(run: MoneyRun, i: number, body: IDataObject, api: PaycashlessApi, reservation: MoneyCheck): Promise<MoneyCheck> {
	if (reservation.foundAgain) return reservation;
	const limits = readLimits(run, i);
	const reading = readPayoutBody(body);
	if ((limits.periodTotal === undefined && limits.periodCount === undefined) || 'unreadable' in reading) return reservation;
	try {
		const period = periodWindow(limits.period, run.context.getTimezone());
		const account = await run.accountKey();
		const record = await readPeriod(run, i, period, api, account);
		const value = reading.money.minor;
		const currency = reading.money.currency as Currency;
		for (let asked = false; ; asked = true) {
			const unlisted = countedFor(account, record.listed);
			const counted = periodSoFar(record.paid(limits.currency), unlisted, limits.currency);
			// This payout is among the payouts in flight (reserved, not sent): the period without it.
			const soFar = { count: counted.count - 1, total: counted.total - (currency === limits.currency ? value : 0) };
			if (!withinPeriod({ limits, soFar, value }) && !asked) {
				const doubtful = askable(account, unlisted.entries());
				if (doubtful.length > 0) {
					await askAbout(doubtful, api);
					continue;
				}
			}
			refuseOverPeriod(run, i, { limits, period, soFar, value, currency, reference: reading.money.reference });
			return reservation;
		}
	} catch (error) {
		reservation.release();
		throw asNodeError(run.context, error, i);
	}
}
