import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

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

export const INVOICE_STATUSES = ['cancelled', 'draft', 'open', 'paid', 'partially_paid'];

export const description: INodeProperties[] = [
	...listFields,
	filtersCollection([
		statusFilterField(INVOICE_STATUSES, 'Only invoices in this status'),
		{ ...currencyField, required: false, description: 'Only invoices in this currency' },
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
	const qs = readListFilters.call(this, i, INVOICE_STATUSES);
	return await api.paginate({ path: '/v1/invoices', qs }, options);
}
