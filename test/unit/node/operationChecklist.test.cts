/**
 * Adding an operation is a checklist (docs/adding-an-operation.md), and this test holds it: for
 * every operation in the node's registry it names what the operation still lacks, all at once:
 * - an emulator route for the request it sends (found by its dry run, scripts/harness/dryRun.cts:
 *   the operation's own `execute` with each required field's placeholder, its first request caught
 *   before it leaves);
 * - one entry in the run table (scripts/harness/operationRuns.cts), which runs it in the fake
 *   contexts and in n8n's engine on both lines (test/support/suites/operations.cts), and the output
 *   schema file `npm run schemas` writes from it;
 * Its docs rows are generated (npm run docs; test/tooling/repo/generatedDocs.test.cts). Then the same
 * for every resource and every money kind. Fast: nothing is sent, no n8n.
 */
import * as fs from 'fs';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';

import type { IDataObject } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Emulator } from '../../../emulator/server.cjs';
import { moneyPairs, operationPairs, registry, resources, writePolicy } from '../../../nodes/Paycashless/actions/registry';
import type { PaycashlessResource } from '../../../nodes/Paycashless/actions/node.type';
import { limitsKind, type MoneyKind, type OperationRef } from '../../../nodes/Paycashless/actions/types';
import { MONEY_KINDS } from '../../../nodes/Paycashless/money/kinds';
import { LIMITS_PARAMETER, moneyLimitsCollection } from '../../../nodes/Paycashless/money/limitFields';
import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { firstRequest } from '../../../scripts/harness/dryRun.cjs';
import { OPERATION_RUNS } from '../../../scripts/harness/operationRuns.cjs';
import { ROOT, schemaPath } from '../../../scripts/output-schemas.cjs';

describe('adding an operation: what each operation of the registry still lacks', () => {
	it('every operation has its emulator route, run entry and output schema', async () => {
		const routes = (new Emulator() as unknown as { api: { match(method: string, path: string): unknown } }).api;
		const missing: string[] = [];
		for (const { resource, operation } of operationPairs()) {
			const { displayName } = resources[resource as PaycashlessResource];
			const { option } = registry[resource as PaycashlessResource][operation];
			const label = `${displayName} → ${option.name}`;
			const lacks: string[] = [];

			const request = await firstRequest(resource, operation);
			if (typeof request === 'object' && 'refused' in request) {
				lacks.push(`a request the dry run can see: with each required field's placeholder it stopped before sending (${request.refused}); add what it needs to DRY_RUN in scripts/harness/dryRun.cts`);
			} else if (request !== 'none' && !routes.match(request.method, request.path)) {
				lacks.push(`an emulator route for ${request.method} ${request.path} (emulator/resources/*.cts, router.add)`);
			}
			const entries = OPERATION_RUNS.filter((entry) => entry.resource === resource && entry.operation === operation);
			if (entries.length !== 1) lacks.push(`one entry in the run table, scripts/harness/operationRuns.cts (it has ${entries.length})`);
			const schema = schemaPath(resource, operation);
			if (!fs.existsSync(schema)) lacks.push(`its output schema ${path.relative(ROOT, schema)} (npm run schemas, from its run entry)`);

			if (lacks.length > 0) missing.push(`${label} (${resource}/${operation}) lacks:\n${lacks.map((lack) => `  - ${lack}`).join('\n')}`);
		}
		expect(missing.join('\n')).toBe('');
	});

	it('the dry run sees each operation\'s request (a made-up route would be caught)', async () => {
		const seen: IDataObject = {};
		for (const { resource, operation } of operationPairs()) seen[`${resource}/${operation}`] = await firstRequest(resource, operation);
		expect(seen['payout/create']).toEqual({ method: 'POST', path: '/v1/payouts', pattern: '/v1/payouts' });
		expect(seen['invoice/getAll']).toEqual({ method: 'GET', path: '/v1/invoices', pattern: '/v1/invoices' });
		expect(seen['payout/get']).toEqual({ method: 'GET', path: '/v1/payouts/po_abc123', pattern: '/v1/payouts/{id}' });
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

/** Every API base path the catalog writes (nodes/Paycashless/catalog/objects.ts): each object's requests go under one. */
const CATALOG_PATHS = [...fs.readFileSync(path.join(ROOT, 'nodes', 'Paycashless', 'catalog', 'objects.ts'), 'utf8').matchAll(/'(\/v1\/[a-z_/]+)'/g)].map((found) => found[1]);

describe('adding a resource: what each resource of the registry still lacks', () => {
	it('every resource has operations, its default among them, its caption, and its object in the catalog', async () => {
		expect(CATALOG_PATHS).toEqual(expect.arrayContaining(['/v1/payouts', '/v1/tax_rates']));
		const missing: string[] = [];
		for (const [resource, definition] of Object.entries(resources)) {
			const lacks: string[] = [];
			const operations = Object.keys(definition.operations);
			if (operations.length === 0) lacks.push('an operation (its index.ts `operations`)');
			if (!operations.includes(definition.defaultOperation)) lacks.push(`a defaultOperation among its operations (it says ${definition.defaultOperation})`);
			if (!definition.caption.startsWith(`${definition.displayName}: `)) lacks.push(`a caption "${definition.displayName}: what it is" in its index.ts`);
			for (const operation of operations) {
				const request = await firstRequest(resource, operation);
				if (typeof request === 'object' && 'path' in request && !CATALOG_PATHS.some((base) => request.path === base || request.path.startsWith(`${base}/`))) {
					lacks.push(`its object in nodes/Paycashless/catalog/objects.ts: ${operation} sends ${request.method} ${request.path}, under no path the catalog writes`);
				}
			}
			if (lacks.length > 0) missing.push(`${definition.displayName} (${resource}) lacks:\n${lacks.map((lack) => `  - ${lack}`).join('\n')}`);
		}
		expect(missing.join('\n')).toBe('');
	});
});

describe('adding a money kind: what each kind of money-moving create still lacks', () => {
	const description = new Paycashless().description;
	const limitsOf = (kind: MoneyKind) => description.properties.find((property) => property.name === LIMITS_PARAMETER && isDeepStrictEqual(property.options, moneyLimitsCollection(kind).options));

	it('every money kind has a create that moves it, its Money Limits shown exactly there, a money step and a builder hint', async () => {
		const missing: string[] = [];
		for (const kind of MONEY_KINDS) {
			const lacks: string[] = [];
			const creates = moneyPairs(kind);
			if (creates.length === 0) lacks.push(`a create that moves it (its declaration's findsAgain.object '${kind}', movesMoney: true)`);
			const limits = limitsOf(kind);
			const shownFor = operationPairs().filter((pair) => limits && NodeHelpers.displayParameter({ ...pair }, limits, { typeVersion: 1 }, description));
			if (!isDeepStrictEqual(shownFor.map(({ resource, operation }) => `${resource}.${operation}`).sort(), operationPairs((declaration) => limitsKind(declaration) === kind).map(({ resource, operation }) => `${resource}.${operation}`).sort())) {
				lacks.push(`its Money Limits (money/limits.ts) shown for exactly its creates and batch checks: shown for ${shownFor.map(({ resource, operation }) => `${resource}.${operation}`).join(', ') || 'none'}`);
			}
			for (const { resource, operation } of creates) {
				const handler = registry[resource as PaycashlessResource][operation];
				const refused = await firstRequest(resource, operation, { [LIMITS_PARAMETER]: { maxAmount: 0.01 } });
				if (!(typeof refused === 'object' && 'refused' in refused && /Maximum Amount/.test(refused.refused))) {
					lacks.push(`${operation}: its money step (money/step.ts sendChecked with '${kind}'): with a Maximum Amount of 0.01 it did not refuse (${JSON.stringify(refused)})`);
				}
				if (!handler.builderHint) lacks.push(`${operation}: a builderHint export saying what it does to money (actions/fields/builderHints.ts has the shared words)`);
			}
			if (lacks.length > 0) missing.push(`money kind ${kind} lacks:\n${lacks.map((lack) => `  - ${lack}`).join('\n')}`);
		}
		expect(missing.join('\n')).toBe('');
	});

	it('finds the Money Limits of each kind and the payout creates (the checks above look at something)', () => {
		for (const kind of MONEY_KINDS) expect(limitsOf(kind)).toBeDefined();
		expect(moneyPairs('payout').map(({ operation }) => operation).sort()).toEqual(['create', 'createAndWait']);
	});
});
