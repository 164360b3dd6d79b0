/**
 * What the rest of the node sees of the transport: `paycashlessApi(context, options)` gives an
 * object that sends requests and pages through lists with the settings, item and write policy
 * it was made with. Everything is plain values: the transport reads no node parameters.
 */
import type { IDataObject } from 'n8n-workflow';

import { fetchPage, paginate, type ListOptions, type ListRequest } from './paginate';
import { paycashlessBaseUrl, sendRequest } from './request';
import type { Call } from './send';
import { DEFAULT_TRANSPORT_SETTINGS, type TransportSettings } from './settings';
import type { PaycashlessContext, PaycashlessPage, PaycashlessRequest, WritePolicy } from './types';

export { apiPath } from './send';
export { MAX_PAGE_SIZE, type ListOptions, type ListRequest } from './paginate';
export { RECONCILED_KEY, type ReconciledMarker } from './reconcile';
export { DEFAULT_TRANSPORT_SETTINGS, SETTING_LIMITS, type RepeatedReferenceMode, type TransportSettings } from './settings';
export type { CheckPolicy, CreatePolicy, KeyField, LookupResult, PaycashlessRequest, WritePolicy } from './types';

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
