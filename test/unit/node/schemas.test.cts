/**
 * The output schemas the package ships (nodes/Paycashless/__schema__, written by
 * scripts/output-schemas.cts): one for every operation, each a schema n8n's editor accepts, every
 * real output item of the operation (run against the emulator) valid against it with no field
 * left out, and the files as the script writes them today. That the packed package holds them:
 * test/e2e/outputSchemas.test.cts (it builds and starts n8n, so it is not in the fast tier).
 */
import * as fs from 'fs';
import * as path from 'path';

import Ajv from 'ajv';
import type { IDataObject } from 'n8n-workflow';

import { pollSchemaPath, ROOT, SCHEMA_DIR, schemaFilesFrom, schemaPath, schemaText, TRIGGER_SCHEMA_FILE, type JsonSchema } from '../../../scripts/output-schemas.cjs';
import { operationPairs } from '../../../nodes/Paycashless/actions/registry';
import { RESOURCES } from '../../../nodes/Paycashless/poll/events';
import { collectNodeOutputs, nodeOperations, type NodeOutputs, type OperationOutputs } from '../../../scripts/harness/operationOutputs.cjs';

jest.setTimeout(120_000);

const REGENERATE = 'npm run schemas (docs/development.md, "Output schemas")';

let all: NodeOutputs;
let outputs: OperationOutputs;
beforeAll(async () => {
	all = await collectNodeOutputs(expect);
	outputs = all.operations;
});

function shippedFile(file: string, what: string): JsonSchema {
	if (!fs.existsSync(file)) throw new Error(`no output schema for ${what} (${path.relative(ROOT, file)}): ${REGENERATE}`);
	return JSON.parse(fs.readFileSync(file, 'utf8')) as JsonSchema;
}

function shipped(resource: string, operation: string): JsonSchema {
	return shippedFile(schemaPath(resource, operation), `${resource} → ${operation}`);
}

/** The schema with every object closed (additionalProperties: false): a field missing from it fails. */
function closed(schema: JsonSchema): object {
	return {
		...schema,
		...(schema.properties
			? { properties: Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, closed(value)])), additionalProperties: false }
			: {}),
		...(schema.items ? { items: closed(schema.items) } : {}),
	};
}

describe('output schemas', () => {
	const operations = nodeOperations();

	it('the node has the registry\'s operations, which the schemas are for, each run for real with output', () => {
		expect(operations).toHaveLength(operationPairs().length);
		for (const { resource, operation } of operations) expect({ operation: `${resource}/${operation}`, items: (outputs.get(`${resource}/${operation}`) ?? []).length > 0 }).toEqual({ operation: `${resource}/${operation}`, items: true });
	});

	it('every operation has a schema that n8n\'s editor accepts (an object with properties), and no schema is for an operation the node lacks', () => {
		for (const { resource, operation } of operations) {
			const schema = shipped(resource, operation);
			// n8n 2.41's editor (useRunWorkflow chunk, isValidSchema): `type` and non-empty `properties`.
			expect(schema.type).toBe('object');
			expect(Object.keys(schema.properties ?? {}).length).toBeGreaterThan(0);
		}
		const files = fs.readdirSync(SCHEMA_DIR, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.json'));
		// Beside them: the Poll Trigger's, one per resource (v1.0.0/<resource>.json).
		const wanted = [...operations.map(({ resource, operation }) => `${resource}/${operation}.json`), ...Object.keys(RESOURCES).map((resource) => `${resource}.json`)];
		expect(files.map((file) => file.replace(/\\/g, '/')).sort()).toEqual(wanted.sort());
	});

	it('every real output item is valid against its operation\'s schema, with no field the schema lacks (ajv)', () => {
		const ajv = new Ajv({ strict: true, allErrors: true });
		const failures: string[] = [];
		let checked = 0;
		for (const { resource, operation } of operations) {
			const validate = ajv.compile(closed(shipped(resource, operation)));
			for (const item of outputs.get(`${resource}/${operation}`) ?? []) {
				checked += 1;
				if (!validate(item)) failures.push(`${resource} → ${operation}: ${ajv.errorsText(validate.errors)}`);
			}
		}
		expect(failures).toEqual([]);
		expect(checked).toBeGreaterThan(operations.length);
	});

	it('the check fails on an output the schema does not describe (a new field, a changed type)', () => {
		const ajv = new Ajv({ strict: true });
		const schema = shipped('payout', 'create');
		const [item] = outputs.get('payout/create')!;
		const validate = ajv.compile(closed(schema));
		expect(validate(item)).toBe(true);
		expect(validate({ ...item, newField: 'x' })).toBe(false);
		expect(validate({ ...item, amount: String(item.amount) })).toBe(false);
		expect(validate({ ...item, inMainUnits: { ...(item.inMainUnits as IDataObject), amount: '1' } })).toBe(false);
	});

	it('the files are what the script derives from today\'s outputs (regenerated after an output changed)', () => {
		const stale = [...schemaFilesFrom(all)]
			.filter(([file, schema]) => !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== schemaText(schema))
			.map(([file]) => path.relative(ROOT, file));
		expect({ stale, fix: REGENERATE }).toEqual({ stale: [], fix: REGENERATE });
	});

	it('the money in main units is in the schemas of the operations that output it', () => {
		for (const key of ['payout/create', 'payout/createAndWait', 'payment/createTransfer', 'payment/waitForPayment', 'invoice/create', 'invoice/createAndWait']) {
			const [resource, operation] = key.split('/');
			const inMainUnits = shipped(resource, operation).properties?.inMainUnits;
			const amounts = Object.entries(inMainUnits?.properties ?? {}).filter(([name]) => name !== 'currency');
			expect({ key, type: inMainUnits?.type, currency: inMainUnits?.properties?.currency }).toEqual({ key, type: 'object', currency: { type: 'string' } });
			expect(amounts.length).toBeGreaterThan(0);
			for (const [name, schema] of amounts) expect({ key, name, schema }).toEqual({ key, name, schema: { type: 'number' } });
		}
	});
});

describe('trigger output schemas (what the node after a trigger shows before the first event)', () => {
	// The paths n8n asks for: /schemas/n8n-nodes-paycashless.paycashlessTrigger/1.0.0.json and
	// /schemas/n8n-nodes-paycashless.paycashlessPollTrigger/1.0.0/<resource>.json (scripts/output-schemas.cts).
	const triggers = () => [
		{ what: 'Paycashless Trigger', file: TRIGGER_SCHEMA_FILE, items: all.trigger },
		...Object.keys(RESOURCES).map((resource) => ({ what: `Poll Trigger on ${resource}`, file: pollSchemaPath(resource), items: all.poll.get(resource) ?? [] })),
	];

	it('the files sit where n8n looks for them', () => {
		expect(path.relative(ROOT, TRIGGER_SCHEMA_FILE)).toBe(path.join('nodes', 'Paycashless', '__schema__', 'v1.0.0.json'));
		expect(path.relative(ROOT, pollSchemaPath('payment'))).toBe(path.join('nodes', 'Paycashless', '__schema__', 'v1.0.0', 'payment.json'));
	});

	it('every real trigger output is valid against its schema, with no field the schema lacks (ajv), and the callbacks of several objects were seen', () => {
		const ajv = new Ajv({ strict: true, allErrors: true });
		const failures: string[] = [];
		for (const { what, file, items } of triggers()) {
			const schema = shippedFile(file, what);
			expect({ what, type: schema.type, fields: Object.keys(schema.properties ?? {}).length > 0, items: items.length > 0 }).toEqual({ what, type: 'object', fields: true, items: true });
			const validate = ajv.compile(closed(schema));
			for (const item of items) if (!validate(item)) failures.push(`${what}: ${ajv.errorsText(validate.errors)}`);
		}
		expect(failures).toEqual([]);
		const events = new Set(all.trigger.map((item) => String(item.event).split('_')[0]));
		expect([...events].sort()).toEqual(expect.arrayContaining(['INVOICE', 'PAYMENT', 'PAYOUT']));
		// The fields a next node maps: the money in main units beside the data.
		expect(shippedFile(TRIGGER_SCHEMA_FILE, 'Paycashless Trigger').properties).toEqual(expect.objectContaining({ event: { type: 'string' }, eventKey: { type: 'string' }, inMainUnits: expect.objectContaining({ type: 'object' }) }));
		expect(shippedFile(pollSchemaPath('payment'), 'Poll Trigger').properties?.data?.properties).toEqual(expect.objectContaining({ reference: { type: 'string' }, expectedAmount: { type: 'number' } }));
	});

	it('a trigger output with a field its schema lacks fails the check', () => {
		const ajv = new Ajv({ strict: true });
		const validate = ajv.compile(closed(shippedFile(TRIGGER_SCHEMA_FILE, 'Paycashless Trigger')));
		expect(validate(all.trigger[0])).toBe(true);
		expect(validate({ ...all.trigger[0], somethingNew: 1 })).toBe(false);
	});
});
