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
