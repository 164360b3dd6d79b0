import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireDigits, requireText } from '../../helpers/validation';
import type { PaycashlessApi } from '../../transport';
import type { OperationDeclaration, OperationOption } from '../types';

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

export const option: OperationOption = {
	name: 'Look Up',
	description: 'Get the account name and bank of an account number',
	action: 'Look up a bank account',
};

export const declaration: OperationDeclaration = { kind: 'read' };

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const accountNumber = requireDigits(this.getNodeParameter('accountNumber', i), 'Account Number', '0123456789');
	const bankCode = requireText(this.getNodeParameter('bankCode', i), 'Bank Code', 'the CBN or NIBSS code of the bank is required, e.g. 058');
	return await api.request({ method: 'GET', path: '/v1/banks/account_lookup', qs: { accountNumber, bankCode } });
}
