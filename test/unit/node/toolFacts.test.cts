/**
 * Tool facts (nodes/Paycashless/helpers/toolFacts.ts): a field the AI agent's tool fills declares
 * its `$fromAI` key and description where the field is declared, and the tool variant
 * (actions/tool.ts) follows those declarations, not field names. Here: where a fact may stand, what
 * the tool variant makes of it, and that a field without one is the same in the tool whatever its
 * name. What n8n makes of the tool variant: test/engine/toolVariant.test.cts; the page that lists
 * it: docs/fields.md.
 */
import type { INodeProperties } from 'n8n-workflow';

import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { resources } from '../../../nodes/Paycashless/actions/registry';
import { offeredAsTool, toolOnlyProperties } from '../../../nodes/Paycashless/actions/tool';
import { READ, type PaycashlessOperation, type PaycashlessResourceDefinition } from '../../../nodes/Paycashless/actions/types';
import { AS_TOOL } from '../../../nodes/Paycashless/helpers/toolFacts';

const operations = Object.entries(resources).flatMap(([resource, definition]) =>
	Object.entries(definition.operations).map(([operation, of]) => ({ name: `${resource}.${operation}`, resource, operation, of })),
);

/** Fields inside collections and fixed collections, with where they stand. */
function nestedFields(fields: INodeProperties[], path: string): Array<{ field: INodeProperties; path: string }> {
	return fields.flatMap((field) => {
		const options = (field.options ?? []) as Array<INodeProperties | { displayName: string; values?: INodeProperties[] }>;
		const inside = field.type === 'collection' ? (options as INodeProperties[]) : field.type === 'fixedCollection' ? options.flatMap((group) => ('values' in group ? (group.values ?? []) : [])) : [];
		const here = `${path} → ${field.displayName}`;
		return [...inside.map((child) => ({ field: child, path: `${here} → ${child.displayName}` })), ...nestedFields(inside, here)];
	});
}

/** The `$fromAI(key, description, type)` a tool field defaults to, or undefined. */
function fromAiOf(field: INodeProperties): [string, string, string] | undefined {
	if (typeof field.default !== 'string') return undefined;
	const match = /^=\{\{ \$fromAI\('((?:[^'\\]|\\.)*)', '((?:[^'\\]|\\.)*)', '(\w+)'\) \}\}$/.exec(field.default);
	return match ? [match[1], match[2].replace(/\\(.)/g, '$1'), match[3]] : undefined;
}

const description = new Paycashless().description;
/** The tool variant's own fields of one operation (only in the tool, shown for it). */
function toolFieldsOf(resource: string, operation: string): INodeProperties[] {
	return description.properties.filter(
		(field) =>
			(field.displayOptions?.show?.['@tool'] as boolean[] | undefined)?.[0] === true &&
			(field.displayOptions?.show?.resource as string[] | undefined)?.length === 1 &&
			field.displayOptions?.show?.resource?.[0] === resource &&
			(field.displayOptions?.show?.operation as string[] | undefined)?.length === 1 &&
			field.displayOptions?.show?.operation?.[0] === operation,
	);
}

describe('tool facts, where they may stand', () => {
	it('only on a field at the top level of an operation: the tool variant reads no fact inside a collection', () => {
		const nested = operations.flatMap(({ name, of }) => nestedFields(of.description, name)).filter(({ field }) => field[AS_TOOL] !== undefined);
		expect(nested.map(({ path }) => path)).toEqual([]);
	});

	it('a field the model fills is a string or a number (its `$fromAI` type), and one key is asked once per operation', () => {
		const facts = operations.flatMap(({ name, of }) => of.description.filter((field) => field[AS_TOOL] !== undefined).map((field) => ({ name, field, fact: field[AS_TOOL]! })));
		// Guards against a scan that finds nothing: reference, amount, account number, bank ID, customer.
		expect(facts.length).toBeGreaterThan(20);
		expect(facts.filter(({ field, fact }) => fact !== 'leftOut' && field.type !== 'string' && field.type !== 'number').map(({ name, field }) => `${name} ${field.name}: ${field.type}`)).toEqual([]);
		for (const { name, of } of operations) {
			const keys = of.description.flatMap((field) => {
				const fact = field[AS_TOOL];
				return fact && fact !== 'leftOut' ? [fact.key] : [];
			});
			expect({ name, keys: [...new Set(keys)] }).toEqual({ name, keys });
		}
	});

	it('never reaches the description n8n serves (a symbol key: JSON leaves it out)', () => {
		const amount = resources.payout.operations.create.description.find((field) => field.name === 'amount')!;
		expect(amount[AS_TOOL]).toMatchObject({ key: 'Amount' });
		expect(JSON.stringify(amount)).not.toContain('MAIN units');
		expect(JSON.stringify(description)).not.toContain('"key":"Amount"');
	});
});

describe('the tool variant follows the facts', () => {
	const offered = operations.filter(({ of }) => offeredAsTool(of));

	it.each(offered.map(({ name, resource, operation, of }) => [name, resource, operation, of] as const))('%s: a `$fromAI` field for each field the model fills, none for a field left out', (_name, resource, operation, of) => {
		const tool = toolFieldsOf(resource, operation);
		for (const field of of.description) {
			const fact = field[AS_TOOL];
			const twin = tool.find((candidate) => candidate.name === field.name);
			if (fact === undefined) expect(twin).toBeUndefined();
			else if (fact === 'leftOut') expect(twin).toBeUndefined();
			else expect(twin && fromAiOf(twin)).toEqual([fact.key, fact.description, field.type]);
		}
		// Nothing else of the tool variant's own is filled by the model.
		const filled = tool.filter((field) => fromAiOf(field) !== undefined).map((field) => field.name);
		expect(filled.sort()).toEqual(of.description.filter((field) => typeof field[AS_TOOL] === 'object').map((field) => field.name).sort());
	});

	const operationWith = (field: INodeProperties): Record<string, PaycashlessResourceDefinition> => {
		const fresh: PaycashlessOperation = {
			...resources.payout.operations.verify,
			option: { name: 'Quote', description: 'Quote a fee', action: 'Quote a fee' },
			declaration: READ,
			description: [field],
		};
		return { fee: { displayName: 'Fee', caption: 'Fee: what a payout costs', defaultOperation: 'quote', operations: { quote: fresh } } };
	};
	const amount: INodeProperties = { displayName: 'Amount', name: 'amount', type: 'number', default: 0 };

	it('a new field named `amount` without a fact is the same in the tool: no `$fromAI` twin picked by its name', () => {
		const { fields } = toolOnlyProperties(operationWith(amount));
		expect(fields.filter((field) => field.name === 'amount')).toEqual([]);
	});

	it('the same field with a fact gets its `$fromAI` twin, quoted for the expression', () => {
		const declared: INodeProperties = { ...amount, [AS_TOOL]: { key: 'Fee_Amount', description: "The payee's amount, in naira (it's not kobo)" } };
		const twin = toolOnlyProperties(operationWith(declared)).fields.find((field) => field.name === 'amount')!;
		expect(twin.default).toBe("={{ $fromAI('Fee_Amount', 'The payee\\'s amount, in naira (it\\'s not kobo)', 'number') }}");
		expect(fromAiOf(twin)).toEqual(['Fee_Amount', "The payee's amount, in naira (it's not kobo)", 'number']);
		expect(twin.displayOptions?.show).toEqual({ resource: ['fee'], operation: ['quote'], '@tool': [true] });
	});
});
