import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ID_PREFIXES, paymentIdLocator } from '../../descriptions/locators';
import { apiPath, paycashlessRequest } from '../../transport/request';
import { readLocatorId } from '../common';

const properties: INodeProperties[] = [paymentIdLocator];

export const description = updateDisplayOptions({ show: { resource: ['payment'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const id = readLocatorId.call(this, i, 'paymentId', ID_PREFIXES.payment, 'Payment ID');
	return await paycashlessRequest.call(this, { method: 'GET', path: apiPath`/v1/payments/${id}` }, i);
}
