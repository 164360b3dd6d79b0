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
import { RECONCILED_KEY, type ReconciledMarker } from '../../transport/reconcile';
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
	const link = await paycashlessRequest.call(
		this,
		{ method: 'POST', path: '/v1/payments/checkout', body, reference, moneyMovement: 'payment' },
		i,
	);
	// Found again by reference, it is the payment behind the link: the link itself is only ever in
	// the answer to its creation. Say so rather than leave `authorizationUrl` silently missing.
	const marker = link[RECONCILED_KEY] as ReconciledMarker | undefined;
	if (marker?.reconciled && typeof link.authorizationUrl !== 'string') {
		marker.note =
			'This is the payment created earlier under this reference. Paycashless returns a checkout link (authorizationUrl) only when it is created, so the link is not available here: use the one from the first run, or create a new link with a new reference.';
	}
	return link;
}
