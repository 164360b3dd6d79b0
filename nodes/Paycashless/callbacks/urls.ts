/**
 * Which URLs a callback may have been addressed to. Paycashless signs the callback URL exactly as
 * it was given in `callbackUrl`, so the trigger must rebuild that URL from what n8n knows:
 *
 * - n8n's `getNodeWebhookUrl('default')` always returns the production URL
 *   (`<base>/webhook/<webhookId>/webhook`), whichever endpoint the request arrived on;
 * - while "Listen for test event" waits, the same node answers on `<base>/webhook-test/<webhookId>/webhook`;
 * - recent n8n versions tell the endpoint actually served (`getWebhookResourceUrl`);
 * - behind a reverse proxy the public URL differs from n8n's own idea of it: the user's override;
 * - a `callbackUrl` may carry a query string, which is signed too: the query actually received.
 */

const PRODUCTION_SEGMENT = 'webhook';
const TEST_SEGMENT = 'webhook-test';

function splitUrl(url: string): { head: string; path: string; tail: string } {
	const origin = /^[a-z][a-z\d+\-.]*:\/\/[^/?#]*/i.exec(url);
	const head = origin ? origin[0] : '';
	const rest = url.slice(head.length);
	const cut = rest.search(/[?#]/);
	return cut < 0 ? { head, path: rest, tail: '' } : { head, path: rest.slice(0, cut), tail: rest.slice(cut) };
}

/**
 * Turns n8n's production webhook URL into the test one and back (`/webhook/` ⇄ `/webhook-test/`),
 * swapping only the endpoint segment: the one before the node's webhook id when it is known,
 * otherwise the last `webhook`/`webhook-test` segment that is not the final one (the node's own
 * path is also called `webhook`). Returns undefined when there is nothing to swap (a custom
 * endpoint name: use the Callback URL Override then).
 */
export function swapTestAndProductionUrl(url: string, webhookId?: string): string | undefined {
	const { head, path, tail } = splitUrl(url);
	const segments = path.split('/');
	let index = -1;
	if (webhookId) {
		const idAt = segments.lastIndexOf(webhookId);
		if (idAt > 0) index = idAt - 1;
	}
	if (index < 0) {
		for (let i = segments.length - 2; i >= 0; i--) {
			if (segments[i] === PRODUCTION_SEGMENT || segments[i] === TEST_SEGMENT) {
				index = i;
				break;
			}
		}
	}
	if (index < 0) return undefined;
	if (segments[index] === PRODUCTION_SEGMENT) segments[index] = TEST_SEGMENT;
	else if (segments[index] === TEST_SEGMENT) segments[index] = PRODUCTION_SEGMENT;
	else return undefined;
	return head + segments.join('/') + tail;
}

/** The query string of a request URL (`/path?a=1` → `a=1`), without `?` and fragment; '' when none. */
export function queryStringOf(requestUrl: string | undefined | null): string {
	if (!requestUrl) return '';
	const at = requestUrl.indexOf('?');
	if (at < 0) return '';
	return requestUrl.slice(at + 1).split('#', 1)[0];
}

function withQuery(url: string, query: string): string {
	if (!query || url.includes('?')) return url;
	return `${url}?${query}`;
}

export interface CallbackUrlSources {
	/** `getNodeWebhookUrl('default')`: n8n's production URL of this node. */
	productionUrl?: string;
	/** The URL of the endpoint actually served, when n8n tells it (`getWebhookResourceUrl`). */
	servedUrl?: string;
	/** The node's webhook id (`getNode().webhookId`), to find the endpoint segment exactly. */
	webhookId?: string;
	/** The user's "Callback URL Override" (a public URL in front of a reverse proxy). */
	overrideUrl?: string;
	/** The query string actually received (without `?`). */
	receivedQuery?: string;
}

/**
 * Every URL the callback may have been signed with, most likely first, without duplicates
 * (compared lower-cased, as the signature lower-cases the URL). Each base URL is tried as is and
 * with the received query string.
 */
export function candidateCallbackUrls(sources: CallbackUrlSources): string[] {
	const bases: string[] = [];
	const override = sources.overrideUrl?.trim();
	if (override) bases.push(override);
	for (const url of [sources.productionUrl, sources.servedUrl]) {
		const trimmed = url?.trim();
		if (!trimmed) continue;
		bases.push(trimmed);
		const swapped = swapTestAndProductionUrl(trimmed, sources.webhookId);
		if (swapped) bases.push(swapped);
	}
	const query = sources.receivedQuery ?? '';
	const result: string[] = [];
	const seen = new Set<string>();
	for (const base of bases) {
		for (const url of [withQuery(base, query), base]) {
			const key = url.toLowerCase();
			if (seen.has(key)) continue;
			seen.add(key);
			result.push(url);
		}
	}
	return result;
}

/**
 * Characters a WHATWG URL parser (Node's `new URL`, fetch, browsers) percent-encodes in a query
 * or path besides non-ASCII ones: space, `"`, `<`, `>` and backquote. A sender given
 * `…?tenant=Ünïcode` signs the text it was given but puts `%C3%9Cn%C3%AFcode` on the wire.
 */
const ENCODED_ASCII = new Set([0x20, 0x22, 0x3c, 0x3e, 0x60]);

/**
 * The URL as the user most likely typed it: percent-escapes of non-ASCII UTF-8 sequences (and of
 * the few ASCII characters WHATWG encodes) decoded; every other escape (`%26`, `%3D`, `%2F`…) left
 * alone, since those were typed encoded.
 */
export function decodeTypedUrl(url: string): string {
	return url.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
		const bytes = Buffer.from(run.replace(/%/g, ''), 'hex');
		const original = (from: number, to: number) => run.slice(from * 3, to * 3);
		let out = '';
		let i = 0;
		while (i < bytes.length) {
			const byte = bytes[i];
			if (byte < 0x80) {
				out += ENCODED_ASCII.has(byte) ? String.fromCharCode(byte) : original(i, i + 1);
				i += 1;
				continue;
			}
			const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 0;
			const chunk = bytes.subarray(i, i + length);
			const text = length > 0 && chunk.length === length ? chunk.toString('utf8') : '';
			if (text && Buffer.from(text, 'utf8').equals(chunk)) {
				out += text;
				i += length;
			} else {
				out += original(i, i + 1);
				i += 1;
			}
		}
		return out;
	});
}

/** Percent-encodes non-ASCII characters and WHATWG's few ASCII ones, as UTF-8 with upper-case hex. */
export function encodeLikeWhatwg(url: string): string {
	let out = '';
	for (const char of url) {
		const code = char.codePointAt(0) as number;
		if (code < 0x80 && !ENCODED_ASCII.has(code)) out += char;
		else for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
	}
	return out;
}

function lowerAsciiOnly(text: string): string {
	return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** ASCII letters lower-cased except inside percent-escapes (whose hex stays as it is). */
function lowerOutsideEscapes(text: string): string {
	return text.replace(/%[0-9A-Fa-f]{2}|[A-Z]+/g, (match) => (match.startsWith('%') ? match : match.toLowerCase()));
}

/**
 * The exact texts that may have gone into the signature for one callback URL (the signature rule
 * lower-cases the URL; the rule does not say whether before or after percent-encoding, nor with
 * a Unicode-aware lower-case). A small fixed set, in this order, without duplicates:
 * 1. the URL as received, lower-cased (percent-escapes' hex lower-cased too);
 * 2. as typed (non-ASCII decoded), lower-cased;
 * 3. as typed, lower-cased, then encoded (upper-case hex, as WHATWG writes it);
 * 4. the same with the hex lower-cased;
 * 5. as typed, encoded, then lower-cased outside the escapes (upper-case hex kept);
 * 6. as typed, lower-cased for ASCII letters only (a byte-wise lower-case).
 * For a URL of plain ASCII all six are the same text.
 */
export function signedUrlForms(url: string): string[] {
	const typed = decodeTypedUrl(url);
	const loweredTyped = typed.toLowerCase();
	const forms = [
		url.toLowerCase(),
		loweredTyped,
		encodeLikeWhatwg(loweredTyped),
		encodeLikeWhatwg(loweredTyped).toLowerCase(),
		lowerOutsideEscapes(encodeLikeWhatwg(typed)),
		lowerAsciiOnly(typed),
	];
	return [...new Set(forms)];
}
