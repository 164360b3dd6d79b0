/**
 * Pure checks of user input, run before any request is sent. They know nothing about n8n: a
 * failed check throws `InvalidInputError`, which the router turns into a `NodeOperationError`
 * carrying the item index. Every message names the field, the value and what is allowed.
 */
import type { IDataObject } from 'n8n-workflow';

export class InvalidInputError extends Error {
	constructor(
		/** The field's display name, e.g. `Amount`. */
		readonly field: string,
		message: string,
	) {
		super(message);
		this.name = 'InvalidInputError';
	}
}

/** The value as a user would recognise it in a message: quoted text, bounded in length. */
export function showValue(value: unknown): string {
	if (value === undefined || value === null || value === '') return '(empty)';
	let text: string;
	if (typeof value === 'string') text = JSON.stringify(value);
	else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
	else {
		try {
			text = JSON.stringify(value);
		} catch {
			text = String(value);
		}
	}
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Throws `InvalidInputError`: "Invalid <field> <value>: <allowed>". */
export function invalid(field: string, value: unknown, allowed: string): never {
	throw new InvalidInputError(field, `Invalid ${field} ${showValue(value)}: ${allowed}`);
}

/** A required text: trimmed, not empty. Numbers are accepted and turned into text. */
export function requireText(value: unknown, field: string, allowed = 'a value is required'): string {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string' || value.trim() === '') invalid(field, value, allowed);
	return (value as string).trim();
}

/** What a reference may be, said in every refusal of one. */
const REFERENCE_ALLOWED =
	'use text that is not "." or ".." (also percent-encoded, %2E), without control characters (tabs, line breaks): a URL path drops or changes those, so the node could not look the object up by its reference (letters, digits, - and _ are always safe)';

/**
 * A reference: required text (trimmed) that survives a URL path unchanged, because the node finds
 * a create again by it (`/v1/payouts/verify/<reference>`, `/v1/payments/<reference>/verify`): not
 * `.` or `..`, also once percent-decoded (a URL resolves them away, so Paycashless would be asked
 * for another path and answer "not found"), no control character, no unpaired UTF-16 surrogate
 * (it cannot be encoded into a URL at all).
 */
export function requireReference(value: unknown, field = 'Reference'): string {
	const reference = requireText(value, field);
	let decoded = reference;
	for (let round = 0; round < 3; round++) {
		try {
			const next = decodeURIComponent(decoded);
			if (next === decoded) break;
			decoded = next;
		} catch {
			break;
		}
	}
	// eslint-disable-next-line no-control-regex
	const control = /[\u0000-\u001f\u007f]/;
	const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
	if (/^\.{1,2}$/.test(decoded.trim()) || control.test(reference) || loneSurrogate.test(reference)) invalid(field, reference, REFERENCE_ALLOWED);
	return reference;
}

/** An optional text: trimmed, `undefined` when empty or not given. */
export function optionalText(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string') return undefined;
	const trimmed = value.trim();
	return trimmed === '' ? undefined : trimmed;
}

/** The pattern an ID with `prefix` must match (also used by the resource locators' ID mode). */
export function idPattern(prefix: string): string {
	return `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[A-Za-z0-9_-]+$`;
}

/** A Paycashless object id: required, and starting with its prefix (e.g. `po_`). */
export function requireId(value: unknown, prefix: string, field: string): string {
	const example = `${prefix}abc123`;
	const id = requireText(value, field, `an ID starting with "${prefix}" is required, e.g. ${example}`);
	if (!new RegExp(idPattern(prefix)).test(id)) {
		invalid(field, id, `use an ID that starts with "${prefix}" followed by letters or digits, e.g. ${example}`);
	}
	return id;
}

/** A list of ids given as text separated by commas (or as an array), each with its prefix. */
export function idList(value: unknown, prefix: string, field: string): string[] {
	let parts: unknown[];
	if (Array.isArray(value)) parts = value;
	else if (typeof value === 'string') parts = value.split(',');
	else if (value === undefined || value === null) parts = [];
	else return invalid(field, value, `use IDs starting with "${prefix}", separated by commas`);
	return parts
		.map((part) => (typeof part === 'string' ? part.trim() : part))
		.filter((part) => part !== '')
		.map((part) => requireId(part, prefix, field));
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requireEmail(value: unknown, field: string): string {
	const email = requireText(value, field, 'an e-mail address is required, e.g. ada@example.com');
	if (!EMAIL.test(email)) invalid(field, email, 'use an e-mail address such as ada@example.com');
	return email;
}

/** An integer within bounds (inclusive). Accepts numeric text from expressions. */
export function requireInteger(value: unknown, field: string, min: number, max?: number): number {
	const range = max === undefined ? `${min} or more` : `from ${min} to ${max}`;
	const allowed = `use a whole number ${range}`;
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : value;
	if (typeof number !== 'number' || !Number.isInteger(number)) return invalid(field, value, allowed);
	if (number < min || (max !== undefined && number > max)) return invalid(field, value, allowed);
	return number;
}

/** A number within bounds (inclusive), decimals allowed. */
export function requireNumber(value: unknown, field: string, min: number, max: number): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : value;
	if (typeof number !== 'number' || !Number.isFinite(number) || number < min || number > max) {
		return invalid(field, value, `use a number from ${min} to ${max}`);
	}
	return number;
}

/** A calendar date written YYYY-MM-DD that exists (no 2001-02-30). */
export function requireCalendarDate(value: unknown, field: string): string {
	const allowed = 'use a real date written YYYY-MM-DD, e.g. 1990-04-25';
	const text = requireText(value, field, allowed);
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
	if (!match) return invalid(field, text, allowed);
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	if (year < 1900 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
		return invalid(field, text, allowed);
	}
	return text;
}

/** A Nigerian bank account number (NUBAN) has 10 digits. */
export const NUBAN_DIGITS = 10;
/** A Bank Verification Number has 11 digits. */
export const BVN_DIGITS = 11;
/** Narration of a transfer: NIP carries at most 100 characters. */
export const MAX_NARRATION = 100;

/**
 * Digits only, required; with `length`, exactly that many digits (a number) or between `min` and
 * `max` digits. Example values say what a right one looks like.
 */
export function requireDigits(
	value: unknown,
	field: string,
	example: string,
	length?: number | { min: number; max: number },
): string {
	const { min, max } = typeof length === 'number' ? { min: length, max: length } : (length ?? { min: 1, max: Infinity });
	const count = min === max ? `exactly ${min} digits` : max === Infinity ? 'digits only' : `${min} to ${max} digits`;
	const text = requireText(value, field, `${count} are required, e.g. ${example}`);
	if (!/^\d+$/.test(text) || text.length < min || text.length > max) invalid(field, text, `use ${count}, e.g. ${example}`);
	return text;
}

/** One of a fixed list of values (options set through an expression are checked here too). */
export function requireOneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
	if (typeof value !== 'string' || !allowed.includes(value as T)) {
		return invalid(field, value, `use one of ${allowed.join(', ')}`);
	}
	return value as T;
}

/** Text of at most `max` characters (undefined when empty). */
export function optionalTextUpTo(value: unknown, field: string, max: number): string | undefined {
	const text = optionalText(value);
	if (text !== undefined && [...text].length > max) invalid(field, text, `use at most ${max} characters (this has ${[...text].length})`);
	return text;
}

/**
 * A JSON object given as text (or already parsed, as n8n does for `json` fields set by an
 * expression). Empty text is an empty object.
 */
export function parseJsonObject(value: unknown, field: string): IDataObject {
	const allowed = 'use a JSON object, e.g. {"key": "value"}';
	if (value === undefined || value === null) return {};
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return {};
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			return invalid(field, value, `${allowed} (${(error as Error).message})`);
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return invalid(field, value, allowed);
	return parsed as IDataObject;
}

/** A full web address starting with http:// or https://, with a host and no spaces. */
export function requireUrl(value: unknown, field: string): string {
	const allowed = 'use a full URL starting with https:// (or http://)';
	const text = requireText(value, field, allowed);
	let parsed: URL | undefined;
	try {
		parsed = new URL(text);
	} catch {
		parsed = undefined;
	}
	if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.hostname === '' || /\s/.test(text) || !/^https?:\/\//i.test(text)) {
		invalid(field, text, allowed);
	}
	return text;
}

/** An optional URL field: undefined when empty, otherwise checked like `requireUrl`. */
export function optionalUrl(value: unknown, field: string): string | undefined {
	return optionalText(value) === undefined ? undefined : requireUrl(value, field);
}

/** CBN codes have 3 digits (058), NIBSS institution codes 5 or 6 (000013, 50211). */
export function requireBankCode(value: unknown, field: string): string {
	return requireDigits(value, field, '058 (CBN) or 000013 (NIBSS)', { min: 3, max: 6 });
}
