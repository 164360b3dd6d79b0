import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { DEDICATED_ACCOUNT } from '../../catalog/objects';
import { dedicatedAccountIdLocator } from '../fields/locators';
import type { PaycashlessApi } from '../../transport';
import { readLocatorId } from '../common';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [dedicatedAccountIdLocator];

export const option: OperationOption = { name: 'Get', description: 'Get a dedicated account by its ID', action: 'Get a dedicated account' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const id = readLocatorId.call(this, i, 'dedicatedAccountId', DEDICATED_ACCOUNT.idPrefix, 'Dedicated Account ID');
	return await api.request({ method: 'GET', path: DEDICATED_ACCOUNT.one(id) });
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Pick from a list or paste a `va_…` id' };
