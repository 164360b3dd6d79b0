import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { createdAtFilterFields, filtersCollection, listFields, statusFilterField } from '../../descriptions/common';
import { paginate } from '../../transport/paginate';
import { readListFilters, readListOptions } from '../common';

export const PAYOUT_STATUSES = ['cancelled', 'failed', 'pending', 'reversed', 'sent', 'succeeded'];

const properties: INodeProperties[] = [
	...listFields,
	filtersCollection([
		statusFilterField(PAYOUT_STATUSES, 'Only payouts in this status'),
		{
			displayName: 'Destination Account Number',
			name: 'destinationAccountNumber',
			type: 'string',
			default: '',
			description: 'Only payouts to this bank account number',
		},
		...createdAtFilterFields,
	]),
];

export const description = updateDisplayOptions({ show: { resource: ['payout'], operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i);
	return await paginate.call(this, { path: '/v1/payouts', qs }, options, i);
}
