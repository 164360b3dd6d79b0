import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { referenceField } from '../../descriptions/common';
import { requireText } from '../../helpers/validation';
import { apiPath, paycashlessRequest } from '../../transport/request';

const properties: INodeProperties[] = [
	{
		...referenceField,
		description: 'The reference you gave when creating the payout',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['payout'], operation: ['verify'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const reference = requireText(this.getNodeParameter('reference', i), 'Reference');
	return await paycashlessRequest.call(this, { method: 'GET', path: apiPath`/v1/payouts/verify/${reference}` }, i);
}
