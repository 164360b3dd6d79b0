import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { createdAtFilterFields, filtersCollection, listFields, statusFilterField } from '../../descriptions/common';
import { paginate } from '../../transport/paginate';
import { readListFilters, readListOptions } from '../common';

/** The only documented value; others can be given through an expression. */
export const DEDICATED_ACCOUNT_STATUSES = ['active'];

const properties: INodeProperties[] = [
	...listFields,
	filtersCollection([
		statusFilterField(DEDICATED_ACCOUNT_STATUSES, 'Only accounts in this status', { open: true }),
		{
			displayName: 'BVN',
			name: 'bvn',
			type: 'string',
			default: '',
			description: 'Only accounts of the customer with this Bank Verification Number',
		},
		...createdAtFilterFields,
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dedicatedAccount'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i);
	return await paginate.call(this, { path: '/v1/dedicated_accounts', qs }, options, i);
}
