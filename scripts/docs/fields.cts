/**
 * docs/fields.md: every field of the Paycashless node, per resource and operation, as the editor
 * shows them, and what the tool variant ("Paycashless Tool") shows instead. Written from the node's
 * own description (`new Paycashless().description`) and the tool variant's as n8n builds it (the
 * description with `usableAsTool.replacements` spread over it: n8n's createAiTools, pinned on both
 * n8n lines by test/engine/toolVariant.test.cts), so the page cannot drift from the code:
 * test/tooling/repo/generatedDocs.test.cts fails when the committed page differs (`npm run docs`
 * writes it: ./index.cts).
 */
import type { IDisplayOptions, INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { Paycashless } from '../../nodes/Paycashless/Paycashless.node';
import type { Region } from './regions.cjs';

/** The parameters a field's display options are resolved against: the ones an operation fixes. */
type Context = Record<string, unknown>;

/** The tool variant's description, as n8n's createAiTools makes it: `replacements` over the description. */
function toolVariant(description: INodeTypeDescription): INodeTypeDescription {
	const usable = description.usableAsTool;
	return typeof usable === 'object' ? { ...description, ...usable.replacements } : description;
}

/** Wanted values as a reader says them: n8n's condition `{ _cnd: { exists: true } }` is "set". */
const list = (values: unknown[]) => values.map((value) => (JSON.stringify(value) === '{"_cnd":{"exists":true}}' ? 'set' : JSON.stringify(value))).join(' or ');

/**
 * Whether a field shows for `context`, and the conditions on other fields that remain (e.g.
 * "returnAll is false"); undefined when it never shows there. `/name` inside a collection is the
 * node's top-level parameter.
 */
function shownFor(options: IDisplayOptions | undefined, context: Context): string[] | undefined {
	const conditions: string[] = [];
	for (const [mode, rules] of [
		['show', options?.show],
		['hide', options?.hide],
	] as const) {
		for (const [key, values] of Object.entries(rules ?? {})) {
			const name = key.replace(/^\//, '');
			const wanted = (values ?? []) as unknown[];
			if (name in context) {
				if (wanted.includes(context[name]) !== (mode === 'show')) return undefined;
			} else {
				conditions.push(`${mode === 'show' ? '' : 'not when '}${name} is ${list(wanted)}`);
			}
		}
	}
	return conditions;
}

/** One cell of a Markdown table: no pipe or line break breaks the row. */
function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function code(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return text === '' ? '`""`' : `\`${text.replace(/`/g, "'")}\``;
}

/** A description's first sentence, enough to know the field. */
function short(description: string | undefined): string {
	if (!description) return '';
	const plain = description.replace(/<[^>]+>/g, '');
	// A sentence ends before a capital letter ("e.g. the ID" goes on).
	const sentence = /^(.+?[.!?])(?=\s+[A-Z]|$)/.exec(plain)?.[1] ?? plain;
	return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence;
}

function optionNames(property: INodeProperties): string {
	if (property.type !== 'options' && property.type !== 'multiOptions') return '';
	return ((property.options ?? []) as INodePropertyOptions[]).map((option) => `${option.name} (${code(option.value)})`).join(', ');
}

interface Row {
	label: string;
	property: INodeProperties;
	conditions: string[];
}

/** The fields shown for `context`, in the editor's order, a collection's options under it. */
function rowsFor(properties: INodeProperties[], context: Context, parent = ''): Row[] {
	return properties.flatMap((property) => {
		const conditions = shownFor(property.displayOptions, context);
		if (!conditions || property.name === 'resource' || property.name === 'operation') return [];
		const label = parent ? `${parent} → ${property.displayName}` : property.displayName;
		const rows: Row[] = [{ label, property, conditions }];
		if (property.type === 'collection') rows.push(...rowsFor(property.options as INodeProperties[], context, label));
		if (property.type === 'fixedCollection') {
			for (const group of property.options as INodePropertyCollection[]) {
				rows.push(...rowsFor(group.values, context, group.displayName === property.displayName ? label : `${label} → ${group.displayName}`));
			}
		}
		return rows;
	});
}

function fieldsTable(rows: Row[]): string[] {
	return [
		'| Field | Parameter | Type | Default | Required | Shown when | Options | Description |',
		'| --- | --- | --- | --- | --- | --- | --- | --- |',
		...rows.map(({ label, property, conditions }) =>
			[
				label,
				code(property.name),
				property.type,
				property.type === 'notice' ? '' : code(property.default),
				property.required ? 'yes' : '',
				conditions.join('; '),
				optionNames(property),
				short(property.description ?? (property.type === 'notice' ? '' : property.hint)),
			]
				.map(cell)
				.join(' | ')
				.replace(/^/, '| ')
				.replace(/$/, ' |'),
		),
	];
}

const keyOf = (row: Row) => `${row.label}\u0000${row.property.name}`;

/** What the tool variant shows instead of the regular fields of one operation. */
function toolSection(regular: Row[], tool: Row[]): string[] {
	const before = new Map(regular.map((row) => [keyOf(row), row]));
	const after = new Map(tool.map((row) => [keyOf(row), row]));
	const lines: string[] = [];
	for (const row of tool) {
		const was = before.get(keyOf(row));
		if (!was) {
			const when = row.conditions.length > 0 ? `, shown when ${row.conditions.join('; ')}` : '';
			lines.push(`| ${cell(row.label)} | ${code(row.property.name)} | only in the tool, default ${cell(code(row.property.default))}${cell(when)} |`);
		}
		else if (JSON.stringify(was.property.default) !== JSON.stringify(row.property.default)) {
			lines.push(`| ${cell(row.label)} | ${code(row.property.name)} | default ${cell(code(row.property.default))} |`);
		}
	}
	for (const row of regular) if (!after.has(keyOf(row))) lines.push(`| ${cell(row.label)} | ${code(row.property.name)} | not in the tool |`);
	if (lines.length === 0) return ['The tool variant shows the same fields.'];
	return ['| Field | Parameter | In the tool |', '| --- | --- | --- |', ...lines];
}

function slug(heading: string): string {
	return heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

/** The page, from the node's description. */
export function fieldsPage(): string {
	const description = new Paycashless().description;
	const tool = toolVariant(description);
	const resources = (description.properties.find((property) => property.name === 'resource')?.options ?? []) as INodePropertyOptions[];
	const operationsOf = (properties: INodeProperties[], resource: string, asTool: boolean) =>
		properties
			.filter((property) => property.name === 'operation' && shownFor(property.displayOptions, { resource, '@tool': asTool }))
			.flatMap((property) => property.options as INodePropertyOptions[]);
	const contents: string[] = [];
	const sections: string[] = [];
	for (const { name: resourceName, value: resource } of resources) {
		const offered = new Set(operationsOf(tool.properties, String(resource), true).map((option) => option.value));
		const operations = operationsOf(description.properties, String(resource), false);
		contents.push(`- ${resourceName}: ${operations.map((option) => `[${option.name}](#${slug(`${resourceName} → ${option.name}`)})`).join(', ')}`);
		sections.push(`## ${resourceName}`, '');
		for (const option of operations) {
			const context = { resource, operation: option.value };
			const regular = rowsFor(description.properties, { ...context, '@tool': false });
			sections.push(`### ${resourceName} → ${option.name}`, '', `${option.description ?? ''}: \`resource: ${String(resource)}\`, \`operation: ${String(option.value)}\`.`, '');
			sections.push(...fieldsTable(regular), '');
			const heading = "**As an AI agent's tool** (Paycashless Tool):";
			if (offered.has(option.value)) sections.push(heading, '', ...toolSection(regular, rowsFor(tool.properties, { ...context, '@tool': true })), '');
			else sections.push(`${heading} not offered.`, '');
		}
	}
	return [...contents, '', ...sections].join('\n');
}

/** The page's generated region (./index.cts: `npm run docs`). */
export async function fieldsRegions(): Promise<Region[]> {
	return [{ file: 'docs/fields.md', name: 'fields', text: fieldsPage() }];
}
