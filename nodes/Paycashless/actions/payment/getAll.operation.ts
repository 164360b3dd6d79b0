import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { createdAtFilterFields, filtersCollection, listFields, statusFilterField } from '../../descriptions/common';
import { paginate } from '../../transport/paginate';
import { readListFilters, readListOptions } from '../common';

export const PAYMENT_STATUSES = ['awaiting_charge', 'charged', 'expired', 'failed', 'initiated', 'reversed', 'succeeded'];

const properties: INodeProperties[] = [
	...listFields,
	filtersCollection([statusFilterField(PAYMENT_STATUSES, 'Only payments in this status'), ...createdAtFilterFields]),
];

export const description = updateDisplayOptions({ show: { resource: ['payment'], operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i);
	return await paginate.call(this, { path: '/v1/payments', qs }, options, i);
}
