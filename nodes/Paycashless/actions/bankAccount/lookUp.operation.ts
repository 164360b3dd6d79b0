import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { BANK } from '../../catalog/objects';
import { NUBAN_DIGITS, requireDigits } from '../../helpers/validation';
import type { PaycashlessApi, PaycashlessRequest } from '../../transport';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [
	{
		displayName: 'Account Number',
		name: 'accountNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0123456789',
		description: 'The bank account number (NUBAN, 10 digits)',
	},
	{
		displayName: 'Bank Code',
		name: 'bankCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: '058',
		description: 'The CBN or NIBSS code of the bank (e.g. 058)',
		hint: 'The result holds the Paycashless bank ID that Payout → Create needs: {{ $json.bank.id }}',
	},
];

export const option: OperationOption = { name: 'Look Up', description: 'Get the account name and bank of an account number', action: 'Look up a bank account' };

export const declaration: OperationDeclaration = READ;

/** CBN codes have 3 digits (058), NIBSS institution codes 5 or 6 (000013, 50211). */
export function requireBankCode(value: unknown, field: string): string {
	return requireDigits(value, field, '058 (CBN) or 000013 (NIBSS)', { min: 3, max: 6 });
}

/** The account lookup (also the Money Limits' name check): account name and Paycashless bank of a NUBAN. */
export function accountLookupRequest(accountNumber: string, bankCode: string): PaycashlessRequest {
	return {
		method: 'GET',
		path: BANK.accountLookupPath,
		qs: { accountNumber, bankCode },
		notFoundAdvice:
			'Paycashless found no such account at that bank. Check the account number (10 digits) and the bank code (CBN, e.g. 058, or NIBSS, e.g. 000013): the bank must be the one the account is at.',
	};
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const accountNumber = requireDigits(this.getNodeParameter('accountNumber', i), 'Account Number', '0123456789', NUBAN_DIGITS);
	const bankCode = requireBankCode(this.getNodeParameter('bankCode', i), 'Bank Code');
	return await api.request(accountLookupRequest(accountNumber, bankCode));
}

/** What an AI agent reads as this tool's description (+ " in Paycashless"). */
export const asTool = { action: "Look up a bank account's holder name and its Paycashless bank ID (bank.id, needed to send a payout) with Paycashless" };
