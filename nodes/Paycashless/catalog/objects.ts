/**
 * What the package knows about each Paycashless object, written once: its id prefix, its API
 * paths, its statuses (and which of them end its story), its event-name prefix and the request
 * that finds it by the merchant's reference. The operations, the list searches, the poll
 * trigger, Confirm With Paycashless, the event checks and the waits all read it from here, so a
 * path or a status list is never written twice.
 *
 * Every path is built from its object's base path (`path`): fixed segments as written, values
 * (ids, references) encoded as one path segment each (`apiPath`, transport/send.ts).
 */
import { apiPath, type PaycashlessRequest } from '../transport';

/** A path under `base`: under('/v1/payouts')`/verify/${reference}` → `/v1/payouts/verify/r%2F1`. */
function under(base: string) {
	return (strings: TemplateStringsArray, ...values: Array<string | number>): string => base + apiPath(strings, ...values);
}

/** What every object has. */
export interface PaycashlessObject {
	/** In messages: `payment`, `dedicated account`. */
	label: string;
	/** Id prefix, e.g. `po_`. */
	idPrefix: string;
}

/** An object with a list endpoint, a read by id, statuses and callbacks (payments, payouts, invoices, accounts). */
export interface ListedObject extends PaycashlessObject {
	/** The list (and create) endpoint. */
	path: string;
	/** The read of one object by its id. */
	one(id: string): string;
	/** The object's name in event keys (eventKeys.ts): `payment`, `dedicated_account`. */
	eventKind: string;
	/** Event names: `<eventPrefix>_<STATUS>`, `<eventPrefix>_CREATED`. */
	eventPrefix: string;
	/** Its statuses, in the API's order. */
	statuses: readonly string[];
	/** `false`: Paycashless has not published them all, so another value is accepted as typed. */
	statusesPublished: boolean;
}

/** An object created under the merchant's reference, which settles in one of `finalStatuses`. */
export interface ReferencedObject extends ListedObject {
	/** Statuses after which nothing more happens to it (what a wait waits for). */
	finalStatuses: readonly string[];
	/** The read that finds it by the reference it was created with. */
	byReference(reference: string): PaycashlessRequest;
}

const PAYMENTS = '/v1/payments';
export const PAYMENT: ReferencedObject & { checkoutPath: string } = Object.freeze({
	label: 'payment',
	idPrefix: 'pi_',
	path: PAYMENTS,
	checkoutPath: under(PAYMENTS)`/checkout`,
	one: (id: string) => under(PAYMENTS)`/${id}`,
	byReference: (reference: string): PaycashlessRequest => ({ method: 'GET', path: under(PAYMENTS)`/${reference}/verify` }),
	eventKind: 'payment',
	eventPrefix: 'PAYMENT',
	statuses: ['initiated', 'awaiting_charge', 'charged', 'failed', 'expired', 'reversed', 'succeeded'],
	statusesPublished: true,
	finalStatuses: ['succeeded', 'failed', 'expired', 'reversed'],
});

const PAYOUTS = '/v1/payouts';
export const PAYOUT: ReferencedObject = Object.freeze({
	label: 'payout',
	idPrefix: 'po_',
	path: PAYOUTS,
	one: (id: string) => under(PAYOUTS)`/${id}`,
	byReference: (reference: string): PaycashlessRequest => ({ method: 'GET', path: under(PAYOUTS)`/verify/${reference}` }),
	eventKind: 'payout',
	eventPrefix: 'PAYOUT',
	statuses: ['pending', 'succeeded', 'failed', 'reversed', 'sent', 'cancelled'],
	statusesPublished: true,
	finalStatuses: ['succeeded', 'failed', 'reversed', 'cancelled'],
});

const INVOICES = '/v1/invoices';
export const INVOICE: ReferencedObject & { cancel(id: string): string } = Object.freeze({
	label: 'invoice',
	idPrefix: 'inv_',
	path: INVOICES,
	one: (id: string) => under(INVOICES)`/${id}`,
	cancel: (id: string) => under(INVOICES)`/${id}/cancel`,
	/** Invoices have no read by reference: the list, filtered by it (complete only without `hasMore`). */
	byReference: (reference: string): PaycashlessRequest => ({ method: 'GET', path: INVOICES, qs: { reference, limit: 100 } }),
	eventKind: 'invoice',
	eventPrefix: 'INVOICE',
	statuses: ['draft', 'open', 'paid', 'partially_paid', 'cancelled'],
	statusesPublished: true,
	finalStatuses: ['paid', 'cancelled'],
});

const DEDICATED_ACCOUNTS = '/v1/dedicated_accounts';
export const DEDICATED_ACCOUNT: ListedObject = Object.freeze({
	label: 'dedicated account',
	idPrefix: 'va_',
	path: DEDICATED_ACCOUNTS,
	one: (id: string) => under(DEDICATED_ACCOUNTS)`/${id}`,
	eventKind: 'dedicated_account',
	eventPrefix: 'DEDICATED_ACCOUNT',
	/** The only documented value. */
	statuses: ['active'],
	statusesPublished: false,
});

/** A request for a dedicated account, known by its code (`acc_req_...`). */
export const ACCOUNT_REQUEST: PaycashlessObject & { status(code: string): string } = Object.freeze({
	label: 'dedicated account request',
	idPrefix: 'acc_req_',
	status: (code: string) => under(DEDICATED_ACCOUNTS)`/requests/${code}/status`,
});

const ACCOUNT_LOOKUP = '/v1/banks/account_lookup';
export const BANK: PaycashlessObject & { accountLookup(accountNumber: string, bankCode: string): PaycashlessRequest } = Object.freeze({
	label: 'bank',
	idPrefix: 'bank_',
	/** The account lookup (Bank Account → Look Up, and the Money Limits' payee checks): holder's name and Paycashless bank of a NUBAN. */
	accountLookup: (accountNumber: string, bankCode: string): PaycashlessRequest => ({
		method: 'GET',
		path: ACCOUNT_LOOKUP,
		qs: { accountNumber, bankCode },
		notFoundAdvice:
			'Paycashless found no such account at that bank. Check the account number (10 digits) and the bank code (CBN, e.g. 058, or NIBSS, e.g. 000013): the bank must be the one the account is at.',
	}),
});

const TAX_RATES = '/v1/tax_rates';
export const TAX_RATE: PaycashlessObject & { path: string; one(id: string): string } = Object.freeze({
	label: 'tax rate',
	idPrefix: 'txr_',
	path: TAX_RATES,
	one: (id: string) => under(TAX_RATES)`/${id}`,
});

/** The objects that have lists, statuses and callbacks, by the name the nodes give them. */
export const LISTED_OBJECTS = Object.freeze({
	payment: PAYMENT as ListedObject,
	payout: PAYOUT as ListedObject,
	invoice: INVOICE as ListedObject,
	dedicatedAccount: DEDICATED_ACCOUNT,
});

export type ListedObjectName = keyof typeof LISTED_OBJECTS;

/** Id prefixes of every object. */
export const ID_PREFIXES = Object.freeze({
	dedicatedAccount: DEDICATED_ACCOUNT.idPrefix,
	accountRequest: ACCOUNT_REQUEST.idPrefix,
	bank: BANK.idPrefix,
	invoice: INVOICE.idPrefix,
	payment: PAYMENT.idPrefix,
	payout: PAYOUT.idPrefix,
	taxRate: TAX_RATE.idPrefix,
});

/** A status list as the UI shows it: sorted by name. */
export function sortedStatuses(object: ListedObject): string[] {
	return [...object.statuses].sort();
}
