import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { INVOICE, sortedStatuses } from '../../catalog/objects';
import {
	createdAtFilterFields,
	currencyField,
	filtersCollection,
	listFields,
	statusFilterField,
} from '../../descriptions/common';
import type { PaycashlessApi } from '../../transport';
import { readListFilters, readListOptions } from '../common';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

/** Sorted for the Status list. */
const STATUSES = sortedStatuses(INVOICE);

export const description: INodeProperties[] = [
	...listFields,
	filtersCollection([
		statusFilterField(STATUSES, 'Only invoices in this status'),
		{
			...currencyField,
			required: false,
			default: '',
			options: [{ name: 'Any Currency', value: '' }, ...(currencyField.options ?? [])],
			description: 'Only invoices in this currency',
		},
		{
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			default: '',
			description: 'Only the invoice with this reference of yours',
		},
		...createdAtFilterFields,
	]),
];

export const option: OperationOption = { name: 'Get Many', description: 'List invoices', action: 'Get many invoices' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i, STATUSES);
	return await api.paginate({ path: INVOICE.path, qs }, options);
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Filters: status, currency, reference, created between' };
