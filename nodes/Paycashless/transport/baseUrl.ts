/**
 * The credential's Base URL, checked before any request: the mistakes people make when copying
 * it (no https://, the API's /v1 pasted along) get a message saying what to change, instead of
 * ERR_INVALID_URL, ENOTFOUND or a "not found" from /v1/v1/....
 * (The credential's Test button cannot: n8n 2.41 shows only the error code, ERR_INVALID_URL, for an
 * address without a scheme, and an error thrown in the test request's expression does not reach
 * the user. Its last rule names /v1 for an address that answers, but not like Paycashless.)
 */
import { PAYCASHLESS_DEFAULT_BASE_URL as DEFAULT_BASE_URL } from '../../../lib/api';

const EXAMPLE = `for example ${DEFAULT_BASE_URL}`;

const BASE_URL_MESSAGES = {
	scheme: `must start with https:// (or http:// for a local emulator), ${EXAMPLE}. Change the Base URL in the Paycashless credential.`,
	v1: `ends with /v1: remove /v1 (${EXAMPLE}); the node adds /v1/... to it itself. Change the Base URL in the Paycashless credential.`,
	invalid: `is not a web address, ${EXAMPLE}. Change the Base URL in the Paycashless credential.`,
};

/** The Base URL without trailing slashes, or the problem with it (a sentence naming the field). */
export function checkBaseUrl(configured: unknown): { url: string } | { problem: string } {
	const url = (typeof configured === 'string' && configured.trim() !== '' ? configured.trim() : DEFAULT_BASE_URL).replace(/\/+$/, '');
	const named = `The Base URL "${url}"`;
	if (!/^https?:\/\//i.test(url)) return { problem: `${named} ${BASE_URL_MESSAGES.scheme}` };
	if (/\/v1$/i.test(url)) return { problem: `${named} ${BASE_URL_MESSAGES.v1}` };
	try {
		const parsed = new URL(url);
		if (!parsed.hostname || /\s/.test(url)) return { problem: `${named} ${BASE_URL_MESSAGES.invalid}` };
	} catch {
		return { problem: `${named} ${BASE_URL_MESSAGES.invalid}` };
	}
	return { url };
}
