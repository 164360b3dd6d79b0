/**
 * A create that carries a merchant reference (payouts, payments, invoices), from its answer to its
 * one output. It is never sent again blindly: the reference identifies the object on both sides,
 * and it is always the one in the body that was sent (`body.reference`). How to find each kind of object again, and which
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
 *
 * The output (`createdOutput`, `foundAgainOutput`) has one shape whatever path the create took:
 * created now, found again after a repeated reference, or reconciled after an unclear answer. The
 * item is the full object as Paycashless shows it (as Get or Verify return it) plus the marker
 * `_paycashless: { reconciled, repeated, ... }`, so `{{ $json.amount }}` is set on the first run
 * as on the second, and a repeat is visible as `_paycashless.repeated: true`. The operations never
 * mark their results; an object whose create answers short (a payout: `{ id, status, reference }`)
 * is read back by the policy's own lookup when it declares `readBack` (`readBack` below).
 */
import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../helpers/body';
import { failureError, stoppedError, type FieldDifference } from './errors';
import { extractErrorDetails, succeeded } from './send';
import { backoffMs, outOfTime, sendWithRetries, type ReconcileStep } from './retry';
import { findWithWords, type Attempt, type Call, type FoundByReference, type LookupResult, type PaycashlessRequest } from './types';

/** Key of the marker on every create's output. */
export const MARKER = '_paycashless';

/** Whether an output record is a create found again (made before, not made twice). */
export function foundAgain(record: IDataObject): boolean {
	const marker = record[MARKER];
	return typeof marker === 'object' && marker !== null && (marker as IDataObject).repeated === true;
}

/** How an object was found again by its reference instead of taken from the create's answer. */
interface FoundAgain {
	/**
	 * `repeatedReference`: Paycashless said the reference was used before (409); this is the
	 * object created earlier (e.g. by a previous run). `uncertainOutcome`: the create got no clear
	 * answer; this is the object it made.
	 */
	reason: 'repeatedReference' | 'uncertainOutcome';
	/** How it was found (the policy's name for its lookup: `verify`, `invoiceList`). */
	via: string;
	/** What the user should know about the object returned (from the policy). */
	note?: string;
}

/**
 * The marker: `{ reconciled, repeated }`, and for an object found again `reason`, `via` and
 * `note` (see FoundAgain); `note` also when a short answer could not be read back.
 */
interface CreatedMarker extends IDataObject {
	/** Found by a lookup instead of taken from the create's own answer. */
	reconciled: boolean;
	/** The reference was used before (an earlier run): nothing new was created. */
	repeated: boolean;
}

function marked(object: IDataObject, marker: CreatedMarker): IDataObject {
	return { ...object, [MARKER]: marker };
}

/** An object found again by its reference, marked. */
function foundAgainOutput(object: IDataObject, found: FoundAgain): IDataObject {
	const { reason, via, note } = found;
	return marked(object, { reconciled: true, reason, via, ...(note ? { note } : {}), repeated: reason === 'repeatedReference' });
}

/**
 * A create not sent because its reference was just looked up and found (a batch's check before its
 * first payout): the object Paycashless has under it, marked as a repeat would be. It is what
 * sending would return: Paycashless refuses a second create under a reference, and the object is
 * then looked up by it.
 */
export function foundBeforeSending(policy: Pick<FoundByReference<unknown>, 'via' | 'foundAgainNote'>, found: IDataObject): IDataObject {
	return foundAgainOutput(found, { reason: 'repeatedReference', via: policy.via, note: policy.foundAgainNote });
}

/**
 * The output of a create's own answer, marked; merged with the object read back when there was a
 * read-back (`readBack`: its answer, `null` when it failed). The create was accepted either way:
 * if the read failed, the short answer is returned with a note, never an error.
 */
export function createdOutput(
	policy: FoundByReference,
	reference: string | undefined,
	answer: IDataObject,
	readBack?: IDataObject | null,
): IDataObject {
	const fresh: CreatedMarker = { reconciled: false, repeated: false };
	if (readBack === undefined) return marked(answer, fresh);
	if (readBack !== null && (readBack.reference === undefined || readBack.reference === reference)) {
		// The object's own field order (as a repeat, found by reference, returns it), then anything
		// only the create's answer had.
		const onlyInAnswer = Object.fromEntries(Object.entries(answer).filter(([key]) => !(key in readBack)));
		return marked({ ...readBack, ...onlyInAnswer }, fresh);
	}
	return marked(answer, {
		...fresh,
		note: `Paycashless accepted the ${policy.object}, but its details could not be read just now. Check it with ${findWithWords(policy, reference ?? '')}; do not send it again.`,
	});
}

/**
 * Reads a created object back by its lookup (a read, retried as one). `null` when the read fails
 * or the execution is cancelled meanwhile: the create stands either way, and its output says so.
 */
export async function readBack(call: Call, lookupRequest: PaycashlessRequest): Promise<IDataObject | null> {
	try {
		return (await sendWithRetries(call, lookupRequest)).body ?? null;
	} catch {
		return null;
	}
}

// ---- Reconciliation: the step the retry loop calls when a create's attempts stop on a failure.

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
	const result = await sendWithRetries(call, request);
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
 * a failure: the object found again comes back as the create's output, marked.
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
