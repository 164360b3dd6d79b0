import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYMENT } from '../../catalog/objects';
import { referenceField } from '../fields/common';
import { requireReference } from '../../helpers/validation';
import type { PaycashlessApi } from '../../transport';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [
	{
		...referenceField,
		description: 'The reference you gave when creating the payment',
	},
];

export const option: OperationOption = { name: 'Verify', description: 'Get a payment by your reference, to check its status', action: 'Verify a payment' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	return await api.request(PAYMENT.byReference(requireReference(this.getNodeParameter('reference', i))));
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'By your own reference' };
