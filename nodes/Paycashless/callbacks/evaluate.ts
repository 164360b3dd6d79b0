/**
 * What the trigger does with one incoming callback, without n8n: bound and parse the body,
 * verify the signature (rules in lib/signing.ts, order of checks in signature.ts), check the event
 * name against the data, choose the event, build the output item. Pure apart from hashing; the
 * node passes in the clock, the headers and the candidate URLs. Never throws for any input.
 *
 * Order, cheapest first, so unsigned input costs little: body size, then the signature headers'
 * shape and the timestamp window (without reading the body), then a non-recursive scan of the
 * body (depth bound), then JSON.parse, then the HMACs.
 */
import { createHash } from 'crypto';

import { canonicalJson, DEFAULT_TIMESTAMP_TOLERANCE_SECONDS, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../../lib/signing';
import { signedUrlForms } from './urls';
import { headerValue, type HeaderValues } from './headers';
import { checkEventAgainstData, kindOfData, type EventCheck, type ObjectKind } from './consistency';
import { depthOf, MAX_BODY_BYTES, MAX_JSON_DEPTH, scanJson } from './rawJson';
import { checkSignatureHeaders, verifySignedCallback } from './signature';

export type CallbackRejection =
	| 'payload_too_large'
	| 'too_deeply_nested'
	| 'inconsistent_event'
	| 'invalid_json'
	| 'invalid_payload'
	| 'missing_signature'
	| 'missing_timestamp'
	| 'stale_timestamp'
	| 'invalid_signature'
	| 'missing_api_secret';



export interface ParsedCallback {
	event: string;
	data: unknown;
	/** The body text as received (or re-serialised when n8n gave only a parsed body). */
	rawText: string;
	/** The `data` member's text exactly as received (only when the raw body was at hand). */
	rawDataText?: string;
}

type ParseError = 'invalid_json' | 'invalid_payload' | 'too_deeply_nested' | 'payload_too_large';
type ParseResult = { ok: true; callback: ParsedCallback } | { ok: false; error: ParseError };

function rawBodyText(rawBody: unknown): string | undefined {
	if (Buffer.isBuffer(rawBody)) return rawBody.toString('utf8');
	if (typeof rawBody === 'string') return rawBody;
	return undefined;
}

/** Size in bytes of the raw body, without decoding it. */
function rawBodyBytes(rawBody: unknown): number | undefined {
	if (Buffer.isBuffer(rawBody)) return rawBody.length;
	if (typeof rawBody === 'string') return Buffer.byteLength(rawBody, 'utf8');
	return undefined;
}

/**
 * Parses the callback from the raw body when there is one (JSON.parse keeps the key order of the
 * bytes received, which the signature may depend on), otherwise from n8n's parsed body. The depth
 * is bounded before anything recursive runs: too deep → `too_deeply_nested`.
 */
export function parseCallbackBody(rawBody: unknown, parsedBody: unknown): ParseResult {
	const bytes = rawBodyBytes(rawBody);
	if (bytes !== undefined && bytes > MAX_BODY_BYTES) return { ok: false, error: 'payload_too_large' };
	// The bytes received (raw body), or a body n8n left as text: parsed the same way.
	const received = rawBodyText(rawBody);
	let text = received !== undefined && received.trim() !== '' ? received : typeof parsedBody === 'string' ? parsedBody : undefined;
	let body: unknown;
	let rawDataText: string | undefined;
	if (text !== undefined) {
		if (Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES) return { ok: false, error: 'payload_too_large' };
		text = text.replace(/^\uFEFF/, '');
		const scan = scanJson(text, MAX_JSON_DEPTH);
		if (!scan.ok) return { ok: false, error: scan.reason === 'too_deep' ? 'too_deeply_nested' : 'invalid_json' };
		try {
			body = JSON.parse(text);
		} catch {
			return { ok: false, error: 'invalid_json' };
		}
		const span = scan.members.data;
		if (span) rawDataText = text.slice(span.start, span.end);
	} else if (typeof parsedBody === 'object' && parsedBody !== null && Object.keys(parsedBody).length > 0) {
		if (depthOf(parsedBody, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { ok: false, error: 'too_deeply_nested' };
		body = parsedBody;
		try {
			text = JSON.stringify(parsedBody);
		} catch {
			return { ok: false, error: 'invalid_payload' };
		}
		if (Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES) return { ok: false, error: 'payload_too_large' };
	} else {
		return { ok: false, error: 'invalid_json' };
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'invalid_payload' };
	const { event, data } = body as { event?: unknown; data?: unknown };
	if (typeof event !== 'string' || event.trim() === '' || data === undefined || data === null) {
		return { ok: false, error: 'invalid_payload' };
	}
	return { ok: true, callback: { event, data, rawText: text ?? '', ...(rawDataText === undefined ? {} : { rawDataText }) } };
}

/**
 * An id that is the same for every delivery attempt of the same signed data (Paycashless retries
 * up to three times, possibly with a fresh timestamp) and differs when the data differs: SHA-256
 * of the canonical (key-sorted) data, first 32 hex characters. The event name is left out on
 * purpose: it is not signed, so a relabelled copy of a delivery keeps the delivery's id (and
 * Remove Duplicates or the replay memory catch it).
 */
export function deliveryIdFor(data: unknown): string {
	return createHash('sha256').update(`paycashless-callback\n${canonicalJson(data)}`).digest('hex').slice(0, 32);
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
	/** What to do when the event name contradicts the data: refuse (default) or start flagged. */
	inconsistentEvents?: 'refuse' | 'flag';
}

export type CallbackStatus = 400 | 401 | 413 | 422 | 500;

export type CallbackOutcome =
	| {
			action: 'reject';
			status: CallbackStatus;
			error: CallbackRejection;
			message: string;
			/** The event name, when the body could be read. */
			event?: string;
	  }
	| { action: 'ignore'; event: string; verified: boolean; deliveryId: string }
	| {
			action: 'accept';
			callback: ParsedCallback;
			deliveryId: string;
			verified: boolean;
			eventCheck: EventCheck;
			/** What the data is, from its id (for Confirm With Paycashless). */
			kind?: ObjectKind;
			/** The URL text the signature matched (logged, never output). */
			signedUrl?: string;
			/** Only when verification was skipped: why the callback would have been refused, if it would. */
			wouldReject?: CallbackRejection;
	  };

function rejectionMessage(error: CallbackRejection, toleranceSeconds: number, detail?: string): string {
	switch (error) {
		case 'payload_too_large':
			return `The body is larger than ${MAX_BODY_BYTES / (1024 * 1024)} MB; Paycashless callbacks are a few kilobytes.`;
		case 'too_deeply_nested':
			return `The body is nested more than ${MAX_JSON_DEPTH} levels deep; Paycashless callbacks are not.`;
		case 'inconsistent_event':
			return `The event name does not match the signed data: ${detail ?? 'they contradict each other'}. The event name is not covered by the signature.`;
		case 'invalid_json':
			return 'The body is not valid JSON.';
		case 'invalid_payload':
			return 'The body must be a JSON object with an "event" name and a "data" member.';
		case 'missing_signature':
			return `The ${SIGNATURE_HEADER} header is missing.`;
		case 'missing_timestamp':
			return `The ${TIMESTAMP_HEADER} header is missing.`;
		case 'stale_timestamp':
			return toleranceSeconds > 0
				? `The ${TIMESTAMP_HEADER} header is not a 10-digit Unix time within ${toleranceSeconds} seconds of this server's clock.`
				: `The ${TIMESTAMP_HEADER} header is not a 10-digit Unix time.`;
		case 'invalid_signature':
			return `The ${SIGNATURE_HEADER} header does not match this callback.`;
		case 'missing_api_secret':
			return 'Callbacks cannot be verified here: the Paycashless credential has no API Secret.';
	}
}

function statusOf(error: CallbackRejection): CallbackStatus {
	if (error === 'payload_too_large') return 413;
	if (error === 'inconsistent_event') return 422;
	if (error === 'invalid_json' || error === 'invalid_payload' || error === 'too_deeply_nested') return 400;
	if (error === 'missing_api_secret') return 500;
	return 401;
}

/** Decides what happens to one callback: reject (with status), ignore (2xx, no run) or accept. Never throws. */
export function evaluateCallback(input: CallbackInput): CallbackOutcome {
	// A value that is not a number (an expression gone wrong) falls back to the default, never to "no check".
	const configured = Number(input.toleranceSeconds ?? DEFAULT_TIMESTAMP_TOLERANCE_SECONDS);
	const tolerance = Number.isFinite(configured) ? Math.max(0, configured) : DEFAULT_TIMESTAMP_TOLERANCE_SECONDS;
	const reject = (error: CallbackRejection, event?: string, detail?: string): CallbackOutcome => ({
		action: 'reject',
		status: statusOf(error),
		error,
		message: rejectionMessage(error, tolerance, detail),
		...(event === undefined ? {} : { event }),
	});

	const bytes = rawBodyBytes(input.rawBody);
	if (bytes !== undefined && bytes > MAX_BODY_BYTES) return reject('payload_too_large');

	const signature = headerValue(input.headers, SIGNATURE_HEADER);
	const timestamp = headerValue(input.headers, TIMESTAMP_HEADER);
	let failure: CallbackRejection | undefined;
	if (!input.secret) failure = 'missing_api_secret';
	else failure = checkSignatureHeaders(signature, timestamp, input.nowMs, tolerance);
	// Unsigned input is refused here, before the body is read.
	if (failure && !input.skipVerification) return reject(failure);

	const parsed = parseCallbackBody(input.rawBody, input.parsedBody);
	if (!parsed.ok) return reject(parsed.error);
	const { callback } = parsed;

	let signedUrl: string | undefined;
	if (!failure) {
		const urlTexts = [...new Set(input.candidateUrls.filter((url) => url).flatMap((url) => signedUrlForms(url)))];
		const result = verifySignedCallback({
			secret: input.secret,
			urlTexts,
			rawDataText: callback.rawDataText,
			data: callback.data,
			signature: signature as string,
			timestamp: timestamp as string,
		});
		if (result.valid) signedUrl = result.urlText;
		else failure = 'invalid_signature';
	}
	if (failure && !input.skipVerification) return reject(failure, callback.event);
	// With verification skipped nothing is vouched for, even when the signature happens to match.
	const verified = !failure && !input.skipVerification;

	const eventCheck = checkEventAgainstData(callback.event, callback.data);
	if (eventCheck.result === 'inconsistent' && input.inconsistentEvents !== 'flag') {
		return reject('inconsistent_event', callback.event, eventCheck.reason);
	}
	const deliveryId = deliveryIdFor(callback.data);
	if (!input.matchesEvent(callback.event)) return { action: 'ignore', event: callback.event, verified, deliveryId };
	const kind = kindOfData(callback.data);
	return {
		action: 'accept',
		callback,
		deliveryId,
		verified,
		eventCheck,
		...(kind ? { kind } : {}),
		...(signedUrl ? { signedUrl } : {}),
		...(failure ? { wouldReject: failure } : {}),
	};
}
