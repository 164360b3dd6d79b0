/**
 * What both ways of creating a payment (transfer, checkout link) ask for and send: the
 * reference, the amount with its currency, and the customer. Defined once here.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYMENT } from '../../catalog/objects';
import {
	amountFields,
	callbackUrlField,
	currencyField,
	customerEmailField,
	customerNameField,
	referenceField,
} from '../fields/common';
import { requireEmail, requireReference, requireText } from '../../helpers/validation';
import { amountCurrency, amountValue, readAmount, verifiedByReference } from '../common';
import type { FoundByReference } from '../types';
import type { NodeRun } from '../run';

export const paymentFields: INodeProperties[] = [
	{
		...referenceField,
		description:
			'Your own unique reference for this payment, e.g. the order number. Check the payment later with Payment → Verify and this reference.',
	},
	...amountFields('How much the customer must pay.'),
	currencyField,
	customerEmailField,
	customerNameField,
];

/** The Callback URL of both payment creates: a trigger's URL, or this run's own resume URL. */
export const paymentCallbackUrlField: INodeProperties = {
	...callbackUrlField,
	description:
		'Where Paycashless sends status updates: the Production URL of a Paycashless Trigger node, or the expression {{ $execution.resumeUrl }} to pause this same workflow later with Payment → Wait for Payment',
};

/** `reference`, `amount` and `customer` of a new payment, checked. */
export function readPayment(
	this: IExecuteFunctions,
	i: number,
	run: NodeRun,
): { reference: string; amount: { value: number; currency: string }; customer: IDataObject } {
	return {
		reference: requireReference(this.getNodeParameter('reference', i)),
		amount: readAmount(run, i),
		customer: {
			email: requireEmail(this.getNodeParameter('customerEmail', i), 'Customer Email'),
			name: requireText(this.getNodeParameter('customerName', i), 'Customer Name'),
		},
	};
}

/** Both payment creates are found again the same way: Payment → Verify by the reference. */
export const paymentFoundByReference: FoundByReference = verifiedByReference(
	PAYMENT,
	{ resource: 'payment', operation: 'verify' },
	[
		{ field: 'amount', requested: (body) => amountValue(body.amount), existing: (found) => found.expectedAmount ?? amountValue(found.amount) },
		{ field: 'currency', requested: (body) => amountCurrency(body.amount), existing: (found) => found.currency ?? amountCurrency(found.amount) },
	],
);
