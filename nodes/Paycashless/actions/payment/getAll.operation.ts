import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYMENT, sortedStatuses } from '../../catalog/objects';
import { createdAtFilterFields, filtersCollection, listFields, statusFilterField } from '../../descriptions/common';
import type { PaycashlessApi } from '../../transport';
import { readListFilters, readListOptions } from '../common';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

/** Sorted for the Status list. */
const STATUSES = sortedStatuses(PAYMENT);

export const description: INodeProperties[] = [
	...listFields,
	filtersCollection([statusFilterField(STATUSES, 'Only payments in this status'), ...createdAtFilterFields]),
];

export const option: OperationOption = { name: 'Get Many', description: 'List payments', action: 'Get many payments' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i, STATUSES);
	return await api.paginate({ path: PAYMENT.path, qs }, options);
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Filters: status, created between' };
