/**
 * Test helpers: a client that signs every request with the real credential code
 * (`signPaycashlessRequest`) and sends it with Node's fetch, and a callback receiver.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import { signPaycashlessRequest, type PaycashlessCredentialData } from '../../credentials/PaycashlessApi.credentials';
import type { EmulatorHandle } from '../../emulator/index.cjs';

interface Sent {
	url: string;
	method: string;
	headers: Record<string, string>;
	body?: string;
}

export interface Answer<T = any> {
	status: number;
	body: T;
	headers: Headers;
}

export interface CallOptions {
	body?: unknown;
	query?: Record<string, string | number>;
	/** Credential fields to use instead of the emulator's. */
	credentials?: Partial<PaycashlessCredentialData>;
	/** Clock for signing (ms). */
	nowMs?: number;
	/** Change the signed request before it is sent (tampering tests). */
	tamper?: (request: Sent) => void;
	/** Aborts the request (e.g. `AbortSignal.timeout(ms)`: a client that gives up). */
	signal?: AbortSignal;
}

/** Signs like n8n would (via the credential), then sends with fetch. */
export async function call<T = any>(emulator: EmulatorHandle, method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
	const credentials: PaycashlessCredentialData = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, ...options.credentials };
	const signed = signPaycashlessRequest(
		credentials,
		{ method: method as 'GET', baseURL: emulator.baseUrl, url: path, body: options.body as object | undefined },
		options.nowMs ?? Date.now(),
	);
	const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)]))}` : '';
	const request: Sent = {
		url: `${emulator.baseUrl}${path}${query}`,
		method,
		headers: { ...(signed.headers as Record<string, string>) },
		body: signed.body as string | undefined,
	};
	options.tamper?.(request);
	const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: options.signal });
	const text = await response.text();
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		// not JSON
	}
	return { status: response.status, body: body as T, headers: response.headers };
}

/** Unsigned JSON request (control API). */
export async function control<T = any>(emulator: EmulatorHandle, method: string, path: string, body?: unknown): Promise<Answer<T>> {
	const response = await fetch(`${emulator.baseUrl}${path}`, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

export interface ReceivedCallback {
	path: string;
	headers: http.IncomingHttpHeaders;
	rawBody: string;
	/** Status answered. */
	status: number;
}

/** An HTTP server that records callbacks; `statuses` are answered in turn (then 200). */
export async function startReceiver(statuses: number[] = []): Promise<{ url: string; received: ReceivedCallback[]; statuses: number[]; close(): Promise<void> }> {
	const received: ReceivedCallback[] = [];
	const queue = [...statuses];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const status = queue.length ? (queue.shift() as number) : 200;
			received.push({ path: request.url ?? '', headers: request.headers, rawBody: Buffer.concat(chunks).toString('utf8'), status });
			response.writeHead(status).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		statuses: queue,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

const ACCESS_BANK_ID = 'bank_538ed2056326432ba8e6853b613997bb';

export function payoutBody(reference: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		reference,
		amount: { value: 10000, currency: 'NGN' },
		destinationAccountNumber: '9845648577',
		bankId: ACCESS_BANK_ID,
		narration: 'zapped',
		...overrides,
	};
}

export function invoiceBody(reference: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		reference,
		description: 'Catering for the launch',
		currency: 'NGN',
		customer: { email: 'ada@example.com', name: 'Ada Obi', address: '1 Marina, Lagos' },
		items: [
			{ name: 'Jollof tray', quantity: 2, price: 150000, description: 'Large' },
			{ name: 'Delivery', quantity: 1, price: 50000 },
		],
		daysUntilDue: 14,
		...overrides,
	};
}

export function paymentBody(reference: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		reference,
		paymentMethod: 'pay_with_transfer',
		amount: { value: 250000, currency: 'NGN' },
		customer: { email: 'ada@example.com', name: 'Ada Obi' },
		expiresIn: 1800,
		...overrides,
	};
}

export function dedicatedAccountBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		accountType: 'individual',
		currency: 'NGN',
		preferredBank: 'safehaven_mfb',
		email: 'ada@example.com',
		kycProfile: {
			firstName: 'Ada',
			lastName: 'Obi',
			phoneNumber: '+2348012345678',
			dateOfBirth: '1990-04-12',
			identities: [{ type: 'bvn', number: '22212345678' }],
		},
		...overrides,
	};
}

/** Sorted key list, for exact-shape assertions. */
export function keys(value: unknown): string[] {
	return Object.keys(value as object).sort();
}
