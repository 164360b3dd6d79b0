/**
 * Payment → Wait for Payment: pauses the execution until a payment made earlier in the same run
 * (Create Transfer Payment or Create Checkout Link, with `{{ $execution.resumeUrl }}` as its
 * Callback URL) succeeds, fails or expires, as a verified callback says, or until the time limit.
 * Between the two nodes the workflow can hand the customer the account to pay into or the
 * checkout link, which a single "create and wait" node could not: n8n passes a node's output on
 * only when the node ends, and a waiting node has not ended. How the wait works:
 * ../../wait/pause.ts and docs/wait-for-payment.md.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { REACHABLE } from '../fields/builderHints';
import { PAYMENT } from '../../catalog/objects';
import { referenceField } from '../fields/common';
import { requireReference } from '../../helpers/validation';
import type { PaycashlessApi } from '../../transport';
import { requireOneItem, timeLimitProperties, waitKindOf, waitTillOf, type WaitKind } from '../../wait/fields';
import { resumeUrlOf, waitCallbackUrl, waitUnlessSettled } from '../../wait/pause';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [
	{
		displayName:
			'Create the payment earlier in this workflow with Additional Fields → Callback URL set to the expression {{ $execution.resumeUrl }}, send the customer the account or link, then wait here. Paycashless must be able to reach your n8n\'s public address.',
		name: 'waitForPaymentNotice',
		type: 'notice',
		default: '',
	},
	{
		...referenceField,
		placeholder: 'order-1234',
		description: 'The reference of the payment to wait for, as given when it was created earlier in this run',
		hint: 'Drag "reference" from the output of the node that created the payment',
	},
	...timeLimitProperties(),
];

export const option: OperationOption = {
	name: 'Wait for Payment',
	description: 'Pause the workflow until a payment made earlier in this run is paid, fails or expires (verified callback) or a time limit passes',
	action: 'Wait for a payment',
};

/** Reads only: it creates nothing, so nothing can be paid twice. */
export const declaration: OperationDeclaration = READ;

/**
 * What ends the wait. Event names follow the emulator's PAYMENT_<STATUS>; Paycashless has not
 * published them, so a genuine callback under another name is judged on its data (wait/webhook.ts).
 */
export const wait: WaitKind = waitKindOf(PAYMENT, {
	PAYMENT_AWAITING_CHARGE: { reason: 'event_does_not_end_wait', note: 'the payment is not settled yet' },
	PAYMENT_CHARGED: { reason: 'event_does_not_end_wait', note: 'the payment is not settled yet' },
});

function sameUrl(a: string, b: string): boolean {
	return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	requireOneItem.call(this, i, 'payment');
	const waitTill = waitTillOf.call(this, i);
	const reference = requireReference(this.getNodeParameter('reference', i));
	const resumeUrl = resumeUrlOf(this, i);

	// As it is now: settled already (the callback may have come before the wait), or still open.
	const payment = await api.request(PAYMENT.byReference(reference));
	const sentTo = payment.callbackUrl;
	const settled = wait.settled.includes(String(payment.status ?? '').toLowerCase());
	if (!settled && typeof sentTo === 'string' && !sameUrl(sentTo, resumeUrl) && !sameUrl(sentTo, waitCallbackUrl(resumeUrl, reference))) {
		throw new NodeOperationError(
			this.getNode(),
			`Payment "${reference}" sends its status updates (callbacks) to another address, not to this execution, so only the time limit could end this wait`,
			{
				itemIndex: i,
				description:
					'Create the payment in this same run with Additional Fields → Callback URL set to the expression {{ $execution.resumeUrl }}, then wait for it here. To react to payments created elsewhere, use the Paycashless Trigger.',
			},
		);
	}
	return await waitUnlessSettled.call(this, i, wait, payment, { reference, callbackUrl: resumeUrl }, waitTill);
}

/** What an AI that builds workflows reads under this operation (../fields/builderHints.ts). */
export const builderHint = {
	option: `Waits for a payment created with Callback URL expr('{{ $execution.resumeUrl }}'). ${REACHABLE}`,
};

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'For a payment made earlier in the run with Callback URL `{{ $execution.resumeUrl }}`: pauses until it succeeds, fails or expires (or a time limit)' };
