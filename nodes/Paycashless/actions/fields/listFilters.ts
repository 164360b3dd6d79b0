/**
 * The fields of a Get Many, shared by the lists: Return All and Limit, the Filters collection, its
 * status, creation-time and reference filters. Like ./common.ts, they carry no display
 * options but the filters' own (a filter no longer offered shows only where a workflow holds it).
 */
import type { INodeProperties } from 'n8n-workflow';

/** "Return All" and "Limit", as on every n8n list. */
export const listFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		description: 'Max number of results to return',
		hint: 'Any number from 1: the node asks for pages of up to 100 records (the API maximum) until it has this many',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** Creation-time bounds of list filters; each becomes a `createdAt.*` query in Unix seconds. */
/**
 * Text fields, not n8n date pickers: a picker drops a typed `{{ $today }}` unless the field is
 * switched to Expression first, and the list then comes back unfiltered. Text takes a date, a
 * date and time, Unix seconds or an expression; helpers/dates.ts reads it and names the field
 * when it cannot. Values saved by the former date pickers (`2024-05-01T00:00:00`) read the same.
 */
const CREATED_AT_TEXT =
	'A date (2025-06-01), a date and time (2025-06-01T09:30:00, in the workflow\'s time zone unless it ends in Z or +01:00), Unix seconds, or an expression such as {{ $today }} or {{ $now.minus({ days: 7 }) }}';

function createdAtField(displayName: string, name: string, meaning: string, query: string, example: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		placeholder: 'e.g. 2025-06-01 or {{ $today }}',
		description: `Only records created ${meaning} (${query}). ${example} ${CREATED_AT_TEXT}.`,
	};
}

/**
 * One way to say "from" and one to say "to" (issue 51): Created From (the moment included) and
 * Created Before (not included), so 2025-06-01 and 2025-07-01 give all of June. Created After and
 * Created On or Before, offered before, are no longer offered but still work, and show, in stored
 * workflows: shown (and kept by n8n at run time) only while they hold a value. The condition names
 * the filter itself, relative to the Filters collection: n8n resolves a collection's options
 * against its own values (a `/` path would see only the node's top-level fields at run time).
 */
const storedOnly = (name: string): Pick<INodeProperties, 'displayOptions'> => ({ displayOptions: { show: { [name]: [{ _cnd: { exists: true } }] } } });

export const createdAtFilterFields: INodeProperties[] = [
	createdAtField('Created From', 'createdOnOrAfter', 'at or after this moment, the moment included', 'createdAt.gte', 'With a date: from the start of that day.'),
	createdAtField('Created Before', 'createdBefore', 'before this moment, the moment not included', 'createdAt.lt', 'With a date: up to the end of the day before (for all of June, 2025-07-01).'),
	{ ...createdAtField('Created After', 'createdAfter', 'after this moment', 'createdAt.gt', 'Kept for workflows that use it: Created From says "from".'), ...storedOnly('createdAfter') },
	{ ...createdAtField('Created On or Before', 'createdOnOrBefore', 'at or before this moment', 'createdAt.lte', 'Kept for workflows that use it: Created Before says "to".'), ...storedOnly('createdOnOrBefore') },
];

/** Which query parameter each creation-time filter fills. */
export const CREATED_AT_QUERY: Record<string, string> = {
	createdAfter: 'createdAt.gt',
	createdBefore: 'createdAt.lt',
	createdOnOrAfter: 'createdAt.gte',
	createdOnOrBefore: 'createdAt.lte',
};

/** The filter that never reaches Paycashless: the node keeps the records whose reference starts with it. */
export const REFERENCE_PREFIX_FILTER = 'referencePrefix';

/**
 * Reference and Reference Starts With, for a list of `what` (payouts, payments, invoices). Where
 * Paycashless's list takes a reference (`sent`: invoices) it is sent and checked again after the
 * read; otherwise both are applied after the read: the node reads the list (narrowed by the other
 * filters) page by page and keeps the records that match, until it has Limit of them.
 */
export function referenceFilterFields(what: string, { sent, verify }: { sent: boolean; verify?: string }): INodeProperties[] {
	const one = what.replace(/s$/, '');
	const how = sent
		? 'Sent to Paycashless and checked again on what it returns'
		: `Paycashless's ${what} list has no reference filter: the node reads the list page by page (narrowed by the other filters: add Created From for a long list) and keeps the matching ones`;
	return [
		{
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			default: '',
			placeholder: 'salary-2026-11-S001',
			description: `Only the ${one} with this reference of yours (exact). ${how}${verify ? `. For one ${one}, ${verify} reads it directly` : ''}.`,
		},
		{
			displayName: 'Reference Starts With',
			name: REFERENCE_PREFIX_FILTER,
			type: 'string',
			default: '',
			placeholder: 'salary-2026-11-',
			description: `Only ${what} whose reference starts with this text (exact case), e.g. salary-2026-11- for one month's payroll. Paycashless's list has no such filter: the node reads the list page by page (narrowed by the other filters: add Created From for a long list) and keeps the matching ones.`,
		},
	];
}

/** A "Filters" collection holding `fields` (sorted by display name). */
export function filtersCollection(fields: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [...fields].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/**
 * A status filter dropdown from documented values. Adding it filters nothing until a status is
 * picked ("Any Status" first, the default). Where Paycashless has not documented every status
 * (`open`), the description says how to give another one (an expression: any text).
 */
/** A status as the option lists show it: `awaiting_charge` → "Awaiting charge". */
export function statusLabel(value: string): string {
	return value
		.split('_')
		.map((word, index) => (index === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word))
		.join(' ');
}

export function statusFilterField(values: string[], description: string, options: { open?: boolean } = {}): INodeProperties {
	return {
		displayName: 'Status',
		name: 'status',
		type: 'options',
		default: '',
		description: options.open
			? `${description}. Paycashless documents only the statuses listed; for another one, switch this field to Expression and type it.`
			: description,
		options: [
			{ name: 'Any Status', value: '' },
			...values.map((value) => ({ name: statusLabel(value), value })),
		],
	};
}
