/**
 * Reading parameters that several operations share, with their checks. The only layer that
 * knows both the n8n parameters and the request shapes; it sends nothing itself.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { CREATED_AT_QUERY, createdAtFilterFields, REFERENCE_PREFIX_FILTER } from './fields/listFilters';
import { CURRENCIES, toSmallestUnit } from '../helpers/amount';
import { mergeAdditionalBody, metadataFromPairs } from '../helpers/body';
import { toUnixSeconds } from '../helpers/dates';
import { withMainUnits } from '../helpers/mainUnits';
import { optionalText, requireId, requireInteger, requireOneOf } from '../helpers/validation';
import type { ReferencedObject } from '../catalog/objects';
import type { KeyField, ListOptions } from '../transport';
import type { FoundByReference, OperationRef } from './types';
import { itemParameter } from '../money/itemParameters';
import type { NodeRun } from './run';

/** `{ value, currency }` from the Amount, Currency and Amount in Smallest Unit fields. */
export function readAmount(run: NodeRun, i: number): { value: number; currency: string } {
	const currency = requireOneOf(itemParameter(run.money, 'currency', i), 'Currency', CURRENCIES);
	const inSmallestUnit = itemParameter(run.money, 'amountInSmallestUnit', i, false) as boolean;
	const value = toSmallestUnit(itemParameter(run.money, 'amount', i), { field: 'Amount', currency, inSmallestUnit });
	return { value, currency };
}

/** The value of an amount, flat (`amount: 100`) or nested (`amount: { value: 100 }`). */
export function amountValue(value: unknown): unknown {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IDataObject).value : value;
}

/** The currency of a nested amount (`amount: { currency }`). */
export function amountCurrency(value: unknown): unknown {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IDataObject).currency : undefined;
}

/** Return All and Limit, with Limit checked (1 or more). */
export function readListOptions(this: IExecuteFunctions, i: number): ListOptions {
	const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
	if (returnAll) return { returnAll, limit: Number.POSITIVE_INFINITY };
	const limit = requireInteger(this.getNodeParameter('limit', i, 50), 'Limit', 1);
	return { returnAll, limit };
}

/**
 * The query of a list from its "Filters" collection: text filters as given (trimmed),
 * creation-time bounds as `createdAt.*` Unix seconds in the workflow's time zone, and a status
 * checked against `statuses` when the API documents the whole list (an expression may give any).
 * Reference Starts With is never sent, nor Reference where the list has no such filter
 * (`sendsReference` false): `referenceFilter` applies them to what the list returns.
 */
export function readListFilters(this: IExecuteFunctions, i: number, statuses?: readonly string[], { sendsReference = true }: { sendsReference?: boolean } = {}): IDataObject {
	const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
	const qs: IDataObject = {};
	for (const [name, value] of Object.entries(filters)) {
		if (name === REFERENCE_PREFIX_FILTER || (name === 'reference' && !sendsReference)) continue;
		const query = CREATED_AT_QUERY[name];
		if (query) {
			if (value === '' || value === undefined || value === null) continue;
			const field = createdAtFilterFields.find((property) => property.name === name)?.displayName ?? name;
			qs[query] = toUnixSeconds(value, field, this.getTimezone());
		} else {
			const text = optionalText(value);
			if (text !== undefined) qs[name] = name === 'status' && statuses ? requireOneOf(text, 'Status', statuses) : text;
		}
	}
	return qs;
}

/**
 * Reference and Reference Starts With as a test of each listed record, or undefined when neither
 * is set: applied after the read (also to a Reference that was sent, in case the list ignored it).
 */
export function referenceFilter(this: IExecuteFunctions, i: number): ((record: IDataObject) => boolean) | undefined {
	const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
	const exact = optionalText(filters.reference);
	const prefix = optionalText(filters[REFERENCE_PREFIX_FILTER]);
	if (exact === undefined && prefix === undefined) return undefined;
	return (record) => {
		const reference = typeof record.reference === 'string' ? record.reference : '';
		return (exact === undefined || reference === exact) && (prefix === undefined || reference.startsWith(prefix));
	};
}

/**
 * Each record with its money in main units (`inMainUnits`) and `keys` first, in that order (those
 * it has), then its other keys as they came: n8n's table view makes its columns in key order, so
 * what a person reads first (reference, status, the amount in naira, who, when) comes first.
 */
export function readFirst(records: IDataObject[], keys: readonly string[]): IDataObject[] {
	return withMainUnits(records).map((record) => {
		const first: IDataObject = {};
		for (const key of keys) if (key in record) first[key] = record[key];
		return Object.assign(first, record);
	});
}

/** An ID from a resource locator (pasted or picked), checked against its prefix. */
export function readLocatorId(this: IExecuteFunctions, i: number, name: string, prefix: string, field: string): string {
	return requireId(this.getNodeParameter(name, i, '', { extractValue: true }), prefix, field);
}

/**
 * Finishes a create/update body: adds `metadata` from the key/value pairs of the collection
 * and merges "Additional Body Fields (JSON)" last.
 */
export function finishBody(body: IDataObject, fields: IDataObject): IDataObject {
	const metadata = metadataFromPairs(fields.metadata);
	const withMetadata = metadata ? { ...body, metadata } : body;
	return mergeAdditionalBody(withMetadata, fields.additionalBodyJson);
}

/**
 * A money movement found again by its reference with its Verify operation (`verify`: Payout →
 * Verify, Payment → Verify): everything of its declaration but the lookup and the fields that must agree.
 */
export function verifiedByReference(object: ReferencedObject, verify: OperationRef, sameAs: KeyField[]): FoundByReference {
	return {
		object: object.label,
		movesMoney: true,
		lookup: object.byReference,
		via: 'verify',
		findWith: { operation: verify, how: (reference) => `and the reference "${reference}"` },
		sameAs,
	};
}
