import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { referenceField } from '../../descriptions/common';
import { requireText } from '../../helpers/validation';
import { apiPath, type PaycashlessApi, type PaycashlessRequest } from '../../transport';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [
	{
		...referenceField,
		description: 'The reference you gave when creating the payment',
	},
];

export const option: OperationOption = { name: 'Verify', description: 'Get a payment by your reference, to check its status', action: 'Verify a payment' };

export const declaration: OperationDeclaration = READ;

/** The one request that reads a payment by its reference (also how a create finds it again). */
export function verifyPaymentRequest(reference: string): PaycashlessRequest {
	return { method: 'GET', path: apiPath`/v1/payments/${reference}/verify` };
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	return await api.request(verifyPaymentRequest(requireText(this.getNodeParameter('reference', i), 'Reference')));
}
