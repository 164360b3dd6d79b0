import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { referenceField } from '../../descriptions/common';
import { requireText } from '../../helpers/validation';
import { apiPath, type PaycashlessApi, type PaycashlessRequest } from '../../transport';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [
	{
		...referenceField,
		description: 'The reference you gave when creating the payout',
	},
];

export const option: OperationOption = { name: 'Verify', description: 'Get a payout by your reference, to check its status', action: 'Verify a payout' };

export const declaration: OperationDeclaration = READ;

/** The one request that reads a payout by its reference (also how a create finds it again). */
export function verifyPayoutRequest(reference: string): PaycashlessRequest {
	return { method: 'GET', path: apiPath`/v1/payouts/verify/${reference}` };
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	return await api.request(verifyPayoutRequest(requireText(this.getNodeParameter('reference', i), 'Reference')));
}
