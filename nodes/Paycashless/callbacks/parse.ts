/**
 * Reading the body of a callback, bounded: its size, its nesting depth (scanned without
 * recursion before JSON.parse), its shape `{ event, data }`, the exact text of `data` the
 * signature covers, and the id of one delivery. Used by evaluate.ts before any signature check.
 */
import { createHash } from 'crypto';

import { canonicalJson } from '../../../lib/signing';
import { depthOf, MAX_BODY_BYTES, MAX_JSON_DEPTH, scanJson } from './rawJson';

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
export function rawBodyBytes(rawBody: unknown): number | undefined {
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



