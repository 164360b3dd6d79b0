/**
 * Invoice → Create: the invoice's fields (customer, line items in naira, tax rates, instalments) and
 * its body. Longer than 250 lines on purpose: its fields, body, docs and builder hint are one create, read whole.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { NAIRA } from '../fields/builderHints';
import { INVOICE, TAX_RATE } from '../../catalog/objects';
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
} from '../fields/common';
import { CURRENCIES, toSmallestUnit } from '../../helpers/amount';
import { compact, isObject } from '../../helpers/body';
import { idList, invalid, optionalText, optionalUrl, requireEmail, requireInteger, requireOneOf, requireReference, requireText } from '../../helpers/validation';
import { sendChecked } from '../../money/step';
import type { PaycashlessApi } from '../../transport';
import { finishBody } from '../common';
import type { CreateDeclaration, OperationOption } from '../types';

export const description: INodeProperties[] = [
	{
		...referenceField,
		description: 'Your own unique reference for this invoice, e.g. the order number',
	},
	{
		// Not "Description": each line item has one too, and n8n's "Parameter … is required" must say which.
		displayName: 'Invoice Description',
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

export const option: OperationOption = { name: 'Create', description: 'Create an invoice with a payment page', action: 'Create an invoice' };

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


/** Invoices have no lookup by reference: the list, filtered by it, is searched for it. */
export const declaration: CreateDeclaration = {
	kind: 'create',
	findsAgain: {
		object: 'invoice',
		movesMoney: false,
		lookup: INVOICE.byReference,
		via: 'invoiceList',
		pick: (body, reference) => {
			if (!Array.isArray(body.data)) return { inconclusive: 'Paycashless answered the invoice lookup without a "data" list' };
			const match = (body.data as unknown[]).find((record) => isObject(record) && record.reference === reference);
			if (match) return { found: match as IDataObject };
			// A list that goes on may be one the API did not filter: absence proves nothing.
			if (body.hasMore === true) return { inconclusive: `Paycashless did not filter the invoice list by the reference "${reference}"` };
			return { notFound: true };
		},
		findWith: { operation: { resource: 'invoice', operation: 'getAll' }, how: (reference) => `(look for the reference "${reference}")` },
		sameAs: [
			{ field: 'currency', requested: (body) => body.currency, existing: (found) => found.currency },
			{ field: 'description', requested: (body) => body.description, existing: (found) => found.description },
		],
	},
};

/**
 * The create request of item `i` (validated, nothing sent). `callbackUrl` replaces the field's
 * value (Create and Wait for Payment gives its own resume URL).
 */
export function invoiceCreateBody(this: IExecuteFunctions, i: number, callbackUrl?: string): { reference: string; body: IDataObject } {
	const reference = requireReference(this.getNodeParameter('reference', i));
	const invoiceDescription = requireText(this.getNodeParameter('invoiceDescription', i), 'Invoice Description');
	const currency = requireOneOf(this.getNodeParameter('currency', i), 'Currency', CURRENCIES);
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
	const taxRateIds = idList(fields.taxRateIds, TAX_RATE.idPrefix, 'Tax Rate IDs');

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
			callbackUrl: callbackUrl ?? optionalUrl(fields.callbackUrl, 'Callback URL'),
			returnUrl: optionalUrl(fields.returnUrl, 'Return URL'),
			taxRateIds: taxRateIds.length > 0 ? taxRateIds : undefined,
		}),
		fields,
	);
	// The reference sent (Additional Body Fields may have replaced the form's) is the one that counts.
	return { reference: String(body.reference), body };
}

/** Sends a create body after its Money Limits (money/step.ts); the item has the one output shape of creates (transport/create.ts). */
export async function sendInvoice(this: IExecuteFunctions, i: number, api: PaycashlessApi, body: IDataObject): Promise<IDataObject> {
	return await sendChecked(api, i, 'invoice', { method: 'POST', path: INVOICE.path, body });
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	return await sendInvoice.call(this, i, api, invoiceCreateBody.call(this, i).body);
}

/** What an AI that builds workflows reads under this operation (../fields/builderHints.ts). */
export const builderHint = {
	option: `Bills a customer; the output's hostedInvoiceUrl is the page they pay on. ${NAIRA} Reference from the order ID. Pair with the Paycashless Trigger on INVOICE_PAID, or use Create and Wait for Payment.`,
	pattern: `<patterns>
<pattern title="Invoice for an order">
// reference: expr('INV-{{ $json.orderId }}'); line items' unit prices in naira. Send the customer the output's hostedInvoiceUrl;
// the Paycashless Trigger on INVOICE_PAID (or Invoice → Create and Wait for Payment) tells when it is paid.
</pattern>
</patterns>`,
};

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Customer, line items, tax rates, due days, instalments, auto-finalize, e-mail, callback/return URLs; returns `hostedInvoiceUrl`' };
