import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	createdAtFilterFields,
	currencyField,
	filtersCollection,
	listFields,
	statusFilterField,
} from '../../descriptions/common';
import { paginate } from '../../transport/paginate';
import { readListFilters, readListOptions } from '../common';

export const INVOICE_STATUSES = ['cancelled', 'draft', 'open', 'paid', 'partially_paid'];

const properties: INodeProperties[] = [
	...listFields,
	filtersCollection([
		statusFilterField(INVOICE_STATUSES, 'Only invoices in this status'),
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

export const description = updateDisplayOptions({ show: { resource: ['invoice'], operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i);
	return await paginate.call(this, { path: '/v1/invoices', qs }, options, i);
}
