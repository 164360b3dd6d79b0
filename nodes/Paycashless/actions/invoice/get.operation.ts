import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { INVOICE } from '../../catalog/objects';
import { invoiceIdLocator } from '../fields/locators';
import type { PaycashlessApi } from '../../transport';
import { readLocatorId } from '../common';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [invoiceIdLocator];

export const option: OperationOption = { name: 'Get', description: 'Get an invoice by its ID', action: 'Get an invoice' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const id = readLocatorId.call(this, i, 'invoiceId', INVOICE.idPrefix, 'Invoice ID');
	return await api.request({ method: 'GET', path: INVOICE.one(id) });
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Pick from a list or paste an `inv_…` id' };
