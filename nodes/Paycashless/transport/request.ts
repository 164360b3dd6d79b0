/**
 * The one way requests reach Paycashless. Signing happens in the credential's `authenticate`
 * (through `httpRequestWithAuthentication`); this function sets the base URL, drops empty
 * query values, and turns every non-2xx answer (and the 2xx payout failure form) into a
 * NodeApiError. Retries, timeouts and reconciliation by reference belong here too, later.
 */
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { PAYCASHLESS_DEFAULT_BASE_URL } from '../../../credentials/PaycashlessApi.credentials';
import { apiError, isFailureBody, networkError } from './errors';
import type { PaycashlessContext, PaycashlessRequest } from './types';

export const CREDENTIAL_NAME = 'paycashlessApi';

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

/** The credential's base URL without trailing slashes (default https://api.paycashless.com). */
export async function paycashlessBaseUrl(this: PaycashlessContext): Promise<string> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const configured = typeof credentials?.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	return (configured || PAYCASHLESS_DEFAULT_BASE_URL).replace(/\/+$/, '');
}

function withoutUndefined(qs: IDataObject | undefined): IDataObject | undefined {
	if (!qs) return undefined;
	return Object.fromEntries(Object.entries(qs).filter(([, value]) => value !== undefined));
}

function parseBody(body: unknown): unknown {
	if (Buffer.isBuffer(body)) body = body.toString('utf8');
	if (typeof body !== 'string') return body;
	if (body.trim() === '') return undefined;
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

/** Sends one request and returns the parsed JSON answer. */
export async function paycashlessRequest(
	this: PaycashlessContext,
	request: PaycashlessRequest,
	itemIndex?: number,
): Promise<IDataObject> {
	const baseURL = await paycashlessBaseUrl.call(this);
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL,
		url: request.path,
		qs: withoutUndefined(request.qs),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	if (request.body !== undefined) options.body = request.body;

	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_NAME,
			options,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		throw networkError(this.getNode(), error, request, baseURL, itemIndex);
	}

	const body = parseBody(response.body);
	const statusCode = Number(response.statusCode);
	if (!(statusCode >= 200 && statusCode < 300) || isFailureBody(body)) {
		throw apiError(this.getNode(), statusCode, body, request, itemIndex);
	}
	if (typeof body !== 'object' || body === null) {
		throw apiError(this.getNode(), statusCode, body, request, itemIndex);
	}
	return body as IDataObject;
}
