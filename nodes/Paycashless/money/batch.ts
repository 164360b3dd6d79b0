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
 * The batch hash binds an approval to what it showed: SHA-256 over the sorted lines
 * `["reference", kobo, "NGN", "account", "bank ID"]` of every row that is not refused, each under
 * the row's own reference (a row paid again is still that row).
 *
 * Longer than 250 lines on purpose: the rows of a batch, what was found of each on Paycashless and
 * the one hash over them are one check, read whole.
 */
import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { payoutMoneyOf, type PayoutMoney } from '../../../lib/payoutBody';
import { BANK, PAYOUT } from '../catalog/objects';
import type { Currency } from '../helpers/amount';
import { isObject } from '../helpers/body';
import { asNodeError, ERROR_CODES, errorCodeOf, withErrorCode } from '../helpers/errorCodes';
import { InvalidInputError } from '../helpers/validation';
import type { PaycashlessApi } from '../transport';
import { enforceMoneyLimits } from './limits';
import { scratchCounted } from './ledger';
import { periodStanding, type PeriodStanding } from './periodCheck';
import { flagRows, historyPageCap, readPayeeHistory, type PayeeHistory, type PayoutFlag } from './payeeHistory';
import { readListedPayout, samePayout } from './period';
import { referenceAnswers, type ReferenceAnswers } from './references';
import { itemParameter } from './itemParameters';

/** One payout of the batch: amount in the smallest unit (kobo or cents); `item` counts from 0, a person's row from 1. */
export interface BatchPayout {
	item: number;
	/** The reference it is (or was) sent under. */
	reference: string;
	amount: number;
	currency: Currency;
	destinationAccountNumber: string;
	bankId: string;
	/** The item's Expected Account Name (from its row), for the Create that pays it; not in the hash. */
	payeeName?: string;
	/** The row's Payee Key (e.g. a staff ID). */
	payeeKey?: string;
	/** The holder's name as Paycashless's account lookup returns it, and the bank's name. */
	holder?: string;
	bankName?: string;
	/** The row's own reference, when it is paid again under another (`<reference>-repay-1`). */
	rowReference?: string;
	/** The failed payout a payment again replaces. */
	repays?: FoundPayout;
	flags?: PayoutFlag[];
}

/** A payout Paycashless has under the row's reference: its id, status, when it was made and why it failed. */
interface FoundPayout {
	reference: string;
	id?: string;
	status?: string;
	createdAt?: string;
	failure?: string;
}

export type FoundRow = BatchPayout & { found: FoundPayout };

export interface BatchRefusal {
	item: number;
	reference?: string;
	code: string;
	message: string;
	description?: string;
	error: NodeApiError | NodeOperationError;
}

export interface BatchCheck {
	/** New payouts, in input order: what a run would send (a row paid again under its `-repay-N` reference). */
	payable: BatchPayout[];
	/** Paid before under its reference (succeeded, or still pending or sent): never paid again. */
	alreadyPaid: FoundRow[];
	/** Failed, reversed or cancelled before, and not paid again in this run (Pay Again If Failed is off). */
	notPaid: FoundRow[];
	refused: BatchRefusal[];
	/** The period before the batch (nothing of it counted), when a period limit is set. */
	periodBefore?: PeriodStanding;
	/** The period with the batch's new payouts counted. */
	periodAfter?: PeriodStanding;
	/** What the account paid before (Check Batch), when read. */
	history?: PayeeHistory;
}

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

/** Statuses after which the money did not arrive: such a payout is not paid. */
export const NOT_PAID_STATUSES = new Set(PAYOUT.finalStatuses.filter((status) => status !== 'succeeded'));

/** The reference a row is paid again under, after `n` failed payments again (`salary-S003-repay-1`). */
export function repayReference(reference: string, n: number): string {
	return `${reference}-repay-${n}`;
}

/** How many times a row may be paid again (each after the one before failed). */
const MAX_REPAYS = 9;

function foundPayout(reference: string, record: IDataObject): FoundPayout {
	const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
	const failure = text(record.failureMessage) ?? text(record.failureCode);
	return {
		reference,
		...(text(record.id) ? { id: text(record.id) } : {}),
		...(text(record.status) ? { status: text(record.status) } : {}),
		...(text(record.createdAt) ? { createdAt: text(record.createdAt) } : {}),
		...(failure ? { failure } : {}),
	};
}

/** Whether a payout Paycashless has is the one `money` asks for (amount, currency, account, bank). */
function isThisPayout(record: IDataObject, money: PayoutMoney): boolean {
	const listed = readListedPayout(record);
	return typeof listed !== 'string' && samePayout(listed, { value: money.minor, currency: money.currency, accountNumber: money.accountNumber, bankId: money.bankId });
}

function referenceMismatch(this: IExecuteFunctions, i: number, reference: string): NodeOperationError {
	return withErrorCode(
		new NodeOperationError(this.getNode(), `Refused: the reference "${reference}" belongs to another payout on Paycashless`, {
			itemIndex: i,
			description: 'Nothing was sent. A reference names one payout: this one was used before for another amount, currency, account or bank. Give this payout its own reference, or look the other one up with Payout → Verify.',
		}),
		ERROR_CODES.REFERENCE_MISMATCH,
	);
}

/**
 * The reference a row whose payout failed is paid again under: the first `<reference>-repay-N`
 * Paycashless does not have (`found` undefined), or the one it has live for this payout (`found`:
 * paid again before, never a third time). Refused when one of them is another payout, or after
 * MAX_REPAYS failures.
 */
async function payAgainReference(this: IExecuteFunctions, i: number, answers: ReferenceAnswers, money: PayoutMoney): Promise<{ reference: string; found?: IDataObject }> {
	for (let n = 1; n <= MAX_REPAYS; n++) {
		const reference = repayReference(money.reference, n);
		const found = await answers.found(reference);
		if (found === undefined) return { reference };
		if (!isThisPayout(found, money)) throw referenceMismatch.call(this, i, reference);
		if (!NOT_PAID_STATUSES.has(String(found.status ?? ''))) return { reference, found };
	}
	throw withErrorCode(
		new NodeOperationError(this.getNode(), `Refused: "${money.reference}" failed ${MAX_REPAYS + 1} times; it is not paid again automatically`, {
			itemIndex: i,
			description: `Nothing was sent. Its payouts under ${money.reference} and ${repayReference(money.reference, 1)} to ${repayReference(money.reference, MAX_REPAYS)} all failed, were reversed or cancelled. Check the account with the payee, then pay it with a new reference.`,
		}),
		'PAY_AGAIN_EXHAUSTED',
	);
}

/**
 * The reference Payout → Create sends a row under with Pay Again If Failed on: the row's own
 * unless Paycashless has it as failed, reversed or cancelled for this very payout.
 */
export async function referenceToPay(this: IExecuteFunctions, i: number, api: PaycashlessApi, money: PayoutMoney): Promise<string> {
	const answers = await referenceAnswers.call(this, api);
	const found = await answers.found(money.reference);
	if (found === undefined || !isThisPayout(found, money) || !NOT_PAID_STATUSES.has(String(found.status ?? ''))) return money.reference;
	return (await payAgainReference.call(this, i, answers, money)).reference;
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

/** Watches the account lookups the checks make, for the holder's name Paycashless returns (no request of its own). */
function watchingLookups(api: PaycashlessApi, seen: Map<string, { holder: string; bankName?: string }>): PaycashlessApi {
	const lookupPath = BANK.accountLookup('0', '0').path;
	return {
		...api,
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
function holderOf(this: IExecuteFunctions, i: number, money: PayoutMoney, seen: Map<string, { holder: string; bankName?: string }>): { holder?: string; bankName?: string } {
	const looked = seen.get(`${money.accountNumber}@${money.bankId}`);
	if (looked) return looked;
	const json = this.getInputData()[i]?.json ?? {};
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
export async function checkBatch(this: IExecuteFunctions, indexes: number[], sealed: PaycashlessApi, options: BatchCheckOptions): Promise<BatchCheck> {
	const counted = scratchCounted.call(this);
	const result: BatchCheck = { payable: [], alreadyPaid: [], notPaid: [], refused: [] };
	if (indexes.length === 0) return result;
	const seen = new Map<string, { holder: string; bankName?: string }>();
	const api = watchingLookups(sealed, seen);
	if (options.periodStanding) result.periodBefore = await periodStanding.call(this, indexes[0], api, counted);
	if (options.history && options.history.days > 0) {
		const since = Math.floor(Date.now() / 1000) - Math.round(options.history.days * 86_400);
		result.history = await readPayeeHistory(api, since, historyPageCap(indexes.length));
	}
	const history = result.history;
	// Every row's reference asked at once (the history answers those it shows), then the rows checked in order.
	const answers = await referenceAnswers.call(this, api, history);
	await answers.askAll(indexes.flatMap((i) => referenceOfRow(options, i)));
	for (const i of indexes) {
		let reference: string | undefined;
		try {
			const failed = options.failedInput?.(i);
			if (failed) {
				reference = options.referenceOf?.(i);
				throw withErrorCode(new NodeOperationError(this.getNode(), failed.message, { itemIndex: i, ...(failed.description ? { description: failed.description } : {}) }), failed.code);
			}
			const body = options.bodyOf(i);
			reference = String(body.reference ?? '');
			const check = await enforceMoneyLimits.call(this, i, 'payout', body, api, counted);
			const money = payoutMoneyOf(body);
			if (!money) throw new NodeOperationError(this.getNode(), 'The payout body cannot be read', { itemIndex: i });
			const payeeName = (itemParameter.call(this, 'moneyLimits', i, {}) as IDataObject).expectedAccountName;
			const payeeKey = options.payeeKeyOf?.(i);
			const payout: BatchPayout = {
				item: i,
				...batchPayoutOf(money),
				...(typeof payeeName === 'string' && payeeName.trim() !== '' ? { payeeName: payeeName.trim() } : {}),
				...(payeeKey ? { payeeKey } : {}),
				...holderOf.call(this, i, money, seen),
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
			if (!isThisPayout(found, money)) throw referenceMismatch.call(this, i, reference);
			const before = foundPayout(reference, found);
			if (!NOT_PAID_STATUSES.has(before.status ?? '')) {
				result.alreadyPaid.push({ ...payout, found: before });
				continue;
			}
			if (!options.payAgain) {
				result.notPaid.push({ ...payout, found: before });
				continue;
			}
			const again = await payAgainReference.call(this, i, answers, money);
			if (again.found) {
				result.alreadyPaid.push({ ...payout, reference: again.reference, rowReference: reference, repays: before, found: foundPayout(again.reference, again.found) });
				continue;
			}
			// Checked as the new payout it is, under its own reference.
			const repay = { ...body, reference: again.reference };
			const checkAgain = await enforceMoneyLimits.call(this, i, 'payout', repay, api, counted);
			if (checkAgain.foundAgain) result.alreadyPaid.push({ ...payout, reference: again.reference, rowReference: reference, repays: before, found: { reference: again.reference } });
			else result.payable.push({ ...payout, reference: again.reference, rowReference: reference, repays: before });
		} catch (error) {
			result.refused.push(refusalOf.call(this, i, error, reference));
		}
	}
	if (options.periodStanding) result.periodAfter = await periodStanding.call(this, indexes[0], api, counted);
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

/** A payout of the batch in the words of its output, from what the one payout body reader read. */
export function batchPayoutOf(money: PayoutMoney): Pick<BatchPayout, 'reference' | 'amount' | 'currency' | 'destinationAccountNumber' | 'bankId'> {
	return { reference: money.reference, amount: money.minor, currency: money.currency, destinationAccountNumber: money.accountNumber, bankId: money.bankId };
}

/** The line of a row in the batch hash, under the row's own reference. */
export type BatchLine = Pick<BatchPayout, 'reference' | 'amount' | 'currency' | 'destinationAccountNumber' | 'bankId'> & { rowReference?: string };

function hashLine(payout: BatchLine): string {
	return JSON.stringify([payout.rowReference ?? payout.reference, payout.amount, payout.currency, payout.destinationAccountNumber, payout.bankId]);
}

/** The batch hash: SHA-256 over the sorted `["reference", kobo, "currency", "account", "bank ID"]` lines. */
export function batchHash(payouts: BatchLine[]): string {
	const lines = payouts.map(hashLine).sort();
	return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** The batch's short name (the first 16 characters of its hash), written into each payout's metadata. */
export function batchIdOf(hash: string): string {
	return hash.slice(0, 16);
}

/** Every row of the check that is not refused, as the hash reads it. */
export function batchLines(check: BatchCheck): BatchLine[] {
	return [...check.payable, ...check.alreadyPaid, ...check.notPaid];
}
