/**
 * Creates that carry a merchant reference (payouts, payments, invoices) are never sent again
 * blindly. The reference is what identifies the object on both sides, and it is always the one
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
import { extractErrorDetails, referenceMismatchError, type FieldDifference } from './errors';
import { backoffMs, HARMLESS, outOfTime, pause, resultError, sendWithRetries, TRANSIENT } from './retry';
import { attemptError, succeeded, type Call } from './send';
import type { Attempt, CreatePolicy, LookupResult, PaycashlessRequest } from './types';

/** Key of the marker added to an object returned by reconciliation. */
export const RECONCILED_KEY = '_paycashless';

/**
 * The marker: `{ reconciled: true, reason, via }`.
 * - `reason: 'repeatedReference'`: Paycashless said the reference was used before (409); this is
 *   the object created earlier (e.g. by a previous run of the workflow).
 * - `reason: 'uncertainOutcome'`: the create got no clear answer; this is the object it made.
 * - `via`: how it was found (the policy's name for its lookup: `verify`, `invoiceList`).
 * - `note`: what the user should know about the object returned (from the policy).
 */
export interface ReconciledMarker {
	reconciled: true;
	reason: 'repeatedReference' | 'uncertainOutcome';
	via: string;
	note?: string;
}

type Lookup = LookupResult | { failed: string };


/** The default reading of a lookup's answer: the answer is the object, under this reference. */
function pickObject(body: IDataObject, reference: string): LookupResult {
	if (typeof body.reference === 'string' && body.reference !== reference) {
		return { inconclusive: `Paycashless answered the lookup of "${reference}" with an object of another reference` };
	}
	return { found: body };
}

/** Looks the object up by its reference (a read: retried like any read). */
async function lookup(call: Call, policy: CreatePolicy, reference: string): Promise<Lookup> {
	const request = policy.lookup(reference);
	const result = await sendWithRetries(call, request, TRANSIENT);
	const { attempt } = result;
	if (result.failure === undefined && succeeded(attempt)) {
		const picked = (policy.pick ?? pickObject)(attempt.body, reference);
		if ('inconclusive' in picked) {
			return { failed: attemptError(call, request, attempt, result.attempts, { kind: 'inconclusive', message: picked.inconclusive }).message };
		}
		return picked;
	}
	if (attempt.answered && attempt.status === 404 && isObject(attempt.body)) return { notFound: true };
	return { failed: resultError(call, request, result).message };
}

/** Key fields on which the object found differs from the request. */
export function differences(policy: CreatePolicy, body: IDataObject | undefined, found: IDataObject): FieldDifference[] {
	const out: FieldDifference[] = [];
	for (const { field, requested: requestedOf, existing: existingOf } of policy.sameAs) {
		const requested = body ? requestedOf(body) : undefined;
		const existing = existingOf(found);
		if (requested === undefined || requested === null || existing === undefined || existing === null) continue;
		if (String(requested) !== String(existing)) out.push({ field, existing, requested });
	}
	return out;
}

/** The object found, marked, after checking it is this item's. */
function accept(
	call: Call,
	request: PaycashlessRequest,
	policy: CreatePolicy,
	reference: string,
	found: IDataObject,
	reason: ReconciledMarker['reason'],
): IDataObject {
	const differing = differences(policy, request.body, found);
	if (differing.length > 0) {
		throw referenceMismatchError(
			call.context.getNode(),
			policy,
			reference,
			typeof found.id === 'string' ? found.id : undefined,
			differing,
			call.itemIndex,
		);
	}
	const marker: ReconciledMarker = { reconciled: true, reason, via: policy.via };
	if (policy.foundAgainNote) marker.note = policy.foundAgainNote;
	call.context.logger.info(`Paycashless: ${policy.object} with reference "${reference}" returned from a lookup (${reason})`, {
		kind: policy.object,
		reason,
	});
	return { ...found, [RECONCILED_KEY]: marker as unknown as IDataObject };
}

/** Paycashless says the reference was used before. */
function isRepeatedReference(attempt: Attempt): boolean {
	if (!attempt.answered) return false;
	return attempt.status === 409 || extractErrorDetails(attempt.status, attempt.body).type === 'idempotency_error';
}

/** Sends a create with a reference, reconciling uncertain outcomes and repeated references. */
export async function createWithReconciliation(
	call: Call,
	request: PaycashlessRequest,
	policy: CreatePolicy,
	reference: string,
): Promise<IDataObject> {
	const { maxAttempts, onRepeatedReference, retryDelayMs, maxRetryWaitMs } = call.settings;
	const startedAt = Date.now();
	let sends = 0;
	/** An earlier attempt of this call may have created the object. */
	let uncertain = false;
	for (;;) {
		const result = await sendWithRetries(call, request, HARMLESS, maxAttempts - sends, startedAt);
		sends += result.attempts;
		const { attempt } = result;
		if (result.failure === undefined && succeeded(attempt)) return attempt.body;

		if (isRepeatedReference(attempt)) {
			// The object may be this call's own, from an attempt that got no clear answer.
			if (!uncertain && onRepeatedReference === 'error') throw attemptError(call, request, attempt, sends);
			const found = await lookup(call, policy, reference);
			if ('found' in found) {
				return accept(call, request, policy, reference, found.found, uncertain ? 'uncertainOutcome' : 'repeatedReference');
			}
			throw attemptError(call, request, attempt, sends, {
				kind: 'repeatedNotReturned',
				reason: 'failed' in found ? found.failed : undefined,
			});
		}

		if (result.failure !== 'uncertain') throw resultError(call, request, result);

		uncertain = true;
		const found = await lookup(call, policy, reference);
		if ('found' in found) return accept(call, request, policy, reference, found.found, 'uncertainOutcome');
		if ('failed' in found) throw attemptError(call, request, attempt, sends, { kind: 'lookupFailed', reason: found.failed });
		const wait = backoffMs(sends, retryDelayMs, maxRetryWaitMs);
		if (sends >= maxAttempts || outOfTime(call, startedAt, wait)) throw attemptError(call, request, attempt, sends, { kind: 'notCreated' });
		await pause(call, wait);
	}
}
