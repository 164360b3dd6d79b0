import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYOUT } from '../../catalog/objects';
import { referenceField } from '../fields/common';
import { requireReference } from '../../helpers/validation';
import type { PaycashlessApi } from '../../transport';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [
	{
		...referenceField,
		description: 'The reference you gave when creating the payout',
	},
];

export const option: OperationOption = { name: 'Verify', description: 'Get a payout by your reference, to check its status', action: 'Verify a payout' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	return await api.request(PAYOUT.byReference(requireReference(this.getNodeParameter('reference', i))));
}

/** What an AI that builds workflows reads under this operation (../fields/builderHints.ts). */
export const builderHint = {
	option: 'Reads a payout by the reference it was created with: its status (successful, failed, pending). Nothing is paid.',
};

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'By your own reference' };
