/**
 * The hardening review, trigger part: what an attacker and a flaky network did to the Paycashless Trigger.
 * Every case goes through the node's real `webhook()` with a fake n8n context; signatures are
 * computed independently (test/support/independentSigning.cts), never through lib/signing.ts.
 * The same cases run through a real n8n in test/e2e/triggerHardening.test.cts.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { PaycashlessTrigger } from '../../../nodes/Paycashless/PaycashlessTrigger.node';
import { runWebhook, TEST_PRODUCTION_URL, TEST_WEBHOOK_ID, type FakeWebhookOptions, type WebhookRun } from '../../../scripts/harness/webhookContext.cjs';
import { hmacHex, signCallback, unixSeconds } from '../../support/independentSigning.cjs';

const SECRET = 'sk_test_hardening_7Yq!';
const trigger = new PaycashlessTrigger();

const INVOICE = { id: 'inv_7f3a', status: 'paid', reference: 'INV-77', currency: 'NGN', amountDue: 500000, amountPaid: 500000 };
const PAYOUT_FAILED = { id: 'po_91bc', status: 'failed', reference: 'PO-9', amount: 120000, currency: 'NGN', failureCode: 'account_closed' };

interface Delivery {
	event: string;
	data: unknown;
	/** Exact body text; default JSON of { event, data }. */
	body?: string;
	/** The bytes signed for data; default JSON.stringify(data). */
	dataJson?: string;
	/** The exact URL text that goes into the HMAC (no lower-casing applied here when `urlText` is given). */
	urlText?: string;
	signedUrl?: string;
	timestamp?: string;
	signature?: string | null;
	context?: FakeWebhookOptions;
}

function signatureFor(delivery: Delivery, timestamp: string): string {
	const dataJson = delivery.dataJson ?? JSON.stringify(delivery.data);
	if (delivery.urlText !== undefined) return hmacHex(SECRET, delivery.urlText + hmacHex(SECRET, dataJson) + timestamp);
	return signCallback(SECRET, delivery.signedUrl ?? TEST_PRODUCTION_URL, dataJson, timestamp);
}

async function deliver(delivery: Delivery): Promise<WebhookRun> {
	const timestamp = delivery.timestamp ?? unixSeconds();
	const signature = delivery.signature === undefined ? signatureFor(delivery, timestamp) : delivery.signature;
	const headers: Record<string, string> = { 'content-type': 'application/json', 'request-timestamp': timestamp };
	if (signature !== null) headers['request-signature'] = signature;
	return await runWebhook(trigger, {
		rawBody: delivery.body ?? JSON.stringify({ event: delivery.event, data: delivery.data }),
		credentials: { apiKey: 'pk_test_h', apiSecret: SECRET, baseUrl: 'https://api.paycashless.test' },
		...delivery.context,
		headers: { ...headers, ...(delivery.context?.headers ?? {}) },
	});
}

function expectStarted(run: WebhookRun): IDataObject {
	expect(run.answer.status).toBe(200);
	expect(run.result.workflowData).toBeDefined();
	expect(run.items).toHaveLength(1);
	return run.items[0];
}

function expectRefused(run: WebhookRun, status: number, error: string): void {
	expect(run.result).toEqual({ noWebhookResponse: true });
	expect(run.response.statusCode).toBe(status);
	expect(run.response.body).toEqual(expect.objectContaining({ error }));
	expect(run.items).toEqual([]);
}

/** `{"event":…,"data":{"a":{"a":…}}}` nested `depth` levels deep. */
function deepBody(depth: number): string {
	return `{"event":"PAYMENT_SUCCEEDED","data":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
}

describe('item 4: hostile bodies never make the trigger throw', () => {
	const forged = 'ab'.repeat(64);

	it('a body nested 5,000 deep (about 30 KB) with a forged signature gets 400, never a throw', async () => {
		const body = deepBody(5000);
		expect(body.length).toBeGreaterThan(29_000);
		const run = await deliver({ event: 'PAYMENT_SUCCEEDED', data: null, body, signature: forged });
		expectRefused(run, 400, 'too_deeply_nested');
	});

	it('the same body without signature headers is refused 401 before the body is read', async () => {
		const run = await deliver({ event: 'PAYMENT_SUCCEEDED', data: null, body: deepBody(5000), signature: null });
		expectRefused(run, 401, 'missing_signature');
	});

	it('with verification skipped (unsafe), the deep body is still refused, never a throw', async () => {
		const run = await deliver({
			event: 'PAYMENT_SUCCEEDED',
			data: null,
			body: deepBody(5000),
			signature: forged,
			context: { parameters: { options: { skipSignatureVerification: true } } },
		});
		expectRefused(run, 400, 'too_deeply_nested');
	});

	it('a deep body that reaches the node only parsed (no raw body) is refused too', async () => {
		let nested: unknown = 1;
		for (let i = 0; i < 5000; i++) nested = { a: nested };
		const run = await runWebhook(trigger, {
			body: { event: 'PAYMENT_SUCCEEDED', data: nested },
			headers: { 'request-signature': forged, 'request-timestamp': unixSeconds() },
			credentials: { apiSecret: SECRET },
		});
		expectRefused(run, 400, 'too_deeply_nested');
	});

	it('a body above 4 MB is answered 413 before it is parsed', async () => {
		const data = { id: 'pi_big', status: 'succeeded', filler: 'x'.repeat(4 * 1024 * 1024) };
		const run = await deliver({ event: 'PAYMENT_SUCCEEDED', data });
		expectRefused(run, 413, 'payload_too_large');
	});

	it('anything unexpected inside the trigger (here: the credential cannot be read) is refused, never thrown', async () => {
		const run = await runWebhook(trigger, {
			rawBody: JSON.stringify({ event: 'PAYMENT_SUCCEEDED', data: { id: 'pi_1' } }),
			headers: { 'request-signature': forged, 'request-timestamp': unixSeconds() },
		});
		expectRefused(run, 400, 'unprocessable_callback');
		expect(run.logs.filter((line) => line.level === 'warn')).toHaveLength(1);
	});

	it('a genuine callback is checked over the exact bytes of data, even when they are not JSON.stringify output', async () => {
		// The sender's own serialisation: spaces, an escaped slash, 1.50 instead of 1.5.
		const dataJson = '{ "id": "pi_raw", "status": "succeeded", "url": "https:\\/\\/pay.example\\/r", "rate": 1.50 }';
		const body = `{"event":"PAYMENT_SUCCEEDED","data":${dataJson}}`;
		const run = await deliver({ event: 'PAYMENT_SUCCEEDED', data: JSON.parse(dataJson), body, dataJson });
		const item = expectStarted(run);
		expect(item.verified).toBe(true);
		expect(item.data).toEqual({ id: 'pi_raw', status: 'succeeded', url: 'https://pay.example/r', rate: 1.5 });
	});

	it('a pretty-printed body signed over JSON.stringify(data) is still accepted', async () => {
		const data = { id: 'pi_pretty', status: 'succeeded', amount: { value: 100, currency: 'NGN' } };
		const body = JSON.stringify({ event: 'PAYMENT_SUCCEEDED', data }, null, 2);
		expectStarted(await deliver({ event: 'PAYMENT_SUCCEEDED', data, body }));
	});
});

describe('item 5: a callback URL with non-ASCII characters in its query', () => {
	const typed = `${TEST_PRODUCTION_URL}?tenant=Ünïcode&x=1`;
	// What goes over the wire: a WHATWG URL percent-encodes non-ASCII as UTF-8, upper-case hex.
	const wire = new URL(typed);
	const requestUrl = `${wire.pathname}${wire.search}`;
	const encodedTyped = wire.href;
	const lowerTypedEncoded = new URL(typed.toLowerCase()).href;

	it('the request arrives percent-encoded', () => {
		expect(requestUrl).toBe(`/webhook/${TEST_WEBHOOK_ID}/webhook?tenant=%C3%9Cn%C3%AFcode&x=1`);
	});

	it.each([
		['as typed, lower-cased (what the emulator and the documented rule give)', typed.toLowerCase()],
		['percent-encoded as received, then lower-cased (hex lower-case)', encodedTyped.toLowerCase()],
		['lower-cased, then percent-encoded (hex upper-case)', lowerTypedEncoded],
		['lower-cased, then percent-encoded, hex lower-cased', lowerTypedEncoded.toLowerCase()],
		['percent-encoded, ASCII lower-cased, escapes kept upper-case', encodedTyped.replace(/%[0-9A-F]{2}|[A-Z]+/g, (m) => (m.startsWith('%') ? m : m.toLowerCase()))],
		['as typed, only ASCII letters lower-cased (a byte-wise lower-case)', typed.replace(/[A-Z]+/g, (m) => m.toLowerCase())],
	])('accepts a signature over the URL %s', async (_form, urlText) => {
		const run = await deliver({ event: 'PAYMENT_SUCCEEDED', data: { id: 'pi_u', status: 'succeeded' }, urlText, context: { requestUrl } });
		expect(expectStarted(run).verified).toBe(true);
	});

	it('still refuses a signature over another query', async () => {
		const urlText = `${TEST_PRODUCTION_URL}?tenant=other&x=1`.toLowerCase();
		const run = await deliver({ event: 'PAYMENT_SUCCEEDED', data: { id: 'pi_u', status: 'succeeded' }, urlText, context: { requestUrl } });
		expectRefused(run, 401, 'invalid_signature');
	});
});

describe('item 3: the event name is not signed', () => {
	const flag = { parameters: { options: { inconsistentEvents: 'flag' } } };

	it('a genuine INVOICE_PAID re-sent as PAYOUT_SUCCEEDED is refused 422 and starts nothing', async () => {
		const genuine = expectStarted(await deliver({ event: 'INVOICE_PAID', data: INVOICE }));
		expect(genuine.eventCheck).toBe('consistent');
		const run = await deliver({ event: 'PAYOUT_SUCCEEDED', data: INVOICE });
		expectRefused(run, 422, 'inconsistent_event');
		expect((run.response.body as { message: string }).message).toContain('an invoice');
	});

	it('a failed payout re-sent as PAYOUT_SUCCEEDED is refused (the data says failed)', async () => {
		expectStarted(await deliver({ event: 'PAYOUT_FAILED', data: PAYOUT_FAILED }));
		expectRefused(await deliver({ event: 'PAYOUT_SUCCEEDED', data: PAYOUT_FAILED }), 422, 'inconsistent_event');
	});

	it('with "Start the Workflow and Flag Them", it starts, flagged, with the same deliveryId as the genuine one', async () => {
		const genuine = expectStarted(await deliver({ event: 'INVOICE_PAID', data: INVOICE }));
		const item = expectStarted(await deliver({ event: 'PAYOUT_SUCCEEDED', data: INVOICE, context: flag }));
		expect(item.eventCheck).toBe('inconsistent');
		expect(item.eventCheckProblem).toEqual(expect.stringContaining('PAYOUT_SUCCEEDED'));
		expect(item.deliveryId).toBe(genuine.deliveryId);
	});

	it('genuine events of every kind pass; unknown events and data without an id are "not_checkable", never refused', async () => {
		const cases: Array<[string, unknown, string]> = [
			['PAYMENT_SUCCEEDED', { id: 'pi_1', status: 'succeeded' }, 'consistent'],
			['PAYMENT_REVERSED', { id: 'pi_1', status: 'reversed' }, 'consistent'],
			['INVOICE_PAYMENT_SUCCEEDED', { id: 'ipay_1', invoiceId: 'inv_1', intentId: 'pi_2', amountPaid: 5, paid: true }, 'consistent'],
			['INVOICE_CANCELLED', { id: 'inv_2', status: 'cancelled' }, 'consistent'],
			['DEDICATED_ACCOUNT_ACTIVATED', { id: 'va_1', status: 'active' }, 'consistent'],
			['DEDICATED_ACCOUNT_CREDITED', { id: 'pi_3', status: 'succeeded' }, 'consistent'],
			['PAYOUT_SENT', { id: 'po_2', status: 'sent' }, 'consistent'],
			['SOMETHING_NEW', { id: 'po_3', status: 'failed' }, 'not_checkable'],
			['PAYMENT_SUCCEEDED', { reference: 'no-id' }, 'not_checkable'],
		];
		for (const [event, data, check] of cases) {
			const item = expectStarted(await deliver({ event, data }));
			expect([event, item.eventCheck]).toEqual([event, check]);
		}
	});

	describe('Confirm With Paycashless', () => {
		const confirm = (http: FakeWebhookOptions['httpRequestWithAuthentication']) => ({
			parameters: { options: { confirmWithPaycashless: true } },
			httpRequestWithAuthentication: http,
		});

		it('fetches the object by id through the signed transport and outputs its current state', async () => {
			const requests: IHttpRequestOptions[] = [];
			const current = { ...INVOICE, status: 'paid', updatedAt: '2026-11-23T10:00:00Z' };
			const item = expectStarted(
				await deliver({
					event: 'INVOICE_PAID',
					data: INVOICE,
					context: confirm(async (credentialType, options) => {
						expect(credentialType).toBe('paycashlessApi');
						requests.push(options);
						return { statusCode: 200, headers: {}, body: current };
					}),
				}),
			);
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ method: 'GET', url: '/v1/invoices/inv_7f3a', baseURL: 'https://api.paycashless.test' });
			expect(item.confirmed).toBe(true);
			expect(item.currentObject).toEqual(current);
		});

		it('an invoice payment is confirmed through its invoice', async () => {
			const urls: string[] = [];
			await deliver({
				event: 'INVOICE_PAYMENT_SUCCEEDED',
				data: { id: 'ipay_9', invoiceId: 'inv_9', intentId: 'pi_9', amountPaid: 5, paid: true },
				context: confirm(async (_type, options) => {
					urls.push(String(options.url));
					return { statusCode: 200, headers: {}, body: { id: 'inv_9' } };
				}),
			});
			expect(urls).toEqual(['/v1/invoices/inv_9']);
		});

		it('refuses 422 when Paycashless has no such object', async () => {
			const run = await deliver({
				event: 'PAYMENT_SUCCEEDED',
				data: { id: 'pi_gone', status: 'succeeded' },
				context: confirm(async () => ({ statusCode: 404, headers: {}, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment' } } })),
			});
			expectRefused(run, 422, 'not_confirmed');
		});

		it('answers 503 (so Paycashless sends it again) when Paycashless cannot be reached, and remembers nothing', async () => {
			const staticData: IDataObject = {};
			const data = { id: 'pi_later', status: 'succeeded' };
			const down = await deliver({
				event: 'PAYMENT_SUCCEEDED',
				data,
				context: { ...confirm(async () => ({ statusCode: 503, headers: {}, body: { error: { type: 'api_error', message: 'down' } } })), staticData },
			});
			expectRefused(down, 503, 'confirmation_unavailable');
			const retry = await deliver({
				event: 'PAYMENT_SUCCEEDED',
				data,
				context: { ...confirm(async () => ({ statusCode: 200, headers: {}, body: data })), staticData },
			});
			expect(expectStarted(retry).currentObject).toEqual(data);
		}, 30_000);

		it('data that names no object starts the workflow with confirmed false', async () => {
			const item = expectStarted(
				await deliver({ event: 'SOMETHING_NEW', data: { note: 'no id' }, context: confirm(async () => ({ statusCode: 200, headers: {}, body: {} })) }),
			);
			expect(item).toMatchObject({ confirmed: false, currentObject: null });
		});
	});
});

describe('item 8: the same delivery replayed', () => {
	// n8n 2.41 does not save static data changed in webhook() (see README), so the trigger keeps
	// no memory; replays carry the same deliveryId, for Remove Duplicates to drop.
	const data = { id: 'pi_replay', status: 'succeeded', reference: 'R-1' };

	it('5 replays, a retry with a fresh timestamp and a copy relabelled with an unknown event name all carry one deliveryId', async () => {
		const timestamp = unixSeconds(Date.now() - 60_000);
		const ids: unknown[] = [];
		for (let i = 0; i < 5; i++) ids.push(expectStarted(await deliver({ event: 'PAYMENT_SUCCEEDED', data, timestamp })).deliveryId);
		ids.push(expectStarted(await deliver({ event: 'PAYMENT_SUCCEEDED', data })).deliveryId);
		ids.push(expectStarted(await deliver({ event: 'CHARGE_DONE', data })).deliveryId);
		expect(new Set(ids).size).toBe(1);
		expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
	});

	it('the trigger writes nothing to the workflow static data', async () => {
		const staticData: IDataObject = {};
		expectStarted(await deliver({ event: 'PAYMENT_SUCCEEDED', data, context: { staticData } }));
		expect(staticData).toEqual({});
	});
});
