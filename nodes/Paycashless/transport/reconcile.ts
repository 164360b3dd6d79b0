/**
 * The create step of the retry loop (retry.ts): creates that carry a merchant reference
 * (payouts, payments, invoices) are never sent again blindly. The reference is what identifies the object on both sides, and it is always the one
 * in the body that was sent (`body.reference`). How to find each kind of object again, and which
 * fields must agree, come from the operation's create policy (its declaration). So:
 *
 * - After an uncertain failure (5xx, timeout, dropped connection: Paycashless may have acted) the
 *   object is looked up by its reference (the policy's lookup, e.g. payout:
 *   `GET /v1/payouts/verify/{reference}`). Found: it is
 *   returned, marked as reconciled. Definitely not found (404, or a complete list without it):
 *   the create is sent once more, within Max Attempts. The lookup failing too: "outcome unknown".
 * - A 429 or a refused connection changed nothing: the create is sent again after the wait.
 * - A repeated reference (409): by default the existing object is fetched the same way and
 *   returned (a re-run of the workflow, or n8n's Retry On Fail, never creates twice and still
 *   yields one item per input); Request Options → On Repeated Reference = Error throws instead.
 * - The object found must match the item on its key fields (amount, currency, account...);
 *   otherwise the reference was reused for something else, and that is an error, never a result.
 *
 * Paycashless refusing a second object under one reference is the last guard: even if a lookup
 * misses an object that is still being committed, the resend gets a 409 and the lookup after it
 * finds the object.
 */
import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../helpers/body';
import { extractErrorDetails } from './answers';
import { failureError, stoppedError, type FieldDifference } from './errors';
import { foundAgainOutput, type FoundAgain } from './created';
import { succeeded } from './classify';
import { backoffMs, outOfTime, sendWithRetries, TRANSIENT, type ReconcileStep } from './retry';
import type { Call } from './send';
import type { Attempt, FoundByReference, LookupResult, PaycashlessRequest } from './types';

type Lookup = LookupResult | { failed: string };

/** The default reading of a lookup's answer: the answer is the object, under this reference. */
function pickObject(body: IDataObject, reference: string): LookupResult {
	if (typeof body.reference === 'string' && body.reference !== reference) {
		return { inconclusive: `Paycashless answered the lookup of "${reference}" with an object of another reference` };
	}
	return { found: body };
}

/** Looks the object up by its reference (a read: retried like any read). */
async function lookup(call: Call, policy: FoundByReference, reference: string): Promise<Lookup> {
	const request = policy.lookup(reference);
	const result = await sendWithRetries(call, request, TRANSIENT);
	const { attempt } = result;
	if (result.failure === undefined && succeeded(attempt)) {
		const picked = (policy.pick ?? pickObject)(attempt.body, reference);
		if ('inconclusive' in picked) {
			return { failed: failureError(call, request, attempt, result.attempts, { kind: 'inconclusive', message: picked.inconclusive }).message };
		}
		return picked;
	}
	if (attempt.answered && attempt.status === 404 && isObject(attempt.body)) return { notFound: true };
	return { failed: stoppedError(call, request, result).message };
}

/** Key fields on which the object found differs from the request. */
export function differences(policy: FoundByReference, body: IDataObject | undefined, found: IDataObject): FieldDifference[] {
	const out: FieldDifference[] = [];
	for (const { field, requested: requestedOf, existing: existingOf } of policy.sameAs) {
		const requested = body ? requestedOf(body) : undefined;
		const existing = existingOf(found);
		if (requested === undefined || requested === null || existing === undefined || existing === null) continue;
		if (String(requested) !== String(existing)) out.push({ field, existing, requested });
	}
	return out;
}

/** Paycashless says the reference was used before. */
function isRepeatedReference(attempt: Attempt): boolean {
	if (!attempt.answered) return false;
	return attempt.status === 409 || extractErrorDetails(attempt.status, attempt.body).type === 'idempotency_error';
}

/**
 * The reconciliation of one create, as the step the retry loop calls when its attempts stop on
 * a failure: the object found again comes back as the create's output, marked (created.ts).
 */
export function reconcileStep(call: Call, request: PaycashlessRequest, policy: FoundByReference, reference: string): ReconcileStep {
	const { onRepeatedReference, retryDelayMs, maxRetryWaitMs, maxAttempts } = call.settings;
	/** An earlier attempt of this call may have created the object. */
	let uncertain = false;

	/** The object found, after checking it is this item's. */
	const accept = (found: IDataObject, reason: FoundAgain['reason'], stopped: { attempt: Attempt; sends: number }) => {
		const differing = differences(policy, request.body, found);
		if (differing.length > 0) {
			const existingId = typeof found.id === 'string' ? found.id : undefined;
			throw failureError(call, request, stopped.attempt, stopped.sends, { kind: 'referenceMismatch', existingId, differences: differing });
		}
		call.context.logger.info(`Paycashless: ${policy.object} with reference "${reference}" returned from a lookup (${reason})`, {
			kind: policy.object,
			reason,
		});
		return { found: foundAgainOutput(found, { reason, via: policy.via, note: policy.foundAgainNote }) };
	};

	return async (stopped, startedAt) => {
		const { attempt, sends } = stopped;
		if (isRepeatedReference(attempt)) {
			// The object may be this call's own, from an attempt that got no clear answer.
			if (!uncertain && onRepeatedReference === 'error') throw failureError(call, request, attempt, sends);
			const found = await lookup(call, policy, reference);
			if ('found' in found) return accept(found.found, uncertain ? 'uncertainOutcome' : 'repeatedReference', stopped);
			throw failureError(call, request, attempt, sends, {
				kind: 'repeatedNotReturned',
				reason: 'failed' in found ? found.failed : undefined,
			});
		}

		if (stopped.failure !== 'uncertain') throw stoppedError(call, request, stopped);

		uncertain = true;
		const found = await lookup(call, policy, reference);
		if ('found' in found) return accept(found.found, 'uncertainOutcome', stopped);
		if ('failed' in found) throw failureError(call, request, attempt, sends, { kind: 'lookupFailed', reason: found.failed });
		const wait = backoffMs(sends, retryDelayMs, maxRetryWaitMs);
		if (sends >= maxAttempts || outOfTime(call, startedAt, wait)) throw failureError(call, request, attempt, sends, { kind: 'notCreated' });
		return { resendAfterMs: wait };
	};
}
