import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { NAIRA } from '../fields/builderHints';
import { PAYMENT } from '../../catalog/objects';
import {
	additionalBodyJsonField,
	additionalFieldsCollection,
	metadataField,
	returnUrlField,
} from '../fields/common';
import { compact } from '../../helpers/body';
import { optionalUrl } from '../../helpers/validation';
import { sendChecked } from '../../money/step';
import type { PaycashlessApi } from '../../transport';
import { finishBody } from '../common';
import { paymentCallbackUrlField, paymentFields, paymentFoundByReference, readPayment } from './shared';
import type { OperationDeclaration, OperationOption } from '../types';
import type { NodeRun } from '../run';

export const description: INodeProperties[] = [
	...paymentFields,
	additionalFieldsCollection([paymentCallbackUrlField, metadataField, returnUrlField, additionalBodyJsonField]),
];

export const option: OperationOption = { name: 'Create Checkout Link', description: 'Create a hosted payment page to send the customer to', action: 'Create a checkout link' };

/**
 * Found again by its reference, a checkout is the payment behind the link: the link itself is
 * only ever in the answer to its creation, and the marker says so rather than leave
 * `authorizationUrl` silently missing.
 */
export const declaration: OperationDeclaration = {
	kind: 'create',
	findsAgain: {
		...paymentFoundByReference,
		foundAgainNote:
			'This is the payment created earlier under this reference. Paycashless returns a checkout link (authorizationUrl) only when it is created, so the link is not available here: use the one from the first run, or create a new link with a new reference.',
	},
};

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi, run: NodeRun): Promise<IDataObject> {
	const { reference, amount, customer } = readPayment.call(this, i, run);
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const body = finishBody(
		compact({
			reference,
			amount,
			customer,
			returnUrl: optionalUrl(fields.returnUrl, 'Return URL'),
			callbackUrl: optionalUrl(fields.callbackUrl, 'Callback URL'),
		}),
		fields,
	);
	return await sendChecked(api, i, 'payment', { method: 'POST', path: PAYMENT.checkoutPath, body });
}

/** What an AI agent reads as this tool's description (+ " in Paycashless"). */
export const asTool = { action: 'Create a Paycashless checkout link: asks a customer to pay on a hosted page' };

/** What an AI that builds workflows reads under this operation (../fields/builderHints.ts). */
export const builderHint = {
	option: `Asks a customer for money (hosted checkout link); nothing is paid out. ${NAIRA} Reference from the order ID. For the outcome: the Paycashless Trigger (Callback URL = its Production URL) or Payment → Wait for Payment.`,
	pattern: `<patterns>
<pattern title="Checkout link for an order">
parameters: { resource: 'payment', operation: 'createCheckout', reference: expr('order-{{ $json.orderId }}'), amount: expr('{{ $json.totalNaira }}'), currency: 'NGN', customerEmail: expr('{{ $json.email }}'), customerName: expr('{{ $json.name }}') }
// Send the customer the output's authorizationUrl; a Paycashless Trigger (its Production URL in additionalFields.callbackUrl) tells when they paid.
</pattern>
</patterns>`,
};

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Returns `authorizationUrl` to send the customer to' };
