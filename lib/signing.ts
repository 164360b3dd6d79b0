/**
 * The Paycashless signing rules, written once.
 *
 * Used by the credential (signing requests), the callback verifier (nodes/Paycashless/callbacks/
 * signature.ts, the one the trigger, the resume webhook and Callback → Verify share), the local
 * emulator (checking requests, signing callbacks) and the tests. Pure functions only: no n8n
 * types, no I/O, no clock (callers pass the time in).
 *
 * Requests:  signature = HMAC-SHA512(secret, path + bodyHash + timestamp)
 *            bodyHash  = HMAC-SHA512(secret, canonicalJson(body))   (only when there is a body)
 *            path      = request path from `/v1` on, lower-cased, without the query string
 * Callbacks: signature = HMAC-SHA512(secret, lower(callbackUrl) + HMAC-SHA512(secret, JSON(data)) + timestamp)
 */
import { createHmac, timingSafeEqual } from 'crypto';

/** How a request without a body is signed. */
export type BodilessSigning =
	/** `path + timestamp` (the documented form). */
	| 'documented'
	/** `path + HMAC(secret, "{}") + timestamp` (seen working in production integrations). */
	| 'emptyObjectHash';

export const SIGNATURE_HEADER = 'Request-Signature';
export const TIMESTAMP_HEADER = 'Request-Timestamp';
/** The service accepts request timestamps within this many seconds of its clock. */
export const DEFAULT_TIMESTAMP_TOLERANCE_SECONDS = 300;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Returns a copy of `value` with the keys of every object sorted (JavaScript's default string
 * sort), recursively. Arrays keep their order; their elements are sorted in turn.
 * `undefined` members are dropped, as `JSON.stringify` would drop them.
 */
function sortKeysDeep(value: unknown): Json {
	if (Array.isArray(value)) return value.map((element) => sortKeysDeep(element));
	if (isPlainObject(value)) {
		if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
			return sortKeysDeep((value as { toJSON: () => unknown }).toJSON());
		}
		const sorted: { [key: string]: Json } = {};
		for (const key of Object.keys(value).sort()) {
			if (value[key] !== undefined) sorted[key] = sortKeysDeep(value[key]);
		}
		return sorted;
	}
	return value as Json;
}

/** Compact JSON with every object's keys sorted: the exact bytes that are signed and sent. */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(sortKeysDeep(value));
}

/**
 * Turns whatever body n8n hands over into the exact string to send and sign, or `undefined`
 * when the request has none. A JSON object or JSON text is re-serialised with sorted keys, so
 * signing an already signed request again (n8n does that after a 401) yields the same bytes.
 */
export function bodyToSign(method: string, body: unknown): string | Buffer | undefined {
	if (body === undefined || body === null) return undefined;
	if (Buffer.isBuffer(body)) return body;
	if (typeof body === 'string') {
		if (body === '') return undefined;
		try {
			const parsed: unknown = JSON.parse(body);
			return typeof parsed === 'object' && parsed !== null ? canonicalJson(parsed) : body;
		} catch {
			return body;
		}
	}
	if (typeof body === 'object') {
		const bodiless = ['GET', 'HEAD', 'DELETE'].includes(method);
		if (bodiless && !Array.isArray(body) && Object.keys(body as object).length === 0) return undefined;
		return canonicalJson(body);
	}
	return String(body);
}

export function hmacSha512Hex(secret: string, data: string | Buffer): string {
	return createHmac('sha512', secret).update(data).digest('hex');
}

/** Unix time in whole seconds (10 digits), as a string, from a millisecond clock value. */
export function unixTimestamp(nowMs: number): string {
	return String(Math.floor(nowMs / 1000));
}

/**
 * Joins a base URL and a request URL the way axios does: an absolute `url` wins, otherwise the
 * slash between the two is trimmed. (`new URL(url, base)` would drop a path prefix of the base.)
 */
export function joinUrl(baseURL: string | undefined, url: string | undefined): string {
	const target = url ?? '';
	if (/^[a-z][a-z\d+\-.]*:\/\//i.test(target) || !baseURL) return target;
	if (!target) return baseURL;
	return `${baseURL.replace(/\/+$/, '')}/${target.replace(/^\/+/, '')}`;
}

/**
 * The path that is signed: from the `/v1` segment on, lower-cased, without query string or
 * fragment. Accepts an absolute URL or a path. A base URL with a path prefix (a proxy) is
 * skipped; a URL without a `/v1` segment is signed whole.
 */
export function signingPath(urlOrPath: string): string {
	let pathname = urlOrPath;
	const scheme = /^[a-z][a-z\d+\-.]*:\/\/[^/?#]*/i.exec(pathname);
	if (scheme) pathname = pathname.slice(scheme[0].length);
	pathname = pathname.split(/[?#]/, 1)[0];
	if (!pathname.startsWith('/')) pathname = `/${pathname}`;
	const versionAt = pathname.search(/\/v1(?=\/|$)/i);
	return (versionAt >= 0 ? pathname.slice(versionAt) : pathname).toLowerCase();
}

export interface RequestSignatureInput {
	secret: string;
	/** Absolute URL or path; reduced with `signingPath`. */
	url: string;
	/** The exact body string that is sent, or `undefined` when the request has no body. */
	body?: string | Buffer;
	timestamp: string;
	bodilessSigning?: BodilessSigning;
}

/** The `Request-Signature` value for one request (128 lowercase hex characters). */
export function requestSignature(input: RequestSignatureInput): string {
	const { secret, body, timestamp } = input;
	let bodyHash = '';
	if (body !== undefined) bodyHash = hmacSha512Hex(secret, body);
	else if (input.bodilessSigning === 'emptyObjectHash') bodyHash = hmacSha512Hex(secret, '{}');
	return hmacSha512Hex(secret, signingPath(input.url) + bodyHash + timestamp);
}

export interface CallbackSignatureInput {
	secret: string;
	/** The callback URL exactly as given in `callbackUrl` (scheme, host, path, query). */
	callbackUrl: string;
	/** The `data` member of the callback body, already serialised. */
	dataJson: string;
	timestamp: string;
}

/**
 * The callback formula itself: HMAC over the URL text, the data's own HMAC and the timestamp.
 * `urlText` is the URL as signed (lower-cased by the sender); `dataHash` is
 * `hmacSha512Hex(secret, dataJson)`, so a verifier trying several URL texts hashes the data once.
 */
export function callbackSignatureOver(secret: string, urlText: string, dataHash: string, timestamp: string): string {
	return hmacSha512Hex(secret, urlText + dataHash + timestamp);
}

/** The `Request-Signature` a callback carries. */
export function callbackSignature(input: CallbackSignatureInput): string {
	return callbackSignatureOver(input.secret, input.callbackUrl.toLowerCase(), hmacSha512Hex(input.secret, input.dataJson), input.timestamp);
}

/** Constant-time comparison of two hex signatures (false on any length or format mismatch). */
export function signaturesMatch(expected: string, received: string | undefined | null): boolean {
	if (typeof received !== 'string') return false;
	const normalised = received.trim().toLowerCase();
	if (!/^[0-9a-f]+$/.test(normalised) || normalised.length !== expected.length) return false;
	return timingSafeEqual(Buffer.from(expected, 'utf8'), Buffer.from(normalised, 'utf8'));
}

/** True when `timestamp` is 10 digits and within `toleranceSeconds` of `nowMs`, either side. */
export function timestampWithinTolerance(
	timestamp: string | undefined | null,
	nowMs: number,
	toleranceSeconds: number = DEFAULT_TIMESTAMP_TOLERANCE_SECONDS,
): boolean {
	if (typeof timestamp !== 'string' || !/^\d{10}$/.test(timestamp.trim())) return false;
	return Math.abs(Math.floor(nowMs / 1000) - Number(timestamp.trim())) <= toleranceSeconds;
}
