/**
 * The workflow nodes the benchmarks compare: this package's node, and what a user builds
 * instead with n8n's own nodes (HTTP Request with the `paycashlessApi` credential, Split Out,
 * the plain Webhook node).
 */
import { randomUUID } from 'crypto';

import { paycashlessNode, type CredentialRef, type WorkflowNode } from '../test/support/e2e/harness.cjs';
import { CREDENTIAL_TYPE, NODE_TYPE_TRIGGER } from '../scripts/n8n/lab.cjs';

/** The page size of every list request (the API's maximum). */
export const PAGE_SIZE = 100;

export function paycashless(name: string, credential: CredentialRef, parameters: Record<string, unknown>): WorkflowNode {
	return { name, ...paycashlessNode(credential, parameters) };
}

/** n8n's HTTP Request node with the package's credential doing the signing. */
export function httpRequest(name: string, credential: CredentialRef, parameters: Record<string, unknown>, options: Record<string, unknown> = {}): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: { authentication: 'predefinedCredentialType', nodeCredentialType: CREDENTIAL_TYPE, method: 'GET', ...parameters, options },
		credentials: { [CREDENTIAL_TYPE]: credential },
	};
}

/**
 * HTTP Request set up for the cursor the way the n8n docs describe: "Update a Parameter in Each
 * Request" with `cursor` from the last answer, complete when `hasMore` is false, 100 per page.
 */
export function httpRequestCursorList(name: string, credential: CredentialRef, url: string): WorkflowNode {
	return httpRequest(
		name,
		credential,
		{ url, sendQuery: true, queryParameters: { parameters: [{ name: 'limit', value: String(PAGE_SIZE) }] } },
		{
			pagination: {
				pagination: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: { parameters: [{ type: 'qs', name: 'cursor', value: '={{ $response.body.cursor }}' }] },
					paginationCompleteWhen: 'other',
					completeExpression: '={{ !$response.body.hasMore }}',
					limitPagesFetched: false,
					requestInterval: 0,
				},
			},
		},
	);
}

/** n8n's Split Out node: one item per element of `field` (dot notation), named `destination` when given. */
export function splitOut(name: string, field: string, destination?: string): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: field, include: 'noOtherFields', options: destination ? { destinationFieldName: destination } : {} },
	};
}

/**
 * The Paycashless Trigger on its production URL `/webhook/<webhookId>/webhook`: version 2, as n8n adds
 * it to a workflow now, or version 1, as existing workflows have it (PaycashlessTrigger.node.ts).
 */
export function paycashlessTrigger(name: string, credential: CredentialRef, typeVersion: 1 | 2 = 2): WorkflowNode & { webhookId: string } {
	return { name, type: NODE_TYPE_TRIGGER, typeVersion, webhookId: randomUUID(), parameters: { events: ['*'] }, credentials: { [CREDENTIAL_TYPE]: credential } };
}

/**
 * n8n's Webhook node answering at once: no verification of anything, or, given a Header Auth
 * credential, n8n's own check of one header (a credential loaded per request, as the trigger does).
 */
export function plainWebhook(name: string, webhookPath: string, headerAuth?: CredentialRef): WorkflowNode {
	const node: WorkflowNode = {
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
	};
	if (!headerAuth) return node;
	return { ...node, parameters: { ...node.parameters, authentication: 'headerAuth' }, credentials: { httpHeaderAuth: headerAuth } };
}

/**
 * The fast path of docs/wait-for-payment.md: n8n's Webhook node with Raw Body → the package's
 * Callback → Verify (flag mode; it reads the item's headers and raw body itself) → one Respond to
 * Webhook whose status is the only expression: 200, or the 401 Verify gives a forgery.
 */
export function webhookVerifyNodes(webhookPath: string, callbackUrl: string, credential: CredentialRef): { nodes: WorkflowNode[]; connections: Record<string, unknown> } {
	const nodes: WorkflowNode[] = [
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'responseNode', options: { rawBody: true } },
		},
		paycashless('Verify Callback', credential, { resource: 'callback', operation: 'verify', expectedCallbackUrl: callbackUrl, onInvalid: 'flag' }),
		{
			name: 'Respond',
			type: 'n8n-nodes-base.respondToWebhook',
			typeVersion: 1.1,
			parameters: { respondWith: 'noData', options: { responseCode: '={{ $json.verified ? 200 : $json.httpStatus }}' } },
		},
	];
	const connections = {
		Webhook: { main: [[{ node: 'Verify Callback', type: 'main', index: 0 }]] },
		'Verify Callback': { main: [[{ node: 'Respond', type: 'main', index: 0 }]] },
	};
	return { nodes, connections };
}
