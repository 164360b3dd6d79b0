/**
 * The rows of a checked batch (payable, paid before, not paid, refused) and the batch hash, which
 * binds an approval to what it showed: SHA-256 over the sorted lines
 * `["reference", kobo, "NGN", "account", "bank ID"]` of every row that is not refused, each under
 * the row's own reference (a row paid again is still that row). The check: ./batch.ts.
 */
import { createHash } from 'crypto';
import type { IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { PayoutMoney } from '../../../lib/payoutBody';
import type { Currency } from '../helpers/amount';
import type { PayeeHistory, PayoutFlag } from './payeeHistory';
import type { PeriodStanding } from './periodCheck';

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
export interface FoundPayout {
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
	/**
	 * Paycashless's payout under the reference a row would be sent under, by item, for the rows paid
	 * before and not paid (what a create of them would find again; not in any output of the check).
	 */
	foundPayouts: Map<number, IDataObject>;
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
