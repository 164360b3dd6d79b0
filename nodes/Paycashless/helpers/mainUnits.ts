/**
 * Money in outputs, in the unit people type. Paycashless answers in the smallest unit (kobo,
 * cents), the node's Amount fields take main units (naira, dollars): an output `amount: 100000`
 * dragged into a later Amount would pay 100 times too much. Every object of an output that holds
 * money and knows its currency therefore also gets `inMainUnits`: the same amounts in main units
 * with the currency named, e.g. `inMainUnits: { currency: 'NGN', amount: 1000, fee: 10, vat: 0.75 }`.
 * The API's own fields are kept as they are, for those who need kobo.
 */
import type { IDataObject } from 'n8n-workflow';

import { CURRENCIES, MINOR_UNIT_DIGITS, type Currency } from './amount';
import { isObject } from './body';

/** The key every object with money gets. */
export const MAIN_UNITS_KEY = 'inMainUnits';

/** Paycashless's money fields (integers in the smallest unit), as its responses name them. */
const MONEY_FIELDS = [
	'amount',
	'amountDue',
	'amountPaid',
	'totalInclusiveTaxAmount',
	'totalExclusiveTaxAmount',
	'price',
	'expectedAmount',
	'chargedAmount',
	'fee',
	'vat',
	'emtl',
] as const;

function asCurrency(value: unknown): Currency | undefined {
	const text = typeof value === 'string' ? value.trim().toUpperCase() : '';
	return (CURRENCIES as readonly string[]).includes(text) ? (text as Currency) : undefined;
}

/**
 * An integer amount in the smallest unit as a number in main units (150050 → 1500.5). Dividing an
 * integer by 100 gives the double nearest the exact quotient, which is the double the text
 * "1500.5" reads as: typed back into an Amount field it converts to the same kobo.
 */
export function fromSmallestUnit(value: number, currency: Currency): number {
	return value / 10 ** MINOR_UNIT_DIGITS[currency];
}

/** `1500.5` → `NGN 1,500.50`. */
export function formatMainUnits(value: number, currency: Currency): string {
	const digits = MINOR_UNIT_DIGITS[currency];
	return `${currency} ${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

/** The money of one object in main units, or undefined when it has none it can convert. */
function mainUnitsOf(object: IDataObject, inherited: Currency | undefined): IDataObject | undefined {
	const own = asCurrency(object.currency) ?? inherited;
	const result: IDataObject = {};
	let currency: Currency | undefined;
	for (const field of MONEY_FIELDS) {
		const raw = object[field];
		// A nested amount (`amount: { value, currency }`) names its own currency.
		const value = isObject(raw) ? raw.value : raw;
		const fieldCurrency = isObject(raw) ? (asCurrency(raw.currency) ?? own) : own;
		if (typeof value !== 'number' || !Number.isSafeInteger(value) || !fieldCurrency) continue;
		if (currency && currency !== fieldCurrency) continue;
		currency = fieldCurrency;
		result[field] = fromSmallestUnit(value, fieldCurrency);
	}
	if (!currency) return undefined;
	return { currency, ...result };
}

/**
 * `value` with `inMainUnits` added to every object in it that has money and a currency (its own
 * or an enclosing object's: an invoice's line items take the invoice's). It goes just before the
 * object's first money field, so it shows beside `amount` in n8n's views of a long record, not
 * last; an object that has it before its money fields keeps it there, recomputed (a Get Many
 * puts it among the fields a person reads first). Nothing else changes; the input is not modified.
 */
export function withMainUnits<T>(value: T, inherited?: Currency): T {
	if (Array.isArray(value)) return value.map((entry) => withMainUnits(entry, inherited)) as T;
	if (!isObject(value)) return value;
	const object = value as IDataObject;
	const currency = asCurrency(object.currency) ?? inherited;
	const main = mainUnitsOf(object, inherited);
	const copy: IDataObject = {};
	for (const [key, entry] of Object.entries(object)) {
		if (main && key === MAIN_UNITS_KEY) {
			copy[MAIN_UNITS_KEY] = main;
			continue;
		}
		if (main && copy[MAIN_UNITS_KEY] === undefined && (MONEY_FIELDS as readonly string[]).includes(key)) copy[MAIN_UNITS_KEY] = main;
		// The user's own metadata is theirs: left as given.
		copy[key] = key === MAIN_UNITS_KEY || key === 'metadata' ? entry : withMainUnits(entry, currency);
	}
	if (main && copy[MAIN_UNITS_KEY] === undefined) copy[MAIN_UNITS_KEY] = main;
	return copy as T;
}

/** `{ inMainUnits }` for a trigger item: the money of the callback's or record's `data`, beside it (the signed data is left as signed). */
export function mainUnitsField(data: unknown): IDataObject {
	const main = isObject(data) ? mainUnitsOf(data, undefined) : undefined;
	return main ? { [MAIN_UNITS_KEY]: main } : {};
}
