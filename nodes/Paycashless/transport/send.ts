/**
 * One attempt at one request, and what it means, written once:
 * - `sendAttempt` sends it through `httpRequestWithAuthentication` (the credential signs it) with
 *   the settings' timeout and records what came back, an answer or none; it never throws for an
 *   HTTP status;
 * - reading the answer: the body (JSON or text), the payout failure form, the error details in any
 *   of the documented shapes, the codes and messages of a failure without an answer;
 * - `classify`: what a failed attempt means, which the retry loop (retry.ts) acts on:
 *   - `rateLimited` (429): Paycashless did nothing; wait `Retry-After` (or the backoff) and resend.
 *   - `notSent` (connection refused, DNS): the request never left; resend after the backoff.
 *   - `uncertain` (5xx, 408, dropped connection, timeout): Paycashless may have acted. Safe to
 *     resend only when the request is repeatable (a read's, as its operation declares: types.ts's
 *     `isRepeatable`); a create is reconciled by reference first (create.ts); any other write
 *     ends with "outcome unknown".
 *   - `final`: any other answer (4xx, a failure body) or error; never retried.
 * Nothing here makes an error (errors.ts).
 */
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../../../lib/api';
import { ceilingRefusalOf } from '../../../lib/payoutCeiling';
import { isObject } from '../helpers/body';
import { isRepeatable, type Attempt, type Call, type FailureClass, type PaycashlessRequest, type WritePolicy } from './types';

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

// ---- Reading an answer.

export interface PaycashlessErrorDetails {
	/** HTTP status of the answer. */
	httpCode: number;
	/** `api_error`, `authentication_error`, `idempotency_error`, `invalid_request_error`, ... */
	type?: string;
	code?: string;
	/** The API's own message, or a description of the answer when it had none. */
	message: string;
	/** Names of the fields the API complained about. */
	params?: string[];
	/** The answer was not a JSON object (empty, HTML from a proxy, ...). */
	unexpected?: boolean;
}

export function text(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number') return String(value);
	return undefined;
}

function snippet(body: string): string {
	const flat = body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
	return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}

/** The body of an answer: parsed JSON, the text when it is not JSON, undefined when empty. */
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

/**
 * A 2xx answer that still reports a failure: the payout form `{ status: 'failed', message }`
 * without an `id` (a payout object whose status is `failed` carries its id and is a result).
 */
function isFailureBody(body: unknown): boolean {
	return isObject(body) && body.status === 'failed' && typeof body.message === 'string' && !('id' in body);
}


/** Reads type, code, message and params from any of the documented error shapes. */
export function extractErrorDetails(httpCode: number, body: unknown): PaycashlessErrorDetails {
	if (typeof body === 'string' || Buffer.isBuffer(body)) {
		const raw = Buffer.isBuffer(body) ? body.toString('utf8') : body;
		if (raw.trim() !== '') {
			try {
				const parsed: unknown = JSON.parse(raw);
				if (isObject(parsed)) return extractErrorDetails(httpCode, parsed);
			} catch {
				// Not JSON: described below.
			}
			return { httpCode, message: `Paycashless answered with a non-JSON body: ${snippet(raw)}`, unexpected: true };
		}
	}
	if (!isObject(body)) return { httpCode, message: 'Paycashless answered with an empty body', unexpected: true };

	const nested = isObject(body.error) ? body.error : undefined;
	const source = nested ?? body;
	const message =
		text(source.message) ??
		text(body.message) ??
		(typeof body.error === 'string' ? body.error : undefined) ??
		text(source.detail) ??
		'Paycashless gave no error message';
	const rawParams = source.params ?? body.params;
	const params = Array.isArray(rawParams)
		? rawParams.map((param) => (typeof param === 'string' ? param : JSON.stringify(param)))
		: undefined;
	return {
		httpCode,
		type: text(source.type),
		code: text(source.code),
		message,
		params: params && params.length > 0 ? params : undefined,
	};
}


/** The string values of `key` on an error and its causes, outermost first (n8n wraps the HTTP client's error in a NodeApiError). */
function alongCauses(error: unknown, key: 'code' | 'message'): string[] {
	const found: string[] = [];
	const seen = new Set<unknown>();
	let level: unknown = error;
	while (typeof level === 'object' && level !== null && !seen.has(level)) {
		seen.add(level);
		const value = (level as Record<string, unknown>)[key];
		if (typeof value === 'string') found.push(value);
		level = (level as { cause?: unknown }).cause;
	}
	return found;
}

/** Codes found on an error and its causes, outermost first. */
export function errorCodes(error: unknown): string[] {
	return alongCauses(error, 'code');
}

/** Messages of an error and its causes, outermost first. */
export function errorMessages(error: unknown): string[] {
	return alongCauses(error, 'message');
}

// ---- What a failure means.

/** A 2xx answer with a JSON object that is not the payout failure form. */
export function succeeded(attempt: Attempt): attempt is Extract<Attempt, { answered: true }> & { body: IDataObject } {
	return (
		attempt.answered &&
		attempt.status >= 200 &&
		attempt.status < 300 &&
		!attempt.failureBody &&
		typeof attempt.body === 'object' &&
		attempt.body !== null
	);
}

/** Codes of failures before the request left this machine. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ENETUNREACH',
	'ENETDOWN',
	'EHOSTUNREACH',
	'UND_ERR_CONNECT_TIMEOUT',
]);

/** Codes of failures after the request may have reached Paycashless. */
const UNCERTAIN_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'UND_ERR_SOCKET',
	'UND_ERR_CLOSED',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
	'ERR_STREAM_PREMATURE_CLOSE',
]);

const UNCERTAIN_MESSAGE = /socket hang up|timeout|timed out|other side closed|terminated|connection (was )?(reset|closed)/i;

/** What a thrown error (no answer) means. */
function classifyNoAnswer(error: unknown, request: PaycashlessRequest, policy: WritePolicy | undefined): FailureClass {
	const codes = errorCodes(error);
	// Refused by the credential before it was signed: nothing left this machine, and nothing will.
	if (codes.includes('ERR_CANCELED') || ceilingRefusalOf(error)) return 'final';
	if (codes.some((code) => UNCERTAIN_CODES.has(code))) return 'uncertain';
	if (codes.some((code) => NOT_SENT_CODES.has(code))) return 'notSent';
	if (errorMessages(error).some((message) => UNCERTAIN_MESSAGE.test(message))) return 'uncertain';
	// Unknown failure: a read is not retried; a write may have gone out, so it counts as uncertain.
	return isRepeatable(request, policy) ? 'final' : 'uncertain';
}

/** What a failed attempt means (`undefined`: it succeeded), for a request under `policy` (none: a read). */
export function classify(attempt: Attempt, request: PaycashlessRequest, policy: WritePolicy | undefined): FailureClass | undefined {
	if (!attempt.answered) return classifyNoAnswer(attempt.error, request, policy);
	if (succeeded(attempt)) return undefined;
	const { status } = attempt;
	if (status === 429) return 'rateLimited';
	if (status >= 500 || status === 408) return 'uncertain';
	// A 2xx that is not the JSON Paycashless sends (e.g. a proxy page): a write may have happened.
	if (status >= 200 && status < 300 && !attempt.failureBody && !isRepeatable(request, policy)) return 'uncertain';
	return 'final';
}
