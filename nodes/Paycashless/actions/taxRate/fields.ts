/** Tax rate fields shared by Create and Update. */
import type { INodeProperties } from 'n8n-workflow';

export const taxTypeField: INodeProperties = {
	displayName: 'Tax Type',
	name: 'taxType',
	type: 'options',
	required: true,
	options: [
		{ name: 'Sales Tax', value: 'sales_tax' },
		{ name: 'VAT', value: 'vat' },
	],
	default: 'vat',
};

export const taxRateFields = {
	name: {
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'VAT',
		description: 'Name of the tax rate, shown on invoices',
	},
	description: {
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
	},
	active: {
		displayName: 'Active',
		name: 'active',
		type: 'boolean',
		default: true,
		description: 'Whether the tax rate can be applied to new invoices',
	},
} satisfies Record<string, INodeProperties>;
