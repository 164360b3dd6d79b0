/**
 * What the trigger does with one incoming callback, without n8n: parse the body, verify the
 * signature (rules in ../signing.ts), choose the event, build the output item. Pure apart from
 * hashing; the node passes in the clock, the headers and the candidate URLs.
 */
import { createHash } from 'crypto';

import {
	canonicalJson,
	DEFAULT_TIMESTAMP_TOLERANCE_SECONDS,
	SIGNATURE_HEADER,
	TIMESTAMP_HEADER,
	verifyCallback,
} from '../../../lib/signing';

export type CallbackRejection =
	| 'invalid_json'
	| 'invalid_payload'
	| 'missing_signature'
	| 'missing_timestamp'
	| 'stale_timestamp'
	| 'invalid_signature'
	| 'missing_api_secret';

/** Headers never copied into an output item: the signature and anything that may carry a credential. */
const HIDDEN_HEADERS = new Set([
	SIGNATURE_HEADER.toLowerCase(),
	'authorization',
	'proxy-authorization',
	'cookie',
	'set-cookie',
]);

export type HeaderValues = Record<string, string | string[] | undefined>;

export interface ParsedCallback {
	event: string;
	data: unknown;
	/** The body text as received (or re-serialised when n8n gave only a parsed body). */
	rawText: string;
}

type ParseResult = { ok: true; callback: ParsedCallback } | { ok: false; error: 'invalid_json' | 'invalid_payload' };

function rawBodyText(rawBody: unknown): string | undefined {
	if (Buffer.isBuffer(rawBody)) return rawBody.toString('utf8');
	if (typeof rawBody === 'string') return rawBody;
	return undefined;
}

/**
 * Parses the callback from the raw body when there is one (JSON.parse keeps the key order of the
 * bytes received, which the signature may depend on), otherwise from n8n's parsed body.
 */
export function parseCallbackBody(rawBody: unknown, parsedBody: unknown): ParseResult {
	let text = rawBodyText(rawBody);
	let body: unknown;
	if (text !== undefined && text.trim() !== '') {
		try {
			body = JSON.parse(text.replace(/^\uFEFF/, ''));
		} catch {
			return { ok: false, error: 'invalid_json' };
		}
	} else if (typeof parsedBody === 'string') {
		text = parsedBody;
		try {
			body = JSON.parse(parsedBody);
		} catch {
			return { ok: false, error: 'invalid_json' };
		}
	} else if (typeof parsedBody === 'object' && parsedBody !== null && Object.keys(parsedBody).length > 0) {
		body = parsedBody;
		text = JSON.stringify(parsedBody);
	} else {
		return { ok: false, error: 'invalid_json' };
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'invalid_payload' };
	const { event, data } = body as { event?: unknown; data?: unknown };
	if (typeof event !== 'string' || event.trim() === '' || data === undefined || data === null) {
		return { ok: false, error: 'invalid_payload' };
	}
	return { ok: true, callback: { event, data, rawText: text ?? '' } };
}

/**
 * An id that is the same for every delivery attempt of one event (Paycashless retries up to three
 * times, possibly with a fresh timestamp) and differs between events: SHA-256 of the event name
 * and the canonical (key-sorted) data, first 32 hex characters.
 */
export function deliveryIdFor(event: string, data: unknown): string {
	return createHash('sha256')
		.update(`${event.trim().toUpperCase()}\n${canonicalJson(data)}`)
		.digest('hex')
		.slice(0, 32);
}

/** The first value of a header (n8n gives lower-cased names; a repeated header is an array). */
export function headerValue(headers: HeaderValues, name: string): string | undefined {
	const value = headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/** The request headers minus the signature and anything credential-like. */
export function visibleHeaders(headers: HeaderValues): Record<string, string | string[]> {
	const result: Record<string, string | string[]> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined && !HIDDEN_HEADERS.has(name.toLowerCase())) result[name] = value;
	}
	return result;
}

export interface CallbackInput {
	/** The API secret of the credential. */
	secret: string;
	rawBody: unknown;
	parsedBody: unknown;
	headers: HeaderValues;
	candidateUrls: string[];
	nowMs: number;
	/** Seconds either side of now; 0 turns the window off. */
	toleranceSeconds?: number;
	skipVerification?: boolean;
	matchesEvent: (event: string) => boolean;
}

export type CallbackOutcome =
	| {
			action: 'reject';
			status: 400 | 401 | 500;
			error: CallbackRejection;
			message: string;
			/** The event name, when the body could be read. */
			event?: string;
	  }
	| { action: 'ignore'; event: string; verified: boolean }
	| {
			action: 'accept';
			callback: ParsedCallback;
			deliveryId: string;
			verified: boolean;
			/** Only when verification was skipped: why the callback would have been refused, if it would. */
			wouldReject?: CallbackRejection;
	  };

function rejectionMessage(error: CallbackRejection, toleranceSeconds: number): string {
	switch (error) {
		case 'invalid_json':
			return 'The body is not valid JSON.';
		case 'invalid_payload':
			return 'The body must be a JSON object with an "event" name and a "data" member.';
		case 'missing_signature':
			return `The ${SIGNATURE_HEADER} header is missing.`;
		case 'missing_timestamp':
			return `The ${TIMESTAMP_HEADER} header is missing.`;
		case 'stale_timestamp':
			return `The ${TIMESTAMP_HEADER} header is not a 10-digit Unix time within ${toleranceSeconds} seconds of this server's clock.`;
		case 'invalid_signature':
			return `The ${SIGNATURE_HEADER} header does not match this callback.`;
		case 'missing_api_secret':
			return 'The receiver is not configured to verify callbacks.';
	}
}

function statusOf(error: CallbackRejection): 400 | 401 | 500 {
	if (error === 'invalid_json' || error === 'invalid_payload') return 400;
	if (error === 'missing_api_secret') return 500;
	return 401;
}

/** Decides what happens to one callback: reject (with status), ignore (2xx, no run) or accept. */
export function evaluateCallback(input: CallbackInput): CallbackOutcome {
	const tolerance = Math.max(0, input.toleranceSeconds ?? DEFAULT_TIMESTAMP_TOLERANCE_SECONDS);
	const reject = (error: CallbackRejection, event?: string): CallbackOutcome => ({
		action: 'reject',
		status: statusOf(error),
		error,
		message: rejectionMessage(error, tolerance),
		...(event === undefined ? {} : { event }),
	});

	const parsed = parseCallbackBody(input.rawBody, input.parsedBody);
	if (!parsed.ok) return reject(parsed.error);
	const { callback } = parsed;

	let failure: CallbackRejection | undefined;
	if (!input.secret) {
		failure = 'missing_api_secret';
	} else {
		const result = verifyCallback({
			secret: input.secret,
			candidateUrls: input.candidateUrls,
			data: callback.data,
			signature: headerValue(input.headers, SIGNATURE_HEADER),
			timestamp: headerValue(input.headers, TIMESTAMP_HEADER),
			nowMs: input.nowMs,
			toleranceSeconds: tolerance,
		});
		if (!result.valid) failure = result.reason === 'bad_signature' ? 'invalid_signature' : result.reason;
	}

	if (failure && !input.skipVerification) return reject(failure, callback.event);
	// With verification skipped nothing is vouched for, even when the signature happens to match.
	const verified = !failure && !input.skipVerification;
	if (!input.matchesEvent(callback.event)) return { action: 'ignore', event: callback.event, verified };
	return {
		action: 'accept',
		callback,
		deliveryId: deliveryIdFor(callback.event, callback.data),
		verified,
		...(failure ? { wouldReject: failure } : {}),
	};
}
