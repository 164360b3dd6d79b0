import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalBodyJsonField,
	additionalFieldsCollection,
	callbackUrlField,
	metadataField,
} from '../../descriptions/common';
import { compact } from '../../helpers/body';
import { optionalText, requireInteger } from '../../helpers/validation';
import { paycashlessRequest } from '../../transport/request';
import { markCreated } from '../createdOutput';
import { finishBody } from '../common';
import { paymentFields, readPayment } from './shared';

const properties: INodeProperties[] = [
	...paymentFields,
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
	const { reference, amount, customer } = readPayment.call(this, i);
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
	return markCreated(
		await paycashlessRequest.call(this, { method: 'POST', path: '/v1/payments', body, reference, moneyMovement: 'payment' }, i),
	);
}
