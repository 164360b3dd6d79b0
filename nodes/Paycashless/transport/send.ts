/**
 * One attempt at one request: sent through `httpRequestWithAuthentication` (the credential
 * signs it) with the timeout of the settings, and recorded as what came back, an answer or
 * none. Nothing here retries or throws for an HTTP status; retry.ts decides, errors.ts words it.
 */
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../../../lib/api';
import { isFailureBody, parseBody } from './answers';
import type { TransportSettings } from './settings';
import type { Attempt, PaycashlessContext, PaycashlessRequest, WritePolicy } from './types';


/**
 * Builds an API path, encoding every interpolated value as one path segment:
 * apiPath`/v1/payouts/verify/${reference}`.
 */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
	return strings.reduce(
		(path, part, index) => path + part + (index < values.length ? encodeURIComponent(String(values[index])) : ''),
		'',
	);
}

/** Everything one call of the transport needs besides the request. */
export interface Call {
	context: PaycashlessContext;
	settings: TransportSettings;
	/** The credential's base URL, without trailing slashes. */
	baseURL: string;
	itemIndex?: number;
	/** How the operation's writes are treated (reconciled creates, checks); none for reads. */
	policy?: WritePolicy;
}

function withoutUndefined(qs: IDataObject | undefined): IDataObject | undefined {
	if (!qs) return undefined;
	return Object.fromEntries(Object.entries(qs).filter(([, value]) => value !== undefined));
}


/** Sends the request once. */
export async function sendAttempt(call: Call, request: PaycashlessRequest): Promise<Attempt> {
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: call.baseURL,
		url: request.path,
		qs: withoutUndefined(request.qs),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: call.settings.timeoutMs,
	};
	if (request.body !== undefined) options.body = request.body;
	let response: IN8nHttpFullResponse;
	try {
		response = (await call.context.helpers.httpRequestWithAuthentication.call(
			call.context,
			CREDENTIAL_NAME,
			options,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		return { answered: false, error };
	}
	const body = parseBody(response.body);
	return {
		answered: true,
		status: Number(response.statusCode),
		body,
		headers: (response.headers ?? {}) as IDataObject,
		failureBody: isFailureBody(body),
	};
}
