import type { INodePropertyOptions } from 'n8n-workflow';

import { LISTED_OBJECTS } from '../catalog/objects';

/** The value of "All Events" in the Events list. */
export const ALL_EVENTS = '*';

/**
 * Event names known to be sent by Paycashless (seen in production integrations). Paycashless has
 * not published its full catalogue, so other names are accepted through "Other Event Names".
 */
export const KNOWN_EVENT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'All Events',
		value: ALL_EVENTS,
		description: 'Any event Paycashless sends, including ones not listed here',
	},
	{
		name: 'Invoice Paid',
		value: 'INVOICE_PAID',
		description: 'An invoice is fully paid (data is the whole invoice)',
	},
	{
		name: 'Invoice Payment Succeeded',
		value: 'INVOICE_PAYMENT_SUCCEEDED',
		description: 'One payment or one instalment against an invoice succeeded',
	},
];

function normalise(name: string): string {
	return name.trim().toUpperCase();
}

/** Splits a comma-separated (or newline-separated) list of names (events, statuses); empty entries are dropped. */
export function parseNameList(text: unknown): string[] {
	if (text === undefined || text === null || text === '') return [];
	return String(text)
		.split(/[,\n]/)
		.map((name) => name.trim())
		.filter((name) => name.length > 0);
}

/**
 * Returns a predicate telling whether an event starts the workflow. Matching ignores letter case
 * and surrounding spaces. "All Events" matches everything; so does an empty selection with no
 * other names (a trigger that can never fire would only confuse).
 */
export function eventMatcher(selected: string[] | undefined, otherEventNames: string | undefined): (event: string) => boolean {
	const names = [...(selected ?? []), ...parseNameList(otherEventNames)].map(normalise).filter((n) => n);
	if (names.length === 0 || names.includes(ALL_EVENTS)) return () => true;
	const wanted = new Set(names);
	return (event: string) => wanted.has(normalise(event));
}

/**
 * Object kinds by id prefix, as they appear in event keys. Both triggers name an object the same
 * way, so an event seen by the Paycashless Trigger (a callback) and by the Paycashless Poll
 * Trigger (a list) gets the same key.
 */
const OBJECT_KIND_BY_PREFIX: Readonly<Record<string, string>> = Object.freeze(
	Object.fromEntries(Object.values(LISTED_OBJECTS).map((object) => [object.idPrefix, object.eventKind])),
);

/** The status slot of an event key for "a new record appeared", whatever its status. */
export const CREATED_STATUS = 'created';

function keyPart(value: string): string {
	return value.trim().toLowerCase();
}

/**
 * The stable key of one event: `<object kind>:<object id>:<status>`, e.g.
 * `payment:pi_0a1b…:succeeded`. The same object reaching the same status always gives the same
 * key, whichever trigger saw it and however often it was delivered; put n8n's Remove Duplicates
 * node on the `eventKey` field to act once per event across both triggers.
 */
export function eventKey(kind: string, id: string, status: string): string {
	return `${keyPart(kind)}:${id.trim()}:${keyPart(status)}`;
}

/**
 * The event key of a callback, from its data: the kind from the id's prefix (or, for an unknown
 * prefix, the event name without its last word), the status from `data.status` (or the event
 * name's last word, e.g. INVOICE_PAYMENT_SUCCEEDED → succeeded). `undefined` when the data has
 * no id.
 */
export function callbackEventKey(event: string, data: unknown): string | undefined {
	if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
	const { id, status } = data as { id?: unknown; status?: unknown };
	if (typeof id !== 'string' || id.trim() === '') return undefined;
	const words = event.trim().toLowerCase().split('_').filter((word) => word !== '');
	const prefix = Object.keys(OBJECT_KIND_BY_PREFIX).find((p) => id.trim().startsWith(p));
	const kind = prefix ? OBJECT_KIND_BY_PREFIX[prefix] : words.slice(0, -1).join('_') || 'object';
	const statusText = typeof status === 'string' && status.trim() !== '' ? status : words[words.length - 1] ?? 'unknown';
	return eventKey(kind, id, statusText);
}
