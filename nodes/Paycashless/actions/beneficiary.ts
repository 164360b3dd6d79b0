/**
 * The beneficiary checks of Payout → Create's Money Limits: Allowed Destination Accounts, and
 * Expected Account Name compared with the name Paycashless's account lookup returns.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../helpers/body';
import { NUBAN_DIGITS, optionalText, requireDigits } from '../helpers/validation';
import type { PaycashlessApi } from '../transport';
import { accountLookupRequest, requireBankCode } from './bankAccount/lookUp.operation';

/** The payout-only fields of Money Limits. */
export function beneficiaryFields(): INodeProperties[] {
	return [
		{
			displayName: 'Allowed Destination Accounts',
			name: 'allowedAccounts',
			type: 'string',
			default: '',
			placeholder: '0123456789, 0987654321',
			description: 'Only these account numbers (NUBAN, separated by commas, spaces or new lines) may be paid. Empty = any account.',
		},
		{
			displayName: 'Expected Account Name',
			name: 'expectedAccountName',
			type: 'string',
			default: '',
			placeholder: 'Adaeze Okafor',
			description:
				"Who the payee must be. Before paying, the node looks the account up (Bank Code below) and refuses the payout unless every word of this name is in the account's name: any order, any case, punctuation ignored (\"okafor adaeze\" matches ADAEZE CHIOMA OKAFOR; a single word must be the whole name). The account must also be at the payout's bank.",
		},
		{
			displayName: 'Bank Code for the Name Check',
			name: 'beneficiaryBankCode',
			type: 'string',
			default: '',
			placeholder: '058',
			description: 'The CBN or NIBSS code of the destination bank, to look the account up for Expected Account Name',
		},
	];
}

/** The words of a name for comparison: upper case, letters and digits only. */
export function nameWords(name: string): string[] {
	return name
		.toUpperCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.split(' ')
		.filter((word) => word !== '');
}

/** The name rule of Expected Account Name (see the field's description). */
export function namesMatch(expected: string, actual: string): boolean {
	const want = nameWords(expected);
	const have = nameWords(actual);
	if (want.length === 0 || have.length === 0) return false;
	if (want.length === 1) return have.length === 1 && have[0] === want[0];
	const pool = [...have];
	for (const word of want) {
		const at = pool.indexOf(word);
		if (at < 0) return false;
		pool.splice(at, 1);
	}
	return true;
}

function refuse(this: IExecuteFunctions, i: number, message: string, description: string): never {
	throw new NodeOperationError(this.getNode(), message, { itemIndex: i, description });
}

export async function checkBeneficiary(this: IExecuteFunctions, i: number, limits: IDataObject, body: IDataObject, api: PaycashlessApi): Promise<void> {
	const account = String(body.destinationAccountNumber ?? '');
	const allowedText = optionalText(limits.allowedAccounts);
	if (allowedText !== undefined) {
		const allowed = allowedText.split(/[\s,;]+/).filter((entry) => entry !== '');
		if (!allowed.includes(account)) {
			refuse.call(
				this,
				i,
				`Refused: account ${account} is not among this node's Allowed Destination Accounts`,
				`Nothing was sent. Allowed: ${allowed.join(', ')}. Add the account under Money Limits → Allowed Destination Accounts if it is right.`,
			);
		}
	}
	const expected = optionalText(limits.expectedAccountName);
	if (expected === undefined) return;
	const bankCode = requireBankCode(limits.beneficiaryBankCode, 'Money Limits → Bank Code for the Name Check');
	const accountNumber = requireDigits(account, 'Destination Account Number', '0123456789', NUBAN_DIGITS);
	let found: IDataObject = {};
	try {
		found = await api.request(accountLookupRequest(accountNumber, bankCode));
	} catch (error) {
		refuse.call(
			this,
			i,
			`Refused: the account ${accountNumber} could not be looked up to check its name`,
			`Nothing was sent. ${(error as Error).message}`,
		);
	}
	const name = String(found.accountName ?? '');
	const bankId = isObject(found.bank) ? found.bank.id : undefined;
	if (bankId !== undefined && bankId !== body.bankId) {
		refuse.call(
			this,
			i,
			`Refused: account ${accountNumber} was looked up at bank ${String(bankId)}, but the payout goes to bank ${String(body.bankId)}`,
			'Nothing was sent. Check Bank ID and Money Limits → Bank Code for the Name Check: they must be the same bank.',
		);
	}
	if (!namesMatch(expected, name)) {
		refuse.call(
			this,
			i,
			`Refused: account ${accountNumber} belongs to "${name}", not "${expected}"`,
			'Nothing was sent. Every word of Expected Account Name must be in the account name (any order and case). Check the account number for a typo.',
		);
	}
}
