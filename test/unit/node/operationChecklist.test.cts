/**
 * Adding an operation is a checklist (docs/adding-an-operation.md), and this test holds it: for
 * every operation in the node's registry it names what the operation still lacks, all at once:
 * - an emulator route for the request it sends (found by a dry run: the operation's own `execute`
 *   with each required field's placeholder, its first request caught before it leaves);
 * - its output schema file (written by `npm run schemas` from its run in test/support/operationOutputs.cts);
 * - a run in a real n8n: a test title in an e2e suite (test/e2e/, test/support/suites/) that starts with its name ("Payout → Create");
 * - its name in README.md's Operations table, and its row in docs/operations.md with the request it sends.
 * Fast: nothing is sent, no n8n.
 */
import * as fs from 'fs';
import * as path from 'path';

import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { Emulator } from '../../../emulator/server.cjs';
import { operationPairs, registry, resources, writePolicy } from '../../../nodes/Paycashless/actions/registry';
import type { PaycashlessResource } from '../../../nodes/Paycashless/actions/node.type';
import type { OperationRef } from '../../../nodes/Paycashless/actions/types';
import type { PaycashlessApi, PaycashlessRequest } from '../../../nodes/Paycashless/transport';
import { OPERATION_RUNS } from '../../../scripts/harness/operationRuns.cjs';
import { ROOT, schemaPath } from '../../../scripts/output-schemas.cjs';
import { createExecuteContext } from '../../support/executeContext.cjs';

/** Thrown by the dry run's transport once it has the operation's first request. */
class Caught extends Error {
	constructor(readonly request: { method: string; path: string }) {
		super('caught');
	}
}

const catching: PaycashlessApi = {
	request: async (request: PaycashlessRequest) => {
		throw new Caught({ method: request.method, path: request.path.split('?', 1)[0] });
	},
	paginate: async (list) => {
		throw new Caught({ method: 'GET', path: list.path });
	},
	page: async (list) => {
		throw new Caught({ method: 'GET', path: list.path });
	},
};

/**
 * Values the dry run needs beyond each required field's placeholder (a list or a choice has none),
 * by `resource/operation`; `'none'` for an operation that sends no request.
 */
const DRY_RUN: Record<string, INodeParameters | 'none'> = {
	'callback/verify': 'none',
	'invoice/create': { items: { itemValues: [{ name: 'Rice', quantity: 1, price: 100 }] } },
	'invoice/createAndWait': { items: { itemValues: [{ name: 'Rice', quantity: 1, price: 100 }] } },
	'taxRate/update': { updateFields: { name: 'VAT' } },
};

/** A value for a required field: its placeholder (an example the user sees), else its default. */
function sample(field: INodeProperties): unknown {
	if (field.type === 'resourceLocator') {
		const byId = field.modes?.find((mode) => mode.name === 'id');
		return { __rl: true, mode: 'id', value: byId?.placeholder ?? 'x1' };
	}
	const example = field.placeholder || (typeof field.default === 'string' && field.default) || 'x1';
	if (field.type === 'number') return typeof field.default === 'number' && field.default > 0 ? field.default : 1;
	if (field.type === 'string') return example;
	return field.default;
}

/** The first request the operation sends, `none` when it sends none, or why the dry run could not tell. */
async function firstRequest(resource: string, operation: string): Promise<{ method: string; path: string } | 'none' | { refused: string }> {
	const handler = registry[resource as PaycashlessResource][operation];
	const extra = DRY_RUN[`${resource}/${operation}`];
	if (extra === 'none') return 'none';
	const parameters: INodeParameters = { resource, operation };
	for (const field of handler.description) if (field.required) parameters[field.name] = sample(field) as INodeParameters[string];
	Object.assign(parameters, extra);
	const { context } = createExecuteContext({ parameters, credentials: { apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9' } });
	Object.assign(context, { evaluateExpression: () => 'http://127.0.0.1:9/webhook-waiting/1', putExecutionToWait: async () => undefined });
	try {
		await handler.execute.call(context, 0, catching);
		return 'none';
	} catch (error) {
		// The money step (money/step.ts) hands a failure on as an n8n error of the item, the caught request as its cause.
		const caught = error instanceof Caught ? error : (error as { cause?: unknown }).cause;
		if (caught instanceof Caught) return caught.request;
		return { refused: (error as Error).message };
	}
}

/** Every test title (describe and it) in the files that run a real n8n (test/e2e/ and the suites it calls, test/support/suites/). */
function e2eTitles(): string[] {
	return [path.join(ROOT, 'test', 'e2e'), path.join(ROOT, 'test', 'support', 'suites')].flatMap((folder) => {
		const files = fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.cts'));
		return files.flatMap((file) => [...fs.readFileSync(path.join(folder, file), 'utf8').matchAll(/\b(?:it|describe)\((['`])(.*?)\1/g)].map((found) => found[2]));
	});
}

/** README.md's Operations table: resource display name → the operation names in its row. */
function documentedOperations(): Map<string, string[]> {
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const table = readme.slice(readme.indexOf('| Resource | Operations |'));
	const rows = new Map<string, string[]>();
	for (const line of table.split('\n').slice(2)) {
		if (!line.startsWith('|')) break;
		const [name, operations] = line.split('|').slice(1, 3).map((cell) => cell.trim());
		// "Verify (by your reference)" is Verify; commas inside the parentheses are not separators.
		rows.set(name, operations.replace(/\([^)]*\)/g, '').split(',').map((entry) => entry.trim()));
	}
	return rows;
}

/** docs/operations.md's table: `Resource/Operation` (display names) → its Request cell. */
function operationRows(): Map<string, string> {
	const text = fs.readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
	const rows = new Map<string, string>();
	for (const line of text.split('\n')) {
		const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
		if (cells.length === 4 && !/^-+$/.test(cells[0])) rows.set(`${cells[0]}/${cells[1]}`, cells[2]);
	}
	return rows;
}

/** The Request cell names this request (`{id}` for any path segment). */
function documents(cell: string, request: { method: string; path: string }): boolean {
	const named = /^`([A-Z]+) ([^`]+)`/.exec(cell);
	if (!named || named[1] !== request.method) return false;
	const pattern = named[2].split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
	return new RegExp(`^${pattern}$`).test(request.path);
}

describe('adding an operation: what each operation of the registry still lacks', () => {
	it('every operation has its emulator route, output schema, run in n8n and docs row', async () => {
		const routes = (new Emulator() as unknown as { api: { match(method: string, path: string): unknown } }).api;
		const titles = e2eTitles();
		const docs = documentedOperations();
		const rows = operationRows();
		const missing: string[] = [];
		for (const { resource, operation } of operationPairs()) {
			const { displayName } = resources[resource as PaycashlessResource];
			const { option } = registry[resource as PaycashlessResource][operation];
			const label = `${displayName} → ${option.name}`;
			const lacks: string[] = [];

			const request = await firstRequest(resource, operation);
			if (typeof request === 'object' && 'refused' in request) {
				lacks.push(`a request the dry run can see: with each required field's placeholder it stopped before sending (${request.refused}); add what it needs to DRY_RUN in test/unit/node/operationChecklist.test.cts`);
			} else if (request !== 'none' && !routes.match(request.method, request.path)) {
				lacks.push(`an emulator route for ${request.method} ${request.path} (emulator/resources/*.cts, router.add)`);
			}
			const entries = OPERATION_RUNS.filter((entry) => entry.resource === resource && entry.operation === operation);
			if (entries.length !== 1) lacks.push(`one entry in the run table, scripts/harness/operationRuns.cts (it has ${entries.length})`);
			const schema = schemaPath(resource, operation);
			if (!fs.existsSync(schema)) lacks.push(`its output schema ${path.relative(ROOT, schema)} (npm run schemas, from its run entry)`);
			// A table entry runs in real n8n (test/support/suites/operations.cts) unless it needs the fake contexts.
			const inN8n = entries.some((entry) => !entry.inProcess) || titles.some((title) => title === label || title.startsWith(`${label} `) || title.startsWith(`${label}:`));
			if (!inN8n) lacks.push(`a run in a real n8n: its run entry without inProcess, or a test titled '${label} …' in an e2e suite (test/e2e/, test/support/suites/)`);
			if (!(docs.get(displayName) ?? []).includes(option.name)) lacks.push(`"${option.name}" in the ${displayName} row of README.md's Operations table`);
			const row = rows.get(`${displayName}/${option.name}`);
			if (row === undefined) lacks.push(`a row "| ${displayName} | ${option.name} | ..." in docs/operations.md`);
			else if (typeof request === 'object' && 'method' in request && !documents(row, request)) {
				lacks.push(`docs/operations.md's row to name its request: it says ${row}, the operation sends ${request.method} ${request.path}`);
			}

			if (lacks.length > 0) missing.push(`${label} (${resource}/${operation}) lacks:\n${lacks.map((lack) => `  - ${lack}`).join('\n')}`);
		}
		expect(missing.join('\n')).toBe('');
	});

	it('the dry run sees each operation\'s request (a made-up route would be caught)', async () => {
		const seen: IDataObject = {};
		for (const { resource, operation } of operationPairs()) seen[`${resource}/${operation}`] = await firstRequest(resource, operation);
		expect(seen['payout/create']).toEqual({ method: 'POST', path: '/v1/payouts' });
		expect(seen['invoice/getAll']).toEqual({ method: 'GET', path: '/v1/invoices' });
		expect(seen['callback/verify']).toBe('none');
		const requests = Object.values(seen).filter((request) => typeof request === 'object' && request !== null && 'method' in request);
		expect(requests).toHaveLength(operationPairs().length - 1);
	});

	it('every declaration names operations the node has (its policy for the transport can be made)', () => {
		const policies = operationPairs().map(({ resource, operation }) => writePolicy(registry[resource as PaycashlessResource][operation].declaration));
		const named = policies.map((policy) => (policy?.kind === 'create' ? policy.findsAgain.findWith.operation : policy?.check.with)).filter((name) => name !== undefined);
		expect(named).toContain('Payout → Verify');
		expect(named).toContain('Invoice → Get Many');
		for (const name of named) expect(name).toMatch(/^[A-Z][A-Za-z ]+ → [A-Z][A-Za-z ]+$/);
	});

	it('a reference to an operation the node lacks is a type error, and fails to load if forced', () => {
		// `npm run typecheck` proves the first half: OperationRef is typed by the node's own names
		// (actions/node.type.ts), so this line must not compile; were it loose, @ts-expect-error fails.
		// @ts-expect-error 'gett' is not an invoice operation
		const misspelled: OperationRef = { resource: 'invoice', operation: 'gett' };
		expect(() => writePolicy({ kind: 'write', check: { with: misspelled, text: 'whether it worked' } })).toThrow('No operation invoice.gett to name');
	});
});
