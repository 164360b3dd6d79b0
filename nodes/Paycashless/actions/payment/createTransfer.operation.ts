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
} from '../../descriptions/common';
import { compact } from '../../helpers/body';
import { optionalText, requireEmail, requireInteger, requireText } from '../../helpers/validation';
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
	{
		displayName: 'Expires In (Seconds)',
		name: 'expiresIn',
		type: 'number',
		required: true,
		default: 1800,
		typeOptions: { minValue: 1 },
		description: 'How long the account to pay into stays valid, in seconds (1800 = 30 minutes)',
	},
	additionalFieldsCollection([callbackUrlField, metadataField, additionalBodyJsonField]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payment'], operation: ['createTransfer'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const reference = requireText(this.getNodeParameter('reference', i), 'Reference');
	const amount = readAmount.call(this, i);
	const customer = {
		email: requireEmail(this.getNodeParameter('customerEmail', i), 'Customer Email'),
		name: requireText(this.getNodeParameter('customerName', i), 'Customer Name'),
	};
	const expiresIn = requireInteger(this.getNodeParameter('expiresIn', i, 1800), 'Expires In (Seconds)', 1);
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const body = finishBody(
		compact({
			reference,
			paymentMethod: 'pay_with_transfer',
			amount,
			customer,
			expiresIn,
			callbackUrl: optionalText(fields.callbackUrl),
		}),
		fields,
	);
	return await paycashlessRequest.call(
		this,
		{ method: 'POST', path: '/v1/payments', body, reference, moneyMovement: 'payment' },
		i,
	);
}
