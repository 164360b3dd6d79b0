/**
 * docs/ai-agent.md's tables of what the AI agent's tool ("Paycashless Tool") offers, written from the
 * node's description as n8n builds the tool variant (the description with
 * `usableAsTool.replacements` spread over it, as ./fields.cts reads it): each resource's operations
 * offered to an agent and those that are not, and every field the model fills, by its `$fromAI`
 * key, with what the model reads and where it is asked. `npm run docs` writes them (./index.cts).
 */
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { Paycashless } from '../../nodes/Paycashless/Paycashless.node';
import type { Region } from './regions.cjs';

const FILE = 'docs/ai-agent.md';

type Show = Record<string, unknown[] | undefined>;
const showOf = (property: INodeProperties) => (property.displayOptions?.show ?? {}) as Show;
const asTool = (property: INodeProperties) => showOf(property)['@tool']?.[0] === true;

/** One cell: no pipe or line break breaks the row. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The `$fromAI(key, description, type)` a field defaults to, or undefined. */
function fromAiOf(property: INodeProperties): { key: string; description: string; type: string } | undefined {
	if (typeof property.default !== 'string') return undefined;
	const match = /^=\{\{ \$fromAI\('((?:[^'\\]|\\.)*)', '((?:[^'\\]|\\.)*)', '(\w+)'\) \}\}$/.exec(property.default);
	const unquote = (text: string) => text.replace(/\\(.)/g, '$1');
	return match ? { key: unquote(match[1]), description: unquote(match[2]), type: match[3] } : undefined;
}

/** The tables, from `description` (the node's own by default). */
export function toolTables(description: INodeTypeDescription = new Paycashless().description): { operations: string; fields: string } {
	const usable = description.usableAsTool;
	const tool = typeof usable === 'object' ? { ...description, ...usable.replacements } : description;
	const resources = (description.properties.find((property) => property.name === 'resource')?.options ?? []) as INodePropertyOptions[];
	const operationNames = new Map<string, string>();
	const operations = ['| Resource | Offered to an AI agent | Not offered (in a regular Paycashless node only) |', '|---|---|---|'];
	for (const { name: resourceName, value } of resources) {
		const resource = String(value);
		const lists = (properties: INodeProperties[], toolVariant: boolean) =>
			properties
				.filter((property) => property.name === 'operation' && asTool(property) === toolVariant)
				.filter((property) => (toolVariant ? !showOf(property).resource && !(property.displayOptions?.hide?.resource ?? []).includes(resource) : showOf(property).resource?.includes(resource)))
				.flatMap((property) => property.options as INodePropertyOptions[]);
		const all = lists(description.properties, false);
		for (const option of all) operationNames.set(`${resource}.${String(option.value)}`, `${resourceName} → ${option.name}`);
		const offered = new Set(lists(tool.properties, true).map((option) => option.value));
		const names = (options: INodePropertyOptions[]) => options.map((option) => option.name).join(', ');
		operations.push(`| ${resourceName} | ${names(all.filter((option) => offered.has(option.value)))} | ${names(all.filter((option) => !offered.has(option.value)))} |`);
	}
	// Each `$fromAI` key, once per description the model reads, with every field it fills.
	const asked = new Map<string, { key: string; type: string; description: string; fields: Map<string, string[]> }>();
	for (const property of tool.properties.filter(asTool)) {
		const fromAi = fromAiOf(property);
		if (!fromAi) continue;
		const show = showOf(property);
		const entry = asked.get(`${fromAi.key}\u0000${fromAi.description}`) ?? { ...fromAi, fields: new Map<string, string[]>() };
		asked.set(`${fromAi.key}\u0000${fromAi.description}`, entry);
		const where = entry.fields.get(property.displayName) ?? [];
		entry.fields.set(property.displayName, where);
		for (const resource of show.resource ?? []) for (const operation of show.operation ?? []) where.push(operationNames.get(`${String(resource)}.${String(operation)}`) ?? `${String(resource)}.${String(operation)}`);
	}
	const fields = ['| `$fromAI` key | Type | What the model reads | The field, in |', '|---|---|---|---|'];
	for (const { key, type, description: words, fields: where } of [...asked.values()].sort((a, b) => a.key.localeCompare(b.key))) {
		const places = [...where.entries()].map(([field, operationsOf]) => `*${field}*: ${operationsOf.join(', ')}`).join('; ');
		fields.push(`| \`${key}\` | ${type} | ${cell(words)} | ${cell(places)} |`);
	}
	return { operations: operations.join('\n'), fields: fields.join('\n') };
}

/** The page's generated regions (./index.cts: `npm run docs`). */
export async function toolRegions(): Promise<Region[]> {
	const { operations, fields } = toolTables();
	return [
		{ file: FILE, name: 'tool-operations', text: operations },
		{ file: FILE, name: 'tool-fields', text: fields },
	];
}
