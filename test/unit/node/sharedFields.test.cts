/**
 * The fields several operations share (Money Limits, Requests in Parallel, Request Options → On
 * Repeated Reference, the tool's Run Without Limits) show for exactly the operations they are for,
 * as n8n's editor resolves their display options (`NodeHelpers.displayParameter`), in the regular
 * node and in the tool variant. n8n's `show` is an AND over parameters, so the registry's `showFor`
 * writes a set as resources × operations, which is wrong when an operation of one resource has the
 * name of another's: this test names such an operation (the check once ran when n8n loaded the
 * node, where it stopped the whole node from loading).
 */
import { isDeepStrictEqual } from 'util';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { resources, showFor } from '../../../nodes/Paycashless/actions/registry';
import { offeredAsTool } from '../../../nodes/Paycashless/actions/tool';
import { batchKind, limitsKind, moneyKind, type PaycashlessOperation } from '../../../nodes/Paycashless/actions/types';
import { MONEY_KINDS } from '../../../nodes/Paycashless/money/kinds';
import { emptyLimitNotices, moneyLimitsCollection, NO_LIMITS_PARAMETER } from '../../../nodes/Paycashless/money/limitFields';

const description = new Paycashless().description;
const asTool: INodeTypeDescription = { ...description, name: `${description.name}Tool` };

interface Place {
	resource: string;
	operation: string;
	tool: boolean;
	of: PaycashlessOperation;
}

/** Where a field can show: every operation in the regular node, the offered ones in the tool. */
const places: Place[] = Object.entries(resources).flatMap(([resource, definition]) =>
	Object.entries(definition.operations).flatMap(([operation, of]) => [
		{ resource, operation, tool: false, of },
		...(offeredAsTool(of) ? [{ resource, operation, tool: true, of }] : []),
	]),
);

const named = (place: Place) => `${place.resource}.${place.operation}${place.tool ? ' (tool)' : ''}`;

/** Where n8n shows `field` (nested: inside a top-level collection, its `/` names read the node's parameters). */
function shownAt(field: INodeProperties, nested: boolean, within: Place[] = places): string[] {
	return within
		.filter((place) => {
			// Every limit added and left empty: the notices of an empty limit show then.
			const moneyLimits = { maxAmount: null, maxTotal: null, periodTotal: null, maxCount: null, periodCount: null };
			const values = { resource: place.resource, operation: place.operation, [NO_LIMITS_PARAMETER]: true, moneyLimits };
			return NodeHelpers.displayParameter(nested ? {} : values, field, { typeVersion: 1 }, place.tool ? asTool : description, values);
		})
		.map(named)
		.sort();
}

/** Each shared field, how to find it, and the operations it is for. */
interface Rule {
	label: string;
	is(field: INodeProperties): boolean;
	for(place: Place): boolean;
}

const declared = (place: Place) => place.of.declaration;
const RULES: Rule[] = [
	...MONEY_KINDS.map(
		(kind): Rule => ({
			label: `Money Limits (${kind})`,
			is: (field) => field.name === 'moneyLimits' && isDeepStrictEqual(field.options, moneyLimitsCollection(kind).options),
			for: (place) => limitsKind(declared(place)) === kind,
		}),
	),
	...MONEY_KINDS.flatMap((kind) =>
		emptyLimitNotices(kind, {}).map(
			(notice): Rule => ({
				label: `the notice of an empty ${notice.name.replace(/EmptyNotice$/, '')} (${kind})`,
				is: (field) => field.type === 'notice' && field.name === notice.name && field.displayName === notice.displayName,
				for: (place) => limitsKind(declared(place)) === kind,
			}),
		),
	),
	{
		label: 'Requests in Parallel (reads)',
		is: (field) => field.name === 'concurrency' && field.default === 20,
		for: (place) => declared(place).kind === 'read' && batchKind(declared(place)) === undefined,
	},
	{ label: 'Requests in Parallel (creates)', is: (field) => field.name === 'concurrency' && field.default === 100, for: (place) => declared(place).kind === 'create' },
	{ label: 'Request Options → On Repeated Reference', is: (field) => field.name === 'onRepeatedReference', for: (place) => declared(place).kind === 'create' },
	{ label: 'Run Without Limits (Unsafe)', is: (field) => field.name === NO_LIMITS_PARAMETER, for: (place) => place.tool && moneyKind(declared(place)) !== undefined },
	{ label: 'the notice while limits are off', is: (field) => field.name === 'runWithoutLimitsNotice', for: (place) => place.tool && moneyKind(declared(place)) !== undefined },
];

/** A field whose display options name several resources or operations (at the top level, or `/`-named inside a collection). */
function isShared(field: INodeProperties): boolean {
	const show = field.displayOptions?.show ?? {};
	return ['resource', 'operation', '/resource', '/operation'].some((key) => ((show[key] as unknown[] | undefined) ?? []).length > 1);
}

/** Every shared field of the node, top level and one collection down. */
const shared: Array<{ field: INodeProperties; nested: boolean }> = description.properties.flatMap((field) => [
	...(isShared(field) ? [{ field, nested: false }] : []),
	...(field.type === 'collection' ? (field.options as INodeProperties[]).filter(isShared).map((option) => ({ field: option, nested: true })) : []),
]);

describe('fields shared by several operations', () => {
	it('the scan finds them: Money Limits of each kind, Requests in Parallel, On Repeated Reference, Run Without Limits', () => {
		expect(shared.length).toBeGreaterThanOrEqual(MONEY_KINDS.length + 4);
		expect(places.filter((place) => place.tool).length).toBeGreaterThan(10);
	});

	it('each is one of the rules below (a new shared field needs its rule here)', () => {
		const unknown = shared.filter(({ field }) => RULES.filter((rule) => rule.is(field)).length !== 1).map(({ field }) => `${field.displayName} (${field.name})`);
		expect(unknown).toEqual([]);
		// Every rule finds its field.
		expect(RULES.filter((rule) => !shared.some(({ field }) => rule.is(field))).map((rule) => rule.label)).toEqual([]);
	});

	it.each(RULES.map((rule) => [rule.label, rule] as const))('%s shows for exactly its operations, in the node and in the tool', (_label, rule) => {
		const { field, nested } = shared.find((candidate) => rule.is(candidate.field))!;
		const wanted = places.filter((place) => rule.for(place)).map(named).sort();
		expect(wanted.length).toBeGreaterThan(0);
		expect(shownAt(field, nested)).toEqual(wanted);
	});

	it('the check names an operation that resources × operations adds (Payout → Create and Invoice → Get also show Payout → Get and Invoice → Create)', () => {
		const pairs = [
			{ resource: 'payout', operation: 'create' },
			{ resource: 'invoice', operation: 'get' },
		];
		const field: INodeProperties = { displayName: 'Shared', name: 'shared', type: 'string', default: '', displayOptions: showFor(pairs) };
		const regular = places.filter((place) => !place.tool);
		expect(shownAt(field, false, regular)).toEqual(['invoice.create', 'invoice.get', 'payout.create', 'payout.get']);
	});
});
