/**
 * Amounts: users type main units (1500.50 NGN), the API takes integers in the smallest unit
 * (150050 kobo). Converted with string arithmetic on the decimal representation, so no
 * floating-point rounding can change an amount; anything that cannot be converted exactly
 * (three decimals, negative, zero, too large) is refused rather than rounded.
 */
import { invalid } from './validation';

export const CURRENCIES = ['NGN', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Digits after the decimal point of each currency's main unit. */
export const MINOR_UNIT_DIGITS: Record<Currency, number> = { NGN: 2, USD: 2 };

const MAX_EXPONENT = 30;

interface DecimalParts {
	negative: boolean;
	/** Integer digits without leading zeros ('' for zero). */
	integer: string;
	/** Fraction digits without trailing zeros. */
	fraction: string;
}

/**
 * Splits a number or numeric text into exact decimal digits, expanding exponent notation
 * (`1e3`, `1.5E-2`). Returns `undefined` when the value is not a plain decimal number.
 * A JS number is read through `String(number)`, the shortest text that round-trips to it,
 * which is what the user typed for every amount a person would type.
 */
export function decimalParts(value: unknown): DecimalParts | undefined {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return undefined;
		text = String(value);
	} else if (typeof value === 'string') {
		text = value.trim();
	} else {
		return undefined;
	}
	const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
	if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined;
	const exponent = match[4] === undefined ? 0 : Number(match[4]);
	if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
	const digits = match[2] + (match[3] ?? '');
	let pointAt = match[2].length + exponent;
	let padded = digits;
	if (pointAt < 0) {
		padded = '0'.repeat(-pointAt) + padded;
		pointAt = 0;
	}
	if (pointAt > padded.length) padded = padded + '0'.repeat(pointAt - padded.length);
	return {
		negative: match[1] === '-',
		integer: padded.slice(0, pointAt).replace(/^0+/, ''),
		fraction: padded.slice(pointAt).replace(/0+$/, ''),
	};
}

export interface AmountOptions {
	/** Display name used in messages, e.g. `Amount` or `Item Price`. */
	field: string;
	/** Currency of the amount; decides the number of decimals (2 for NGN and USD). */
	currency?: string;
	/** When true the value is already in the smallest unit and must be a whole number. */
	inSmallestUnit?: boolean;
}

/** Converts an amount to a positive integer in the currency's smallest unit, exactly. */
export function toSmallestUnit(value: unknown, options: AmountOptions): number {
	const { field } = options;
	const decimals = MINOR_UNIT_DIGITS[options.currency as Currency] ?? 2;
	const allowed = options.inSmallestUnit
		? 'use a whole number greater than 0 in the smallest unit (kobo or cents), e.g. 150050 for 1,500.50'
		: `use a number greater than 0 with at most ${decimals} decimals, in the main unit (naira or dollars), e.g. 1500.50`;
	const parts = decimalParts(value);
	// "1,000.50" from an expression or a sheet: say what is wrong with it.
	if (!parts && typeof value === 'string' && /^\s*[\d,]+(\.\d*)?\s*$/.test(value) && value.includes(',')) {
		return invalid(field, value, `remove the thousands separators (,), e.g. ${value.replace(/,/g, '').trim()}; ${allowed}`);
	}
	if (!parts || parts.negative) return invalid(field, value, allowed);
	if (options.inSmallestUnit ? parts.fraction.length > 0 : parts.fraction.length > decimals) {
		return invalid(field, value, allowed);
	}
	const minorDigits = options.inSmallestUnit ? parts.integer : parts.integer + parts.fraction.padEnd(decimals, '0');
	const minor = BigInt(minorDigits === '' ? '0' : minorDigits);
	if (minor <= BigInt(0)) return invalid(field, value, allowed);
	if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return invalid(field, value, `the amount is too large; ${allowed}`);
	return Number(minor);
}
