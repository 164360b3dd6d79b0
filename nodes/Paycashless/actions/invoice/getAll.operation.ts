import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { INVOICE, sortedStatuses } from '../../catalog/objects';
import { currencyField } from '../fields/common';
import { createdAtFilterFields, filtersCollection, listFields, referenceFilterFields, statusFilterField } from '../fields/listFilters';
import type { PaycashlessApi } from '../../transport';
import { readFirst, readListFilters, readListOptions, referenceFilter } from '../common';
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
		...referenceFilterFields('invoices', { sent: true }),
		...createdAtFilterFields,
	]),
];

/** What a person reads first (n8n's table view follows key order): reference, number, status, naira, who, when due. */
const FIRST_KEYS = ['reference', 'number', 'status', 'inMainUnits', 'customerId', 'dueDate'];

export const option: OperationOption = { name: 'Get Many', description: 'List invoices', action: 'Get many invoices' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i, STATUSES);
	const invoices = await api.paginate({ path: INVOICE.path, qs }, { ...options, keep: referenceFilter.call(this, i) });
	return readFirst(invoices, FIRST_KEYS);
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Filters: status, currency, reference (sent, checked again) or its start (after the read), created from/before; reference, number, status and amounts first' };
