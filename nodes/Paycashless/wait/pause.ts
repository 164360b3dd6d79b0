/**
 * Pausing for Paycashless inside one execution (the Create and Wait operations, Payment → Wait
 * for Payment): the object's callbackUrl is this execution's own resume URL, the execution waits,
 * and the node's `webhook()` resumes it (webhook.ts) only on a callback that the trigger's rules
 * accept (../callbacks/evaluate.ts, ../../../lib/signing.ts). Which callbacks end a wait is
 * declared by each operation (its `wait`, a WaitKind, fields.ts).
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
import type { IDataObject, IExecuteFunctions, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { invalid } from '../helpers/validation';
import { withMainUnits } from '../helpers/mainUnits';
import type { WaitKind } from './fields';

/** Query parameter added to the resume URL: the reference of the awaited object (signed with the URL). */
export const WAIT_REFERENCE_PARAM = 'paycashlessReference';

/** The key under which every output item of a Create and Wait operation says what happened. */
export const WAIT_KEY = 'paycashlessWait';

const RESUME_URL_EXPRESSION = '={{ $execution.resumeUrl }}';

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

/** The item the node emits, meta under WAIT_KEY (object fields stay at the top level). */
export function waitItem(object: IDataObject, meta: IDataObject): IDataObject {
	return { ...withMainUnits(object), [WAIT_KEY]: meta };
}

/**
 * Before waiting: the items n8n forwards if the time limit passes (it does not run the node again
 * then, see the top of this file). Replaces the node's execution-stack input, never the previous
 * node's output (a new array in the stack entry).
 */
function prepareTimeLimitItems(this: IExecuteFunctions, item: IDataObject, itemIndex: number): void {
	const executeData = this.getExecuteData();
	const timedOut: INodeExecutionData = { json: item, pairedItem: { item: itemIndex } };
	executeData.data = { ...executeData.data, main: [[timedOut]] };
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
