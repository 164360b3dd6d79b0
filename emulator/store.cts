/**
 * In-memory state: one table per resource, kept in creation order (seeded rows first), with
 * indexes by id and by merchant reference.
 */
import type {
	AccountRequest,
	AccountRequestMeta,
	Currency,
	DedicatedAccount,
	DedicatedAccountMeta,
	Invoice,
	InvoiceMeta,
	Payment,
	PaymentMeta,
	Payout,
	TaxRate,
} from './models.cjs';
import { randomInt } from 'crypto';

import { mulberry32, randomDigits, randomHex, type Rng } from './prng.cjs';

export interface Row<T, M> {
	readonly obj: T;
	/** Creation time, Unix seconds (what the `createdAt.*` list filters compare). */
	readonly createdAt: number;
	readonly meta: M;
	/** When it was created while running (ms, real clock): lists show it `listLagMs` later. Seeded rows have none. */
	readonly addedAt?: number;
}

/**
 * A seeded row whose object is built on first use: generating 100,000 records then only costs
 * their ids, references and times; the rest is made when a list, a lookup or a test reads it.
 */
export class LazyRow<T, M> implements Row<T, M> {
	private value?: { obj: T; meta: M };

	constructor(
		readonly createdAt: number,
		private readonly index: number,
		private readonly build: (index: number) => { obj: T; meta: M },
	) {}

	get obj(): T {
		return (this.value ??= this.build(this.index)).obj;
	}

	get meta(): M {
		return (this.value ??= this.build(this.index)).meta;
	}
}

export class Table<T extends object, M = undefined> {
	readonly rows: Array<Row<T, M>> = [];
	/** How long after its create a row shows in the lists (ms; the emulator's `listLagMs`). */
	listLagMs = 0;
	private readonly byKey = new Map<string, Row<T, M>>();
	private readonly byReference = new Map<string, Row<T, M>>();

	constructor(
		private readonly keyField: keyof T & string,
		private readonly referenceField?: keyof T & string,
	) {}

	add(obj: T, createdAt: number, meta: M): Row<T, M> {
		const row = { obj, createdAt, meta, addedAt: Date.now() };
		this.rows.push(row);
		this.byKey.set(String(obj[this.keyField]), row);
		if (this.referenceField) this.byReference.set(String(obj[this.referenceField]), row);
		return row;
	}

	/** Adds a row whose object is built later; its key and reference must be known now. */
	addLazy(key: string, reference: string | undefined, row: LazyRow<T, M>): void {
		this.rows.push(row);
		this.byKey.set(key, row);
		if (this.referenceField && reference !== undefined) this.byReference.set(reference, row);
	}

	get(key: string): Row<T, M> | undefined {
		return this.byKey.get(key);
	}

	getByReference(reference: string): Row<T, M> | undefined {
		return this.byReference.get(reference);
	}

	clear(): void {
		this.rows.length = 0;
		this.byKey.clear();
		this.byReference.clear();
	}

	hasKey(key: string): boolean {
		return this.byKey.has(key);
	}

	/** By id first, then by reference. */
	find(idOrReference: string): Row<T, M> | undefined {
		return this.byKey.get(idOrReference) ?? this.byReference.get(idOrReference);
	}

	get size(): number {
		return this.rows.length;
	}
}

/** Invoice numbers: `INV-000001`, `INV-000002`, ... */
export function invoiceNumber(sequence: number): string {
	return `INV-${String(sequence).padStart(6, '0')}`;
}

/** Plenty for any test; `PUT /__emulator/balance` lowers it to provoke "insufficient balance". */
const DEFAULT_BALANCE = 1_000_000_000_000_000;

export class Store {
	readonly invoices = new Table<Invoice, InvoiceMeta>('id', 'reference');
	readonly payments = new Table<Payment, PaymentMeta>('id', 'reference');
	readonly payouts = new Table<Payout>('id', 'reference');
	readonly dedicatedAccounts = new Table<DedicatedAccount, DedicatedAccountMeta>('id');
	readonly accountRequests = new Table<AccountRequest, AccountRequestMeta>('accountRequestCode');
	readonly taxRates = new Table<TaxRate>('id');
	/** Available balance per currency, smallest unit; payouts draw on it. */
	readonly balances: Record<Currency, number> = { NGN: DEFAULT_BALANCE, USD: DEFAULT_BALANCE };
	/** Invoice numbers are sequential. */
	invoiceCount = 0;
	/**
	 * Ids and tokens of objects created while running: one stream per emulator, salted at random and
	 * never rewound (not by `clear` either), so no two emulators and no two resets give one id twice,
	 * as Paycashless never does. Seeded records have streams of their own (seed.cts).
	 */
	private readonly idRng: Rng;

	constructor(seedValue: number) {
		this.idRng = mulberry32((seedValue ^ 0x5eed1d5 ^ randomInt(0x7fffffff)) >>> 0);
	}

	/** Lists show a row created while running this long after its create (ms; 0: at once). */
	setListLag(ms: number): void {
		for (const table of [this.invoices, this.payments, this.payouts, this.dedicatedAccounts, this.accountRequests, this.taxRates]) table.listLagMs = ms;
	}

	/** Empties every table and restores balances and counters (the instance stays the same). */
	clear(): void {
		for (const table of [this.invoices, this.payments, this.payouts, this.dedicatedAccounts, this.accountRequests, this.taxRates]) table.clear();
		this.balances.NGN = DEFAULT_BALANCE;
		this.balances.USD = DEFAULT_BALANCE;
		this.invoiceCount = 0;
	}

	/** A fresh id (`prefix` + 24 hex), unique in `table`. */
	newId(prefix: string, table: { hasKey(key: string): boolean }): string {
		for (;;) {
			const id = prefix + randomHex(this.idRng, 24);
			if (!table.hasKey(id)) return id;
		}
	}

	/** Random hex from the store's own stream (tokens, item ids). */
	hex(length: number): string {
		return randomHex(this.idRng, length);
	}

	digits(length: number): string {
		return randomDigits(this.idRng, length);
	}

	nextInvoiceNumber(): string {
		this.invoiceCount += 1;
		return invoiceNumber(this.invoiceCount);
	}
}
