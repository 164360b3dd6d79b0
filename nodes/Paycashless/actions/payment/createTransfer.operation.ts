import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { NAIRA } from '../fields/builderHints';
import { PAYMENT } from '../../catalog/objects';
import {
	additionalBodyJsonField,
	additionalFieldsCollection,
	metadataField,
} from '../fields/common';
import { compact } from '../../helpers/body';
import { optionalUrl, requireInteger } from '../../helpers/validation';
import { sendChecked } from '../../money/step';
import type { PaycashlessApi } from '../../transport';
import { finishBody } from '../common';
import { paymentCallbackUrlField, paymentFields, paymentFoundByReference, readPayment } from './shared';
import type { OperationDeclaration, OperationOption } from '../types';
import type { NodeRun } from '../run';

export const description: INodeProperties[] = [
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
	additionalFieldsCollection([paymentCallbackUrlField, metadataField, additionalBodyJsonField]),
];

export const option: OperationOption = { name: 'Create Transfer Payment', description: 'Get a bank account the customer pays into by transfer', action: 'Create a transfer payment' };

export const declaration: OperationDeclaration = { kind: 'create', findsAgain: paymentFoundByReference };

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi, run: NodeRun): Promise<IDataObject> {
	const { reference, amount, customer } = readPayment.call(this, i, run);
	const expiresIn = requireInteger(this.getNodeParameter('expiresIn', i, 1800), 'Expires In (Seconds)', 1);
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const body = finishBody(
		compact({
			reference,
			paymentMethod: 'pay_with_transfer',
			amount,
			customer,
			expiresIn,
			callbackUrl: optionalUrl(fields.callbackUrl, 'Callback URL'),
		}),
		fields,
	);
	return await sendChecked(api, i, 'payment', { method: 'POST', path: PAYMENT.path, body });
}

/** What an AI agent reads as this tool's description (+ " in Paycashless"). */
export const asTool = { action: 'Create a Paycashless transfer payment: asks a customer to pay into an account' };

/** What an AI that builds workflows reads under this operation (../fields/builderHints.ts). */
export const builderHint = {
	option: `Gives the customer an account to pay into by transfer; nothing is paid out. ${NAIRA} Reference from the order ID. For the outcome: the Paycashless Trigger (Callback URL = its Production URL) or Payment → Wait for Payment.`,
};

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Pay by bank transfer; returns the account to pay into and when it expires' };
