/**
 * How a Money Limit refuses an item, shared by the limits (limits.ts) and the beneficiary
 * checks (beneficiary.ts): a NodeOperationError (nothing was sent) whose context carries
 * `type: money_limit` and a stable `code` naming the limit (the failed item's `error.code`).
 *
 * What an AI agent's tool reads of a refusal is decided here, by its code, and nowhere else: the
 * person running the regular node reads the whole message (the limit, the totals, the holder's
 * name, the figures they need to correct a row), a model reads `FOR_A_MODEL`'s words, which name
 * which limit refused and never a limit's value, a total, what is left, another payout, an
 * allow-list entry, the bank a payee is checked at or the holder's name. A code not listed there
 * (a refusal added later) reads as a generic refusal naming its code, so a new message can never
 * teach a model more than this table allows.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withErrorCode } from '../helpers/errorCodes';
import type { MoneyRun } from './run';

/** The `type` of every Money Limits refusal in a failed item's `error`; the `code` names the limit. */
const LIMIT_ERROR_TYPE = 'money_limit';

/** Said after every refusal a model reads: what it cannot do about it. */
const NOT_FOR_THE_MODEL = 'Only the person who set up this workflow can change Money Limits; an AI agent cannot.';

/**
 * Codes whose own words a model may read: they carry only field names and what the model itself
 * sent (its reference, its account number, its body). test/unit/node/modelRefusals.test.cts runs
 * every refusal as a tool and checks that no limit's value, total or other payout appears.
 */
const OWN_WORDS = new Set(['LIMIT_EXPRESSION', 'LIMIT_NOT_SET', 'AMOUNT_UNREADABLE', 'BENEFICIARY_UNTRUSTED', 'ACCOUNT_NOT_ALLOWED', 'REFERENCE_REUSED']);

/** What a model reads instead, by code. */
const FOR_A_MODEL: Record<string, { message: string; description: string }> = {
	LIMIT_INVALID: { message: 'Refused: a Money Limit of this node is set to a value it cannot use', description: `Nothing was sent. A limit never switches itself off. ${NOT_FOR_THE_MODEL}` },
	CURRENCY_NOT_LIMITED: { message: "Refused: this node's Money Limits do not allow this currency", description: `Nothing was sent. ${NOT_FOR_THE_MODEL}` },
	MAX_AMOUNT: {
		message: "Refused: the amount is above this node's Maximum Amount",
		description: `Nothing was sent. Amounts are in main units (naira or dollars): an amount meant in kobo is 100 times too large. ${NOT_FOR_THE_MODEL}`,
	},
	MAX_COUNT_EXECUTION: { message: 'Refused: this would pass the Maximum Count per Execution', description: `Nothing was sent. ${NOT_FOR_THE_MODEL}` },
	MAX_TOTAL_EXECUTION: { message: 'Refused: this would pass the Maximum Total per Execution', description: `Nothing was sent. ${NOT_FOR_THE_MODEL}` },
	MAX_COUNT_PERIOD: { message: 'Refused: this payout would pass the Maximum Count per Period', description: `Nothing was sent. ${NOT_FOR_THE_MODEL}` },
	MAX_TOTAL_PERIOD: { message: 'Refused: this payout would pass the Maximum Total per Period', description: `Nothing was sent. ${NOT_FOR_THE_MODEL}` },
	REFERENCE_IN_FLIGHT: {
		message: 'Refused: this Reference is in use by another payout being sent right now',
		description: 'Nothing was sent. A reference names one payout: give this payout its own reference.',
	},
	PERIOD_UNREADABLE: {
		message: "Refused: the period limits could not read Paycashless's payout list",
		description: 'Nothing was sent: without it the period limits cannot count. Try again later.',
	},
	ALLOWED_ENTRY_INVALID: {
		message: 'Refused: Money Limits → Allowed Destination Accounts has an entry that is not account@bank code',
		description: `Nothing was sent. ${NOT_FOR_THE_MODEL}`,
	},
	LOOKUP_FAILED: {
		message: "Refused: the payee's account could not be looked up",
		description: 'Nothing was sent. Check the account number and the bank; a Bank Account → Look Up of the account says whether it exists.',
	},
	LOOKUP_WITHOUT_BANK: { message: "Refused: Paycashless's lookup of the payee's account named no bank", description: 'Nothing was sent. Try again later.' },
	BANK_MISMATCH: { message: "Refused: the payee's account is not at the bank this node checks it at", description: `Nothing was sent. ${NOT_FOR_THE_MODEL}` },
	NAME_MISMATCH: {
		message: "Refused: the account's holder does not match Expected Account Name",
		description: "Nothing was sent. The person who set up this workflow can check the account number, the bank and Expected Account Name; a Bank Account → Look Up node on this account and bank shows the holder's name to them.",
	},
};

/** The words of a refusal as a model reads them: its own where they hold nothing to learn, else the table's, else generic. */
function forAModel(code: string, message: string, description: string): { message: string; description: string } {
	if (OWN_WORDS.has(code)) return { message, description };
	return FOR_A_MODEL[code] ?? { message: `Refused by this node's Money Limits (${code})`, description: `Nothing was sent. ${NOT_FOR_THE_MODEL}` };
}

/** A refusal: nothing was sent. `code` is stable (the failed item's `error.code`); a tool reads `FOR_A_MODEL`'s words. */
export function refuse(run: MoneyRun, i: number, code: string, message: string, description: string): never {
	const words = run.asTool ? forAModel(code, message, description) : { message, description };
	const error = new NodeOperationError(run.node, words.message, { itemIndex: i, description: words.description });
	error.context.paycashless = { type: LIMIT_ERROR_TYPE } as IDataObject as typeof error.context.paycashless;
	throw withErrorCode(error, code);
}
