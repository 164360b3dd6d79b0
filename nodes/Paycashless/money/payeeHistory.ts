/**
 * What this Paycashless account paid before, for the approver of a batch (Payout → Check Batch):
 * Paycashless's payout list read back over a window of days, 100 payouts a request (never one
 * request per row), newest first, up to a cap that grows with the batch (`historyPageCap`). From
 * it, each new payout of the batch gets its flags:
 * - `NEW_PAYEE`: no payout of the window that was not failed, reversed or cancelled went to this
 *   account at this bank;
 * - `ACCOUNT_CHANGED`: the same person (the Payee Key, else the Expected Account Name, that the
 *   node writes into each payout's metadata) was last paid into another account;
 * - `AMOUNT_CHANGED`: the amount is further than the set percentage from that person's (or that
 *   account's) last payout;
 * - `SHARED_ACCOUNT`: the same account and bank on more than one row of the batch;
 * - `NAME_NOT_CHECKED`: the row has no Expected Account Name, so nobody compared the holder's
 *   name with the person's records.
 * Flags never refuse a payout: they put it on top of the approver's list, with the reason.
 */
import type { IDataObject } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { PAYOUT } from '../catalog/objects';
import type { Currency } from '../helpers/amount';
import { formatMainUnits, fromSmallestUnit } from '../helpers/mainUnits';
import type { PaycashlessApi } from '../transport';
import { readListedPayout } from './period';

/** The metadata keys the node writes into each payout (actions/payout/runDetails.ts) that name the person paid. */
export const PAYEE_METADATA = { name: 'n8nPayeeName', key: 'n8nPayeeKey' } as const;

/** One earlier payout, as the flags read it. */
interface EarlierPayout {
	reference: string;
	value: number;
	currency: Currency;
	account: string;
	createdAt?: string;
}

export interface PayeeHistory {
	/** Unix seconds of the window's start. */
	since: number;
	/** How many payouts were read. */
	read: number;
	/** False when the cap stopped the read before the window's start. */
	complete: boolean;
	/** The newest live payout to each `account@bankId`. */
	byAccount: Map<string, EarlierPayout>;
	/** The newest live payout to each Payee Key, and to each Expected Account Name (normalised). */
	byKey: Map<string, EarlierPayout>;
	byName: Map<string, EarlierPayout>;
	/** Every payout read, live or not, by its reference (the batch check finds its references here first). */
	byReference: Map<string, IDataObject>;
}

/** A name as the history compares it: its words, any order, case and accents ignored. */
function nameKey(name: string): string {
	return name
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toUpperCase()
		.split(/[^A-Z0-9]+/)
		.filter(Boolean)
		.sort()
		.join(' ');
}

/** Pages read at most: 10, or one for every 10 rows of the batch (1,000 rows: 100 pages, 10,000 payouts). */
export function historyPageCap(rows: number): number {
	return Math.max(10, Math.ceil(rows / 10));
}

/** Reads the account's payouts created since `since` (Unix seconds), newest first, at most `pages` pages. */
export async function readPayeeHistory(api: PaycashlessApi, since: number, pages: number): Promise<PayeeHistory> {
	const limit = pages * 100;
	const records = await api.paginate({ path: PAYOUT.path, qs: { 'createdAt.gte': since } }, { returnAll: false, limit });
	const history: PayeeHistory = { since, read: records.length, complete: records.length < limit, byAccount: new Map(), byKey: new Map(), byName: new Map(), byReference: new Map() };
	// Newest first: the first payout seen for a key is its last one. Sorted here too, in case a list is not.
	const created = (record: IDataObject) => (typeof record.createdAt === 'string' ? DateTime.fromISO(record.createdAt).toMillis() || 0 : 0);
	const sorted = [...records].sort((a, b) => created(b) - created(a));
	for (const record of sorted) {
		const reference = typeof record.reference === 'string' ? record.reference : '';
		if (reference !== '' && !history.byReference.has(reference)) history.byReference.set(reference, record);
		const payout = readListedPayout(record);
		if (typeof payout === 'string' || !payout.live) continue;
		const earlier: EarlierPayout = {
			reference: payout.reference,
			value: payout.value,
			currency: payout.currency,
			account: `${payout.accountNumber}@${payout.bankId}`,
			...(typeof record.createdAt === 'string' ? { createdAt: record.createdAt } : {}),
		};
		if (!history.byAccount.has(earlier.account)) history.byAccount.set(earlier.account, earlier);
		const metadata = record.metadata !== null && typeof record.metadata === 'object' ? (record.metadata as IDataObject) : {};
		const key = typeof metadata[PAYEE_METADATA.key] === 'string' ? String(metadata[PAYEE_METADATA.key]).trim() : '';
		if (key !== '' && !history.byKey.has(key)) history.byKey.set(key, earlier);
		const name = typeof metadata[PAYEE_METADATA.name] === 'string' ? nameKey(String(metadata[PAYEE_METADATA.name])) : '';
		if (name !== '' && !history.byName.has(name)) history.byName.set(name, earlier);
	}
	return history;
}

/** A flag on a new payout: its code and why, in the approver's words. */
export interface PayoutFlag {
	code: 'NEW_PAYEE' | 'ACCOUNT_CHANGED' | 'AMOUNT_CHANGED' | 'SHARED_ACCOUNT' | 'NAME_NOT_CHECKED';
	message: string;
}

/** What the flags need to know of a row. */
export interface FlaggedRow {
	row: number;
	amount: number;
	currency: Currency;
	destinationAccountNumber: string;
	bankId: string;
	bankName?: string;
	payeeName?: string;
	payeeKey?: string;
}

const day = (iso?: string) => (iso ? (DateTime.fromISO(iso).toISODate() ?? iso) : 'an earlier day');

/**
 * The flags of the new payouts `rows`, by row, against `history` and each other: `every` is every
 * payout of the batch (new or paid before), for `SHARED_ACCOUNT`. Each message leaves out what
 * the row's own columns show (its account and bank).
 */
export function flagRows<T extends FlaggedRow>(rows: T[], every: FlaggedRow[], history: PayeeHistory | undefined, amountChangePercent: number): Map<T, PayoutFlag[]> {
	const flags = new Map<T, PayoutFlag[]>();
	const rowsByAccount = new Map<string, number[]>();
	for (const row of every) {
		const account = `${row.destinationAccountNumber}@${row.bankId}`;
		rowsByAccount.set(account, [...(rowsByAccount.get(account) ?? []), row.row]);
	}
	const window = history ? `since ${DateTime.fromSeconds(history.since).toISODate()}${history.complete ? '' : `, in the newest ${history.read} payouts read`}` : '';
	for (const row of rows) {
		const found: PayoutFlag[] = [];
		const account = `${row.destinationAccountNumber}@${row.bankId}`;
		if (history) {
			const lastToAccount = history.byAccount.get(account);
			if (!lastToAccount) found.push({ code: 'NEW_PAYEE', message: `New payee: this account at this bank was never paid (${window})` });
			const who = row.payeeKey ? history.byKey.get(row.payeeKey) : undefined;
			const byName = !who && row.payeeName ? history.byName.get(nameKey(row.payeeName)) : undefined;
			const person = who ?? byName;
			const label = who ? `${row.payeeKey}` : (row.payeeName ?? '');
			if (person && person.account !== account) {
				const [number] = person.account.split('@');
				found.push({ code: 'ACCOUNT_CHANGED', message: `Account changed: ${label} was last paid into ${number} (${person.reference}, ${day(person.createdAt)})` });
			}
			const last = person ?? lastToAccount;
			if (last && last.currency === row.currency && last.value > 0) {
				const change = ((row.amount - last.value) / last.value) * 100;
				if (Math.abs(change) > amountChangePercent) {
					const show = (kobo: number) => formatMainUnits(fromSmallestUnit(kobo, row.currency), row.currency);
					found.push({
						code: 'AMOUNT_CHANGED',
						message: `Amount changed: ${show(row.amount)}, last ${show(last.value)} (${last.reference}, ${day(last.createdAt)}): ${change > 0 ? '+' : ''}${Math.round(change)}%`,
					});
				}
			}
		}
		const shared = (rowsByAccount.get(account) ?? []).filter((other) => other !== row.row);
		if (shared.length > 0) found.push({ code: 'SHARED_ACCOUNT', message: `Same account as row${shared.length === 1 ? '' : 's'} ${shared.join(', ')}` });
		if (!row.payeeName) found.push({ code: 'NAME_NOT_CHECKED', message: "Name not checked: no Expected Account Name, so nobody compared the holder's name with your records" });
		if (found.length > 0) flags.set(row, found);
	}
	return flags;
}
