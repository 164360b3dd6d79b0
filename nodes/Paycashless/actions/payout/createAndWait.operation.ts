/**
 * Payout → Create and Wait for Final Status: Payout → Create with this execution's own resume URL
 * as callbackUrl, then the execution waits until a verified callback says the payout succeeded,
 * failed, was reversed or cancelled (PAYOUT_SENT and PAYOUT_PENDING do not end it), or until the
 * time limit passes. How the wait works: ../../wait/pause.ts, docs/wait-for-payment.md.
 */
import { reachableInSentence } from '../fields/builderHints';
import { PAYOUT } from '../../catalog/objects';
import { waitKindOf } from '../../wait/fields';
import { createAndWaitOperation } from '../createAndWait';
import * as create from './create.operation';

export const { option, declaration, description, wait, execute } = createAndWaitOperation({
	create: { description: create.payoutFields, declaration: create.declaration },
	option: {
		name: 'Create and Wait for Final Status',
		description: 'Send a payout, then pause the workflow until it succeeds or fails (verified callback) or a time limit passes',
		action: 'Create a payout and wait',
	},
	wait: waitKindOf(PAYOUT, {
		PAYOUT_PENDING: { reason: 'event_does_not_end_wait', note: 'the payout is not final yet' },
		PAYOUT_SENT: { reason: 'event_does_not_end_wait', note: 'the payout is not final yet' },
	}),
	notice:
		'The workflow pauses here until Paycashless reports the payout succeeded, failed, was reversed or cancelled. The callback URL is this execution\'s own resume URL, so Paycashless must be able to reach this n8n at its public address (a manual run waits and resumes too).',
	foundAgainNote:
		'This payout already existed under this reference (it was not sent again): its callbacks may go to the URL it was first created with, so a wait for it may only end at the time limit.',
	body: create.payoutCreateBody,
	send: create.sendPayout,
});

/** What an AI that builds workflows reads under this operation (../fields/builderHints.ts). */
export const builderHint = {
	option: `Moves real money now, then ${reachableInSentence} One item per execution.`,
	pattern: `<patterns>
<pattern title="Pay, then continue on the final status">
// Same parameters as Payout → Create (no Callback URL: the node sets this execution's resume URL).
// Output status: successful, failed, reversed or cancelled; after the time limit, the status read by reference.
</pattern>
</patterns>`,
};

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'The execution pauses until the payout succeeds, fails, is reversed or cancelled (or a time limit)' };
