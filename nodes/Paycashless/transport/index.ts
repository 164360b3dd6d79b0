/**
 * What the rest of the node sees of the transport: `paycashlessApi(context, options)` gives an
 * object that sends requests and pages through lists with the settings, item and write policy
 * it was made with. Everything is plain values: the transport reads no node parameters.
 *
 * A request goes down one pipe: here the call is made (with the credential's base URL), then
 * request.ts picks the policy, retry.ts runs the one loop of attempts (send.ts) with a create's
 * steps (reconcile.ts on a failure, the declared read-back after a short answer), created.ts
 * makes a create's output, and errors.ts is the one place an error is made.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../../../lib/api';
import { checkBaseUrl } from '../helpers/baseUrl';
import { fetchPage, paginate, type ListOptions, type ListRequest } from './paginate';
import { sendRequest } from './request';
import type { Call } from './send';
import { DEFAULT_TRANSPORT_SETTINGS, type TransportSettings } from './settings';
import type { PaycashlessContext, PaycashlessPage, PaycashlessRequest, WritePolicy } from './types';

/**
 * Base URL per node run: n8n loads and decrypts the credential from its database on every
 * `getCredentials` (and once more inside `httpRequestWithAuthentication`), so reading it for
 * every request of a 1,000-page list or 1,000 items cost one extra database read each
 * (bench/README.md). An action node's context lives for one run of the node; a failed read is not
 * kept. Other contexts (a poll trigger's lives as long as the workflow is active) read it each time,
 * so a changed Base URL applies at once.
 */
const baseUrls = new WeakMap<object, Promise<string>>();

/** The credential's base URL without trailing slashes (default https://api.paycashless.com). */
async function paycashlessBaseUrl(this: PaycashlessContext): Promise<string> {
	if (!('getInputData' in this)) return await readBaseUrl.call(this);
	let baseUrl = baseUrls.get(this);
	if (!baseUrl) {
		baseUrl = readBaseUrl.call(this);
		baseUrls.set(this, baseUrl);
		baseUrl.catch(() => baseUrls.delete(this));
	}
	return await baseUrl;
}

async function readBaseUrl(this: PaycashlessContext): Promise<string> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const checked = checkBaseUrl(credentials?.baseUrl);
	if ('problem' in checked) throw new NodeOperationError(this.getNode(), checked.problem);
	return checked.url;
}

export { apiPath } from './send';
export { MAX_PAGE_SIZE, type ListOptions } from './paginate';
export { MARKER } from './created';
export { DEFAULT_TRANSPORT_SETTINGS, SETTING_LIMITS, type RepeatedReferenceMode, type TransportSettings } from './settings';
export type { FoundByReference, KeyField, PaycashlessRequest, WritePolicy } from './types';

export interface TransportOptions {
	/** Default: DEFAULT_TRANSPORT_SETTINGS. */
	settings?: TransportSettings;
	/** The input item the requests are for (errors name it). */
	itemIndex?: number;
	/** How the operation's writes are treated; reads need none. */
	policy?: WritePolicy;
}

export interface PaycashlessApi {
	/** Sends one request with the retries (and reconciliation) its kind allows; the JSON answer. */
	request(request: PaycashlessRequest): Promise<IDataObject>;
	/** All records of a list, or the first `limit`, following cursors. */
	paginate(list: ListRequest, options: ListOptions): Promise<IDataObject[]>;
	/** One page of a list. */
	page(list: ListRequest, pageSize: number, cursor?: string): Promise<PaycashlessPage>;
}

export function paycashlessApi(context: PaycashlessContext, options: TransportOptions = {}): PaycashlessApi {
	const settings = options.settings ?? { ...DEFAULT_TRANSPORT_SETTINGS };
	const call = async (): Promise<Call> => ({
		context,
		settings,
		baseURL: await paycashlessBaseUrl.call(context),
		itemIndex: options.itemIndex,
		policy: options.policy,
	});
	return {
		request: async (request) => await sendRequest(await call(), request),
		paginate: async (list, listOptions) => await paginate(await call(), list, listOptions),
		page: async (list, pageSize, cursor) => await fetchPage(await call(), list, pageSize, cursor),
	};
}
