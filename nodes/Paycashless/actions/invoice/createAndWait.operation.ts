/**
 * Invoice → Create and Wait for Payment: Invoice → Create with this execution's own resume URL as
 * callbackUrl, then the execution waits until a verified INVOICE_PAID (or INVOICE_CANCELLED)
 * callback resumes it, or until the time limit passes. How the wait works: ../../wait/resume.ts
 * and docs/wait-for-payment.md.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { RECONCILED_KEY, type PaycashlessApi } from '../../transport';
import {
	prepareTimeLimitItems,
	resumeUrlOf,
	timeLimitProperties,
	waitCallbackUrl,
	waitItem,
	waitTillFrom,
} from '../../wait/resume';
import type { OperationDeclaration, OperationOption } from '../types';
import { description as createDescription, declaration as createDeclaration, invoiceCreateBody } from './create.operation';

/** Invoice → Create's fields without Callback URL (the node sets it). */
function withoutCallbackUrl(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		if (property.type !== 'collection' || !Array.isArray(property.options)) return property;
		return { ...property, options: (property.options as INodeProperties[]).filter((option) => option.name !== 'callbackUrl') };
	});
}

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

const FINAL_STATUS: Record<string, string> = { paid: 'paid', cancelled: 'cancelled' };

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	if (this.getInputData().length !== 1) {
		throw new NodeOperationError(
			this.getNode(),
			`Create and Wait for Payment waits for one invoice per run and got ${this.getInputData().length} items: put a Loop Over Items node (batch size 1) before it`,
			{ itemIndex: i },
		);
	}
	const waitTill = waitTillFrom(this.getNodeParameter('waitTimeLimit', i), this.getNodeParameter('waitTimeLimitUnit', i), Date.now());
	const { reference, body } = invoiceCreateBody.call(this, i);
	const callbackUrl = waitCallbackUrl(resumeUrlOf(this, i), reference);
	// After Additional Body JSON: this URL is what makes the wait end, nothing may replace it.
	body.callbackUrl = callbackUrl;

	const invoice = await api.request({ method: 'POST', path: '/v1/invoices', body });
	const meta: IDataObject = { reference, callbackUrl };
	const status = String(invoice.status ?? '').toLowerCase();
	// A repeated reference may find an invoice that is already settled: nothing to wait for.
	if (FINAL_STATUS[status]) return waitItem(invoice, { ...meta, outcome: `already_${FINAL_STATUS[status]}` });

	const reconciled = invoice[RECONCILED_KEY] !== undefined;
	if (reconciled) {
		// Found again by its reference: it was created by an earlier run, maybe with another
		// callbackUrl, so only the time limit is sure to end this wait.
		meta.note = 'This invoice already existed under this reference: its callbacks may go to the URL it was first created with, so this wait may only end at the time limit.';
	}
	prepareTimeLimitItems.call(this, waitItem(invoice, { ...meta, outcome: 'timeLimitReached', waitedUntil: waitTill.toISOString() }), i);
	await this.putExecutionToWait(waitTill);
	return waitItem(invoice, { ...meta, outcome: 'waiting', waitTill: waitTill.toISOString() });
}
