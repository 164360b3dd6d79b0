/**
 * The output schemas of the Paycashless nodes: one JSON Schema per operation, one for the Paycashless
 * Trigger and one per resource of the Poll Trigger, which n8n's editor
 * shows as the node's fields in the next node's input panel before the node has run (see
 * docs/development.md, "Output schemas"). Derived from real outputs: every operation run against
 * the emulator (the run table, scripts/harness/operationRuns.cts), each key typed as seen, nested objects and
 * arrays with their item schema, nothing marked required (as n8n's own schemas).
 *
 *   npx ts-node --transpile-only scripts/output-schemas.cts          # writes nodes/Paycashless/__schema__
 *   npx ts-node --transpile-only scripts/output-schemas.cts --check  # exits 1 when a file differs
 */
import * as fs from 'fs';
import * as path from 'path';

import { expect } from 'expect';
import type { IDataObject } from 'n8n-workflow';

import { collectNodeOutputs, nodeOperations, type NodeOutputs, type OperationOutputs } from './harness/operationOutputs.cjs';

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

/*
 * The triggers share the folder (n8n looks in the __schema__ beside the node's file, and the three
 * nodes are in one folder). n8n 2.41 (n8n-core resolveOutputSchemaPath) and 1.123 (resolveSchema)
 * join `v<version>`, the node's `resource` and `operation` parameters, those it has, and add `.json`:
 * - Paycashless Trigger (neither): /schemas/<type>/1.0.0.json → __schema__/v1.0.0.json;
 * - Poll Trigger (a `resource`): /schemas/<type>/1.0.0/payment.json → __schema__/v1.0.0/payment.json;
 * - the action node (both): __schema__/v1.0.0/<resource>/<operation>.json.
 */
export const TRIGGER_SCHEMA_FILE = `${SCHEMA_DIR}.json`;
/** The Paycashless Trigger's version 2 (the same node, PaycashlessTrigger.node.ts says why): the same schema. */
export const TRIGGER_V2_SCHEMA_FILE = path.join(path.dirname(SCHEMA_DIR), 'v2.0.0.json');

export function pollSchemaPath(resource: string): string {
	return path.join(SCHEMA_DIR, `${resource}.json`);
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
		if (items.length === 0) throw new Error(`${resource} → ${operation} was not run or output nothing: add its entry to scripts/harness/operationRuns.cts`);
		schemas.set(`${resource}/${operation}`, items.map(schemaOf).reduce(mergeSchemas));
	}
	return schemas;
}

/** The schema of items seen (merged); throws when there are none. */
function schemaOfItems(items: IDataObject[], what: string): JsonSchema {
	if (items.length === 0) throw new Error(`${what} output nothing: add its entry to scripts/harness/operationRuns.cts`);
	return items.map(schemaOf).reduce(mergeSchemas);
}

/** Every schema file the package ships (path → schema): the operations', the Trigger's and the Poll Trigger's per resource. */
export function schemaFilesFrom(outputs: NodeOutputs): Map<string, JsonSchema> {
	const files = new Map<string, JsonSchema>();
	for (const [key, schema] of schemasFrom(outputs.operations)) files.set(schemaPath(key.split('/')[0], key.split('/')[1]), schema);
	files.set(TRIGGER_SCHEMA_FILE, schemaOfItems(outputs.trigger, 'the Paycashless Trigger'));
	files.set(TRIGGER_V2_SCHEMA_FILE, files.get(TRIGGER_SCHEMA_FILE)!);
	for (const [resource, items] of outputs.poll) files.set(pollSchemaPath(resource), schemaOfItems(items, `the Poll Trigger on ${resource}`));
	return files;
}

export function schemaText(schema: JsonSchema): string {
	return `${JSON.stringify(schema, null, '\t')}\n`;
}

async function main(): Promise<void> {
	const check = process.argv.includes('--check');
	// The run table's checks hold here too (the `expect` package is jest's own, without a test runner).
	const files = schemaFilesFrom(await collectNodeOutputs(expect as unknown as jest.Expect));
	const differs: string[] = [];
	for (const [file, schema] of files) {
		const text = schemaText(schema);
		const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
		if (current === text) continue;
		differs.push(path.relative(ROOT, file));
		if (!check) {
			fs.mkdirSync(path.dirname(file), { recursive: true });
			fs.writeFileSync(file, text);
		}
	}
	// Files of operations or resources the nodes no longer have.
	const schemaRoot = path.dirname(SCHEMA_DIR);
	const stale = fs.existsSync(schemaRoot)
		? fs.readdirSync(schemaRoot, { recursive: true, encoding: 'utf8' }).map((file) => path.join(schemaRoot, file)).filter((file) => file.endsWith('.json') && !files.has(file))
		: [];
	for (const file of stale) {
		differs.push(`${path.relative(ROOT, file)} (no such operation)`);
		if (!check) fs.rmSync(file);
	}
	const verb = check ? 'differ' : 'written';
	process.stdout.write(`${files.size} schema files; ${differs.length} ${verb}${differs.length ? `:\n  ${differs.join('\n  ')}` : ''}\n`);
	if (check && differs.length) process.exitCode = 1;
}

if (require.main === module) {
	main().catch((error: unknown) => {
		process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
		process.exitCode = 1;
	});
}
