/**
 * The one way requests reach Paycashless. Signing happens in the credential's `authenticate`
 * (through `httpRequestWithAuthentication`, send.ts); this function picks the policy:
 * - repeatable requests (GET, PUT): retried on 429, 5xx and network failures (retry.ts);
 * - creates with a reference (the operation's create policy): reconciled by the reference in
 *   the body that was sent, never resent blindly (reconcile.ts);
 * - other writes: resent only after failures that changed nothing (429, refused connection);
 *   otherwise they end with "outcome unknown" and how to check (the operation's check policy).
 * Every non-2xx answer (and the 2xx payout failure form) becomes a NodeApiError (errors.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { CREDENTIAL_NAME, PAYCASHLESS_DEFAULT_BASE_URL } from '../../../lib/api';
import { referenceOf } from './errors';
import { createWithReconciliation } from './reconcile';
import { HARMLESS, resultBody, resultError, sendWithRetries, TRANSIENT } from './retry';
import type { Call } from './send';
import { isRepeatable, type PaycashlessContext, type PaycashlessRequest } from './types';

/**
 * Base URL per node run: n8n loads and decrypts the credential from its database on every
 * `getCredentials` (and once more inside `httpRequestWithAuthentication`), so reading it for
 * every request of a 1,000-page list or 1,000 items cost one extra database read each
 * (bench/README.md). An action node's context lives for one run of the node; a failed read is not
 * kept. Other contexts (a poll trigger's lives as long as the workflow is active) read it each time,
 * so a changed Base URL applies at once.
 */
const baseUrls = new WeakMap<object, Promise<string>>();

/** The credential's base URL without trailing slashes (default https://api.paycashless.com). */
export async function paycashlessBaseUrl(this: PaycashlessContext): Promise<string> {
	if (!('getInputData' in this)) return await readBaseUrl.call(this);
	let baseUrl = baseUrls.get(this);
	if (!baseUrl) {
		baseUrl = readBaseUrl.call(this);
		baseUrls.set(this, baseUrl);
		baseUrl.catch(() => baseUrls.delete(this));
	}
	return await baseUrl;
}

async function readBaseUrl(this: PaycashlessContext): Promise<string> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const configured = typeof credentials?.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	return (configured || PAYCASHLESS_DEFAULT_BASE_URL).replace(/\/+$/, '');
}

/** Sends one request (with the retries its kind allows) and returns the parsed JSON answer. */
export async function sendRequest(call: Call, request: PaycashlessRequest): Promise<IDataObject> {
	const reference = referenceOf(request);
	if (!isRepeatable(request) && call.policy?.kind === 'create' && reference !== undefined) {
		return await createWithReconciliation(call, request, call.policy, reference);
	}
	const result = await sendWithRetries(call, request, isRepeatable(request) ? TRANSIENT : HARMLESS);
	const body = resultBody(result);
	if (body !== undefined) return body;
	throw resultError(call, request, result);
}
