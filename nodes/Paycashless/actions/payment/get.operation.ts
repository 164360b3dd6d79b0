import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYMENT } from '../../catalog/objects';
import { paymentIdLocator } from '../fields/locators';
import type { PaycashlessApi } from '../../transport';
import { readLocatorId } from '../common';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [paymentIdLocator];

export const option: OperationOption = { name: 'Get', description: 'Get a payment by its ID', action: 'Get a payment' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const id = readLocatorId.call(this, i, 'paymentId', PAYMENT.idPrefix, 'Payment ID');
	return await api.request({ method: 'GET', path: PAYMENT.one(id) });
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Pick from a list or paste a `pi_…` id' };
