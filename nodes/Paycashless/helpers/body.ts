/** Building request bodies and queries from parameters (pure). */
import type { IDataObject } from 'n8n-workflow';

import { CURRENCIES } from './amount';
import {
	invalid,
	MAX_NARRATION,
	NUBAN_DIGITS,
	optionalTextUpTo,
	parseJsonObject,
	requireDigits,
	requireEmail,
	requireId,
	requireInteger,
	requireOneOf,
	requireText,
	requireUrl,
} from './validation';

/** Copy without `undefined`, `null` and empty-string members (top level only). */
export function compact(object: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(object)) {
		if (value !== undefined && value !== null && value !== '') result[key] = value;
	}
	return result;
}

/**
 * Metadata from the key/value fixedCollection `{ metadataValues: [{ key, value }] }`.
 * Returns `undefined` when no pair was given. Keys must be non-empty and unique.
 */
export function metadataFromPairs(collection: unknown, field = 'Metadata'): IDataObject | undefined {
	const pairs = (collection as { metadataValues?: unknown } | undefined)?.metadataValues;
	if (!Array.isArray(pairs) || pairs.length === 0) return undefined;
	const metadata: IDataObject = {};
	for (const pair of pairs as Array<{ key?: unknown; value?: unknown }>) {
		const key = typeof pair?.key === 'string' ? pair.key.trim() : '';
		if (!key) invalid(`${field} Key`, pair?.key, 'every metadata pair needs a key');
		if (key in metadata) invalid(`${field} Key`, key, 'each key may appear only once');
		metadata[key] = (pair.value ?? '') as IDataObject[string];
	}
	return metadata;
}

type BodyRule = (value: unknown, field: string) => void;

const positiveInteger = (min: number, max?: number): BodyRule => (value, field) => {
	requireInteger(value, field, min, max);
};

/**
 * The checks of the body fields the node sends itself, applied again to whatever "Additional
 * Body Fields (JSON)" puts in their place: raw JSON gets no way around them.
 */
const BODY_RULES: Record<string, BodyRule> = {
	reference: (value, field) => {
		requireText(value, field, 'a reference is required: the text that identifies this object');
	},
	currency: (value, field) => {
		requireOneOf(value, field, CURRENCIES);
	},
	amount: (value, field) => {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			invalid(field, value, 'use an object such as {"value": 150050, "currency": "NGN"} (value in the smallest unit)');
		}
		const amount = value as IDataObject;
		requireInteger(amount.value, `${field}.value`, 1);
		if (amount.currency !== undefined) requireOneOf(amount.currency, `${field}.currency`, CURRENCIES);
	},
	callbackUrl: (value, field) => {
		requireUrl(value, field);
	},
	returnUrl: (value, field) => {
		requireUrl(value, field);
	},
	narration: (value, field) => {
		if (typeof value !== 'string') invalid(field, value, 'use text');
		optionalTextUpTo(value, field, MAX_NARRATION);
	},
	destinationAccountNumber: (value, field) => {
		requireDigits(value, field, '0123456789', NUBAN_DIGITS);
	},
	bankId: (value, field) => {
		requireId(value, 'bank_', field);
	},
	customer: (value, field) => {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid(field, value, 'use an object with email and name');
		const customer = value as IDataObject;
		if (customer.email !== undefined) requireEmail(customer.email, `${field}.email`);
	},
	daysUntilDue: positiveInteger(1, 1800),
	expiresIn: positiveInteger(1),
	maxInstallments: positiveInteger(2),
	items: (value, field) => {
		if (!Array.isArray(value) || value.length === 0) invalid(field, value, 'use a list of at least one item');
		(value as unknown[]).forEach((item, index) => {
			const row = (item ?? {}) as IDataObject;
			requireText(row.name, `${field}[${index}].name`);
			requireInteger(row.quantity, `${field}[${index}].quantity`, 1);
			requireInteger(row.price, `${field}[${index}].price`, 0);
		});
	},
};

/**
 * Merges the "Additional Body Fields (JSON)" escape hatch into a body, last, so fields the API
 * adds later can be sent; nested objects are merged key by key. A field the node itself sends is
 * checked again after the merge, by the same rule as the form field, and named as coming from
 * the JSON (e.g. `Additional Body Fields (JSON) → amount.value`).
 */
export function mergeAdditionalBody(body: IDataObject, json: unknown, field = 'Additional Body Fields (JSON)'): IDataObject {
	const extra = parseJsonObject(json, field);
	const merged = deepMerge(body, extra);
	for (const key of Object.keys(extra)) {
		const rule = Object.prototype.hasOwnProperty.call(BODY_RULES, key) ? BODY_RULES[key] : undefined;
		rule?.(merged[key], `${field} → ${key}`);
	}
	return merged;
}

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepMerge(target: IDataObject, source: IDataObject): IDataObject {
	const result: IDataObject = { ...target };
	for (const [key, value] of Object.entries(source)) {
		const existing = result[key];
		result[key] = isObject(existing) && isObject(value) ? deepMerge(existing, value) : value;
	}
	return result;
}
