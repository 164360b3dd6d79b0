import type { IDataObject, IExecuteFunctions, IHttpRequestMethods, ILoadOptionsFunctions } from 'n8n-workflow';

/** The n8n contexts that may talk to Paycashless. */
export type PaycashlessContext = IExecuteFunctions | ILoadOptionsFunctions;

/**
 * One request to the Paycashless API, described without n8n's request options, so that the
 * transport alone decides how it is sent (and, later, retried or reconciled).
 */
export interface PaycashlessRequest {
	method: IHttpRequestMethods;
	/** The API path from `/v1` on, e.g. `/v1/payouts`; build it with `apiPath` so ids are encoded. */
	path: string;
	/** Query values; `undefined` ones are left out. */
	qs?: IDataObject;
	/** JSON body as an object; the credential serialises and signs it. */
	body?: IDataObject;
	/**
	 * Safe to send twice with the same effect. Defaults to true for GET and PUT (HTTP semantics)
	 * and false otherwise. The transport resends other requests only when it knows the first one
	 * had no effect (429, connection refused), or after reconciling by `reference`.
	 */
	idempotent?: boolean;
	/** The merchant's reference of the object this request creates, if any. */
	reference?: string;
	/** Set on requests that create a payment or payout: how to reconcile them by `reference`. */
	moneyMovement?: 'payment' | 'payout';
	/**
	 * The kind of object this request creates, for creates that can be found again by
	 * `reference` (reconciliation, repeated references). Implied by `moneyMovement`.
	 */
	creates?: ReconciledKind;
}

/** Objects a create can be found again for by its reference. */
export type ReconciledKind = 'invoice' | 'payment' | 'payout';

/** One page of a Paycashless list: `{ hasMore, cursor, data }`. */
export interface PaycashlessPage {
	data: IDataObject[];
	hasMore: boolean;
	cursor?: string;
}

/** Safe to send twice with the same effect. */
export function isRepeatable(request: PaycashlessRequest): boolean {
	return request.idempotent ?? (request.method === 'GET' || request.method === 'PUT');
}

/** The kind of object a create makes when it can be found again by its reference. */
export function reconciledKind(request: PaycashlessRequest): ReconciledKind | undefined {
	if (isRepeatable(request) || !request.reference) return undefined;
	return request.creates ?? request.moneyMovement;
}
