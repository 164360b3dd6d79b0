import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { DEDICATED_ACCOUNT, sortedStatuses } from '../../catalog/objects';
import { createdAtFilterFields, filtersCollection, listFields, statusFilterField } from '../fields/listFilters';
import type { PaycashlessApi } from '../../transport';
import { readFirst, readListFilters, readListOptions } from '../common';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

/** Sorted for the Status list; only "active" is documented, others can be given through an expression. */
const STATUSES = sortedStatuses(DEDICATED_ACCOUNT);

export const description: INodeProperties[] = [
	...listFields,
	filtersCollection([
		statusFilterField(STATUSES, 'Only accounts in this status', { open: true }),
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

/** What a person reads first (n8n's table view follows key order): the account, its holder, its state. */
const FIRST_KEYS = ['accountNumber', 'accountName', 'bankName', 'status', 'currency', 'createdAt'];

export const option: OperationOption = { name: 'Get Many', description: 'List dedicated accounts', action: 'Get many dedicated accounts' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i);
	return readFirst(await api.paginate({ path: DEDICATED_ACCOUNT.path, qs }, options), FIRST_KEYS);
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Filters: status, BVN, created from/before; account number, holder and status first' };
