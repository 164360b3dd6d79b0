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
	 * Safe to send twice with the same effect. Defaults to true for GET and false otherwise.
	 * A retry policy may only resend non-idempotent requests after reconciling by `reference`.
	 */
	idempotent?: boolean;
	/** The merchant's reference of the payment or payout this request creates, if any. */
	reference?: string;
	/** Set on requests that create a payment or payout: how to reconcile them by `reference`. */
	moneyMovement?: 'payment' | 'payout';
}

/** One page of a Paycashless list: `{ hasMore, cursor, data }`. */
export interface PaycashlessPage {
	data: IDataObject[];
	hasMore: boolean;
	cursor?: string;
}
