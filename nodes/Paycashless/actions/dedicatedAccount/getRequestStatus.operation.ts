import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ACCOUNT_REQUEST } from '../../catalog/objects';
import { requireId } from '../../helpers/validation';
import type { PaycashlessApi } from '../../transport';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [
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

export const option: OperationOption = { name: 'Get Request Status', description: 'Check an account request, and get the account once it is ready', action: 'Get a dedicated account request' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const code = requireId(this.getNodeParameter('accountRequestCode', i), ACCOUNT_REQUEST.idPrefix, 'Account Request Code');
	return await api.request({ method: 'GET', path: ACCOUNT_REQUEST.status(code) });
}

/** What an AI agent reads as this tool's description: the status, said in full (the action is short). */
export const asTool = { action: 'Get the status of a Paycashless dedicated account request, and the account once it is ready' };

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: '`acc_req_…` code from Create' };
