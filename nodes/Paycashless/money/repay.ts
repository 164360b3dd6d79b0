/**
 * Paying a failed row again (Pay Again If Failed): a payout Paycashless has as failed, reversed or
 * cancelled did not pay, so the row is paid again under `<reference>-repay-1`, then `-repay-2`…,
 * one live payout per row at most, and never under a reference another payout holds.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PayoutMoney } from '../../../lib/payoutBody';
import { PAYOUT } from '../catalog/objects';
import { ERROR_CODES, withErrorCode } from '../helpers/errorCodes';
import type { PaycashlessApi } from '../transport';
import type { FoundPayout } from './batchRows';
import { readListedPayout, samePayout } from './period';
import { referenceAnswers, type ReferenceAnswers } from './references';
import type { MoneyRun } from './run';

/** Statuses after which the money did not arrive: such a payout is not paid. */
export const NOT_PAID_STATUSES = new Set(PAYOUT.finalStatuses.filter((status) => status !== 'succeeded'));

/** The reference a row is paid again under, after `n` failed payments again (`salary-S003-repay-1`). */
export function repayReference(reference: string, n: number): string {
	return `${reference}-repay-${n}`;
}

/** How many times a row may be paid again (each after the one before failed). */
const MAX_REPAYS = 9;

export function foundPayout(reference: string, record: IDataObject): FoundPayout {
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
export function isThisPayout(record: IDataObject, money: PayoutMoney): boolean {
	const listed = readListedPayout(record);
	return typeof listed !== 'string' && samePayout(listed, { value: money.minor, currency: money.currency, accountNumber: money.accountNumber, bankId: money.bankId });
}

export function referenceMismatch(run: MoneyRun, i: number, reference: string): NodeOperationError {
	return withErrorCode(
		new NodeOperationError(run.node, `Refused: the reference "${reference}" belongs to another payout on Paycashless`, {
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
export async function payAgainReference(run: MoneyRun, i: number, answers: ReferenceAnswers, money: PayoutMoney): Promise<{ reference: string; found?: IDataObject }> {
	for (let n = 1; n <= MAX_REPAYS; n++) {
		const reference = repayReference(money.reference, n);
		const found = await answers.found(reference);
		if (found === undefined) return { reference };
		if (!isThisPayout(found, money)) throw referenceMismatch(run, i, reference);
		if (!NOT_PAID_STATUSES.has(String(found.status ?? ''))) return { reference, found };
	}
	throw withErrorCode(
		new NodeOperationError(run.node, `Refused: "${money.reference}" failed ${MAX_REPAYS + 1} times; it is not paid again automatically`, {
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
export async function referenceToPay(run: MoneyRun, i: number, api: PaycashlessApi, money: PayoutMoney): Promise<string> {
	const answers = await referenceAnswers(run, api);
	const found = await answers.found(money.reference);
	if (found === undefined || !isThisPayout(found, money) || !NOT_PAID_STATUSES.has(String(found.status ?? ''))) return money.reference;
	return (await payAgainReference(run, i, answers, money)).reference;
}
