import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalBodyJsonField,
	additionalFieldsCollection,
	callbackUrlField,
	metadataField,
	returnUrlField,
} from '../../descriptions/common';
import { compact } from '../../helpers/body';
import { optionalText } from '../../helpers/validation';
import { paycashlessRequest } from '../../transport/request';
import { finishBody } from '../common';
import { paymentFields, readPayment } from './shared';

const properties: INodeProperties[] = [
	...paymentFields,
	additionalFieldsCollection([callbackUrlField, metadataField, returnUrlField, additionalBodyJsonField]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payment'], operation: ['createCheckout'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const { reference, amount, customer } = readPayment.call(this, i);
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
