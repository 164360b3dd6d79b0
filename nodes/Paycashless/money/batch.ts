/**
 * A batch of payouts checked as a real run would check it, paying nothing (Payout → Check Batch,
 * and Payout → Create's All or Nothing before its first payout): every item in input order through
 * the same Money Limits (./limits.ts `enforceMoneyLimits`) against a scratch view of this
 * execution's ledger and the payouts in flight (`scratchCounted`), so the items count against each
 * other (execution and period totals) exactly as they would when paid one after the other. Only
 * GET requests: the payee lookups, the period's payout list, and each new reference looked up on
 * Paycashless (`GET /v1/payouts/verify/<reference>`), so a payout made before (in another period,
 * or by another node) is reported as already paid, not as one to pay.
 *
 * The batch hash binds an approval to what it showed: SHA-256 over the sorted lines
 * `["reference", kobo, "NGN", "account", "bank ID"]` of every item that is not refused.
 */
import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { payoutMoneyOf, type PayoutMoney } from '../../../lib/payoutBody';
import { PAYOUT } from '../catalog/objects';
import type { Currency } from '../helpers/amount';
import { asNodeError, ERROR_CODES, errorCodeOf, withErrorCode } from '../helpers/errorCodes';
import { formatMainUnits, fromSmallestUnit } from '../helpers/mainUnits';
import { InvalidInputError } from '../helpers/validation';
import type { PaycashlessApi } from '../transport';
import { enforceMoneyLimits, periodStanding, readLimits, scratchCounted, type PeriodStanding } from './limits';
import { readListedPayout, samePayout } from './period';

/** One payout of the batch: amount in the smallest unit (kobo or cents). */
export interface BatchPayout {
	item: number;
	reference: string;
	amount: number;
	currency: Currency;
	destinationAccountNumber: string;
	bankId: string;
	/** The item's Expected Account Name (from its row), for the Create that pays it; not in the hash. */
	payeeName?: string;
}

interface BatchRefusal {
	item: number;
	reference?: string;
	code: string;
	message: string;
	description?: string;
	error: NodeApiError | NodeOperationError;
}

export interface BatchCheck {
	/** New payouts, in input order: what a run would send. */
	payable: BatchPayout[];
	/** Found again (listed for the period, counted before in this execution, or on Paycashless under its reference): not paid again. */
	alreadyPaid: Array<BatchPayout & { id?: string; status?: string }>;
	refused: BatchRefusal[];
	/** The period before the batch (nothing of it counted), when a period limit is set. */
	periodBefore?: PeriodStanding;
	/** The period with the batch's new payouts counted. */
	periodAfter?: PeriodStanding;
}

/**
 * The payout under `reference` on Paycashless, or undefined when Paycashless has none (404). Any
 * other failure is the item's refusal: a payout that might exist is never reported as one to pay.
 */
async function foundByReference(api: PaycashlessApi, reference: string): Promise<IDataObject | undefined> {
	return await api
		.request(PAYOUT.byReference(reference))
		.catch(async (error: unknown) => (error instanceof NodeApiError && String(error.httpCode) === '404' ? undefined : await Promise.reject(error)));
}

function refusalOf(this: IExecuteFunctions, i: number, error: unknown, reference?: string): BatchRefusal {
	// What the checks and Paycashless refuse is the item's refusal; anything else stops the check.
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError || error instanceof InvalidInputError)) throw error;
	const failure = asNodeError(this, error, i);
	return {
		item: i,
		...(reference !== undefined ? { reference } : {}),
		code: errorCodeOf(failure),
		message: failure.message,
		...(failure.description ? { description: failure.description } : {}),
		error: failure,
	};
}

/**
 * Checks items `indexes` in order (bodies from `bodyOf`, validated there) against the node's
 * payout Money Limits, paying nothing. A read that fails (other than "no such reference") stops
 * the check: a payout that might exist is never reported as one to pay.
 */
export async function checkBatch(this: IExecuteFunctions, indexes: number[], api: PaycashlessApi, bodyOf: (i: number) => IDataObject): Promise<BatchCheck> {
	const counted = scratchCounted.call(this);
	const result: BatchCheck = { payable: [], alreadyPaid: [], refused: [] };
	if (indexes.length === 0) return result;
	result.periodBefore = await periodStanding.call(this, indexes[0], api, counted);
	for (const i of indexes) {
		let reference: string | undefined;
		try {
			const body = bodyOf(i);
			reference = String(body.reference ?? '');
			const check = await enforceMoneyLimits.call(this, i, 'payout', body, api, counted);
			const money = payoutMoneyOf(body);
			if (!money) throw new NodeOperationError(this.getNode(), 'The payout body cannot be read', { itemIndex: i });
			const payeeName = (this.getNodeParameter('moneyLimits', i, {}) as IDataObject).expectedAccountName;
			const payout: BatchPayout = {
				item: i,
				...batchPayoutOf(money),
				...(typeof payeeName === 'string' && payeeName.trim() !== '' ? { payeeName: payeeName.trim() } : {}),
			};
			const found = await foundByReference(api, reference);
			const shown = found === undefined ? {} : { ...(typeof found.id === 'string' ? { id: found.id } : {}), ...(typeof found.status === 'string' ? { status: found.status } : {}) };
			if (check.foundAgain) {
				// Listed for the period as this very payout, counted before in this execution, or under way.
				result.alreadyPaid.push({ ...payout, ...shown });
				continue;
			}
			if (found === undefined) {
				result.payable.push(payout);
				continue;
			}
			// A real run would find it again, not pay it: it takes no room under the limits.
			check.release();
			const listed = readListedPayout(found);
			if (typeof listed !== 'string' && samePayout(listed, { value: money.minor, currency: money.currency, accountNumber: money.accountNumber, bankId: money.bankId })) {
				result.alreadyPaid.push({ ...payout, ...shown });
				continue;
			}
			throw withErrorCode(
				new NodeOperationError(this.getNode(), `Refused: the reference "${reference}" belongs to another payout on Paycashless`, {
					itemIndex: i,
					description: 'Nothing was sent. A reference names one payout: this one was used before for another amount, currency, account or bank. Give this payout its own reference, or look the other one up with Payout → Verify.',
				}),
				ERROR_CODES.REFERENCE_MISMATCH,
			);
		} catch (error) {
			result.refused.push(refusalOf.call(this, i, error, reference));
		}
	}
	result.periodAfter = await periodStanding.call(this, indexes[0], api, counted);
	return result;
}

/** A payout of the batch in the words of its output, from what the one payout body reader read. */
export function batchPayoutOf(money: PayoutMoney): Omit<BatchPayout, 'item' | 'payeeName'> {
	return { reference: money.reference, amount: money.minor, currency: money.currency, destinationAccountNumber: money.accountNumber, bankId: money.bankId };
}

/** The batch hash: SHA-256 over the sorted `["reference", kobo, "currency", "account", "bank ID"]` lines. */
export function batchHash(payouts: Array<Omit<BatchPayout, 'item'>>): string {
	const lines = payouts.map((payout) => JSON.stringify([payout.reference, payout.amount, payout.currency, payout.destinationAccountNumber, payout.bankId])).sort();
	return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** What an approver reads: one record for the whole batch (amounts in kobo, and in naira under `inMainUnits`). */
export function batchSummary(this: IExecuteFunctions, check: BatchCheck, firstItem: number): IDataObject {
	const limits = readLimits.call(this, firstItem);
	const currency = limits.currency;
	const naira = (kobo: number) => fromSmallestUnit(kobo, currency);
	const show = (kobo: number) => formatMainUnits(naira(kobo), currency);
	const total = check.payable.filter((payout) => payout.currency === currency).reduce((sum, payout) => sum + payout.amount, 0);
	const count = check.payable.length;
	const fits = check.refused.length === 0;
	const listed = (payout: BatchPayout): IDataObject => ({ ...payout, item: payout.item + 1 });
	const summary: IDataObject = {
		fits,
		count,
		total,
		currency,
		inMainUnits: { currency, total: naira(total) },
		refusedCount: check.refused.length,
		alreadyPaidCount: check.alreadyPaid.length,
		payable: check.payable.map(listed),
		refused: check.refused.map(({ item, reference, code, message, description }) => ({ item: item + 1, ...(reference !== undefined ? { reference } : {}), code, message, ...(description ? { description } : {}) })),
		alreadyPaid: check.alreadyPaid.map(listed),
	};
	const lines = [
		`${count} payout${count === 1 ? '' : 's'} to pay, ${show(total)} in all; ${check.refused.length} refused; ${check.alreadyPaid.length} already paid (not paid again).`,
	];
	const left: IDataObject = {};
	if (limits.maxAmount !== undefined) left.maxAmount = naira(limits.maxAmount);
	if (limits.maxTotal !== undefined) left.maxTotalPerExecution = { limit: naira(limits.maxTotal), leftAfter: naira(limits.maxTotal - total) };
	if (limits.maxCount !== undefined) left.maxCountPerExecution = { limit: limits.maxCount, leftAfter: limits.maxCount - count };
	const before = check.periodBefore;
	const after = check.periodAfter;
	if (before && after) {
		const period: IDataObject = { label: before.label, paidSoFar: before.total, countSoFar: before.count };
		const inMainUnits: IDataObject = { currency, paidSoFar: naira(before.total) };
		let said = `Payouts ${before.label} as the limits count them: ${show(before.total)} (${before.count} payout${before.count === 1 ? '' : 's'})`;
		if (limits.periodTotal !== undefined) {
			Object.assign(period, { limit: limits.periodTotal, left: limits.periodTotal - before.total, leftAfter: limits.periodTotal - after.total });
			Object.assign(inMainUnits, { limit: naira(limits.periodTotal), left: naira(limits.periodTotal - before.total), leftAfter: naira(limits.periodTotal - after.total) });
			said += `; ${show(limits.periodTotal - before.total)} left under the Maximum Total per Period, ${show(limits.periodTotal - after.total)} after this batch`;
		}
		if (limits.periodCount !== undefined) Object.assign(period, { countLimit: limits.periodCount, countLeft: limits.periodCount - before.count, countLeftAfter: limits.periodCount - after.count });
		period.inMainUnits = inMainUnits;
		summary.period = period;
		lines.push(`${said}.`);
	}
	summary.limits = { currency, ...left };
	for (const refusal of check.refused.slice(0, 10)) lines.push(`Item ${refusal.item + 1}${refusal.reference ? ` (${refusal.reference})` : ''}: ${refusal.code}: ${refusal.message}`);
	if (check.refused.length > 10) lines.push(`… and ${check.refused.length - 10} more refused.`);
	lines.push(fits ? 'The batch fits: every item passes every check.' : 'The batch does not fit: remove or correct the refused items, then check again.');
	summary.text = lines.join('\n');
	summary.batchHash = batchHash([...check.payable, ...check.alreadyPaid]);
	return summary;
}
