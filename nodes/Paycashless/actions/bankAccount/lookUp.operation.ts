import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { NUBAN_DIGITS, requireDigits } from '../../helpers/validation';
import type { PaycashlessApi } from '../../transport';
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

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const accountNumber = requireDigits(this.getNodeParameter('accountNumber', i), 'Account Number', '0123456789', NUBAN_DIGITS);
	// CBN codes have 3 digits (058), NIBSS institution codes 5 or 6 (000013, 50211).
	const bankCode = requireDigits(this.getNodeParameter('bankCode', i), 'Bank Code', '058 (CBN) or 000013 (NIBSS)', { min: 3, max: 6 });
	return await api.request({ method: 'GET', path: '/v1/banks/account_lookup', qs: { accountNumber, bankCode } });
}

/** What an AI agent reads as this tool's description (+ " in Paycashless"). */
export const asTool = { action: "Look up a bank account's holder name and its Paycashless bank ID (bank.id, needed to send a payout) with Paycashless" };
