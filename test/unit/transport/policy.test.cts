/**
 * The retry policy's pure parts (classification, Retry-After, backoff, key-field comparison),
 * the "Request Options" fields of the node, and a 429 without Retry-After (which the emulator
 * never sends) against a fake server.
 */
import type { INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { NodeHelpers } from 'n8n-workflow';

import { registry, writePolicy } from '../../../nodes/Paycashless/actions/registry';
import { nodeOperations } from '../../../scripts/harness/operationOutputs.cjs';
import { SETTING_PARAMETERS } from '../../../nodes/Paycashless/actions/fields/requestOptions';
import { differences } from '../../../nodes/Paycashless/transport/create';
import { classify } from '../../../nodes/Paycashless/transport/send';
import { backoffMs, retryAfterMs } from '../../../nodes/Paycashless/transport/retry';
import { checkDeclared, DEFAULT_TRANSPORT_SETTINGS, isRepeatable, type Attempt, type FoundByReference, type PaycashlessRequest } from '../../../nodes/Paycashless/transport/types';
import { runNode } from '../../../scripts/harness/executeContext.cjs';
import { startFakeServer } from '../../support/executeFakeServer.cjs';

const GET: PaycashlessRequest = { method: 'GET', path: '/v1/payouts' };
const POST: PaycashlessRequest = { method: 'POST', path: '/v1/tax_rates', body: {} };
/** The write policy of Tax Rate → Create as the registry gives it; a read has none. */
const WRITE = writePolicy(registry.taxRate.create.declaration);
const READ_ONLY = undefined;
const answer = (status: number, body: unknown = { id: 'x' }, headers = {}, failureBody = false): Attempt => ({
	answered: true,
	status,
	body,
	headers,
	failureBody,
});
const thrown = (error: unknown): Attempt => ({ answered: false, error });
const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('classify', () => {
	it('answers', () => {
		expect(classify(answer(200), GET, READ_ONLY)).toBeUndefined();
		expect(classify(answer(202), POST, WRITE)).toBeUndefined();
		expect(classify(answer(429), POST, WRITE)).toBe('rateLimited');
		for (const status of [500, 502, 503, 504, 408]) expect(classify(answer(status), POST, WRITE)).toBe('uncertain');
		for (const status of [400, 401, 403, 404, 409, 422]) expect(classify(answer(status), GET, READ_ONLY)).toBe('final');
		expect(classify(answer(200, { status: 'failed', message: 'x' }, {}, true), POST, WRITE)).toBe('final');
		// A 2xx that is not JSON: a write may have happened; a read is simply wrong.
		expect(classify(answer(200, '<html>'), POST, WRITE)).toBe('uncertain');
		expect(classify(answer(200, '<html>'), GET, READ_ONLY)).toBe('final');
	});

	it('errors without an answer, also inside n8n’s wrapper (cause chain)', () => {
		expect(classify(thrown(withCode('ECONNREFUSED')), POST, WRITE)).toBe('notSent');
		expect(classify(thrown(withCode('ENOTFOUND')), POST, WRITE)).toBe('notSent');
		expect(classify(thrown(withCode('ECONNRESET')), POST, WRITE)).toBe('uncertain');
		expect(classify(thrown(withCode('ECONNABORTED', 'timeout of 30000ms exceeded')), POST, WRITE)).toBe('uncertain');
		expect(classify(thrown(withCode('UND_ERR_SOCKET', 'other side closed')), GET, READ_ONLY)).toBe('uncertain');
		expect(classify(thrown(new Error('socket hang up')), GET, READ_ONLY)).toBe('uncertain');
		const wrapped = new NodeApiError({ id: '1', name: 'n', type: 't', typeVersion: 1, position: [0, 0], parameters: {} }, withCode('ETIMEDOUT') as unknown as JsonObject);
		expect(classify(thrown(wrapped), POST, WRITE)).toBe('uncertain');
		expect(classify(thrown(withCode('ERR_CANCELED', 'canceled')), GET, READ_ONLY)).toBe('final');
		// Unknown: a read is not retried, a write may have gone out.
		expect(classify(thrown(new Error('something else')), GET, READ_ONLY)).toBe('final');
		expect(classify(thrown(new Error('something else')), POST, WRITE)).toBe('uncertain');
	});
});

describe('the declaration decides what may be sent again; the method only checks it', () => {
	const PUT: PaycashlessRequest = { method: 'PUT', path: '/v1/tax_rates/txr_1', body: { name: 'VAT' } };
	const update = writePolicy(registry.taxRate.update.declaration);

	it('a read\'s requests may be repeated; under a write policy only its look-ups (GET), never the write, a PUT included', () => {
		expect(isRepeatable(GET, READ_ONLY)).toBe(true);
		expect(isRepeatable(GET, update)).toBe(true);
		expect(isRepeatable(PUT, update)).toBe(false);
		expect(isRepeatable(POST, WRITE)).toBe(false);
		// A dropped PUT of Tax Rate → Update is an uncertain write, not a read to retry.
		expect(classify(thrown(new Error('something else')), PUT, update)).toBe('uncertain');
		expect(classify(answer(200, '<html>'), PUT, update)).toBe('uncertain');
	});

	it('a request that would write under a read declaration is refused, naming it', () => {
		expect(checkDeclared(GET, READ_ONLY)).toBeUndefined();
		expect(checkDeclared(PUT, update)).toBeUndefined();
		expect(checkDeclared(PUT, READ_ONLY)).toBe('Nothing was sent: PUT /v1/tax_rates/txr_1 would write, but its operation is declared a read (an error in the node; please report it)');
		expect(checkDeclared(POST, READ_ONLY)).toMatch(/^Nothing was sent: POST \/v1\/tax_rates/);
	});
});

describe('Retry-After', () => {
	it('seconds, decimal seconds, an HTTP date, or nothing usable', () => {
		const now = Date.parse('2025-01-01T00:00:00Z');
		expect(retryAfterMs(answer(429, {}, { 'retry-after': '2' }), now)).toBe(2000);
		expect(retryAfterMs(answer(429, {}, { 'Retry-After': '0.25' }), now)).toBe(250);
		expect(retryAfterMs(answer(429, {}, { 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(5000);
		expect(retryAfterMs(answer(429, {}, { 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }), now)).toBe(0);
		expect(retryAfterMs(answer(429, {}, { 'retry-after': 'soon' }), now)).toBeUndefined();
		expect(retryAfterMs(answer(429), now)).toBeUndefined();
		expect(retryAfterMs(thrown(new Error('x')), now)).toBeUndefined();
	});
});

describe('backoff', () => {
	it('doubles per attempt between half and all of the ceiling, capped', () => {
		expect([1, 2, 3, 4].map((n) => backoffMs(n, 1000, 60000, () => 0))).toEqual([500, 1000, 2000, 4000]);
		expect([1, 2, 3, 4].map((n) => backoffMs(n, 1000, 60000, () => 1))).toEqual([1000, 2000, 4000, 8000]);
		expect(backoffMs(10, 1000, 3000, () => 1)).toBe(3000);
		expect(backoffMs(10, 1000, 3000, () => 0)).toBe(1500);
		for (let i = 0; i < 200; i++) {
			const wait = backoffMs(3, 100, 60000);
			expect(wait).toBeGreaterThanOrEqual(200);
			expect(wait).toBeLessThanOrEqual(400);
		}
	});
});

describe('key fields of an object found by reference', () => {
	const policyOf = (resource: 'payout' | 'payment', operation: string) =>
		(writePolicy(registry[resource][operation].declaration) as { findsAgain: FoundByReference }).findsAgain;
	const body = { reference: 'r', amount: { value: 250000, currency: 'NGN' }, destinationAccountNumber: '0123456789', bankId: 'bank_a' };
	it('payouts: amount, currency, account, bank; fields the answer lacks are not compared', () => {
		const found = { reference: 'r', amount: 250000, currency: 'NGN', destinationAccountNumber: '0123456789', destinationBankId: 'bank_a' };
		expect(differences(policyOf('payout', 'create'), body, found)).toEqual([]);
		expect(differences(policyOf('payout', 'create'), body, { reference: 'r' })).toEqual([]);
		expect(differences(policyOf('payout', 'create'), body, { ...found, amount: 1, destinationBankId: 'bank_b' })).toEqual([
			{ field: 'amount', existing: 1, requested: 250000 },
			{ field: 'bankId', existing: 'bank_b', requested: 'bank_a' },
		]);
	});
	it('payments: expected amount and currency', () => {
		expect(differences(policyOf('payment', 'createTransfer'), body, { expectedAmount: 250000, currency: 'NGN' })).toEqual([]);
		expect(differences(policyOf('payment', 'createTransfer'), body, { expectedAmount: 250000, currency: 'USD' })).toEqual([
			{ field: 'currency', existing: 'USD', requested: 'NGN' },
		]);
	});
});

describe('"Request Options" on the node', () => {
	const description = new Paycashless().description;
	const collections = description.properties.filter((property) => property.name === 'requestOptions');
	const operations = Object.entries(registry).flatMap(([resource, ops]) => Object.keys(ops).map((operation) => ({ resource, operation })));

	it('one collection, shown for every operation of the node, with the transport’s defaults', () => {
		expect(collections).toHaveLength(1);
		const [collection] = collections;
		expect(operations).toHaveLength(nodeOperations().length);
		for (const values of operations) {
			expect(NodeHelpers.displayParameter(values, collection, { typeVersion: 1 }, description)).toBe(true);
		}
		const fields = collection.options as INodeProperties[];
		const names = fields.map((field) => field.displayName);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		for (const [key, { name }] of Object.entries(SETTING_PARAMETERS)) {
			const field = fields.find((f) => f.name === name) as INodeProperties;
			expect(field.default).toBe(DEFAULT_TRANSPORT_SETTINGS[key as keyof typeof SETTING_PARAMETERS]);
			expect(field.description).toBeTruthy();
		}
	});

	it('"On Repeated Reference" only on the four creates with a reference (as n8n shows it), default Return Existing', () => {
		const field = (collections[0].options as INodeProperties[]).find((f) => f.name === 'onRepeatedReference') as INodeProperties;
		const withMode = operations
			.filter((root) => NodeHelpers.displayParameter({}, field, { typeVersion: 1 }, description, root))
			.map(({ resource, operation }) => `${resource}.${operation}`)
			.sort();
		expect(withMode).toEqual(['invoice.create', 'invoice.createAndWait', 'payment.createCheckout', 'payment.createTransfer', 'payout.create', 'payout.createAndWait']);
		expect(field.default).toBe(DEFAULT_TRANSPORT_SETTINGS.onRepeatedReference);
		expect(field.description).toContain('409');
	});

	it('request options and Requests in Parallel take at most 3 top-level properties', () => {
		const names = description.properties.map((property) => property.name).filter((name) => name === 'requestOptions' || name === 'concurrency');
		expect(names.length).toBeLessThanOrEqual(3);
	});
});

describe('a 429 without Retry-After', () => {
	it('waits the capped exponential backoff, then succeeds', async () => {
		const server = await startFakeServer((_request, index) =>
			index < 2 ? { status: 429, body: { message: 'Too many requests' } } : { status: 200, body: { id: 'po_1', reference: 'r' } },
		);
		try {
			const { output, sent } = await runNode({
				parameters: { resource: 'payout', operation: 'verify', reference: 'r', requestOptions: { retryDelay: 100, maxRetryWait: 150 } },
				credentials: { apiKey: 'pk_test_x', apiSecret: 'sk_test_x', baseUrl: server.baseUrl },
			});
			expect(output[0].json).toEqual({ id: 'po_1', reference: 'r' });
			expect(sent).toHaveLength(3);
			const gaps = sent.slice(1).map((request, index) => request.at - sent[index].at);
			// First wait 50..100 ms, second 75..150 ms (200 capped at 150).
			expect(gaps[0]).toBeGreaterThanOrEqual(48);
			expect(gaps[1]).toBeGreaterThanOrEqual(73);
		} finally {
			await server.close();
		}
	});
});
