/**
 * Event keys: the stable name of one event, `<object kind>:<object id>:<status>`, given the same
 * by the Paycashless Trigger (a callback) and the Paycashless Poll Trigger (a list), with the
 * object kinds from the catalog (objects.ts).
 */
import { LISTED_OBJECTS } from './objects';

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
