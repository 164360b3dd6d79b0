import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dedicatedAccountIdLocator, ID_PREFIXES } from '../../descriptions/locators';
import { apiPath, paycashlessRequest } from '../../transport/request';
import { readLocatorId } from '../common';

const properties: INodeProperties[] = [dedicatedAccountIdLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['dedicatedAccount'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const id = readLocatorId.call(this, i, 'dedicatedAccountId', ID_PREFIXES.dedicatedAccount, 'Dedicated Account ID');
	return await paycashlessRequest.call(this, { method: 'GET', path: apiPath`/v1/dedicated_accounts/${id}` }, i);
}
