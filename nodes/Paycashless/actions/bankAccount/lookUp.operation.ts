import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireDigits, requireText } from '../../helpers/validation';
import { paycashlessRequest } from '../../transport/request';

const properties: INodeProperties[] = [
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

export const description = updateDisplayOptions({ show: { resource: ['bankAccount'], operation: ['lookUp'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const accountNumber = requireDigits(this.getNodeParameter('accountNumber', i), 'Account Number', '0123456789');
	const bankCode = requireText(this.getNodeParameter('bankCode', i), 'Bank Code', 'the CBN or NIBSS code of the bank is required, e.g. 058');
	return await paycashlessRequest.call(
		this,
		{ method: 'GET', path: '/v1/banks/account_lookup', qs: { accountNumber, bankCode } },
		i,
	);
}
