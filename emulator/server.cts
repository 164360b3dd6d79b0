/**
 * The emulator: an HTTP server on Node's `http` module. `/v1/...` is the Paycashless API
 * (authenticated, recorded, subject to faults); `/__emulator/...` is the control API (not signed,
 * not recorded); `/pay/{id}` and `/checkout/{id}` are stand-ins for the hosted pages, `/` lists
 * what is waiting to be paid.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import { DEFAULT_TIMESTAMP_TOLERANCE_SECONDS } from '../lib/signing';
import { checkAuth, type AuthSettings } from './auth.cjs';
import { CallbackDispatcher } from './callbacks.cjs';
import { registerControlRoutes } from './control.cjs';
import { ApiError, apiError } from './errors.cjs';
import { FaultInjector, type FaultDecision } from './faults.cjs';
import { hostedPage, waitingPage } from './pages.cjs';
import { registerAccountLookup } from './resources/accountLookup.cjs';
import { registerEcho } from './resources/echo.cjs';
import { activateAccountRequest, registerDedicatedAccounts } from './resources/dedicatedAccounts.cjs';
import { payInvoice, registerInvoices, type PayInvoiceOptions } from './resources/invoices.cjs';
import { completePayment, registerPayments } from './resources/payments.cjs';
import { completePayout, registerPayouts } from './resources/payouts.cjs';
import { registerTaxRates } from './resources/taxRates.cjs';
import { Router, type Core, type Reply } from './router.cjs';
import { checkSeedCounts, seedStore, type SeedPeriod } from './seed.cjs';
import { Store } from './store.cjs';
import { TEST_STAFF_PATH, testStaffCsv } from './testStaff.cjs';
import { LISTABLE, type CallbackAttempt, type Collection, type EmulatorHandle, type EmulatorOptions, type FaultConfig, type Listable, type RecordedRequest } from './types.cjs';

const DEFAULT_API_KEY = 'pk_test_emulator';
const DEFAULT_API_SECRET = 'sk_test_emulator_secret';
/** Largest request body accepted. */
const MAX_BODY_BYTES = 1024 * 1024;


function readBody(request: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) reject(new ApiError(413, { error: { type: 'invalid_request_error', code: 'body_too_large', message: 'The request body is larger than 1 MB.' } }));
			else chunks.push(chunk);
		});
		request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		request.on('error', reject);
	});
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
	const flat: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return flat;
}

function parseJson(rawBody: string): { ok: true; value: unknown } | { ok: false } {
	if (rawBody.trim() === '') return { ok: true, value: undefined };
	try {
		return { ok: true, value: JSON.parse(rawBody) };
	} catch {
		return { ok: false };
	}
}

function send(response: http.ServerResponse, reply: Reply): void {
	if (response.headersSent || response.destroyed) return;
	const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
	const headers: Record<string, string> = { ...(reply.headers ?? {}) };
	if (text && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
	headers['Content-Length'] = String(Buffer.byteLength(text));
	response.writeHead(reply.status, headers);
	response.end(text);
}

/** Turns anything a handler throws into an answer. */
function errorReply(error: unknown): Reply {
	if (error instanceof ApiError) return { status: error.status, body: error.body, headers: error.headers };
	console.error('[paycashless-emulator] unexpected error:', error);
	return { status: 500, body: { error: { type: 'api_error', code: 'internal_error', message: 'The emulator failed to handle this request (see its log).' } } };
}

export class Emulator implements EmulatorHandle, Core {
	readonly store: Store;
	readonly dispatcher: CallbackDispatcher;
	readonly requests: RecordedRequest[] = [];
	readonly callbacks: CallbackAttempt[] = [];
	readonly faults = new FaultInjector();
	readonly apiKey: string;
	readonly apiSecret: string;
	baseUrl = '';
	port = 0;

	private readonly server: http.Server;
	private readonly api = new Router();
	private readonly control = new Router();
	private readonly auth: AuthSettings;
	private readonly seedCounts: Partial<Record<Collection, number>>;
	private readonly seedValue: number;
	private readonly seedPeriod: SeedPeriod | undefined;
	private readonly delays = new Map<NodeJS.Timeout, () => void>();
	private closing: Promise<void> | null = null;

	constructor(private readonly options: EmulatorOptions = {}) {
		this.apiKey = options.apiKey ?? DEFAULT_API_KEY;
		this.apiSecret = options.apiSecret ?? DEFAULT_API_SECRET;
		this.seedCounts = { ...(options.seed ?? {}) };
		checkSeedCounts(this.seedCounts);
		this.seedValue = options.seedValue ?? 1;
		this.seedPeriod = options.seedPeriod;
		const now = options.now ?? Date.now;
		this.auth = {
			apiKey: this.apiKey,
			apiSecret: this.apiSecret,
			bodilessSigning: options.bodilessSigning ?? 'either',
			timestampToleranceSeconds: options.timestampToleranceSeconds ?? DEFAULT_TIMESTAMP_TOLERANCE_SECONDS,
			now,
		};
		this.store = new Store(this.seedValue);
		this.dispatcher = new CallbackDispatcher({
			secret: this.apiSecret,
			retries: options.callbackRetries ?? 3,
			delayMs: options.callbackRetryDelayMs ?? 60_000,
			now,
			log: this.callbacks,
		});
		registerInvoices(this.api, this);
		registerTaxRates(this.api, this);
		registerPayments(this.api, this);
		registerPayouts(this.api, this);
		registerDedicatedAccounts(this.api, this);
		registerAccountLookup(this.api);
		registerEcho(this.api);
		registerControlRoutes(this.control, this);
		this.server = http.createServer((request, response) => {
			this.handle(request, response).catch((error: unknown) => send(response, errorReply(error)));
		});
	}

	/** Listens, then generates the seed data (hosted URLs need the port). */
	async start(): Promise<this> {
		const host = this.options.host ?? '127.0.0.1';
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(this.options.port ?? 0, host, () => {
				this.server.off('error', reject);
				resolve();
			});
		});
		this.port = (this.server.address() as AddressInfo).port;
		this.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${this.port}`;
		try {
			seedStore(this.store, this.seedCounts, this.seedValue, this.baseUrl, this.seedPeriod);
		} catch (error) {
			await this.close();
			throw error;
		}
		return this;
	}

	// --- Core -------------------------------------------------------------------------------

	nowSeconds(): number {
		return Math.floor((this.options.now ?? Date.now)() / 1000);
	}

	// --- EmulatorHandle ---------------------------------------------------------------------

	clearLogs(): void {
		this.requests.length = 0;
		this.callbacks.length = 0;
	}

	/** Drops state, logs and pending callbacks, then seeds `seed` (default: the start sizes). Faults stay. */
	reset(seed?: Partial<Record<Collection, number>>): void {
		const counts = seed ?? this.seedCounts;
		checkSeedCounts(counts);
		this.dispatcher.cancelAll();
		this.store.clear();
		this.clearLogs();
		seedStore(this.store, counts, this.seedValue, this.baseUrl, this.seedPeriod);
	}

	setFaults(faults: FaultConfig): void {
		this.faults.set(faults);
	}

	clearFaults(): void {
		this.faults.clear();
	}

	list(collection: Listable): Record<string, unknown>[] {
		if (!LISTABLE.includes(collection)) throw new Error(`Unknown collection ${collection}; one of ${LISTABLE.join(', ')}.`);
		return this.store[collection].rows.map((row) => row.obj as unknown as Record<string, unknown>);
	}

	async completePayment(idOrReference: string, status?: string): Promise<Record<string, unknown>> {
		return { ...completePayment(this, idOrReference, status) };
	}

	async completePayout(idOrReference: string, status?: string, failure?: { failureCode?: string; failureMessage?: string }): Promise<Record<string, unknown>> {
		return { ...completePayout(this, idOrReference, status, failure) };
	}

	async payInvoice(idOrReference: string, amount?: number, options?: PayInvoiceOptions): Promise<Record<string, unknown>> {
		return { ...payInvoice(this, idOrReference, amount, options) };
	}

	async activateAccountRequest(code: string): Promise<Record<string, unknown>> {
		return { ...activateAccountRequest(this, code) };
	}

	/** Resolves when every callback sent so far had its first attempt (the pay page waits for it). */
	callbacksFirstAttempted(): Promise<void> {
		return this.dispatcher.firstAttemptsDone();
	}

	callbacksSettled(): Promise<void> {
		return this.dispatcher.settled();
	}

	close(): Promise<void> {
		this.closing ??= new Promise<void>((resolve) => {
			this.dispatcher.cancelAll();
			for (const [timer, release] of this.delays) {
				clearTimeout(timer);
				release();
			}
			this.delays.clear();
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
		return this.closing;
	}

	// --- HTTP -------------------------------------------------------------------------------

	private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
		const target = request.url ?? '/';
		const method = (request.method ?? 'GET').toUpperCase();
		const path = target.split('?', 1)[0];
		const query = Object.fromEntries(new URLSearchParams(target.includes('?') ? target.slice(target.indexOf('?') + 1) : ''));
		let rawBody: string;
		try {
			rawBody = await readBody(request);
		} catch (error) {
			send(response, errorReply(error));
			return;
		}

		if (path === '/__emulator' || path.startsWith('/__emulator/')) {
			send(response, await this.dispatch(this.control, method, path, query, rawBody, request));
			return;
		}
		if (!/^\/v1(\/|$)/i.test(path)) {
			const page =
				method !== 'GET'
					? undefined
					: path === '/'
						? waitingPage(this.store, query)
						: path === TEST_STAFF_PATH
							? { status: 200, body: testStaffCsv(), headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="paycashless-test-staff.csv"' } }
							: hostedPage(this.store, path, this.callbacks);
			send(response, page ?? { status: 404, body: { error: { type: 'invalid_request_error', code: 'route_not_found', message: `Nothing at ${method} ${path}: API paths start with /v1.` } } });
			return;
		}

		const parsed = parseJson(rawBody);
		const record: RecordedRequest = {
			method,
			path,
			query,
			headers: flatHeaders(request.headers),
			rawBody,
			body: parsed.ok ? parsed.value : undefined,
			status: 0,
			receivedAt: Date.now(),
		};
		this.requests.push(record);
		const fault = this.faults.decide(method, path);
		if (fault) record.fault = fault.kind ?? 'latency';
		if (fault && fault.latencyMs > 0) await this.delay(fault.latencyMs);
		if (this.closing) return;

		const reply = fault?.kind === 'error5xx' || fault?.kind === 'rateLimit' ? faultReply(fault) : await this.apiReply(method, path, target, query, rawBody, request);
		if (fault?.kind === 'dropAfterCommit') {
			// Processed and committed; the client never hears about it.
			request.socket.destroy();
			return;
		}
		record.status = reply.status;
		send(response, reply);
	}

	private async apiReply(method: string, path: string, target: string, query: Record<string, string>, rawBody: string, request: http.IncomingMessage): Promise<Reply> {
		const denied = checkAuth(this.auth, { headers: request.headers, url: target, rawBody });
		if (denied) return errorReply(denied);
		return this.dispatch(this.api, method, path, query, rawBody, request);
	}

	private async dispatch(router: Router, method: string, path: string, query: Record<string, string>, rawBody: string, request: http.IncomingMessage): Promise<Reply> {
		const found = router.match(method, path);
		if (!found) {
			return errorReply(apiError(404, 'invalid_request_error', 'route_not_found', `No such endpoint: ${method} ${path}.`));
		}
		const parsed = parseJson(rawBody);
		if (!parsed.ok) return errorReply(apiError(400, 'invalid_request_error', 'invalid_json', 'The request body is not valid JSON.', ['body']));
		try {
			return await found.handler({ params: found.params, query, body: parsed.value, rawBody, ip: request.socket.remoteAddress ?? '' });
		} catch (error) {
			return errorReply(error);
		}
	}

	private delay(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.delays.delete(timer);
				resolve();
			}, ms);
			this.delays.set(timer, resolve);
		});
	}
}

function faultReply(fault: FaultDecision): Reply {
	if (fault.kind === 'rateLimit') {
		return {
			status: 429,
			headers: { 'Retry-After': String(fault.retryAfterSeconds ?? 1) },
			body: { error: { type: 'api_error', code: 'rate_limit_exceeded', message: `Too many requests (emulated): retry after ${fault.retryAfterSeconds ?? 1} second(s).` } },
		};
	}
	return { status: fault.status ?? 500, body: { error: { type: 'api_error', code: 'internal_error', message: `The service failed (emulated ${fault.status ?? 500}).` } } };
}
