import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ID_PREFIXES } from '../../descriptions/locators';
import { requireId } from '../../helpers/validation';
import { apiPath, paycashlessRequest } from '../../transport/request';

const properties: INodeProperties[] = [
	{
		displayName: 'Account Request Code',
		name: 'accountRequestCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'acc_req_abc123',
		description: 'The accountRequestCode returned by Dedicated Account → Create (starts with acc_req_)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dedicatedAccount'], operation: ['getRequestStatus'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const code = requireId(this.getNodeParameter('accountRequestCode', i), ID_PREFIXES.accountRequest, 'Account Request Code');
	return await paycashlessRequest.call(
		this,
		{ method: 'GET', path: apiPath`/v1/dedicated_accounts/requests/${code}/status` },
		i,
	);
}
