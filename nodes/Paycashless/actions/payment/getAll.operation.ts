import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYMENT, sortedStatuses } from '../../catalog/objects';
import { createdAtFilterFields, filtersCollection, listFields, referenceFilterFields, statusFilterField } from '../fields/listFilters';
import type { PaycashlessApi } from '../../transport';
import { readFirst, readListFilters, readListOptions, referenceFilter } from '../common';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

/** Sorted for the Status list. */
const STATUSES = sortedStatuses(PAYMENT);

export const description: INodeProperties[] = [
	...listFields,
	filtersCollection([
		statusFilterField(STATUSES, 'Only payments in this status'),
		...referenceFilterFields('payments', { sent: false, verify: 'Payment → Verify' }),
		...createdAtFilterFields,
	]),
];

/** What a person reads first (n8n's table view follows key order): reference, status, naira, who paid, when. */
const FIRST_KEYS = ['reference', 'status', 'inMainUnits', 'customerId', 'createdAt'];

export const option: OperationOption = { name: 'Get Many', description: 'List payments', action: 'Get many payments' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i, STATUSES, { sendsReference: false });
	const payments = await api.paginate({ path: PAYMENT.path, qs }, { ...options, keep: referenceFilter.call(this, i) });
	return readFirst(payments, FIRST_KEYS);
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Filters: status, reference or its start (after the read), created from/before; reference, status and amounts first' };
