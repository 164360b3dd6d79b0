/**
 * The headers of a callback request: the first value of one, and the ones an output item may
 * show (never the signature nor anything credential-like).
 */
import { SIGNATURE_HEADER } from '../../../lib/signing';

export type HeaderValues = Record<string, string | string[] | undefined>;

/** Headers never copied into an output item: the signature and anything that may carry a credential. */
const HIDDEN_HEADERS = new Set([
	SIGNATURE_HEADER.toLowerCase(),
	'authorization',
	'proxy-authorization',
	'cookie',
	'set-cookie',
]);

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
