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

/** One webhook call, as `evaluateCallback` takes it (plus the received query string). */
export async function receivedCallback(context: IWebhookFunctions): Promise<ReceivedCallback> {
	const request = context.getRequestObject();
	return {
		secret: await callbackSecret(context),
		rawBody: (request as { rawBody?: unknown }).rawBody,
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
