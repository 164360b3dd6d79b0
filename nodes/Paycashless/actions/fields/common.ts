/**
 * Field definitions shared by several operations, defined once. They carry no displayOptions:
 * each operation file places them with `updateDisplayOptions`.
 */
import type { INodeProperties } from 'n8n-workflow';

import { AS_TOOL, type FromAi } from '../../helpers/toolFacts';

export const currencyField: INodeProperties = {
	displayName: 'Currency',
	name: 'currency',
	type: 'options',
	options: [
		{ name: 'NGN (Nigerian Naira)', value: 'NGN' },
		{ name: 'USD (US Dollar)', value: 'USD' },
	],
	default: 'NGN',
	required: true,
};

/** Amount in main units (or the smallest unit with the switch below), plus that switch. */
export function amountFields(description: string): INodeProperties[] {
	return [
		{
			displayName: 'Amount',
			name: 'amount',
			type: 'number',
			required: true,
			// Empty, not 0: the placeholder shows, and an amount left out is an error naming the field.
			default: null,
			placeholder: '1500.50',
			hint: 'In naira or dollars, e.g. 1500.50 = NGN 1,500.50. For kobo or cents, turn on Amount in Smallest Unit.',
			description: `${description} In the currency's main unit (naira or dollars, at most two decimals, e.g. 1500.50); sent to Paycashless in the smallest unit (kobo or cents, e.g. 150050). Outputs keep Paycashless's amounts in the smallest unit and add inMainUnits: the same amounts in main units, to map into a later Amount.`,
			[AS_TOOL]: { key: 'Amount', description: 'Amount in MAIN units of the currency: naira for NGN, dollars for USD, e.g. 1500.50 means NGN 1,500.50. Never kobo or cents.' },
		},
		amountInSmallestUnitField,
	];
}

export const amountInSmallestUnitField: INodeProperties = {
	displayName: 'Amount in Smallest Unit',
	name: 'amountInSmallestUnit',
	type: 'boolean',
	default: false,
	description:
		'Whether amounts are given in the smallest unit (kobo or cents, whole numbers, e.g. 150050 for 1,500.50) instead of the main unit',
	[AS_TOOL]: 'leftOut',
};

export const referenceField: INodeProperties = {
	displayName: 'Reference',
	name: 'reference',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'order-1234',
	description:
		'Your own unique reference. Paycashless uses it to recognise a repeated request, and you can look the object up with Verify and this reference.',
	[AS_TOOL]: {
		key: 'Reference',
		description:
			'Your own unique reference for this one real-world payment, e.g. claim-1042. The same reference never pays twice: use the same one to retry or check a payment, and a new one only for a different payment.',
	},
};

export const callbackUrlField: INodeProperties = {
	displayName: 'Callback URL',
	name: 'callbackUrl',
	type: 'string',
	default: '',
	placeholder: 'https://your-n8n.example.com/webhook/...',
	description:
		'Where Paycashless sends status updates. Paste the Production URL of a Paycashless Trigger node here (and activate that workflow) to react to them in n8n.',
};

export const returnUrlField: INodeProperties = {
	displayName: 'Return URL',
	name: 'returnUrl',
	type: 'string',
	default: '',
	placeholder: 'https://your-shop.example.com/thank-you',
	description: 'Where the customer is sent after paying',
};

export const customerEmailField: INodeProperties = {
	displayName: 'Customer Email',
	name: 'customerEmail',
	type: 'string',
	placeholder: 'name@email.com',
	required: true,
	default: '',
	[AS_TOOL]: { key: 'Customer_Email', description: "The paying customer's e-mail address" },
};

export const customerNameField: INodeProperties = {
	displayName: 'Customer Name',
	name: 'customerName',
	type: 'string',
	required: true,
	default: '',
	[AS_TOOL]: { key: 'Customer_Name', description: "The paying customer's full name" },
};

/** What the model is asked for in a payee's account number (Payout → Create's Destination Account Number, Look Up's Account Number). */
export const ACCOUNT_NUMBER_FOR_THE_MODEL: FromAi = { key: 'Account_Number', description: "The payee's 10-digit bank account number (NUBAN)" };

export const metadataField: INodeProperties = {
	displayName: 'Metadata',
	name: 'metadata',
	type: 'fixedCollection',
	placeholder: 'Add Metadata',
	default: {},
	typeOptions: { multipleValues: true },
	description: 'Your own key/value pairs, stored with the object and returned with it',
	options: [
		{
			displayName: 'Metadata',
			name: 'metadataValues',
			values: [
				{ displayName: 'Key', name: 'key', type: 'string', default: '' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
};

export const additionalBodyJsonField: INodeProperties = {
	displayName: 'Additional Body Fields (JSON)',
	name: 'additionalBodyJson',
	type: 'json',
	default: '{}',
	description:
		'Advanced: a JSON object merged into the request body last, for fields Paycashless accepts that this node does not offer yet',
};

/** An "Additional Fields" collection holding `fields` (sorted by display name). */
export function additionalFieldsCollection(fields: INodeProperties[], name = 'additionalFields'): INodeProperties {
	return {
		displayName: name === 'updateFields' ? 'Update Fields' : 'Additional Fields',
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [...fields].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}
