/**
 * The trigger against callbacks the emulator really signs and sends. A tiny HTTP server plays
 * n8n: it hands each request to the trigger's webhook() through the fake context (with n8n's
 * production URL as getNodeWebhookUrl) and answers the way n8n would.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import type { IDataObject } from 'n8n-workflow';

import { signPaycashlessRequest } from '../../../credentials/PaycashlessApi.credentials';
import { startEmulator } from '../../../emulator/index.cjs';
import type { EmulatorHandle } from '../../../emulator/types.cjs';
import { PaycashlessTrigger } from '../../../nodes/Paycashless/PaycashlessTrigger.node';
import { runWebhook, type LogLine } from '../../../scripts/harness/webhookContext.cjs';
import { signCallback } from '../../support/independentSigning.cjs';

const WEBHOOK_ID = '3e0d9a6c-5b1f-4c2a-9d7e-81f2a4b6c8d0';
const trigger = new PaycashlessTrigger();

interface Delivery {
	path: string;
	status: number;
	answer: unknown;
	items: IDataObject[];
	logs: LogLine[];
	headers: http.IncomingHttpHeaders;
}

function listen(server: http.Server): Promise<string> {
	return new Promise((resolve) => {
		server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
	});
}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks)));
		request.on('error', reject);
	});
}

function close(server: http.Server): Promise<void> {
	return new Promise((resolve) => server.close(() => resolve()));
}

/** Plays n8n with one Paycashless Trigger node on /webhook/<id>/webhook and /webhook-test/<id>/webhook. */
class FakeN8n {
	readonly server = http.createServer((request, response) => void this.handle(request, response));
	base = '';
	deliveries: Delivery[] = [];
	parameters: Record<string, unknown> = {};
	apiSecret = '';
	/** Answer 500 to this many requests (after the trigger ran), like a failing proxy in front of n8n. */
	failNext = 0;

	get productionUrl(): string {
		return `${this.base}/webhook/${WEBHOOK_ID}/webhook`;
	}
	get testUrl(): string {
		return `${this.base}/webhook-test/${WEBHOOK_ID}/webhook`;
	}

	async start(): Promise<void> {
		this.base = await listen(this.server);
	}

	reset(apiSecret: string, parameters: Record<string, unknown> = {}): void {
		this.deliveries = [];
		this.parameters = parameters;
		this.apiSecret = apiSecret;
		this.failNext = 0;
	}

	private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
		const rawBody = await readBody(request);
		const path = (request.url ?? '').split('?')[0];
		if (request.method !== 'POST' || !/^\/webhook(-test)?\/[^/]+\/webhook$/.test(path)) {
			response.writeHead(404).end();
			return;
		}
		let body: unknown = {};
		try {
			body = JSON.parse(rawBody.toString('utf8'));
		} catch {
			body = {};
		}
		const run = await runWebhook(trigger, {
			rawBody,
			body,
			headers: request.headers,
			requestUrl: request.url,
			productionUrl: this.productionUrl,
			webhookId: WEBHOOK_ID,
			mode: path.startsWith('/webhook-test/') ? 'manual' : 'webhook',
			credentials: { apiKey: 'pk_test_emulator', apiSecret: this.apiSecret },
			parameters: this.parameters,
		});
		let status = run.answer.status;
		if (this.failNext > 0) {
			this.failNext -= 1;
			status = 500;
		}
		this.deliveries.push({ path, status, answer: run.answer.body, items: run.items, logs: run.logs, headers: request.headers });
		response.writeHead(status, { 'Content-Type': 'application/json' });
		response.end(run.answer.body === undefined ? '' : JSON.stringify(run.answer.body));
	}
}

/** A reverse proxy in front of the fake n8n that can change the callback on the way. */
class Proxy {
	readonly server = http.createServer((request, response) => void this.handle(request, response));
	base = '';
	tamper: ((body: { event: string; data: Record<string, unknown> }) => void) | undefined;

	constructor(private readonly target: () => string) {}

	async start(): Promise<void> {
		this.base = await listen(this.server);
	}

	private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
		let body = (await readBody(request)).toString('utf8');
		if (this.tamper) {
			const parsed = JSON.parse(body);
			this.tamper(parsed);
			body = JSON.stringify(parsed);
		}
		const upstream = await fetch(this.target(), {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'request-signature': String(request.headers['request-signature'] ?? ''),
				'request-timestamp': String(request.headers['request-timestamp'] ?? ''),
			},
			body,
		});
		response.writeHead(upstream.status, { 'Content-Type': 'application/json' });
		response.end(await upstream.text());
	}
}

async function api(handle: EmulatorHandle, method: string, path: string, body?: IDataObject): Promise<{ status: number; body: IDataObject }> {
	const signed = signPaycashlessRequest(
		{ apiKey: handle.apiKey, apiSecret: handle.apiSecret },
		{ method: method as 'POST', baseURL: handle.baseUrl, url: path, body },
		Date.now(),
	);
	const response = await fetch(`${handle.baseUrl}${path}`, {
		method,
		headers: signed.headers as Record<string, string>,
		body: signed.body as string | undefined,
	});
	return { status: response.status, body: (await response.json()) as IDataObject };
}

let reference = 0;
async function createPayment(handle: EmulatorHandle, callbackUrl: string, data: IDataObject = {}): Promise<string> {
	reference += 1;
	const ref = `trg-${Date.now()}-${reference}`;
	const created = await api(handle, 'POST', '/v1/payments', {
		reference: ref,
		paymentMethod: 'pay_with_transfer',
		amount: { value: 1_500_000, currency: 'NGN' },
		customer: { email: 'ada@example.com', name: 'Adébáyọ̀ Ọlá' },
		expiresIn: 1800,
		callbackUrl,
		metadata: { orderId: `A-${reference}`, note: 'Rent ₦15,000 🎉' },
		...data,
	});
	expect(created.status).toBe(200);
	return ref;
}

describe('PaycashlessTrigger with callbacks from the emulator', () => {
	let handle: EmulatorHandle;
	const n8n = new FakeN8n();
	const proxy = new Proxy(() => n8n.productionUrl);

	beforeAll(async () => {
		await Promise.all([n8n.start(), proxy.start()]);
		handle = await startEmulator({ callbackRetries: 3, callbackRetryDelayMs: 1100, apiSecret: 'sk_test_trigger_e2e_secret' });
	});

	afterAll(async () => {
		await handle?.close();
		await Promise.all([close(n8n.server), close(proxy.server)]);
	});

	beforeEach(() => {
		handle.clearLogs();
		n8n.reset(handle.apiSecret);
		proxy.tamper = undefined;
	});

	it('accepts a completed payment sent to the production URL', async () => {
		const ref = await createPayment(handle, n8n.productionUrl);
		await handle.completePayment(ref);
		await handle.callbacksSettled();

		expect(handle.callbacks.map((c) => c.status)).toEqual([200]);
		expect(n8n.deliveries).toHaveLength(1);
		const [item] = n8n.deliveries[0].items;
		expect(item.event).toBe('PAYMENT_SUCCEEDED');
		expect(item.verified).toBe(true);
		expect((item.data as IDataObject).reference).toBe(ref);
		expect((item.data as IDataObject).metadata).toEqual(expect.objectContaining({ note: 'Rent ₦15,000 🎉' }));
		expect(item.deliveryId).toMatch(/^[0-9a-f]{32}$/);
		// The key the Paycashless Poll Trigger gives the same event (test/unit/trigger/PaycashlessPollTrigger.test.cts).
		expect(item.eventKey).toBe(`payment:${(item.data as IDataObject).id as string}:succeeded`);
	});

	it('accepts callbacks sent to the test URL', async () => {
		const ref = await createPayment(handle, n8n.testUrl);
		await handle.completePayment(ref, 'failed');
		await handle.callbacksSettled();

		expect(handle.callbacks.map((c) => [c.url, c.status])).toEqual([[n8n.testUrl, 200]]);
		expect(n8n.deliveries[0].path).toMatch(/^\/webhook-test\//);
		expect(n8n.deliveries[0].items.map((i) => [i.event, i.verified])).toEqual([['PAYMENT_FAILED', true]]);
	});

	it('accepts a callback URL with upper-case letters and a query string', async () => {
		const callbackUrl = `${n8n.productionUrl}?Tenant=Lagos&Notify=ALL`;
		const ref = await createPayment(handle, callbackUrl);
		await handle.completePayment(ref);
		await handle.callbacksSettled();

		expect(handle.callbacks.map((c) => c.status)).toEqual([200]);
		expect(n8n.deliveries[0].items[0].verified).toBe(true);
	});

	it('accepts a callback URL with non-ASCII characters in the query; the emulator signs it as typed, like the documented rule', async () => {
		const callbackUrl = `${n8n.productionUrl}?tenant=Ünïcode&x=1`;
		const ref = await createPayment(handle, callbackUrl);
		await handle.completePayment(ref);
		await handle.callbacksSettled();

		const [attempt] = handle.callbacks;
		const { data } = JSON.parse(attempt.body) as { data: unknown };
		const timestamp = attempt.headers['Request-Timestamp'];
		// Independently computed: the URL as typed, lower-cased (not its percent-encoded wire form).
		expect(attempt.headers['Request-Signature']).toBe(signCallback(handle.apiSecret, callbackUrl, JSON.stringify(data), timestamp));
		expect(handle.callbacks.map((c) => c.status)).toEqual([200]);
		expect(n8n.deliveries[0].items[0].verified).toBe(true);
	});

	it('accepts every retry after a 500, with one deliveryId for all of them', async () => {
		n8n.failNext = 2;
		const ref = await createPayment(handle, n8n.productionUrl);
		await handle.completePayment(ref);
		await handle.callbacksSettled();

		expect(handle.callbacks.map((c) => [c.attempt, c.status])).toEqual([
			[1, 500],
			[2, 500],
			[3, 200],
		]);
		const timestamps = handle.callbacks.map((c) => c.headers['Request-Timestamp']);
		expect(new Set(timestamps).size).toBe(3);
		const items = n8n.deliveries.flatMap((d) => d.items);
		expect(items).toHaveLength(3);
		expect(items.every((i) => i.verified === true)).toBe(true);
		expect(new Set(items.map((i) => i.deliveryId)).size).toBe(1);
	}, 20_000);

	it('runs only the selected event of an invoice payment and acknowledges the other', async () => {
		n8n.reset(handle.apiSecret, { events: ['INVOICE_PAID'] });
		const created = await api(handle, 'POST', '/v1/invoices', {
			reference: `inv-${Date.now()}`,
			description: 'Consulting',
			currency: 'NGN',
			customer: { email: 'chidi@example.com', name: 'Chidi Okeke' },
			items: [{ name: 'Day rate', quantity: 2, price: 7_500_000 }],
			daysUntilDue: 14,
			autoFinalize: true,
			callbackUrl: n8n.productionUrl,
		});
		expect(created.status).toBe(201);
		await handle.payInvoice(String(created.body.id));
		await handle.callbacksSettled();

		expect(handle.callbacks.map((c) => [c.event, c.status])).toEqual([
			['INVOICE_PAYMENT_SUCCEEDED', 200],
			['INVOICE_PAID', 200],
		]);
		expect(n8n.deliveries.map((d) => d.items.length)).toEqual([0, 1]);
		expect(n8n.deliveries[0].answer).toEqual({ received: true, ignored: true, reason: 'event_not_selected' });
		expect(n8n.deliveries[1].items[0]).toEqual(
			expect.objectContaining({
				event: 'INVOICE_PAID',
				verified: true,
				eventKey: `invoice:${created.body.id}:paid`,
				data: expect.objectContaining({ id: created.body.id, status: 'paid' }),
			}),
		);
	});

	it('accepts callbacks through a faithful reverse proxy when the override names its URL', async () => {
		n8n.reset(handle.apiSecret, { options: { callbackUrlOverride: `${proxy.base}/Paycashless` } });
		const ref = await createPayment(handle, `${proxy.base}/Paycashless`);
		await handle.completePayment(ref);
		await handle.callbacksSettled();

		expect(handle.callbacks.map((c) => c.status)).toEqual([200]);
		expect(n8n.deliveries[0].items[0].verified).toBe(true);
	});

	it('refuses with 401 a callback changed on the way, on every retry', async () => {
		n8n.reset(handle.apiSecret, { options: { callbackUrlOverride: `${proxy.base}/Paycashless` } });
		proxy.tamper = (body) => {
			body.data.chargedAmount = 99_000_000;
		};
		const ref = await createPayment(handle, `${proxy.base}/Paycashless`);
		await handle.completePayment(ref);
		await handle.callbacksSettled();

		expect(handle.callbacks.map((c) => c.status)).toEqual([401, 401, 401, 401]);
		expect(n8n.deliveries.flatMap((d) => d.items)).toEqual([]);
		expect(n8n.deliveries.map((d) => d.answer)).toEqual(
			Array(4).fill(expect.objectContaining({ error: 'invalid_signature' })),
		);
		const warnings = n8n.deliveries.flatMap((d) => d.logs).filter((l) => l.level === 'warn');
		expect(warnings).toHaveLength(4);
		expect(JSON.stringify(warnings)).not.toContain(handle.apiSecret);
	}, 20_000);

	it('refuses with 401 when the credential holds another secret', async () => {
		n8n.reset('sk_test_not_the_emulator_secret');
		const ref = await createPayment(handle, n8n.productionUrl);
		await handle.completePayment(ref);
		await handle.callbacksSettled();

		expect(handle.callbacks.map((c) => c.status)).toEqual([401, 401, 401, 401]);
		expect(n8n.deliveries.flatMap((d) => d.items)).toEqual([]);
	}, 20_000);
});
