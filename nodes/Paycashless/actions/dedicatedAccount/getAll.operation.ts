import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { createdAtFilterFields, filtersCollection, listFields, statusFilterField } from '../../descriptions/common';
import type { PaycashlessApi } from '../../transport';
import { readListFilters, readListOptions } from '../common';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

/** The only documented value; others can be given through an expression. */
export const DEDICATED_ACCOUNT_STATUSES = ['active'];

export const description: INodeProperties[] = [
	...listFields,
	filtersCollection([
		statusFilterField(DEDICATED_ACCOUNT_STATUSES, 'Only accounts in this status'),
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

export const option: OperationOption = { name: 'Get Many', description: 'List dedicated accounts', action: 'Get many dedicated accounts' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i);
	return await api.paginate({ path: '/v1/dedicated_accounts', qs }, options);
}
