import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYOUT } from '../../catalog/objects';
import { payoutIdLocator } from '../fields/locators';
import type { PaycashlessApi } from '../../transport';
import { readLocatorId } from '../common';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [payoutIdLocator];

export const option: OperationOption = { name: 'Get', description: 'Get a payout by its ID', action: 'Get a payout' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const id = readLocatorId.call(this, i, 'payoutId', PAYOUT.idPrefix, 'Payout ID');
	return await api.request({ method: 'GET', path: PAYOUT.one(id) });
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Pick from a list or paste a `po_…` id' };
