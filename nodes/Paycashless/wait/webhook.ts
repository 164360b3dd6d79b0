/**
 * The resuming webhook of every waiting operation: a callback to this execution's resume URL ends
 * the wait only when the one fail-closed callback check (../callbacks/evaluate.ts) accepts it and
 * its signed data is the awaited object in a final status; anything else is answered and the
 * execution keeps waiting. How n8n resumes a waiting node: pause.ts.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { DEFAULT_TIMESTAMP_TOLERANCE_SECONDS, TIMESTAMP_HEADER } from '../../../lib/signing';
import { evaluateCallback } from '../callbacks/evaluate';
import { headerValue } from '../callbacks/headers';
import { answerJson, receivedCallback } from '../callbacks/receive';
import type { WaitKind } from './fields';
import { resumeUrlOf, WAIT_KEY, WAIT_REFERENCE_PARAM, waitCallbackUrl, waitItem } from './pause';

const AWAITED_REFERENCE_EXPRESSION = `={{ $json.${WAIT_KEY}.reference }}`;

const KEEPS_WAITING = 'event_does_not_end_wait';

/** The status a known resuming event name stands for (INVOICE_PAID → paid), or undefined. */
function resumingStatus(kind: WaitKind, event: string): string | undefined {
	const prefix = `${kind.eventPrefix}_`;
	if (!event.startsWith(prefix)) return undefined;
	const status = event.slice(prefix.length).toLowerCase();
	return kind.settled.includes(status) ? status : undefined;
}

/**
 * In the resuming webhook: the reference the node waits for, from the time-limit item it put on
 * its execution-stack entry before waiting (n8n gives that entry's items to the webhook as `$json`).
 */
function awaitedReferenceOf(context: IWebhookFunctions): string {
	try {
		const value = context.getNodeParameter('__paycashlessAwaitedReference', AWAITED_REFERENCE_EXPRESSION);
		return typeof value === 'string' ? value : '';
	} catch {
		return '';
	}
}

/** The resuming webhook of every waiting operation; `kind` is the operation's own (none: not a wait). */
export async function resumeWebhook(this: IWebhookFunctions, kind: WaitKind | undefined): Promise<IWebhookResponseData> {
	const nowMs = Date.now();
	const node = this.getNode();
	if (!kind) return answerJson(this, 404, { error: 'not_waiting', message: 'This node does not wait for callbacks.' });

	const received = await receivedCallback(this);
	const { headers } = received;
	const urlReference = new URLSearchParams(received.receivedQuery).get(WAIT_REFERENCE_PARAM);
	const expectedReference = urlReference ?? awaitedReferenceOf(this);

	// The URL the object was created with: this execution's resume URL, plus the reference when a
	// Create and Wait operation made it (a forged reference changes the URL, so the signature fails),
	// or as it is (`{{ $execution.resumeUrl }}` given to an earlier create, then Wait for Payment).
	const candidateUrls: string[] = [];
	try {
		const resumeUrl = resumeUrlOf(this);
		candidateUrls.push(urlReference === null ? resumeUrl : waitCallbackUrl(resumeUrl, urlReference));
	} catch {
		// No resume URL: nothing can match, the callback is refused below.
	}

	const outcome = evaluateCallback({
		...received,
		candidateUrls,
		nowMs,
		toleranceSeconds: DEFAULT_TIMESTAMP_TOLERANCE_SECONDS,
		// Acknowledged events stop here; every other one (known or not) is judged on its signed data below.
		matchesEvent: (event) => kind.acknowledge[event.trim().toUpperCase()] === undefined,
	});

	if (outcome.action === 'reject') {
		this.logger.warn(`Paycashless refused a resume call (${outcome.status} ${outcome.error}): the execution keeps waiting`, {
			node: node.name,
			reason: outcome.error,
			event: outcome.event,
			requestTimestamp: headerValue(headers, TIMESTAMP_HEADER),
			serverTime: Math.floor(nowMs / 1000),
		});
		return answerJson(this, outcome.status, { error: outcome.error, message: outcome.message });
	}
	if (outcome.action === 'ignore') {
		const event = outcome.event.trim().toUpperCase();
		const known = kind.acknowledge[event];
		const reason = known?.reason ?? KEEPS_WAITING;
		this.logger.info(`Paycashless ${event} received while waiting${known ? ` (${known.note})` : ''}: the execution keeps waiting`, { node: node.name, reason });
		return answerJson(this, 200, { received: true, resumed: false, reason });
	}

	const data = (outcome.callback.data ?? {}) as IDataObject;
	const event = outcome.callback.event.trim().toUpperCase();
	const expectedStatus = resumingStatus(kind, event);
	const reference = typeof data.reference === 'string' ? data.reference : undefined;
	if (expectedReference === '') {
		// Neither the URL nor the stored item names the awaited object: nothing can be matched to it.
		this.logger.warn('Paycashless callback received, but this wait does not know its reference: the execution keeps waiting', { node: node.name });
		return answerJson(this, 200, { received: true, resumed: false, reason: 'no_awaited_reference' });
	}
	if (reference !== undefined && reference !== expectedReference) {
		// Signed for this URL but about another object: a late callback of an earlier loop round.
		this.logger.warn('Paycashless callback for another reference received while waiting: the execution keeps waiting', {
			node: node.name,
			expected: expectedReference,
			received: reference,
		});
		return answerJson(this, 200, { received: true, resumed: false, reason: 'other_reference' });
	}
	const status = typeof data.status === 'string' ? data.status.toLowerCase() : undefined;
	if (expectedStatus === undefined) {
		// An event name this package does not know (Paycashless has not published them all): the
		// signed data decides. The awaited object, settled, resumes; anything else is acknowledged.
		if (reference === expectedReference && status !== undefined && kind.settled.includes(status)) {
			return resumeWith.call(this, data, { outcome: status, event, reference: expectedReference, deliveryId: outcome.deliveryId, verified: outcome.verified }, nowMs);
		}
		this.logger.info(`Paycashless ${event} received while waiting: the execution keeps waiting`, { node: node.name, status });
		return answerJson(this, 200, { received: true, resumed: false, reason: KEEPS_WAITING });
	}
	if (reference === undefined || status !== expectedStatus) {
		// The event name is not signed: a genuine body under another event name is refused.
		this.logger.warn(`Paycashless resume call refused: ${event} with data that does not say so; the execution keeps waiting`, {
			node: node.name,
			event,
			status,
			hasReference: reference !== undefined,
		});
		return answerJson(this, 401, {
			error: 'event_data_mismatch',
			message: `The data of this ${event} callback is not a ${expectedStatus} object with the awaited reference.`,
		});
	}

	return resumeWith.call(this, data, { outcome: expectedStatus, event, reference: expectedReference, deliveryId: outcome.deliveryId, verified: outcome.verified }, nowMs);
}

/** Ends the wait: the callback's object becomes the node's output, with what happened. */
function resumeWith(this: IWebhookFunctions, data: IDataObject, meta: IDataObject, nowMs: number): IWebhookResponseData {
	const item = waitItem(data, { ...meta, receivedAt: new Date(nowMs).toISOString() });
	return { workflowData: [this.helpers.returnJsonArray([item])] };
}
