/**
 * A batch of payouts checked as a real run would check it, paying nothing (Payout → Check Batch,
 * and Payout → Create's All or Nothing before its first payout): every item in input order through
 * the same Money Limits (./limits.ts `enforceMoneyLimits`) against a scratch view of this
 * execution's ledger and the payouts in flight (`scratchCounted`), so the items count against each
 * other (execution and period totals) exactly as they would when paid one after the other. Only
 * GET requests: the payee lookups, the period's payout list, the account's payout history (Check
 * Batch: ./payeeHistory.ts), and each reference not in that history looked up on Paycashless
 * (`GET /v1/payouts/verify/<reference>`, all rows at once: ./references.ts), so a payout made before is reported with what became of
 * it: paid (or under way), or failed, reversed or cancelled (not paid: with Pay Again If Failed, it
 * is paid again under `<reference>-repay-1`, then `-repay-2`…, one live payout per row at most).
 *
 * The rows it reports and the batch hash over them: ./batchRows.ts; paying a failed row again:
 * ./repay.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { payoutMoneyOf, type PayoutMoney } from '../../../lib/payoutBody';
import { BANK } from '../catalog/objects';
import { isObject } from '../helpers/body';
import { asNodeError, errorCodeOf, withErrorCode } from '../helpers/errorCodes';
import { InvalidInputError } from '../helpers/validation';
import type { PaycashlessApi } from '../transport';
import { batchPayoutOf, type BatchCheck, type BatchPayout, type BatchRefusal } from './batchRows';
import { itemParameter } from './itemParameters';
import { scratchCounted } from './ledger';
import { enforceMoneyLimits } from './limits';
import { flagRows, historyPageCap, readPayeeHistory } from './payeeHistory';
import { periodStanding } from './periodCheck';
import { referenceAnswers } from './references';
import { foundPayout, isThisPayout, NOT_PAID_STATUSES, payAgainReference, referenceMismatch } from './repay';
import type { MoneyRun } from './run';

/** What the operation tells the check about each row and the batch. */
export interface BatchCheckOptions {
	/** The create body of item `i` (validated there). */
	bodyOf(i: number): IDataObject;
	/** The row's Payee Key, if any. */
	payeeKeyOf?(i: number): string | undefined;
	/** Why item `i` came in as a failed item of the node before (e.g. its account lookup), or undefined. */
	failedInput?(i: number): { code: string; message: string; description?: string } | undefined;
	/** The row's reference as its Reference field reads, for a row whose body cannot be built. */
	referenceOf?(i: number): string | undefined;
	/** Pay Again If Failed: a row whose payout failed is paid again under `<reference>-repay-N`. */
	payAgain?: boolean;
	/** Check Batch: read this many days of the account's payouts for the flags (0: none), and flag amounts this far (%) from the last. */
	history?: { days: number; amountChangePercent: number };
	/** Check Batch: the period before and after the batch for the approver (two reads of the period's list). */
	periodStanding?: boolean;
}

function refusalOf(run: MoneyRun, i: number, error: unknown, reference?: string): BatchRefusal {
	// What the checks and Paycashless refuse is the item's refusal; anything else stops the check.
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError || error instanceof InvalidInputError)) throw error;
	const failure = asNodeError(run.context, error, i);
	return {
		item: i,
		...(reference !== undefined ? { reference } : {}),
		code: errorCodeOf(failure),
		message: failure.message,
		...(failure.description ? { description: failure.description } : {}),
		error: failure,
	};
}

/** Watches the account lookups the checks make, for the holder's name Paycashless returns (no request of its own). */
function watchingLookups(api: PaycashlessApi, seen: Map<string, { holder: string; bankName?: string }>): PaycashlessApi {
	const lookupPath = BANK.accountLookup('0', '0').path;
	return {
		paginate: async (list, options) => await api.paginate(list, options),
		page: async (list, pageSize, cursor) => await api.page(list, pageSize, cursor),
		request: async (request) => {
			const answer = await api.request(request);
			if (request.path === lookupPath && isObject(request.qs) && typeof answer.accountName === 'string') {
				const bank = isObject(answer.bank) ? answer.bank : {};
				seen.set(`${String(request.qs.accountNumber)}@${String(bank.id ?? '')}`, { holder: answer.accountName, ...(typeof bank.name === 'string' ? { bankName: bank.name } : {}) });
			}
			return answer;
		},
	};
}

/** The holder's name of a row: from the checks' lookup, else from the input item when it is the lookup of this account and bank. */
function holderOf(run: MoneyRun, i: number, money: PayoutMoney, seen: Map<string, { holder: string; bankName?: string }>): { holder?: string; bankName?: string } {
	const looked = seen.get(`${money.accountNumber}@${money.bankId}`);
	if (looked) return looked;
	const json = run.context.getInputData()[i]?.json ?? {};
	const bank = isObject(json.bank) ? json.bank : {};
	if (String(json.accountNumber ?? '') === money.accountNumber && bank.id === money.bankId && typeof json.accountName === 'string') {
		return { holder: json.accountName, ...(typeof bank.name === 'string' ? { bankName: bank.name } : {}) };
	}
	return {};
}

/** The reference row `i` is sent under, when its body can be built (its refusal comes in the check). */
function referenceOfRow(options: BatchCheckOptions, i: number): string[] {
	try {
		if (options.failedInput?.(i)) return [];
		const reference = options.bodyOf(i).reference;
		return typeof reference === 'string' && reference !== '' ? [reference] : [];
	} catch {
		return [];
	}
}

/**
 * Checks items `indexes` in order against the node's payout Money Limits, paying nothing. A read
 * that fails (other than "no such reference") stops the check: a payout that might exist is never
 * reported as one to pay.
 */
export async function checkBatch(run: MoneyRun, indexes: number[], sealed: PaycashlessApi, options: BatchCheckOptions): Promise<BatchCheck> {
	const counted = scratchCounted(run);
	const result: BatchCheck = { payable: [], alreadyPaid: [], notPaid: [], refused: [], foundPayouts: new Map() };
	if (indexes.length === 0) return result;
	const seen = new Map<string, { holder: string; bankName?: string }>();
	const api = watchingLookups(sealed, seen);
	if (options.periodStanding) result.periodBefore = await periodStanding(run, indexes[0], api, counted);
	if (options.history && options.history.days > 0) {
		const since = Math.floor(Date.now() / 1000) - Math.round(options.history.days * 86_400);
		result.history = await readPayeeHistory(api, since, historyPageCap(indexes.length));
	}
	const history = result.history;
	// Every row's reference asked at once (the history answers those it shows), then the rows checked in order.
	const answers = await referenceAnswers(run, api, history);
	await answers.askAll(indexes.flatMap((i) => referenceOfRow(options, i)));
	for (const i of indexes) {
		let reference: string | undefined;
		try {
			const failed = options.failedInput?.(i);
			if (failed) {
				reference = options.referenceOf?.(i);
				throw withErrorCode(new NodeOperationError(run.node, failed.message, { itemIndex: i, ...(failed.description ? { description: failed.description } : {}) }), failed.code);
			}
			const body = options.bodyOf(i);
			reference = String(body.reference ?? '');
			const check = await enforceMoneyLimits(run, i, 'payout', body, api, counted);
			const money = payoutMoneyOf(body);
			if (!money) throw new NodeOperationError(run.node, 'The payout body cannot be read', { itemIndex: i });
			const payeeName = (itemParameter(run, 'moneyLimits', i, {}) as IDataObject).expectedAccountName;
			const payeeKey = options.payeeKeyOf?.(i);
			const payout: BatchPayout = {
				item: i,
				...batchPayoutOf(money),
				...(typeof payeeName === 'string' && payeeName.trim() !== '' ? { payeeName: payeeName.trim() } : {}),
				...(payeeKey ? { payeeKey } : {}),
				...holderOf(run, i, money, seen),
			};
			const found = await answers.found(reference);
			if (found === undefined) {
				// Listed for the period as this very payout, counted before in this execution, or under way: found again, not new.
				if (check.foundAgain) result.alreadyPaid.push({ ...payout, found: { reference } });
				else result.payable.push(payout);
				continue;
			}
			// A real run would find it again, not pay it: it takes no room under the limits.
			check.release();
			if (!isThisPayout(found, money)) throw referenceMismatch(run, i, reference);
			const before = foundPayout(reference, found);
			if (!NOT_PAID_STATUSES.has(before.status ?? '')) {
				result.alreadyPaid.push({ ...payout, found: before });
				result.foundPayouts.set(i, found);
				continue;
			}
			if (!options.payAgain) {
				result.notPaid.push({ ...payout, found: before });
				result.foundPayouts.set(i, found);
				continue;
			}
			const again = await payAgainReference(run, i, answers, money);
			if (again.found) {
				result.foundPayouts.set(i, again.found);
				result.alreadyPaid.push({ ...payout, reference: again.reference, rowReference: reference, repays: before, found: foundPayout(again.reference, again.found) });
				continue;
			}
			// Checked as the new payout it is, under its own reference.
			const repay = { ...body, reference: again.reference };
			const checkAgain = await enforceMoneyLimits(run, i, 'payout', repay, api, counted);
			if (checkAgain.foundAgain) result.alreadyPaid.push({ ...payout, reference: again.reference, rowReference: reference, repays: before, found: { reference: again.reference } });
			else result.payable.push({ ...payout, reference: again.reference, rowReference: reference, repays: before });
		} catch (error) {
			result.refused.push(refusalOf(run, i, error, reference));
		}
	}
	answers.settle();
	if (options.periodStanding) result.periodAfter = await periodStanding(run, indexes[0], api, counted);
	if (options.history) {
		const every = [...result.payable, ...result.alreadyPaid, ...result.notPaid].map((payout) => ({ ...payout, row: payout.item + 1 }));
		const rows = result.payable.map((payout) => ({ ...payout, row: payout.item + 1 }));
		const flags = flagRows(rows, every, history, options.history.amountChangePercent);
		rows.forEach((row, k) => {
			const found = flags.get(row);
			if (found) result.payable[k].flags = found;
		});
	}
	return result;
}

