import type { INodePropertyOptions } from 'n8n-workflow';

import { parseNameList } from '../helpers/lists';

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
