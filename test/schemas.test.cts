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

import { ROOT, SCHEMA_DIR, schemaPath, schemasFrom, schemaText, type JsonSchema } from '../scripts/output-schemas.cjs';
import { collectOperationOutputs, nodeOperations, type OperationOutputs } from './helpers/operationOutputs.cjs';

jest.setTimeout(120_000);

const REGENERATE = 'npm run schemas (docs/development.md, "Output schemas")';

let outputs: OperationOutputs;
beforeAll(async () => {
	outputs = await collectOperationOutputs();
});

function shipped(resource: string, operation: string): JsonSchema {
	const file = schemaPath(resource, operation);
	if (!fs.existsSync(file)) throw new Error(`no output schema for ${resource} → ${operation} (${path.relative(ROOT, file)}): ${REGENERATE}`);
	return JSON.parse(fs.readFileSync(file, 'utf8')) as JsonSchema;
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

	it('the node has the 24 operations the schemas are for, each run for real with output', () => {
		expect(operations).toHaveLength(24);
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
		expect(files.map((file) => file.replace(/\\/g, '/')).sort()).toEqual(operations.map(({ resource, operation }) => `${resource}/${operation}.json`).sort());
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
		const stale = [...schemasFrom(outputs)]
			.filter(([key, schema]) => fs.readFileSync(schemaPath(key.split('/')[0], key.split('/')[1]), 'utf8') !== schemaText(schema))
			.map(([key]) => key);
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
