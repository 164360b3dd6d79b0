/**
 * Invoice → Create and Wait for Payment: Invoice → Create with this execution's own resume URL as
 * callbackUrl, then the execution waits until a verified INVOICE_PAID (or INVOICE_CANCELLED)
 * callback resumes it, or until the time limit passes. How the wait works: ../../wait/resume.ts
 * and docs/wait-for-payment.md.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PaycashlessApi } from '../../transport';
import { createThenWait, timeLimitProperties, waitKindOf, withoutCallbackUrl } from '../../wait/resume';
import type { OperationDeclaration, OperationOption } from '../types';
import { description as createDescription, declaration as createDeclaration, invoiceCreateBody } from './create.operation';


export const description: INodeProperties[] = [
	...withoutCallbackUrl(createDescription),
	...timeLimitProperties(),
	{
		displayName:
			'The workflow pauses here until Paycashless confirms the invoice is fully paid (or cancelled). Instalments do not resume it. Run it from a saved, active workflow: the callback URL is this execution\'s own resume URL.',
		name: 'createAndWaitNotice',
		type: 'notice',
		default: '',
	},
];

export const option: OperationOption = {
	name: 'Create and Wait for Payment',
	description: 'Create an invoice, then pause the workflow until it is fully paid (verified callback) or a time limit passes',
	action: 'Create an invoice and wait for payment',
};

/** The same create as Invoice → Create: found again by its reference, never made twice. */
export const declaration: OperationDeclaration = createDeclaration;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	return await createThenWait.call(this, i, api, {
		kind: waitKindOf('invoice', 'createAndWait')!,
		object: 'invoice',
		path: '/v1/invoices',
		body: (callbackUrl) => invoiceCreateBody.call(this, i, callbackUrl),
		foundAgainNote:
			'This invoice already existed under this reference: its callbacks may go to the URL it was first created with, so this wait may only end at the time limit.',
	});
}
