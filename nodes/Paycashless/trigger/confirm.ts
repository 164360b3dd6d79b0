/**
 * "Confirm With Paycashless": before the workflow starts, fetch the object the callback is about
 * from the API (through the package's transport, signed by the credential) and hand its current
 * state to the workflow. A relabelled or stale callback then cannot make the workflow act on
 * anything but what Paycashless says now.
 *
 * `IWebhookFunctions.helpers` has `httpRequestWithAuthentication` (RequestHelperFunctions in
 * n8n-workflow), which is all the transport needs besides `getCredentials` and `getNode`.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { ACCOUNT_REQUEST, DEDICATED_ACCOUNT, INVOICE, PAYMENT, PAYOUT } from '../catalog/objects';
import { DEFAULT_TRANSPORT_SETTINGS, paycashlessApi, type TransportSettings } from '../transport';
import type { ObjectKind } from '../callbacks/consistency';

/**
 * Paycashless waits for the answer while the trigger confirms: a short timeout and one retry.
 * When that fails the callback gets 503 and Paycashless sends it again a minute later.
 */
const CONFIRM_SETTINGS: Readonly<TransportSettings> = Object.freeze({
	...DEFAULT_TRANSPORT_SETTINGS,
	maxAttempts: 2,
	retryDelayMs: 500,
	maxRetryWaitMs: 2000,
	timeoutMs: 10_000,
});

/** The API path that returns the current state of the object `data` is about; undefined when unknown. */
function confirmationPath(kind: ObjectKind | undefined, data: unknown): string | undefined {
	if (!kind || typeof data !== 'object' || data === null) return undefined;
	const record = data as Record<string, unknown>;
	const id = typeof record.id === 'string' && record.id.trim() ? record.id.trim() : undefined;
	switch (kind) {
		case 'invoice':
			return id ? INVOICE.one(id) : undefined;
		case 'invoicePayment':
			return typeof record.invoiceId === 'string' ? INVOICE.one(record.invoiceId) : undefined;
		case 'payment':
			return id ? PAYMENT.one(id) : undefined;
		case 'payout':
			return id ? PAYOUT.one(id) : undefined;
		case 'dedicatedAccount':
			return id ? DEDICATED_ACCOUNT.one(id) : undefined;
		case 'accountRequest': {
			const code = typeof record.code === 'string' ? record.code : id;
			return code ? ACCOUNT_REQUEST.status(code) : undefined;
		}
	}
}

export type Confirmation =
	| { outcome: 'confirmed'; path: string; current: IDataObject }
	| { outcome: 'not_identifiable' }
	| { outcome: 'not_found'; path: string }
	| { outcome: 'unavailable'; path: string; message: string };

/** Fetches the object; never throws. */
export async function confirmWithPaycashless(
	context: IWebhookFunctions,
	kind: ObjectKind | undefined,
	data: unknown,
): Promise<Confirmation> {
	const path = confirmationPath(kind, data);
	if (!path) return { outcome: 'not_identifiable' };
	try {
		const api = paycashlessApi(context, { settings: { ...CONFIRM_SETTINGS } });
		const current = await api.request({ method: 'GET', path });
		return { outcome: 'confirmed', path, current };
	} catch (error) {
		const httpCode = (error as { httpCode?: unknown }).httpCode;
		if (String(httpCode) === '404') return { outcome: 'not_found', path };
		const message = error instanceof Error ? error.message : String(error);
		return { outcome: 'unavailable', path, message };
	}
}
