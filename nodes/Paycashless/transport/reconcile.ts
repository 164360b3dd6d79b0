/**
 * Creates that carry a merchant reference (payouts, payments, invoices) are never sent again
 * blindly. The reference is what identifies the object on both sides, so:
 *
 * - After an uncertain failure (5xx, timeout, dropped connection: Paycashless may have acted) the
 *   object is looked up by its reference (payout: `GET /v1/payouts/verify/{reference}`, payment:
 *   `GET /v1/payments/{reference}/verify`, invoice: `GET /v1/invoices?reference=`). Found: it is
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
import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { apiError, lookupName, referenceMismatchError, extractErrorDetails, type FieldDifference } from './errors';
import { backoffMs, HARMLESS, pause, resultError, sendWithRetries, TRANSIENT } from './retry';
import { apiPath, attemptError, succeeded, type Attempt, type Call } from './send';
import type { PaycashlessRequest, ReconciledKind } from './types';

/** Key of the marker added to an object returned by reconciliation. */
export const RECONCILED_KEY = '_paycashless';

/**
 * The marker: `{ reconciled: true, reason, via }`.
 * - `reason: 'repeatedReference'`: Paycashless said the reference was used before (409); this is
 *   the object created earlier (e.g. by a previous run of the workflow).
 * - `reason: 'uncertainOutcome'`: the create got no clear answer; this is the object it made.
 * - `via`: how it was found: `verify` (payouts, payments) or `invoiceList` (invoices).
 */
export interface ReconciledMarker {
	reconciled: true;
	reason: 'repeatedReference' | 'uncertainOutcome';
	via: 'verify' | 'invoiceList';
	/** What the user should know about the object returned (set by the operation, e.g. Create Checkout Link). */
	note?: string;
}

type Lookup = { found: IDataObject } | { notFound: true } | { failed: NodeApiError };

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request that finds the object of `kind` by its reference. */
export function lookupRequest(kind: ReconciledKind, reference: string): PaycashlessRequest {
	if (kind === 'payout') return { method: 'GET', path: apiPath`/v1/payouts/verify/${reference}` };
	if (kind === 'payment') return { method: 'GET', path: apiPath`/v1/payments/${reference}/verify` };
	return { method: 'GET', path: '/v1/invoices', qs: { reference, limit: 100 } };
}

function inconclusive(call: Call, request: PaycashlessRequest, body: unknown, message: string): NodeApiError {
	const error = apiError(call.context.getNode(), 200, body, request, call.itemIndex);
	error.message = message;
	return error;
}

/** Looks the object up by its reference (a read: retried like any read). */
async function lookup(call: Call, kind: ReconciledKind, reference: string): Promise<Lookup> {
	const request = lookupRequest(kind, reference);
	const result = await sendWithRetries(call, request, TRANSIENT);
	const { attempt } = result;
	if (result.failure === undefined && succeeded(attempt)) {
		const body = attempt.body;
		if (kind !== 'invoice') {
			if (typeof body.reference === 'string' && body.reference !== reference) {
				return { failed: inconclusive(call, request, body, `Paycashless answered the lookup of "${reference}" with an object of another reference`) };
			}
			return { found: body };
		}
		if (!Array.isArray(body.data)) {
			return { failed: inconclusive(call, request, body, 'Paycashless answered the invoice lookup without a "data" list') };
		}
		const match = (body.data as unknown[]).find((record) => isObject(record) && record.reference === reference);
		if (match) return { found: match as IDataObject };
		// A list that goes on may be one the API did not filter: absence proves nothing.
		if (body.hasMore === true) {
			return { failed: inconclusive(call, request, body, `Paycashless did not filter the invoice list by the reference "${reference}"`) };
		}
		return { notFound: true };
	}
	if (attempt.answered && attempt.status === 404 && isObject(attempt.body)) return { notFound: true };
	return { failed: resultError(call, request, result) };
}

function amountValue(value: unknown): unknown {
	return isObject(value) ? value.value : value;
}

function amountCurrency(value: unknown): unknown {
	return isObject(value) ? value.currency : undefined;
}

type KeyField = [field: string, requested: (body: IDataObject) => unknown, existing: (found: IDataObject) => unknown];

/** Fields that must be equal for the object found to be this item's (compared when both have them). */
const KEY_FIELDS: Record<ReconciledKind, KeyField[]> = {
	payout: [
		['amount', (body) => amountValue(body.amount), (found) => amountValue(found.amount)],
		['currency', (body) => amountCurrency(body.amount), (found) => found.currency ?? amountCurrency(found.amount)],
		['destinationAccountNumber', (body) => body.destinationAccountNumber, (found) => found.destinationAccountNumber],
		['bankId', (body) => body.bankId, (found) => found.destinationBankId ?? found.bankId],
	],
	payment: [
		['amount', (body) => amountValue(body.amount), (found) => found.expectedAmount ?? amountValue(found.amount)],
		['currency', (body) => amountCurrency(body.amount), (found) => found.currency ?? amountCurrency(found.amount)],
	],
	invoice: [
		['currency', (body) => body.currency, (found) => found.currency],
		['description', (body) => body.description, (found) => found.description],
	],
};

/** Key fields on which the object found differs from the request. */
export function differences(kind: ReconciledKind, body: IDataObject | undefined, found: IDataObject): FieldDifference[] {
	const out: FieldDifference[] = [];
	for (const [field, requestedOf, existingOf] of KEY_FIELDS[kind]) {
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
	kind: ReconciledKind,
	reference: string,
	found: IDataObject,
	reason: ReconciledMarker['reason'],
): IDataObject {
	const differing = differences(kind, request.body, found);
	if (differing.length > 0) {
		throw referenceMismatchError(
			call.context.getNode(),
			kind,
			reference,
			typeof found.id === 'string' ? found.id : undefined,
			differing,
			call.itemIndex,
		);
	}
	const marker: ReconciledMarker = { reconciled: true, reason, via: kind === 'invoice' ? 'invoiceList' : 'verify' };
	call.context.logger.info(`Paycashless: ${kind} with reference "${reference}" returned from a lookup (${reason})`, {
		kind,
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
	kind: ReconciledKind,
	reference: string,
): Promise<IDataObject> {
	const { maxAttempts, onRepeatedReference, retryDelayMs, maxRetryWaitMs } = call.settings;
	const check = lookupName(kind, reference);
	let sends = 0;
	/** An earlier attempt of this call may have created the object. */
	let uncertain = false;
	for (;;) {
		const result = await sendWithRetries(call, request, HARMLESS, maxAttempts - sends);
		sends += result.attempts;
		const { attempt } = result;
		if (result.failure === undefined && succeeded(attempt)) return attempt.body;

		if (isRepeatedReference(attempt)) {
			const conflict = attemptError(call, request, attempt, sends);
			// The object may be this call's own, from an attempt that got no clear answer.
			if (!uncertain && onRepeatedReference === 'error') throw conflict;
			const found = await lookup(call, kind, reference);
			if ('found' in found) {
				return accept(call, request, kind, reference, found.found, uncertain ? 'uncertainOutcome' : 'repeatedReference');
			}
			conflict.description = `${conflict.description ?? ''} The node looked for it with ${check}, but ${
				'failed' in found ? `that failed: ${found.failed.message}` : 'Paycashless found none'
			}, so it cannot return it.`;
			throw conflict;
		}

		if (result.failure !== 'uncertain') throw resultError(call, request, result);

		uncertain = true;
		const found = await lookup(call, kind, reference);
		if ('found' in found) return accept(call, request, kind, reference, found.found, 'uncertainOutcome');
		if ('failed' in found) {
			const error = attemptError(call, request, attempt, sends);
			error.description = `${error.description ?? ''} The node then checked with ${check} itself, but that failed too (${found.failed.message}), so the outcome is unknown: the ${kind} may or may not exist.`;
			(error.context.paycashless as IDataObject).outcome = 'unknown';
			throw error;
		}
		if (sends >= maxAttempts) {
			const error = attemptError(call, request, attempt, sends);
			error.description = `Paycashless gave no clear answer in ${sends} attempt${sends === 1 ? '' : 's'}, and ${check} shows that no ${kind} with this reference exists: nothing was created. Run the item again later (or raise Request Options → Max Attempts).`;
			(error.context.paycashless as IDataObject).outcome = 'notCreated';
			throw error;
		}
		await pause(call, backoffMs(sends, retryDelayMs, maxRetryWaitMs));
	}
}
