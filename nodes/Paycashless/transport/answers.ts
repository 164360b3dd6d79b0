/**
 * Reading what Paycashless answered, written once: the body (JSON or text), whether it is a
 * success, the payout failure form, the error details in any of the documented shapes, and the
 * codes and messages of a failure without an answer. Nothing here makes an error (errors.ts) or
 * decides about a retry (retry.ts).
 */
import { isObject } from '../helpers/body';

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
export function parseBody(body: unknown): unknown {
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
export function isFailureBody(body: unknown): boolean {
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
