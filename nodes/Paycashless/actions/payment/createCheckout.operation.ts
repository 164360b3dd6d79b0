import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalBodyJsonField,
	additionalFieldsCollection,
	amountFields,
	callbackUrlField,
	currencyField,
	customerEmailField,
	customerNameField,
	metadataField,
	referenceField,
	returnUrlField,
} from '../../descriptions/common';
import { compact } from '../../helpers/body';
import { optionalText, requireEmail, requireText } from '../../helpers/validation';
import { paycashlessRequest } from '../../transport/request';
import { finishBody, readAmount } from '../common';

const properties: INodeProperties[] = [
	{
		...referenceField,
		description:
			'Your own unique reference for this payment, e.g. the order number. Check the payment later with Payment → Verify and this reference.',
	},
	...amountFields('How much the customer must pay.'),
	currencyField,
	customerEmailField,
	customerNameField,
	additionalFieldsCollection([callbackUrlField, metadataField, returnUrlField, additionalBodyJsonField]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payment'], operation: ['createCheckout'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const reference = requireText(this.getNodeParameter('reference', i), 'Reference');
	const amount = readAmount.call(this, i);
	const customer = {
		email: requireEmail(this.getNodeParameter('customerEmail', i), 'Customer Email'),
		name: requireText(this.getNodeParameter('customerName', i), 'Customer Name'),
	};
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const body = finishBody(
		compact({
			reference,
			amount,
			customer,
			returnUrl: optionalText(fields.returnUrl),
			callbackUrl: optionalText(fields.callbackUrl),
		}),
		fields,
	);
	return await paycashlessRequest.call(
		this,
		{ method: 'POST', path: '/v1/payments/checkout', body, reference, moneyMovement: 'payment' },
		i,
	);
}
