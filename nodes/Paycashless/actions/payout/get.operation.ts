import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ID_PREFIXES, payoutIdLocator } from '../../descriptions/locators';
import { apiPath, paycashlessRequest } from '../../transport/request';
import { readLocatorId } from '../common';

const properties: INodeProperties[] = [payoutIdLocator];

export const description = updateDisplayOptions({ show: { resource: ['payout'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const id = readLocatorId.call(this, i, 'payoutId', ID_PREFIXES.payout, 'Payout ID');
	return await paycashlessRequest.call(this, { method: 'GET', path: apiPath`/v1/payouts/${id}` }, i);
}
