import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalBodyJsonField,
	additionalFieldsCollection,
	amountInSmallestUnitField,
	callbackUrlField,
	currencyField,
	customerEmailField,
	customerNameField,
	metadataField,
	referenceField,
	returnUrlField,
} from '../../descriptions/common';
import { ID_PREFIXES } from '../../descriptions/locators';
import { toSmallestUnit } from '../../helpers/amount';
import { compact } from '../../helpers/body';
import { idList, invalid, optionalText, requireEmail, requireInteger, requireText } from '../../helpers/validation';
import { paycashlessRequest } from '../../transport/request';
import { finishBody } from '../common';

const properties: INodeProperties[] = [
	{
		...referenceField,
		description: 'Your own unique reference for this invoice, e.g. the order number',
	},
	{
		displayName: 'Description',
		name: 'invoiceDescription',
		type: 'string',
		required: true,
		default: '',
		description: 'What the invoice is for, shown to the customer',
	},
	currencyField,
	customerEmailField,
	customerNameField,
	{
		displayName: 'Items',
		name: 'items',
		type: 'fixedCollection',
		placeholder: 'Add Item',
		required: true,
		default: {},
		typeOptions: { multipleValues: true },
		options: [
			{
				displayName: 'Item',
				name: 'itemValues',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Description', name: 'description', type: 'string', default: '' },
					{
						displayName: 'Quantity',
						name: 'quantity',
						type: 'number',
						default: 1,
						typeOptions: { minValue: 1 },
					},
					{
						displayName: 'Price',
						name: 'price',
						type: 'number',
						default: 0,
						description:
							'Price of one unit in the main unit (e.g. 1500.50), or in the smallest unit when "Amount in Smallest Unit" is on. Prices in the output stay in the smallest unit.',
					},
				],
			},
		],
	},
	{
		...amountInSmallestUnitField,
		description:
			'Whether item prices are given in the smallest unit (kobo or cents, whole numbers, e.g. 150050 for 1,500.50) instead of the main unit',
	},
	{
		displayName: 'Days Until Due',
		name: 'daysUntilDue',
		type: 'number',
		required: true,
		default: 30,
		typeOptions: { minValue: 1, maxValue: 1800 },
		description: 'Days from now until the invoice is due (1 to 1800)',
	},
	{
		displayName: 'Accept Partial Payments',
		name: 'acceptPartialPayments',
		type: 'boolean',
		default: false,
		description: 'Whether the customer may pay in instalments',
	},
	{
		displayName: 'Max Installments',
		name: 'maxInstallments',
		type: 'number',
		required: true,
		default: 2,
		typeOptions: { minValue: 2 },
		description: 'The largest number of instalments the customer may pay in (2 or more)',
		displayOptions: { show: { acceptPartialPayments: [true] } },
	},
	{
		displayName: 'Auto Finalize',
		name: 'autoFinalize',
		type: 'boolean',
		default: true,
		description:
			'Whether to finalise the invoice at once, so the customer can pay it. When off, Paycashless keeps it as a draft that cannot be paid yet.',
	},
	additionalFieldsCollection([
		callbackUrlField,
		{
			displayName: 'Customer Address',
			name: 'customerAddress',
			type: 'string',
			default: '',
		},
		metadataField,
		returnUrlField,
		{
			displayName: 'Send Email',
			name: 'sendEmail',
			type: 'boolean',
			default: true,
			description: 'Whether Paycashless e-mails the invoice to the customer',
		},
		{
			displayName: 'Tax Rate IDs',
			name: 'taxRateIds',
			type: 'string',
			default: '',
			placeholder: 'txr_abc123, txr_def456',
			description: 'Tax rates to apply, as IDs starting with txr_ separated by commas (see Tax Rate → Create)',
		},
		additionalBodyJsonField,
	]),
];

export const description = updateDisplayOptions({ show: { resource: ['invoice'], operation: ['create'] } }, properties);

function readItems(this: IExecuteFunctions, i: number, currency: string): IDataObject[] {
	const inSmallestUnit = this.getNodeParameter('amountInSmallestUnit', i, false) as boolean;
	const rows = ((this.getNodeParameter('items', i, {}) as IDataObject).itemValues ?? []) as IDataObject[];
	if (!Array.isArray(rows) || rows.length === 0) invalid('Items', rows, 'add at least one item');
	return rows.map((row, index) => {
		const label = `Item ${index + 1}`;
		return compact({
			name: requireText(row.name, `${label} Name`),
			description: optionalText(row.description),
			quantity: requireInteger(row.quantity ?? 1, `${label} Quantity`, 1),
			price: toSmallestUnit(row.price, { field: `${label} Price`, currency, inSmallestUnit }),
		});
	});
}

/**
 * The create request of item `i` (validated, nothing sent). `callbackUrl` replaces the field's
 * value (Create and Wait for Payment gives its own resume URL).
 */
export function invoiceCreateBody(
	this: IExecuteFunctions,
	i: number,
	callbackUrl?: string,
): { reference: string; body: IDataObject } {
	const reference = requireText(this.getNodeParameter('reference', i), 'Reference');
	const invoiceDescription = requireText(this.getNodeParameter('invoiceDescription', i), 'Description');
	const currency = this.getNodeParameter('currency', i) as string;
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const customer = compact({
		email: requireEmail(this.getNodeParameter('customerEmail', i), 'Customer Email'),
		name: requireText(this.getNodeParameter('customerName', i), 'Customer Name'),
		address: optionalText(fields.customerAddress),
	});
	const items = readItems.call(this, i, currency);
	const daysUntilDue = requireInteger(this.getNodeParameter('daysUntilDue', i), 'Days Until Due', 1, 1800);
	const acceptPartialPayments = this.getNodeParameter('acceptPartialPayments', i, false) as boolean;
	const maxInstallments = acceptPartialPayments
		? requireInteger(this.getNodeParameter('maxInstallments', i, undefined), 'Max Installments', 2)
		: undefined;
	const taxRateIds = idList(fields.taxRateIds, ID_PREFIXES.taxRate, 'Tax Rate IDs');

	const body = finishBody(
		compact({
			reference,
			description: invoiceDescription,
			currency,
			customer,
			items,
			daysUntilDue,
			acceptPartialPayments,
			maxInstallments,
			autoFinalize: this.getNodeParameter('autoFinalize', i, true) as boolean,
			sendEmail: fields.sendEmail as boolean | undefined,
			callbackUrl: callbackUrl ?? optionalText(fields.callbackUrl),
			returnUrl: optionalText(fields.returnUrl),
			taxRateIds: taxRateIds.length > 0 ? taxRateIds : undefined,
		}),
		fields,
	);
	return { reference, body };
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const { reference, body } = invoiceCreateBody.call(this, i);
	return await paycashlessRequest.call(
		this,
		{ method: 'POST', path: '/v1/invoices', body, reference, creates: 'invoice' },
		i,
	);
}
