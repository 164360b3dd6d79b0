import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ID_PREFIXES, invoiceIdLocator } from '../../descriptions/locators';
import { apiPath, paycashlessRequest } from '../../transport/request';
import { readLocatorId } from '../common';

const properties: INodeProperties[] = [invoiceIdLocator];

export const description = updateDisplayOptions({ show: { resource: ['invoice'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const id = readLocatorId.call(this, i, 'invoiceId', ID_PREFIXES.invoice, 'Invoice ID');
	return await paycashlessRequest.call(this, { method: 'GET', path: apiPath`/v1/invoices/${id}` }, i);
}
