/**
 * One payout of Paycashless's list as the period limits, the payouts in flight and the batch check
 * read it: its money and status, or why it cannot be read for sure; and whether it is a payout in
 * flight (./inFlight.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { PAYOUT } from '../catalog/objects';
import { CURRENCIES, type Currency } from '../helpers/amount';
import { isObject } from '../helpers/body';

/** Payouts that ended without the money arriving (every final status but success) do not count. */
const NOT_PAID = new Set(PAYOUT.finalStatuses.filter((status) => status !== 'succeeded'));

/** One payout of the period as the limits read it. */
export interface PeriodPayout {
	id: string;
	reference: string;
	/** Smallest unit (kobo or cents). */
	value: number;
	currency: Currency;
	status: string;
	/** Not failed, reversed or cancelled: the money left or is leaving. */
	live: boolean;
	accountNumber: string;
	bankId: string;
	/** Who receives it: account@bank ID (as ./limits.ts names a payout's party). */
	party: string;
	/** Paycashless's `createdAt`, Unix seconds. */
	createdAt?: number;
}

/** Unix seconds of a record's `createdAt` (ISO text or seconds), if it has one. */
export function createdSeconds(record: IDataObject): number | undefined {
	const value = record.createdAt;
	if (typeof value === 'number' && Number.isFinite(value)) return value > 1e11 ? Math.floor(value / 1000) : value;
	if (typeof value !== 'string') return undefined;
	const parsed = DateTime.fromISO(value);
	return parsed.isValid ? Math.floor(parsed.toSeconds()) : undefined;
}

/**
 * Whether a payout Paycashless has is the one asked for: the same amount (smallest unit), currency,
 * account number and bank. The one comparison of the period limits and the batch check.
 */
export function samePayout(listed: PeriodPayout, asked: { value: number; currency: string; accountNumber?: string; bankId?: string }): boolean {
	return listed.value === asked.value && listed.currency === asked.currency && listed.accountNumber === asked.accountNumber && listed.bankId === asked.bankId;
}

/** A listed payout as the limits read it, or why it cannot be read for sure. */
export function readListedPayout(record: IDataObject): PeriodPayout | string {
	const id = typeof record.id === 'string' && record.id !== '' ? record.id : undefined;
	const name = id === undefined ? 'a listed payout without an id' : `payout ${id}`;
	if (id === undefined) return `${name}`;
	// A status the limits do not know (or none) counts as live: counting it is the safe side.
	const status = typeof record.status === 'string' ? record.status : '';
	const nested = isObject(record.amount) ? record.amount : undefined;
	const value = nested ? nested.value : record.amount;
	const currencies = [nested?.currency, record.currency].filter((currency) => currency !== undefined && currency !== null);
	const named = [...new Set(currencies.map((currency) => String(currency).trim().toUpperCase()))];
	const live = !NOT_PAID.has(status);
	if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
		if (!live) return { id, reference: String(record.reference ?? ''), value: 0, currency: 'NGN', status, live, accountNumber: '', bankId: '', party: '', createdAt: createdSeconds(record) };
		return `${name} has no amount in whole kobo or cents (it lists ${JSON.stringify(value)})`;
	}
	if (named.length !== 1 || !(CURRENCIES as readonly string[]).includes(named[0])) {
		return `${name} names ${named.length === 0 ? 'no currency' : named.length > 1 ? 'two currencies' : `the currency ${JSON.stringify(named[0])}`}`;
	}
	const accountNumber = String(record.destinationAccountNumber ?? '');
	const bankId = String(record.destinationBankId ?? record.bankId ?? '');
	return {
		id,
		reference: String(record.reference ?? ''),
		value,
		currency: named[0] as Currency,
		status,
		live,
		accountNumber,
		bankId,
		party: `${accountNumber}@${bankId}`,
		createdAt: createdSeconds(record),
	};
}

/** The money of a payout: what two payouts under one reference must share to be one. */
export interface PayoutMoney {
	/** Smallest unit (kobo or cents). */
	value: number;
	currency: string;
	/** Who receives it: account@bank ID. */
	party?: string;
}

/** Whether `entry` is the payout `money` asks for. */
export function sameMoney(entry: PayoutMoney, money: PayoutMoney): boolean {
	return entry.value === money.value && entry.currency === money.currency && entry.party === money.party;
}

/** One payout a list showed, as ./period.ts read it. */
export interface ListedPayout extends PayoutMoney {
	id: string;
	reference: string;
	/** Paycashless's `createdAt`, Unix seconds. */
	createdAt?: number;
}

/** How far Paycashless's clock may be behind n8n's when a listed payout is matched by its money (s). */
const CLOCK_MARGIN_SECONDS = 60;

/**
 * Whether the listed payout is the entry's: by id once its create answered with one; before, by
 * reference and money, created no earlier than it was reserved (an older payout under the same
 * reference, failed, is not it).
 */
export function isListedAs(entry: PayoutMoney & { reference: string; reservedAt: number; id?: string }, payout: ListedPayout): boolean {
	if (entry.id !== undefined) return payout.id === entry.id;
	const created = payout.createdAt === undefined || payout.createdAt >= Math.floor(entry.reservedAt / 1000) - CLOCK_MARGIN_SECONDS;
	return payout.reference === entry.reference && sameMoney(payout, entry) && created;
}
