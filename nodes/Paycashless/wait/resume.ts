/**
 * Waiting for Paycashless inside one execution (the Create and Wait operations, Payment → Wait
 * for Payment): the object's callbackUrl is this execution's own resume URL, the execution waits,
 * and the node's `webhook()` resumes it only on a callback that the trigger's rules accept
 * (../trigger/callback.ts, ../../../lib/signing.ts). Which callbacks end a wait is declared by each
 * operation (its `wait`, a WaitKind); the node's webhook passes it here.
 *
 * How n8n resumes a waiting node (n8n 2.41 and 1.123, see docs/wait-for-payment.md):
 * - a POST to `$execution.resumeUrl` (`<base>/webhook-waiting/<executionId>?signature=<token>`)
 *   calls this node's `webhook()` (webhooks with `restartWebhook: true`); when it returns
 *   `workflowData`, those items become the node's output and the run goes on; when it answers
 *   itself (`noWebhookResponse`) or returns no `workflowData`, nothing is saved: the execution keeps
 *   waiting;
 * - when the time limit (`waitTill`) passes, n8n does NOT run the node again: it marks it disabled
 *   and forwards the items of its execution-stack entry (`executionData.data.main[0]`) to output 0.
 *   So before waiting the node puts there the item it must emit then: the object as created,
 *   marked `timeLimitReached`, with the reference to look it up by.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_TIMESTAMP_TOLERANCE_SECONDS, TIMESTAMP_HEADER } from '../../../lib/signing';
import type { ReferencedObject } from '../catalog/objects';
import { invalid } from '../helpers/validation';
import { withMainUnits } from '../helpers/mainUnits';
import { evaluateCallback, headerValue } from '../trigger/callback';
import { answerJson, receivedCallback } from '../trigger/webhookCallback';

/** Query parameter added to the resume URL: the reference of the awaited object (signed with the URL). */
export const WAIT_REFERENCE_PARAM = 'paycashlessReference';
/** The key under which every output item of a Create and Wait operation says what happened. */
export const WAIT_KEY = 'paycashlessWait';
const RESUME_URL_EXPRESSION = '={{ $execution.resumeUrl }}';
const AWAITED_REFERENCE_EXPRESSION = `={{ $json.${WAIT_KEY}.reference }}`;
const MAX_WAIT_MS = 366 * 24 * 3600 * 1000;

/**
 * Which callbacks end a wait for one kind of object. The signed data decides: a callback ends the
 * wait when its data is the awaited object (by reference) in a `settled` status, which becomes
 * the outcome. Paycashless signs the URL, the data and the timestamp, not the event name, so a
 * known resuming name (`<PREFIX>_<STATUS>`, e.g. INVOICE_PAID) whose data says otherwise is
 * refused; a name the package does not know is judged on the data alone (not every name is
 * published).
 */
export interface WaitKind {
	/** Event-name prefix, e.g. `INVOICE`. */
	eventPrefix: string;
	/** Final statuses, e.g. `paid`, `cancelled`: nothing to wait for after them. */
	settled: readonly string[];
	/** Events answered 200 without resuming, with the reason given (e.g. an instalment). */
	acknowledge: Record<string, string>;
}

/** The wait for one object: its event prefix and final statuses from the catalog (catalog/objects.ts). */
export function waitKindOf(object: ReferencedObject, acknowledge: Record<string, string>): WaitKind {
	return { eventPrefix: object.eventPrefix, settled: object.finalStatuses, acknowledge };
}

const KEEPS_WAITING = 'event_does_not_end_wait';

/** The status a known resuming event name stands for (INVOICE_PAID → paid), or undefined. */
function resumingStatus(kind: WaitKind, event: string): string | undefined {
	const prefix = `${kind.eventPrefix}_`;
	if (!event.startsWith(prefix)) return undefined;
	const status = event.slice(prefix.length).toLowerCase();
	return kind.settled.includes(status) ? status : undefined;
}

/** A create's fields without its Callback URL (a Create and Wait operation sets it). */
export function withoutCallbackUrl(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		if (property.type !== 'collection' || !Array.isArray(property.options)) return property;
		return { ...property, options: (property.options as INodeProperties[]).filter((option) => option.name !== 'callbackUrl') };
	});
}

/** The Time Limit fields of every Create and Wait operation. */
export function timeLimitProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Time Limit',
			name: 'waitTimeLimit',
			type: 'number',
			default: 24,
			typeOptions: { minValue: 1 },
			description:
				'How long to wait for Paycashless to confirm. After that the workflow goes on with the object as it was when the wait began, with paycashlessWait.outcome = "timeLimitReached": look it up by its reference to see what happened meanwhile. n8n checks waiting executions about once a minute.',
		},
		{
			displayName: 'Time Limit Unit',
			name: 'waitTimeLimitUnit',
			type: 'options',
			default: 'hours',
			options: [
				{ name: 'Minutes', value: 'minutes' },
				{ name: 'Hours', value: 'hours' },
				{ name: 'Days', value: 'days' },
			],
		},
	];
}

const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** The waitTill date from the node's Time Limit fields; a clear error on bad values. */
export function waitTillFrom(amount: unknown, unit: unknown, nowMs: number): Date {
	const perUnit = UNIT_MS[String(unit)];
	if (perUnit === undefined) invalid('Time Limit Unit', unit, 'allowed are minutes, hours or days');
	const value = Number(amount);
	if (typeof amount === 'boolean' || amount === '' || !Number.isFinite(value) || value <= 0) {
		invalid('Time Limit', amount, 'a number above 0 is required');
	}
	const ms = value * perUnit;
	if (ms > MAX_WAIT_MS) invalid('Time Limit', amount, 'at most 366 days');
	return new Date(nowMs + ms);
}

/** `resumeUrl` with the awaited reference as a query parameter (Paycashless signs the whole URL). */
export function waitCallbackUrl(resumeUrl: string, reference: string): string {
	const url = new URL(resumeUrl);
	url.searchParams.set(WAIT_REFERENCE_PARAM, reference);
	return url.toString();
}

/**
 * This execution's resume URL, as n8n computes it: in the node's run with `evaluateExpression`
 * (as n8n's Wait node does), in its webhook through a parameter fallback (the webhook context has
 * no `evaluateExpression` in its type; fallbacks are resolved as expressions).
 */
export function resumeUrlOf(context: IExecuteFunctions | IWebhookFunctions, itemIndex = 0): string {
	const url =
		'getInputData' in context && typeof (context as IExecuteFunctions).evaluateExpression === 'function'
			? (context as IExecuteFunctions).evaluateExpression('{{ $execution.resumeUrl }}', itemIndex)
			: (context as IWebhookFunctions).getNodeParameter('__paycashlessResumeUrl', RESUME_URL_EXPRESSION);
	if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
		invalid('Resume URL', url, 'n8n gave this execution no resume URL; Create and Wait needs a workflow run by n8n');
	}
	return url;
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

/** The item the node emits, meta under WAIT_KEY (object fields stay at the top level). */
export function waitItem(object: IDataObject, meta: IDataObject): IDataObject {
	return { ...withMainUnits(object), [WAIT_KEY]: meta };
}

/**
 * Before waiting: the items n8n forwards if the time limit passes (it does not run the node again
 * then, see the top of this file). Replaces the node's execution-stack input, never the previous
 * node's output (a new array in the stack entry).
 */
export function prepareTimeLimitItems(this: IExecuteFunctions, item: IDataObject, itemIndex: number): void {
	const executeData = this.getExecuteData();
	const timedOut: INodeExecutionData = { json: item, pairedItem: { item: itemIndex } };
	executeData.data = { ...executeData.data, main: [[timedOut]] };
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
		const reason = kind.acknowledge[event] ?? KEEPS_WAITING;
		this.logger.info(`Paycashless ${event} received while waiting (${reason}): the execution keeps waiting`, { node: node.name });
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

/** A wait pauses the whole execution, so it takes one item per run. */
export function requireOneItem(this: IExecuteFunctions, i: number, object: string): void {
	const count = this.getInputData().length;
	if (count !== 1) {
		throw new NodeOperationError(
			this.getNode(),
			`This operation waits for one ${object} per run and got ${count} items: put a Loop Over Items node (batch size 1) before it`,
			{ itemIndex: i },
		);
	}
}

/** The end of the wait from the node's Time Limit fields (checked). */
export function waitTillOf(this: IExecuteFunctions, i: number): Date {
	return waitTillFrom(this.getNodeParameter('waitTimeLimit', i), this.getNodeParameter('waitTimeLimitUnit', i), Date.now());
}

/**
 * Once the object exists: when it is already settled it is returned at once; otherwise the
 * time-limit item is put in place and the execution waits.
 */
export async function waitUnlessSettled(
	this: IExecuteFunctions,
	i: number,
	kind: WaitKind,
	object: IDataObject,
	meta: IDataObject,
	waitTill: Date,
): Promise<IDataObject> {
	const status = String(object.status ?? '').toLowerCase();
	if (kind.settled.includes(status)) return waitItem(object, { ...meta, outcome: `already_${status}` });
	prepareTimeLimitItems.call(this, waitItem(object, { ...meta, outcome: 'timeLimitReached', waitedUntil: waitTill.toISOString() }), i);
	await this.putExecutionToWait(waitTill);
	return waitItem(object, { ...meta, outcome: 'waiting', waitTill: waitTill.toISOString() });
}
