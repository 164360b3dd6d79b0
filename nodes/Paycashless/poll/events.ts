/**
 * What the Paycashless Poll Trigger offers per resource, as its Event list shows it: the events
 * every resource has ("Reaches a Status", "New ...") and the ones with fixed statuses ("Payment
 * Succeeded"), built on the catalog's facts about each object (catalog/objects.ts: list path,
 * event prefix, statuses). The engine that polls is engine.ts.
 */
import { DEDICATED_ACCOUNT, INVOICE, PAYMENT, PAYOUT, type ListedObject, type ListedObjectName } from '../catalog/objects';

export type PollResource = ListedObjectName;

export interface ResourceSpec {
	/** Object kind in event keys (catalog/eventKeys.ts). */
	kind: string;
	/** List endpoint. */
	path: string;
	/** Event names: `<prefix>_<STATUS>`, `<prefix>_CREATED`. */
	eventPrefix: string;
	/** Known statuses; `undefined`: any value is sent as typed (not published for this list). */
	statuses?: readonly string[];
	/** In messages: "payment". */
	label: string;
	/** The Event list of this resource, sorted by name; `statuses` for an event with fixed statuses. */
	events: PollEventOption[];
	/** The Event chosen when the resource is picked. */
	defaultEvent: string;
}

/**
 * One entry of a resource's Event list. `created` and `status` (statuses the user picks) are
 * handled by every resource; any other event stands for its `statuses`.
 */
interface PollEventOption {
	name: string;
	value: string;
	description: string;
	statuses?: string[];
}

/** The Event entry "<Label> Reaches a Status" and "New <Label>" of every resource. */
function commonEvents(label: string, picked: string): PollEventOption[] {
	const title = label.replace(/(^|\s)\w/g, (first) => first.toUpperCase());
	const article = /^[aeiou]/.test(label) ? 'An' : 'A';
	return [
		{ name: `${title} Reaches a Status`, value: 'status', description: `${article} ${label} is in one of the statuses you ${picked}` },
		{ name: `New ${title}`, value: 'created', description: `${article} ${label} is created, whatever its status` },
	];
}

/** An event with fixed statuses, e.g. "Payment Succeeded". */
function statusEvent(name: string, value: string, statuses: string[], description: string): PollEventOption {
	return { name, value, statuses, description };
}

function sortedByName(events: PollEventOption[]): PollEventOption[] {
	return [...events].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A poll resource from its catalog entry (catalog/objects.ts): the common events, its events with
 * fixed statuses, and the event picked first.
 */
function resourceSpec(object: ListedObject, statusEvents: PollEventOption[], defaultEvent: string): ResourceSpec {
	const events = [...commonEvents(object.label, object.statusesPublished ? 'pick' : 'type'), ...statusEvents];
	return {
		kind: object.eventKind,
		path: object.path,
		eventPrefix: object.eventPrefix,
		statuses: object.statusesPublished ? object.statuses : undefined,
		label: object.label,
		events: sortedByName(events),
		defaultEvent,
	};
}

export const RESOURCES: Readonly<Record<PollResource, ResourceSpec>> = Object.freeze({
	payment: resourceSpec(
		PAYMENT,
		[
			statusEvent('Payment Failed or Expired', 'failedOrExpired', ['failed', 'expired'], 'A payment is in status failed or expired'),
			statusEvent('Payment Reversed', 'reversed', ['reversed'], 'A payment is in status reversed'),
			statusEvent('Payment Succeeded', 'succeeded', ['succeeded'], 'A payment is in status succeeded'),
		],
		'succeeded',
	),
	payout: resourceSpec(
		PAYOUT,
		[
			statusEvent('Payout Cancelled', 'cancelled', ['cancelled'], 'A payout is in status cancelled'),
			statusEvent('Payout Failed or Reversed', 'failedOrReversed', ['failed', 'reversed'], 'A payout is in status failed or reversed'),
			statusEvent('Payout Succeeded', 'succeeded', ['succeeded'], 'A payout is in status succeeded'),
		],
		'succeeded',
	),
	invoice: resourceSpec(
		INVOICE,
		[
			statusEvent('Invoice Cancelled', 'cancelled', ['cancelled'], 'An invoice is in status cancelled'),
			statusEvent('Invoice Paid', 'paid', ['paid'], 'An invoice is fully paid'),
			statusEvent('Invoice Partially Paid', 'partiallyPaid', ['partially_paid'], 'An invoice is in status partially paid'),
		],
		'paid',
	),
	dedicatedAccount: resourceSpec(DEDICATED_ACCOUNT, [], 'created'),
});
