/**
 * The n8n side of receiving a callback, shared by the Paycashless Trigger and the Create and Wait
 * resume webhook: what a webhook call brings to `evaluateCallback` (evaluate.ts stays free of n8n),
 * the credential's secret, and a JSON answer that starts nothing.
 */
import type { IDataObject, IExecuteFunctions, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../../../lib/api';
import type { HeaderValues } from './headers';
import { queryStringOf } from './urls';

/** The API secret callbacks are signed with, from the node's Paycashless credential ('' when unset). */
export async function callbackSecret(context: IWebhookFunctions | IExecuteFunctions): Promise<string> {
	const credentials = await context.getCredentials<{ apiSecret?: string }>(CREDENTIAL_NAME);
	return String(credentials.apiSecret ?? '');
}

export interface ReceivedCallback {
	secret: string;
	rawBody: unknown;
	parsedBody: unknown;
	headers: HeaderValues;
	/** The query string of the URL the call was made to (part of what Paycashless signs). */
	receivedQuery: string;
}

/** What n8n's server adds to a request (its body-parser middleware): the bytes, and a way to read them. */
interface N8nRequest {
	rawBody?: unknown;
	readRawBody?: () => Promise<void>;
	headers?: Record<string, string | string[] | undefined>;
}

/**
 * The body as received. n8n reads it before a webhook node of version 1 runs; for version 2 and later
 * it leaves a body of a content type it does not parse (none, `application/octet-stream`…) unread,
 * and this reads it the way n8n would have (its own reader, its size limit), so every version checks
 * the same bytes. Never for `multipart/…`, whose stream n8n's form parser has consumed (n8n does not
 * read those bytes for version 1 either). A failed read throws: the trigger refuses the call.
 */
async function rawBodyOf(request: N8nRequest): Promise<unknown> {
	const contentType = String(request.headers?.['content-type'] ?? '').trim().toLowerCase();
	if (request.rawBody === undefined && typeof request.readRawBody === 'function' && !contentType.startsWith('multipart/')) {
		await request.readRawBody();
	}
	return request.rawBody;
}

/** One webhook call, as `evaluateCallback` takes it (plus the received query string). */
export async function receivedCallback(context: IWebhookFunctions): Promise<ReceivedCallback> {
	const request = context.getRequestObject();
	return {
		secret: await callbackSecret(context),
		rawBody: await rawBodyOf(request as N8nRequest),
		parsedBody: context.getBodyData(),
		headers: context.getHeaderData() as HeaderValues,
		receivedQuery: queryStringOf(request.originalUrl ?? request.url),
	};
}

/** Writes a JSON answer and tells n8n not to answer or start anything. */
export function answerJson(context: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	const response = context.getResponseObject();
	if (!response.headersSent) response.status(status).json(body).end();
	return { noWebhookResponse: true };
}
