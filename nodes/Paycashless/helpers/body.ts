/** Building request bodies and queries from parameters (pure). */
import type { IDataObject } from 'n8n-workflow';

import { invalid, parseJsonObject } from './validation';

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

/**
 * Merges the "Additional Body Fields (JSON)" escape hatch into a body, last, so fields the API
 * adds later can be sent; nested objects are merged key by key.
 */
export function mergeAdditionalBody(body: IDataObject, json: unknown, field = 'Additional Body Fields (JSON)'): IDataObject {
	return deepMerge(body, parseJsonObject(json, field));
}

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepMerge(target: IDataObject, source: IDataObject): IDataObject {
	const result: IDataObject = { ...target };
	for (const [key, value] of Object.entries(source)) {
		const existing = result[key];
		result[key] = isPlainObject(existing) && isPlainObject(value) ? deepMerge(existing, value) : value;
	}
	return result;
}
