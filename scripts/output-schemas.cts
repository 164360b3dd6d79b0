/**
 * The output schemas of the Paycashless node: one JSON Schema per operation, which n8n's editor
 * shows as the node's fields in the next node's input panel before the node has run (see
 * docs/development.md, "Output schemas"). Derived from real outputs: every operation run against
 * the emulator (test/helpers/operationOutputs.cts), each key typed as seen, nested objects and
 * arrays with their item schema, nothing marked required (as n8n's own schemas).
 *
 *   npx ts-node --transpile-only scripts/output-schemas.cts          # writes nodes/Paycashless/__schema__
 *   npx ts-node --transpile-only scripts/output-schemas.cts --check  # exits 1 when a file differs
 */
import * as fs from 'fs';
import * as path from 'path';

import type { IDataObject } from 'n8n-workflow';

import { collectOperationOutputs, nodeOperations, type OperationOutputs } from '../test/helpers/operationOutputs.cjs';

export const ROOT = path.resolve(__dirname, '..');
/** The node's typeVersion 1, as n8n names its folder (padded to three parts: v1.0.0). */
export const SCHEMA_DIR = path.join(ROOT, 'nodes', 'Paycashless', '__schema__', 'v1.0.0');

export interface JsonSchema {
	type: string | string[];
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema;
}

export function schemaPath(resource: string, operation: string): string {
	return path.join(SCHEMA_DIR, resource, `${operation}.json`);
}

function typeOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value === 'number' ? 'number' : typeof value;
}

/** The schema of one value. An empty array has no item schema. */
export function schemaOf(value: unknown): JsonSchema {
	const type = typeOf(value);
	if (type === 'object') {
		return { type, properties: Object.fromEntries(Object.entries(value as IDataObject).filter(([, v]) => v !== undefined).map(([k, v]) => [k, schemaOf(v)])) };
	}
	if (type === 'array') {
		const items = (value as unknown[]).map(schemaOf);
		return items.length === 0 ? { type } : { type, items: items.reduce(mergeSchemas) };
	}
	return { type };
}

function types(schema: JsonSchema): string[] {
	return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** One schema for values seen in several items: keys of both (first seen first), types of both. */
export function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
	// In the order first seen, null last (as n8n's own schemas write ["string", "null"]).
	const all = [...new Set([...types(a), ...types(b)])].sort((x, y) => Number(x === 'null') - Number(y === 'null'));
	const merged: JsonSchema = { type: all.length === 1 ? all[0] : all };
	if (a.properties || b.properties) {
		const properties: Record<string, JsonSchema> = { ...(a.properties ?? {}) };
		for (const [key, schema] of Object.entries(b.properties ?? {})) properties[key] = properties[key] ? mergeSchemas(properties[key], schema) : schema;
		merged.properties = properties;
	}
	if (a.items || b.items) merged.items = a.items && b.items ? mergeSchemas(a.items, b.items) : (a.items ?? b.items);
	return merged;
}

/** Each operation's schema from its outputs; throws when an operation output nothing. */
export function schemasFrom(outputs: OperationOutputs): Map<string, JsonSchema> {
	const schemas = new Map<string, JsonSchema>();
	for (const { resource, operation } of nodeOperations()) {
		const items = outputs.get(`${resource}/${operation}`) ?? [];
		if (items.length === 0) throw new Error(`${resource} → ${operation} was not run or output nothing: add it to test/helpers/operationOutputs.cts`);
		schemas.set(`${resource}/${operation}`, items.map(schemaOf).reduce(mergeSchemas));
	}
	return schemas;
}

export function schemaText(schema: JsonSchema): string {
	return `${JSON.stringify(schema, null, '\t')}\n`;
}

async function main(): Promise<void> {
	const check = process.argv.includes('--check');
	const schemas = schemasFrom(await collectOperationOutputs());
	const differs: string[] = [];
	for (const [key, schema] of schemas) {
		const [resource, operation] = key.split('/');
		const file = schemaPath(resource, operation);
		const text = schemaText(schema);
		const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
		if (current === text) continue;
		differs.push(path.relative(ROOT, file));
		if (!check) {
			fs.mkdirSync(path.dirname(file), { recursive: true });
			fs.writeFileSync(file, text);
		}
	}
	// Files of operations the node no longer has.
	const wanted = new Set([...schemas.keys()].map((key) => schemaPath(key.split('/')[0], key.split('/')[1])));
	const stale = fs.existsSync(SCHEMA_DIR)
		? fs.readdirSync(SCHEMA_DIR, { recursive: true, encoding: 'utf8' }).map((file) => path.join(SCHEMA_DIR, file)).filter((file) => file.endsWith('.json') && !wanted.has(file))
		: [];
	for (const file of stale) {
		differs.push(`${path.relative(ROOT, file)} (no such operation)`);
		if (!check) fs.rmSync(file);
	}
	const verb = check ? 'differ' : 'written';
	process.stdout.write(`${schemas.size} operations; ${differs.length} schema files ${verb}${differs.length ? `:\n  ${differs.join('\n  ')}` : ''}\n`);
	if (check && differs.length) process.exitCode = 1;
}

if (require.main === module) {
	main().catch((error: unknown) => {
		process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
		process.exitCode = 1;
	});
}
