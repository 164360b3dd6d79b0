/**
 * The one way requests reach Paycashless. Signing happens in the credential's `authenticate`
 * (through `httpRequestWithAuthentication`, send.ts); this function picks the policy:
 * - repeatable requests (GET, PUT): retried on 429, 5xx and network failures (retry.ts);
 * - creates with a reference (the operation's create policy): reconciled by the reference in
 *   the body that was sent, never resent blindly (the loop's step, reconcile.ts), and returned as
 *   the one create output with its `_paycashless` marker (created.ts);
 * - other writes: resent only after failures that changed nothing (429, refused connection);
 *   otherwise they end with "outcome unknown" and how to check (the operation's check policy).
 * Every non-2xx answer (and the 2xx payout failure form) becomes an error in one place (errors.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { createdOutput } from './created';
import { stoppedError } from './errors';
import { reconcileStep } from './reconcile';
import { HARMLESS, sendWithRetries, TRANSIENT, type CreateSteps } from './retry';
import type { Call } from './send';
import { isRepeatable, referenceOf, type PaycashlessRequest } from './types';

/**
 * Sends one request through the one retry loop and returns the parsed JSON answer. A request
 * under a create policy carries its reconciliation as the loop's step, and its answer leaves as
 * the one create output (created.ts).
 */
export async function sendRequest(call: Call, request: PaycashlessRequest): Promise<IDataObject> {
	const repeatable = isRepeatable(request);
	const create = !repeatable && call.policy?.kind === 'create' ? call.policy.findsAgain : undefined;
	const reference = referenceOf(request);
	const steps: CreateSteps | undefined = create && {
		reconcile: reference !== undefined ? reconcileStep(call, request, create, reference) : undefined,
		// The policy declares a short answer: the loop reads the object back with its lookup.
		readBack: (answer) => (reference !== undefined && create.readBack?.(answer) ? create.lookup(reference) : undefined),
	};
	const result = await sendWithRetries(call, request, repeatable ? TRANSIENT : HARMLESS, steps);
	if (result.found) return result.found;
	if (create && result.created) return createdOutput(create, reference, result.created, result.body ?? null);
	if (!result.body) throw stoppedError(call, request, result);
	return create ? createdOutput(create, reference, result.body) : result.body;
}
