/**
 * Payout → Create and Wait for Final Status: Payout → Create with this execution's own resume URL
 * as callbackUrl, then the execution waits until a verified PAYOUT_SUCCEEDED, PAYOUT_FAILED,
 * PAYOUT_REVERSED or PAYOUT_CANCELLED callback resumes it (PAYOUT_SENT and PAYOUT_PENDING do not),
 * or until the time limit passes. How the wait works: ../../wait/resume.ts, docs/wait-for-payment.md.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PaycashlessApi } from '../../transport';
import { createThenWait, timeLimitProperties, waitKindOf, withoutCallbackUrl } from '../../wait/resume';
import type { OperationDeclaration, OperationOption } from '../types';
import { description as createDescription, declaration as createDeclaration, payoutCreateBody } from './create.operation';

export const description: INodeProperties[] = [
	...withoutCallbackUrl(createDescription),
	...timeLimitProperties(),
	{
		displayName:
			'The workflow pauses here until Paycashless reports the payout succeeded, failed, was reversed or cancelled. Run it from a saved, active workflow: the callback URL is this execution\'s own resume URL.',
		name: 'createAndWaitPayoutNotice',
		type: 'notice',
		default: '',
	},
];

export const option: OperationOption = {
	name: 'Create and Wait for Final Status',
	description: 'Send a payout, then pause the workflow until it succeeds or fails (verified callback) or a time limit passes',
	action: 'Create a payout and wait for its final status',
};

/** The same create as Payout → Create: found again by its reference, never sent twice. */
export const declaration: OperationDeclaration = createDeclaration;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	return await createThenWait.call(this, i, api, {
		kind: waitKindOf('payout', 'createAndWait')!,
		object: 'payout',
		path: '/v1/payouts',
		body: (callbackUrl) => payoutCreateBody.call(this, i, callbackUrl),
		foundAgainNote:
			'This payout already existed under this reference (it was not sent again): its callbacks may go to the URL it was first created with, so this wait may only end at the time limit.',
	});
}
