import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYOUT, sortedStatuses } from '../../catalog/objects';
import { createdAtFilterFields, filtersCollection, listFields, statusFilterField } from '../../descriptions/common';
import type { PaycashlessApi } from '../../transport';
import { readListFilters, readListOptions } from '../common';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

/** Sorted for the Status list. */
const STATUSES = sortedStatuses(PAYOUT);

export const description: INodeProperties[] = [
	...listFields,
	filtersCollection([
		statusFilterField(STATUSES, 'Only payouts in this status'),
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

export const option: OperationOption = { name: 'Get Many', description: 'List payouts', action: 'Get many payouts' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i, STATUSES);
	return await api.paginate({ path: PAYOUT.path, qs }, options);
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Filters: status, destination account, created between' };
