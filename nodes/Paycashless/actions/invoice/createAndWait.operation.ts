/**
 * Invoice → Create and Wait for Payment: Invoice → Create with this execution's own resume URL as
 * callbackUrl, then the execution waits until a verified INVOICE_PAID (or INVOICE_CANCELLED)
 * callback resumes it, or until the time limit passes. Instalments do not resume it. How the wait
 * works: ../../wait/pause.ts and docs/wait-for-payment.md.
 */
import { reachableInSentence } from '../fields/builderHints';
import { INVOICE } from '../../catalog/objects';
import { waitKindOf } from '../../wait/fields';
import { createAndWaitOperation } from '../createAndWait';
import * as create from './create.operation';

export const { option, declaration, description, wait, execute } = createAndWaitOperation({
	create,
	option: {
		name: 'Create and Wait for Payment',
		description: 'Create an invoice, then pause the workflow until it is fully paid (verified callback) or a time limit passes',
		action: 'Create an invoice and wait',
	},
	// Paycashless sends it for every payment towards the invoice, the one that pays it in full
	// included (then INVOICE_PAID follows): not a sign of a partial payment.
	wait: waitKindOf(INVOICE, {
		INVOICE_PAYMENT_SUCCEEDED: { reason: 'payment_received', note: 'a payment towards the invoice; INVOICE_PAID follows when it is paid in full' },
	}),
	notice:
		'The workflow pauses here until Paycashless confirms the invoice is fully paid (or cancelled). Instalments do not resume it. The callback URL is this execution\'s own resume URL, so Paycashless must be able to reach this n8n at its public address (a manual run waits and resumes too).',
	foundAgainNote:
		'This invoice already existed under this reference: its callbacks may go to the URL it was first created with, so a wait for it may only end at the time limit.',
	body: create.invoiceCreateBody,
	send: create.sendInvoice,
});

/** What an AI that builds workflows reads under this operation (../fields/builderHints.ts). */
export const builderHint = {
	option: `Creates the invoice, then ${reachableInSentence} One item per execution.`,
};

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'The execution pauses until a verified `INVOICE_PAID` (or a time limit); see below' };
