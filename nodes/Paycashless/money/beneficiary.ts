/**
 * The beneficiary checks of Payout → Create's Money Limits (docs/money.md, "Who may be paid"):
 * - Allowed Destination Accounts: each entry an account AND its bank (`0123456789@058`); the
 *   payout's Bank ID must be the bank Paycashless's account lookup gives for that entry.
 * - Expected Account Name: the name Paycashless's account lookup returns must pass the name rule
 *   (namesMatch). The expected name may not come from the model (`$fromAI`) or from the lookup
 *   being checked (an expression reading `accountName` or naming an account-lookup node).
 * The lookups are shared by the execution (./lookups.ts: one per payee, kept for an hour).
 * A lookup that fails or names no bank refuses. No refusal an AI agent reads (the tool) repeats the
 * holder's name: it is what the model could otherwise learn to write; the regular node names it
 * to the person, who needs it to correct the row.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { PayoutMoney } from '../../../lib/payoutBody';
import { isObject } from '../helpers/body';
import { namesMatch } from './names';
import { NUBAN_DIGITS, optionalText, requireBankCode, requireDigits } from '../helpers/validation';
import type { PaycashlessApi } from '../transport';
import { lookUpAccount } from './lookups';
import { refuse } from './refusal';
import type { MoneyRun } from './run';

/** The typed-in choices of the beneficiary checks, by field name (refused as expressions with the other limits). */
export const BENEFICIARY_CHOICES = { allowMiddleNames: 'Allow Middle Names in Account Name' } as const;

/** The payout-only fields of Money Limits. */
export function beneficiaryFields(): INodeProperties[] {
	return [
		{
			displayName: 'Allowed Destination Accounts',
			name: 'allowedAccounts',
			type: 'string',
			default: '',
			placeholder: '0123456789@058, 0987654321@044',
			description:
				'Only these accounts may be paid: each the 10-digit account number, @, and the CBN or NIBSS code of its bank (0123456789@058), separated by commas, spaces or new lines. An entry without its bank refuses every payout. Empty = any account.',
		},
		{
			displayName: 'Expected Account Name',
			name: 'expectedAccountName',
			type: 'string',
			default: '',
			placeholder: 'Adaeze Okafor',
			description:
				"Who the payee must be. Before paying, the node looks the account up (Payee Bank Code below) and refuses the payout unless the account's name and this one have the same words: any order, any case, accents, punctuation and titles ignored, an initial for a name starting with it, never for a business word (\"okafor adaeze\" matches ADAEZE OKAFOR, not ADAEZE CHIOMA OKAFOR nor ADAEZE OKAFOR VENTURES; \"Adaeze C. Okafor\" not ADAEZE OKAFOR COLLECTIONS). Write the holder's name in full, or allow middle names below. The account must also be at the payout's bank.",
		},
		{
			displayName: 'Payee Bank Code',
			name: 'beneficiaryBankCode',
			type: 'string',
			default: '',
			placeholder: '058',
			description: "The CBN or NIBSS code of the destination bank, to look the account up for Expected Account Name (if empty: the bank of the account's Allowed Destination Accounts entry)",
		},
		{
			displayName: BENEFICIARY_CHOICES.allowMiddleNames,
			name: 'allowMiddleNames',
			type: 'boolean',
			noDataExpression: true,
			default: false,
			description:
				"Whether the account's name may have up to two words more than Expected Account Name (middle names: \"Ada Obi\" then matches ADA CHIOMA OBI). Each left-over word must read as a person's name, or be one initial: a business word, an abbreviation, a short code or a number (VENTURES, STORES, & CO, LTD, NIG, BDC, A.B.C, OBITECH, 2) still refuses the payout: a business named after a person is not that person. Off: every word of the account's name must be in Expected Account Name. Typed in only: an expression is refused.",
		},
	];
}


// Where the expected values come from ------------------------------------------------------------

const PAYCASHLESS_TYPE = /^n8n-nodes-paycashless\.paycashless(Tool)?$/;

/** Names of the account-lookup nodes this node reads from (n8n 2.x: upstream nodes with their parameters). */
function readLookupNodeNames(run: MoneyRun): string[] {
	try {
		return run.context.getParentNodes(run.node.name, { includeNodeParameters: true })
			.filter((node) => PAYCASHLESS_TYPE.test(node.type) && node.parameters?.resource === 'bankAccount' && node.parameters?.operation === 'lookUp')
			.map((node) => node.name);
	} catch {
		return [];
	}
}

/**
 * Why the raw (unresolved) value of a beneficiary field cannot be trusted, or undefined. Refused:
 * an expression with `$fromAI` (the model fills it), and for Expected Account Name one that reads
 * `accountName` (the field an account lookup returns) or names an account-lookup node upstream:
 * the check would compare the lookup with itself.
 */
export function untrustedSource(raw: unknown, field: 'allowedAccounts' | 'expectedAccountName', lookupNodes: string[]): string | undefined {
	// n8n 1.123 hands a tool's `={{ $fromAI(…) }}` over without its `=`: any `{{` is an expression too.
	if (typeof raw !== 'string' || !(raw.startsWith('=') || raw.includes('{{'))) return undefined;
	if (/fromai\s*\(/i.test(raw)) return 'is filled by the AI model ($fromAI)';
	if (field !== 'expectedAccountName') return undefined;
	if (/accountName/i.test(raw)) return 'reads accountName, the name an account lookup returns';
	const named = lookupNodes.find((name) => [`'${name}'`, `"${name}"`, `\`${name}\``, `.${name}`].some((quoted) => raw.includes(quoted)));
	return named === undefined ? undefined : `reads the account-lookup node "${named}"`;
}

// The check ----------------------------------------------------------------------------------------

const FIELD_NAMES = { allowedAccounts: 'Allowed Destination Accounts', expectedAccountName: 'Expected Account Name' } as const;

interface AllowedEntry {
	account: string;
	bankCode: string;
}

/** `0123456789@058, …`: each entry an account and its bank; an entry without a bank is refused. */
function allowedEntries(run: MoneyRun, i: number, text: string): AllowedEntry[] {
	return text
		.split(/[\s,;]+/)
		.filter((entry) => entry !== '')
		.map((entry) => {
			const match = /^(\d{10})@(\d{3,6})$/.exec(entry);
			if (!match) {
				return refuse(
					run,
					i,
					'ALLOWED_ENTRY_INVALID',
					`Refused: the Allowed Destination Accounts entry "${entry}" is not account@bank code`,
					'Nothing was sent. The person who set up this workflow must write each entry as the 10-digit account number, @, and the CBN or NIBSS code of its bank, e.g. 0123456789@058: an account number alone would allow that number at any bank.',
				);
			}
			return { account: match[1], bankCode: match[2] };
		});
}

/**
 * The account lookup of a check: shared with the execution's other lookups of the same account,
 * bank code and credential (./lookups.ts); refuses when it fails or names no bank.
 */
function lookups(run: MoneyRun, i: number, api: PaycashlessApi) {
	return async (accountNumber: string, bankCode: string): Promise<{ name: string; bankId: string }> => {
		let found: IDataObject = {};
		try {
			found = await lookUpAccount(run, api, accountNumber, bankCode, true);
		} catch (error) {
			refuse(run, i, 'LOOKUP_FAILED', `Refused: account ${accountNumber} could not be looked up at bank code ${bankCode}`, `Nothing was sent. ${(error as Error).message}`);
		}
		const bankId = isObject(found.bank) && typeof found.bank.id === 'string' ? found.bank.id : '';
		if (bankId === '') {
			refuse(
				run,
				i,
				'LOOKUP_WITHOUT_BANK',
				`Refused: Paycashless's lookup of account ${accountNumber} at bank code ${bankCode} named no bank`,
				"Nothing was sent: without the lookup's bank the payout's Bank ID cannot be checked. Try again later; if it persists, ask Paycashless support.",
			);
		}
		return { name: String(found.accountName ?? ''), bankId };
	};
}

/** Who a payout goes to, as the one reader of a payout body (lib/payoutBody.ts) read it. */
export type Payee = Pick<PayoutMoney, 'accountNumber' | 'bankId'>;

export async function checkBeneficiary(run: MoneyRun, i: number, limits: IDataObject, payee: Payee, api: PaycashlessApi): Promise<void> {
	const raw = (run.node.parameters?.moneyLimits ?? {}) as IDataObject;
	const lookupNodes = (run.lookupNodes ??= readLookupNodeNames(run));
	for (const field of ['allowedAccounts', 'expectedAccountName'] as const) {
		const why = untrustedSource(raw[field], field, lookupNodes);
		if (why !== undefined) {
			refuse(
				run,
				i,
				'BENEFICIARY_UNTRUSTED',
				`Refused: Money Limits → ${FIELD_NAMES[field]} ${why}`,
				`Nothing was sent. A beneficiary check is only worth something when the person who set up this workflow fills it from data they trust: fixed text, or an expression over their own records. The model and the account lookup being checked cannot be that source (docs: Money Limits, "Who may be paid").`,
			);
		}
	}
	const allowedText = optionalText(limits.allowedAccounts);
	const expected = optionalText(limits.expectedAccountName);
	if (allowedText === undefined && expected === undefined) return;
	const accountNumber = requireDigits(payee.accountNumber, 'Destination Account Number', '0123456789', NUBAN_DIGITS);
	const lookUp = lookups(run, i, api);

	let allowedBankCode: string | undefined;
	if (allowedText !== undefined) {
		for (const entry of allowedEntries(run, i, allowedText).filter((candidate) => candidate.account === accountNumber)) {
			if ((await lookUp(accountNumber, entry.bankCode)).bankId === payee.bankId) {
				allowedBankCode = entry.bankCode;
				break;
			}
		}
		if (allowedBankCode === undefined) {
			refuse(
				run,
				i,
				'ACCOUNT_NOT_ALLOWED',
				`Refused: account ${accountNumber} at the payout's bank is not among this node's Allowed Destination Accounts`,
				'Nothing was sent. The person who set up this workflow can add it under Money Limits → Allowed Destination Accounts as account@bank code (e.g. 0123456789@058) if it is right.',
			);
		}
	}
	if (expected === undefined) return;
	const bankCode = requireBankCode(optionalText(limits.beneficiaryBankCode) ?? allowedBankCode, 'Money Limits → Payee Bank Code');
	const found = await lookUp(accountNumber, bankCode);
	if (found.bankId !== payee.bankId) {
		refuse(
			run,
			i,
			'BANK_MISMATCH',
			`Refused: account ${accountNumber} was looked up at bank code ${bankCode}, but the payout goes to another bank`,
			'Nothing was sent. Bank ID and Money Limits → Payee Bank Code must be the same bank.',
		);
	}
	if (!namesMatch(expected, found.name, { allowMiddleNames: limits.allowMiddleNames === true })) {
		// The person running the regular node sees the holder's name; an AI agent (the tool) never
		// does: it reads ./refusal.ts's words for NAME_MISMATCH.
		const holder = `Paycashless names the holder ${JSON.stringify(found.name)}; Expected Account Name is ${JSON.stringify(expected)}.`;
		refuse(
			run,
			i,
			'NAME_MISMATCH',
			`Refused: the holder of account ${accountNumber} (bank code ${bankCode}) does not match Expected Account Name`,
			`Nothing was sent. The holder's name Paycashless returns does not pass the name rule (docs: Money Limits, "Who may be paid"). The person who set up this workflow can check the account number, the bank and Expected Account Name; ${holder}`,
		);
	}
}
