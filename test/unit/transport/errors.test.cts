/**
 * Every documented error shape, through the real node and credential, against a local server
 * that answers exactly that shape.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { runNode } from '../../../scripts/harness/executeContext.cjs';
import { type FakeAnswer, type FakeServer, startFakeServer } from '../../support/executeFakeServer.cjs';

const SECRET = 'sk_test_do_not_leak_9d2f';
const API_KEY = 'pk_test_errors';

const payoutCreate: INodeParameters = {
	resource: 'payout',
	operation: 'create',
	reference: 'bill-77',
	amount: 2500,
	currency: 'NGN',
	destinationAccountNumber: '0123456789',
	bankId: 'bank_538ed2056326432ba8e6853b613997bb',
};
const payoutGet: INodeParameters = {
	resource: 'payout',
	operation: 'get',
	payoutId: { __rl: true, mode: 'id', value: 'po_abc' },
};

/** Real retries, short waits: the advice after several attempts is tested without sleeping seconds. */
const FAST_RETRIES: INodeParameters = { retryDelay: 5, maxRetryWait: 50 };

let server: FakeServer;
let answer: FakeAnswer = {};

beforeAll(async () => {
	server = await startFakeServer(() => answer);
});
afterAll(async () => {
	await server.close();
});
beforeEach(() => {
	server.requests.length = 0;
});

async function failWith(reply: FakeAnswer, parameters: INodeParameters = payoutCreate): Promise<NodeApiError> {
	answer = reply;
	let thrown: unknown;
	try {
		await runNode({
			parameters: { ...parameters, requestOptions: { ...FAST_RETRIES, ...(parameters.requestOptions as INodeParameters | undefined) } },
			credentials: { apiKey: API_KEY, apiSecret: SECRET, baseUrl: server.baseUrl },
		});
	} catch (error) {
		thrown = error;
	}
	expect(thrown).toBeInstanceOf(NodeApiError);
	const error = thrown as NodeApiError;
	expect(JSON.stringify({ message: error.message, description: error.description, context: error.context })).not.toContain(
		SECRET,
	);
	expect(JSON.stringify(error.errorResponse ?? {})).not.toContain(API_KEY);
	expect(error.context.itemIndex).toBe(0);
	return error;
}

describe('API errors become NodeApiError with the API message, type/code, HTTP status and advice', () => {
	it('nested {error:{type,code,message,params}}', async () => {
		const error = await failWith(
			{
				status: 422,
				body: {
					error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'Amount is below the minimum.', params: ['amount'] },
				},
			},
		);
		expect(error.message).toBe('Amount is below the minimum. (invalid_request_error / parameter_invalid, HTTP 422)');
		expect(error.httpCode).toBe('422');
		expect(error.description).toContain('Fix the field named in the message');
		expect(error.description).toContain('Fields named by Paycashless: amount.');
		expect(server.requests).toHaveLength(1);
	});

	it('top-level {type,code,message}, 401', async () => {
		const error = await failWith(
			{ status: 401, body: { type: 'authentication_error', code: 'invalid_signature', message: 'Signature mismatch' } },
			payoutGet,
		);
		// The toast (the message) gives the plain advice; Paycashless's own words follow in the description.
		expect(error.message).toBe('Paycashless did not accept the credential: check its API Key and API Secret (HTTP 401)');
		expect(error.httpCode).toBe('401');
		expect(error.description).toContain('API Key and API Secret');
		expect(error.description).toMatch(/Paycashless said: Signature mismatch \(authentication_error \/ invalid_signature, HTTP 401\)\.$/);
		expect(error.description).toContain('same mode (both test or both live)');
	});

	it('payout failure form {status:"failed", message} with a 4xx status', async () => {
		const error = await failWith({ status: 400, body: { status: 'failed', message: 'Insufficient balance' } });
		expect(error.message).toBe('Insufficient balance (HTTP 400)');
		expect(error.httpCode).toBe('400');
		expect(error.description).toContain('Fix the field named in the message');
	});

	it('payout failure form even with a 2xx status', async () => {
		const error = await failWith({ status: 200, body: { status: 'failed', message: 'Destination bank unavailable' } });
		expect(error.message).toBe('Destination bank unavailable (HTTP 200)');
		expect(error.description).toContain('did not accept the request');
	});

	it('a payout object whose status is failed is a result, not an error', async () => {
		answer = { status: 200, body: { id: 'po_abc', status: 'failed', message: 'x', reference: 'r' } };
		const { output } = await runNode({
			parameters: payoutGet,
			credentials: { apiKey: API_KEY, apiSecret: SECRET, baseUrl: server.baseUrl },
		});
		expect(output).toEqual([{ json: { id: 'po_abc', status: 'failed', message: 'x', reference: 'r' }, pairedItem: { item: 0 } }]);
	});

	it('non-JSON body from a proxy, 502, on a payout: verify before retrying', async () => {
		const error = await failWith({ status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' });
		expect(error.message).toBe('Paycashless answered with a non-JSON body: 502 Bad Gateway (HTTP 502)');
		expect(error.httpCode).toBe('502');
		expect(error.description).toContain('Paycashless had a problem');
		expect(error.description).toContain('Payout → Verify and the reference "bill-77"');
	});

	it('5xx on a read: no verify advice', async () => {
		const error = await failWith({ status: 500, body: { error: { type: 'api_error', code: 'internal', message: 'Oops' } } }, payoutGet);
		expect(error.message).toBe('Oops (api_error / internal, HTTP 500)');
		expect(error.description).toBe('Paycashless had a problem handling the request; try again later.');
	});

	it('5xx on a payment: verify the payment by reference', async () => {
		const error = await failWith(
			{ status: 503, body: '' },
			{
				resource: 'payment',
				operation: 'createTransfer',
				reference: 'order-9',
				amount: 10,
				currency: 'NGN',
				customerEmail: 'ada@example.com',
				customerName: 'Ada',
			},
		);
		expect(error.message).toBe('Paycashless answered with an empty body (HTTP 503)');
		expect(error.description).toContain('Payment → Verify and the reference "order-9"');
	});

	it('404: check the id or reference', async () => {
		const error = await failWith(
			{ status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No payout found' } } },
			payoutGet,
		);
		expect(error.httpCode).toBe('404');
		expect(error.description).toContain('Check the ID or reference');
	});

	it('404 of an account lookup: check the account number and the bank code, not an ID', async () => {
		const error = await failWith(
			{ status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'Account not found' } } },
			{ resource: 'bankAccount', operation: 'lookUp', accountNumber: '0001234567', bankCode: '044' },
		);
		expect(error.description).toMatch(/^Paycashless found no such account at that bank\. Check the account number \(10 digits\) and the bank code/);
		expect(error.description).not.toContain('ID or reference');
	});

	it('409: the reference was used before, look it up with Verify', async () => {
		const error = await failWith({
			status: 409,
			body: { error: { type: 'idempotency_error', code: 'duplicate_reference', message: 'Reference already used' } },
		});
		expect(error.message).toBe('Reference already used (idempotency_error / duplicate_reference, HTTP 409)');
		expect(error.description).toContain('That reference was used before');
		expect(error.description).toContain('Payout → Verify and the reference "bill-77"');
	});

	it('429: slow down', async () => {
		const error = await failWith({ status: 429, body: { message: 'Too many requests' } }, payoutGet);
		expect(error.message).toBe('Too many requests (HTTP 429)');
		expect(error.description).toContain('add a Wait node');
	});

	it('a list answer without data is an error, not an empty list', async () => {
		const error = await failWith({ status: 200, body: { hasMore: false } }, { resource: 'payout', operation: 'getAll' });
		expect(error.message).toContain('without a "data" list');
		expect(error.description).toContain('check the Base URL');
	});

	it('no answer at all: network error naming the base URL; payouts get verify advice', async () => {
		const closed = await startFakeServer(() => ({}));
		const baseUrl = closed.baseUrl;
		await closed.close();
		let thrown: unknown;
		try {
			await runNode({ parameters: payoutCreate, credentials: { apiKey: API_KEY, apiSecret: SECRET, baseUrl } });
			// Default settings: a refused connection is tried 3 times, not for the whole Max Retry Time.
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(NodeApiError);
		const error = thrown as NodeApiError;
		expect(error.message).toMatch(new RegExp(`^Could not reach Paycashless at ${baseUrl} \\(ECONNREFUSED\\)`));
		expect(error.description).toContain('may or may not have reached Paycashless');
		expect(error.description).toContain('Payout → Verify');
		expect(error.description).toContain('The node tried 3 times');
	});
});

describe('Continue On Fail', () => {
	it('turns the failing item into an error item and goes on with the others', async () => {
		// A repeated reference is an error here (by default the node would return the existing payout).
		const good = (reference: string) => ({ ...payoutCreate, reference, requestOptions: { onRepeatedReference: 'error' } });
		const server2 = await startFakeServer((request) => {
			// The read of the full payout after a create (GET /v1/payouts/verify/{reference}).
			const verified = /^\/v1\/payouts\/verify\/(.+)$/.exec(request.path);
			if (request.method === 'GET' && verified) return { status: 200, body: { id: 'po_ok', status: 'pending', reference: verified[1], amount: 100 } };
			// The list a run of several payouts reads them back from: here it shows none, so each is read on its own.
			if (request.method === 'GET' && request.path === '/v1/payouts') return { status: 200, body: { hasMore: false, cursor: null, data: [] } };
			return request.body.includes('"reference":"dup"')
				? { status: 409, body: { error: { type: 'idempotency_error', code: 'duplicate_reference', message: 'Used before' } } }
				: { status: 202, body: { id: 'po_ok', status: 'pending', reference: JSON.parse(request.body).reference } };
		});
		try {
			const { output, sent } = await runNode({
				parameters: [good('a'), good('dup'), { ...good('c'), amount: -1 }, good('d')],
				credentials: { apiKey: API_KEY, apiSecret: SECRET, baseUrl: server2.baseUrl },
				continueOnFail: true,
			});
			// a: create + read; dup: create; c: nothing (refused before sending); d: create + read; one
			// list read for a and d (it shows neither, so each is read on its own). The items run in
			// parallel, so only the requests per reference are compared.
			const perReference = (request: { method: string; path: string; body?: string }) =>
				`${request.method} ${request.method === 'GET' ? request.path.split('/').pop() : JSON.parse(request.body ?? '{}').reference}`;
			expect(sent.map(perReference).sort()).toEqual(['GET a', 'GET d', 'GET payouts', 'POST a', 'POST d', 'POST dup']);
			expect(output).toHaveLength(4);
			// The fake answer names no currency, so no inMainUnits.
			const created = (reference: string) => ({ id: 'po_ok', status: 'pending', reference, amount: 100, _paycashless: { reconciled: false, repeated: false } });
			expect(output[0]).toEqual({ json: created('a'), pairedItem: { item: 0 } });
			expect(output[1].pairedItem).toEqual({ item: 1 });
			// No `item.error`: n8n would replace the JSON with { error } and drop the details. Only the
			// keys message and error, which n8n's "Continue (using error output)" routes by (1.123 and 2.41).
			expect(output[1].error).toBeUndefined();
			expect(output[1].json).toEqual({
				message: 'Used before (idempotency_error / duplicate_reference, HTTP 409)',
				error: {
					message: 'Used before (idempotency_error / duplicate_reference, HTTP 409)',
					description: expect.stringContaining('That reference was used before'),
					httpCode: '409',
					type: 'idempotency_error',
					code: 'duplicate_reference',
					reference: 'dup',
					amount: 2500,
					currency: 'NGN',
				},
			});
			// A refused amount is not named as if it were one (amounts named are above 0).
			expect(output[2]).toEqual({
				json: {
					message: expect.stringMatching(/^Invalid Amount -1: use a number greater than 0/),
					error: { message: expect.stringMatching(/^Invalid Amount -1/), code: 'INVALID_INPUT', field: 'Amount', reference: expect.any(String) },
				},
				pairedItem: { item: 2 },
			});
			expect(output[3]).toEqual({ json: created('d'), pairedItem: { item: 3 } });
			expect(JSON.stringify(output)).not.toContain(SECRET);
		} finally {
			await server2.close();
		}
	});

	it('without it, bad input stops the run with a NodeOperationError for that item', async () => {
		let thrown: unknown;
		try {
			await runNode({
				parameters: [payoutGet, { ...payoutGet, payoutId: { __rl: true, mode: 'id', value: 'pi_wrong' } }],
				credentials: { apiKey: API_KEY, apiSecret: SECRET, baseUrl: server.baseUrl },
			});
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(NodeOperationError);
		expect((thrown as NodeOperationError).context.itemIndex).toBe(1);
		expect((thrown as NodeOperationError).message).toContain('Invalid Payout ID "pi_wrong"');
	});
});
