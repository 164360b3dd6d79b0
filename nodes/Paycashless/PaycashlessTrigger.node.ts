/**
 * The Paycashless Trigger: starts a workflow on a signed Paycashless callback. Its webhook runs the
 * one fail-closed callback check (callbacks/evaluate.ts), answers or starts, and shapes the item in
 * trigger/output.ts. Longer than 250 lines because n8n's description of the node's fields (about
 * 150 lines) stays in the node class, where n8n's lint and the editor read it.
 */
import type {
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { DEFAULT_TIMESTAMP_TOLERANCE_SECONDS, TIMESTAMP_HEADER } from '../../lib/signing';
import { triggerRelatedNodes, triggerSearchHint } from './actions/fields/builderHints';
import { evaluateCallback } from './callbacks/evaluate';
import { headerValue } from './callbacks/headers';
import { candidateCallbackUrls } from './callbacks/urls';
import { confirmWithPaycashless } from './trigger/confirm';
import { eventMatcher, KNOWN_EVENT_OPTIONS, ALL_EVENTS } from './trigger/events';
import { callbackItem, withConfirmation, withRequestDetails } from './trigger/output';
import { answerJson, receivedCallback } from './callbacks/receive';
import { nothingToRegister } from './helpers/webhookMethods';
import { PACKAGE_DOCS_URL } from '../../lib/api';

interface TriggerOptions {
	callbackUrlOverride?: string;
	confirmWithPaycashless?: boolean;
	inconsistentEvents?: 'refuse' | 'flag';
	includeHeaders?: boolean;
	includeRawBody?: boolean;
	skipSignatureVerification?: boolean;
	timestampToleranceSeconds?: number;
}

/** Where this node's URL lives in the versions of n8n that tell the endpoint actually served. */
type ServedUrlGetter = (name: 'default') => string | undefined;

export class PaycashlessTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Paycashless Trigger',
		name: 'paycashlessTrigger',
		icon: { light: 'file:paycashless.svg', dark: 'file:paycashless.dark.svg' },
		group: ['trigger'],
		// Version 2 is version 1 unchanged, for n8n's sake: for a webhook start node of version 1 n8n
		// evaluates `$parameter.options.binaryData` (its own Webhook node's old option) through its
		// expression sandbox on every call, so each callback needs a sandbox even where n8n creates them
		// only on use (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true); for version 2 it does not, and leaves a
		// body of a type it does not parse unread (receive.ts reads it). docs/performance.md, "Callbacks".
		version: [1, 2],
		defaultVersion: 2,
		// The panel's Docs link (n8n's editor takes it before the codex file's primaryDocumentation).
		documentationUrl: `${PACKAGE_DOCS_URL}/docs/triggers.md`,
		subtitle: '={{ ($parameter["events"] || []).includes("*") ? "All Events" : ($parameter["events"] || []).join(", ") }}',
		// n8n's node panel shows one "Paycashless" entry for this trigger and the Paycashless node, with
		// this text (n8n takes the trigger's description for the merged entry): it describes both.
		description: 'Collect payments, send payouts and issue invoices with Paycashless (NGN and USD), and start workflows from its signed callbacks',
		defaults: {
			name: 'Paycashless Trigger',
		},
		// What n8n's MCP server and AI Workflow Builder tell a model (./actions/fields/builderHints.ts).
		builderHint: { searchHint: triggerSearchHint, relatedNodes: triggerRelatedNodes },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		triggerPanel: {
			header: 'Waiting for a Paycashless callback on the Test URL',
			executionsHelp: {
				inactive:
					'<b>While building your workflow</b>, click "Execute step", then make Paycashless call this node\'s <b>Test URL</b>: put it in the Callback URL of a Paycashless operation and create the object (for example an invoice, then pay it). The callback shows up here.<br /><br /><b>Once it works</b>, publish the workflow and use the <b>Production URL</b> as Callback URL: every verified callback then starts the workflow; see them under Executions.',
				active:
					'<b>This workflow is published</b>: every verified callback to the <b>Production URL</b> starts it; see them under Executions.<br /><br /><b>To test changes</b>, click "Execute step" and send a callback to the <b>Test URL</b>: it shows up here without starting the published workflow.',
			},
			activationHint:
				'When the workflow works, publish it (Publish, top right) and put the Production URL into your Callback URLs: callbacks then start it automatically.',
		},
		credentials: [
			{
				name: 'paycashlessApi',
				required: true,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'Paycashless has no webhook registration: copy this node\'s URL (Webhook URLs at the top of this panel) into the Callback URL of the operations that take one (Invoice → Create, Payment → Create Transfer Payment, Payment → Create Checkout Link, Payout → Create, Dedicated Account → Create; under Additional Fields). While you build, click "Execute step" and use the Test URL tab; for real use, publish the workflow and use the Production URL tab. Callbacks are verified with the API Secret of the credential, so pick the credential (test or live) the objects were created with.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: KNOWN_EVENT_OPTIONS,
				default: [ALL_EVENTS],
				description:
					'The events that start the workflow. Paycashless has not published its full list of events: choose All Events or add names below. Other verified callbacks are acknowledged and ignored.',
			},
			{
				displayName: 'Other Event Names',
				name: 'otherEventNames',
				type: 'string',
				default: '',
				placeholder: 'e.g. PAYOUT_SUCCEEDED, PAYMENT_SUCCEEDED',
				description:
					'Comma-separated event names that also start the workflow, in addition to the Events above. Letter case does not matter.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Callback URL Override',
						name: 'callbackUrlOverride',
						type: 'string',
						default: '',
						placeholder: 'e.g. https://automation.example.com/webhook/…/webhook',
						description:
							'The exact URL given to Paycashless as callbackUrl, when it differs from the URLs n8n shows (n8n behind a reverse proxy, a custom webhook path). Paycashless signs this URL, so it must match letter for letter (letter case aside).',
					},
					{
						displayName: 'Confirm With Paycashless',
						name: 'confirmWithPaycashless',
						type: 'boolean',
						default: false,
						description:
							'Whether to fetch the invoice, payment, payout or dedicated account from Paycashless before the workflow starts, and output it as currentObject. If Paycashless has no such object, the callback is refused; if Paycashless cannot be reached, the callback is refused with 503 so that Paycashless sends it again later. A callback whose data names no object the node can look up still starts the workflow, with confirmed false and currentObject empty.',
					},
					{
						displayName: 'Event Name Check',
						name: 'inconsistentEvents',
						type: 'options',
						options: [
							{
								name: 'Refuse Callbacks Whose Event Contradicts Their Data',
								value: 'refuse',
								description: 'E.g. PAYOUT_SUCCEEDED carrying an invoice, or PAYMENT_SUCCEEDED carrying a failed payment: answered 422, nothing starts.',
							},
							{
								name: 'Start the Workflow and Flag Them',
								value: 'flag',
								description: 'The item has eventCheck "inconsistent" and eventCheckProblem saying why',
							},
						],
						default: 'refuse',
						description:
							'The signature covers the data, not the event name. What to do when the event name contradicts what the data says it is (its ID, its status).',
					},
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers to the output (without the signature, authorization and cookie headers)',
					},
					{
						displayName: 'Include Raw Body',
						name: 'includeRawBody',
						type: 'boolean',
						default: false,
						description: 'Whether to add the body text exactly as received to the output',
					},
					{
						displayName: 'Skip Signature Verification (Unsafe)',
						name: 'skipSignatureVerification',
						type: 'boolean',
						default: false,
						description:
							'Whether to accept callbacks without checking their signature. For debugging only, never for real money: anyone who knows the URL could then start the workflow with made-up data. Items then carry "verified": false.',
					},
					{
						displayName: 'Timestamp Tolerance (Seconds)',
						name: 'timestampToleranceSeconds',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: DEFAULT_TIMESTAMP_TOLERANCE_SECONDS,
						description: `How far the ${TIMESTAMP_HEADER} of a callback may be from this server's clock, either way. Older or newer callbacks are refused. 0 turns the check off.`,
					},
				],
			},
		],
	};

	webhookMethods = nothingToRegister;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// Hostile input must never make the trigger throw (n8n would answer 500 and record an
		// error execution, which can start an error workflow): anything unexpected is refused.
		try {
			return await PaycashlessTrigger.receiveCallback.call(this);
		} catch (error) {
			this.logger.warn(`Paycashless Trigger refused a callback it could not read: ${error instanceof Error ? error.message : String(error)}`, {
				node: this.getNode().name,
			});
			return answerJson(this, 400, { error: 'unprocessable_callback', message: 'This request could not be processed; nothing was started.' });
		}
	}

	/** One callback: verified, checked, then answered or started (webhook() catches anything unexpected). */
	static async receiveCallback(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const nowMs = Date.now();
		const received = await receivedCallback(this);
		const { headers } = received;
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const events = this.getNodeParameter('events', [ALL_EVENTS]) as string[];
		const otherEventNames = this.getNodeParameter('otherEventNames', '') as string;
		const node = this.getNode();

		const servedUrlGetter = (this as unknown as { getWebhookResourceUrl?: ServedUrlGetter }).getWebhookResourceUrl;
		const candidateUrls = candidateCallbackUrls({
			productionUrl: this.getNodeWebhookUrl('default'),
			servedUrl: typeof servedUrlGetter === 'function' ? servedUrlGetter.call(this, 'default') : undefined,
			webhookId: node.webhookId,
			overrideUrl: options.callbackUrlOverride,
			receivedQuery: received.receivedQuery,
		});

		const outcome = evaluateCallback({
			...received,
			candidateUrls,
			nowMs,
			toleranceSeconds: options.timestampToleranceSeconds,
			skipVerification: options.skipSignatureVerification === true,
			matchesEvent: eventMatcher(events, otherEventNames),
			inconsistentEvents: options.inconsistentEvents === 'flag' ? 'flag' : 'refuse',
		});

		if (outcome.action === 'reject') {
			this.logger.warn(`Paycashless Trigger refused a callback (${outcome.status} ${outcome.error}): ${outcome.message}`, {
				node: node.name,
				reason: outcome.error,
				event: outcome.event,
				requestTimestamp: headerValue(headers, TIMESTAMP_HEADER),
				serverTime: Math.floor(nowMs / 1000),
				checkedCallbackUrls: candidateUrls,
			});
			return answerJson(this, outcome.status, { error: outcome.error, message: outcome.message });
		}

		if (outcome.action === 'ignore') {
			this.logger.debug(`Paycashless Trigger ignored event ${outcome.event}: not among the selected events`, {
				node: node.name,
				event: outcome.event,
			});
			return answerJson(this, 200, { received: true, ignored: true, reason: 'event_not_selected' });
		}

		if (outcome.wouldReject) {
			this.logger.warn(
				`Paycashless Trigger accepted a callback WITHOUT verification (Skip Signature Verification is on); it would have been refused: ${outcome.wouldReject}`,
				{ node: node.name, event: outcome.callback.event, checkedCallbackUrls: candidateUrls },
			);
		}

		let item = callbackItem(outcome, nowMs);
		if (outcome.eventCheck.result === 'inconsistent') {
			this.logger.warn(`Paycashless Trigger started the workflow with an inconsistent event (flagged): ${outcome.eventCheck.reason}`, {
				node: node.name,
				event: outcome.callback.event,
			});
		}

		if (options.confirmWithPaycashless === true) {
			const confirmation = await confirmWithPaycashless(this, outcome.kind, outcome.callback.data);
			if (confirmation.outcome === 'not_found') {
				this.logger.warn(`Paycashless Trigger refused a callback: Paycashless has no object at ${confirmation.path}`, { node: node.name, event: outcome.callback.event });
				return answerJson(this, 422, { error: 'not_confirmed', message: 'Paycashless has no object matching this callback.' });
			}
			if (confirmation.outcome === 'unavailable') {
				this.logger.warn(`Paycashless Trigger could not confirm a callback with Paycashless (${confirmation.message}); answered 503 so it is sent again`, {
					node: node.name,
					event: outcome.callback.event,
				});
				return answerJson(this, 503, { error: 'confirmation_unavailable', message: 'Paycashless could not be reached to confirm this callback; send it again later.' });
			}
			item = withConfirmation(item, confirmation);
		}
		item = withRequestDetails(item, outcome, headers, options);

		// No memory of accepted deliveries is kept here: n8n 2.41 does not save static data changed in
		// webhook() (WorkflowRunner.run rebuilds a Workflow from the same static data object before
		// the answer and so clears its "changed" flag; only a workflow without static data yet gets
		// it saved). Exact replays are left to Remove Duplicates on `deliveryId` (README).
		return { workflowData: [this.helpers.returnJsonArray([item])] };
	}
}
