/**
 * Does the event name fit the data? The signature covers `data`, the URL and the timestamp, not
 * the event name, so a genuine `INVOICE_PAID` body can be re-sent as `PAYOUT_SUCCEEDED` with a
 * valid signature. The data often says what it is (the id prefix: `inv_`, `pi_`, `po_`, `va_`,
 * `acc_req_`; an invoice payment's `invoiceId`) and how it ended (`status`, `paid`), so an event
 * name that contradicts its data is caught here.
 *
 * Deliberately conservative (a genuine callback must never be refused): only clear
 * contradictions count. An event family the package does not know, data without an id, or a
 * status word it does not know are "not checkable", never "inconsistent".
 */

import { ACCOUNT_REQUEST, DEDICATED_ACCOUNT, INVOICE, PAYMENT, PAYOUT } from '../catalog/objects';

export type ObjectKind = 'invoice' | 'invoicePayment' | 'payment' | 'payout' | 'dedicatedAccount' | 'accountRequest';

/** Id prefix → kind, for the kinds a callback may carry (catalog/objects.ts). */
const KIND_BY_PREFIX: Array<[string, ObjectKind]> = [
	[ACCOUNT_REQUEST.idPrefix, 'accountRequest'],
	[INVOICE.idPrefix, 'invoice'],
	[PAYMENT.idPrefix, 'payment'],
	[PAYOUT.idPrefix, 'payout'],
	[DEDICATED_ACCOUNT.idPrefix, 'dedicatedAccount'],
];

/** Event families (by the catalog's event prefix) → the kinds of data their events may carry. */
const KINDS_BY_EVENT_PREFIX: Array<[string, ObjectKind[]]> = [
	[`${INVOICE.eventPrefix}_`, ['invoice', 'invoicePayment']],
	[`${PAYMENT.eventPrefix}_`, ['payment']],
	[`${PAYOUT.eventPrefix}_`, ['payout']],
	// A dedicated account event may carry the account, its request, or a payment into it.
	[`${DEDICATED_ACCOUNT.eventPrefix}_`, ['dedicatedAccount', 'accountRequest', 'payment']],
];

/** What the data is, from its id (or code) prefix or, for an invoice payment, its fields. */
export function kindOfData(data: unknown): ObjectKind | undefined {
	if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
	const record = data as Record<string, unknown>;
	// An invoice payment names its invoice; checked first, whatever its own id looks like.
	if (typeof record.invoiceId === 'string' && record.invoiceId !== record.id && 'amountPaid' in record) return 'invoicePayment';
	for (const field of ['id', 'code']) {
		const value = record[field];
		if (typeof value !== 'string') continue;
		const found = KIND_BY_PREFIX.find(([prefix]) => value.startsWith(prefix));
		if (found) return found[1];
	}
	return undefined;
}

/** The kinds of data an event may carry, by its name; undefined for a family the package does not know. */
function kindsForEvent(event: string): ObjectKind[] | undefined {
	const name = event.trim().toUpperCase();
	if (name === `${INVOICE.eventPrefix}_PAID`) return ['invoice'];
	if (name.startsWith(`${INVOICE.eventPrefix}_${PAYMENT.eventPrefix}_`)) return ['invoicePayment', 'payment'];
	return KINDS_BY_EVENT_PREFIX.find(([prefix]) => name.startsWith(prefix))?.[1];
}

type Outcome = 'success' | 'failure' | 'reversal' | 'cancellation' | 'expiry';

/**
 * Only the two outcomes whose contradiction is unambiguous are read from event names. A
 * `…_REFUNDED` or `…_REVERSED` event may well carry the original object with status
 * `succeeded` (other payment APIs do that), so those names are not judged.
 */
const EVENT_OUTCOMES: Record<string, 'success' | 'failure'> = {
	SUCCEEDED: 'success',
	SUCCESS: 'success',
	SUCCESSFUL: 'success',
	COMPLETED: 'success',
	PAID: 'success',
	ACTIVATED: 'success',
	FAILED: 'failure',
	DECLINED: 'failure',
	REJECTED: 'failure',
};

const STATUS_OUTCOMES: Record<string, Outcome> = {
	succeeded: 'success',
	success: 'success',
	successful: 'success',
	completed: 'success',
	paid: 'success',
	active: 'success',
	failed: 'failure',
	declined: 'failure',
	rejected: 'failure',
	reversed: 'reversal',
	refunded: 'reversal',
	cancelled: 'cancellation',
	canceled: 'cancellation',
	expired: 'expiry',
};

function eventOutcome(event: string): 'success' | 'failure' | undefined {
	const last = event.trim().toUpperCase().split('_').pop() ?? '';
	return EVENT_OUTCOMES[last];
}

export type EventCheck =
	| { result: 'consistent' }
	| { result: 'not_checkable' }
	| { result: 'inconsistent'; reason: string };

const KIND_NAMES: Record<ObjectKind, string> = {
	invoice: 'an invoice',
	invoicePayment: 'an invoice payment',
	payment: 'a payment',
	payout: 'a payout',
	dedicatedAccount: 'a dedicated account',
	accountRequest: 'a dedicated account request',
};

/** Checks the event name against what the data says about itself. */
export function checkEventAgainstData(event: string, data: unknown): EventCheck {
	let checked = false;
	const kinds = kindsForEvent(event);
	const kind = kindOfData(data);
	if (kinds && kind) {
		if (!kinds.includes(kind)) return { result: 'inconsistent', reason: `${event} cannot carry ${KIND_NAMES[kind]} (the data's id says so)` };
		checked = true;
	}
	const expected = eventOutcome(event);
	if (expected && typeof data === 'object' && data !== null && !Array.isArray(data)) {
		const record = data as Record<string, unknown>;
		const status = typeof record.status === 'string' ? record.status.trim().toLowerCase() : undefined;
		const actual = status === undefined ? undefined : STATUS_OUTCOMES[status];
		// A success event contradicts any other ending; a failure event only a success.
		const contradicts = expected === 'success' ? actual !== undefined && actual !== 'success' : actual === 'success';
		if (contradicts) return { result: 'inconsistent', reason: `${event} does not match the data's status "${status}"` };
		if (actual) checked = true;
		if (status === undefined && typeof record.paid === 'boolean' && (expected === 'success' || expected === 'failure')) {
			if (record.paid !== (expected === 'success')) {
				return { result: 'inconsistent', reason: `${event} does not match the data's "paid": ${String(record.paid)}` };
			}
			checked = true;
		}
	}
	return checked ? { result: 'consistent' } : { result: 'not_checkable' };
}
