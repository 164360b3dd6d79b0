/**
 * The one reader of a payment create body (`POST /v1/payments`) for the Money Limits: its amount
 * (kobo or cents), currency and customer, as the node sends them. `amount` is an object
 * `{ value, currency }`, or a bare number beside a top-level `currency`. Unlike a payout
 * (./payoutBody.ts) a payment moves no money out: nothing here is a refusal, an amount that is
 * not a number is simply not read (the limits then refuse the payment). Pure: no n8n, no I/O.
 */
import { isJsonObject } from './payoutBody';

/** What a payment or invoice create asks a customer for. */
export interface CustomerMoney {
	/** Kobo or cents; undefined when the body carries no amount that is a number. */
	minor?: number;
	/** Upper case, as sent ('' when absent). */
	currency: string;
	/** The customer's e-mail address. */
	customer: string;
}

export function readPaymentBody(body: Record<string, unknown>): CustomerMoney {
	const amount = isJsonObject(body.amount) ? body.amount : { value: body.amount, currency: body.currency };
	const customer = isJsonObject(body.customer) ? body.customer : {};
	return {
		minor: typeof amount.value === 'number' ? amount.value : undefined,
		currency: String(amount.currency ?? '').toUpperCase(),
		customer: String(customer.email ?? '').toLowerCase(),
	};
}
