/**
 * The control API under `/__emulator` (not signed, not recorded): it mirrors the programmatic
 * handle so a separate process (n8n, a benchmark, a shell) can drive the emulator.
 */
import { apiError, invalidField } from './errors.cjs';
import type { Router } from './router.cjs';
import type { Store } from './store.cjs';
import { LISTABLE, type CallbackAttempt, type Collection, type FaultConfig, type Listable, type RecordedRequest } from './types.cjs';
import { Fields } from './validate.cjs';

/** The optional JSON object body of a control request. */
function fields(body: unknown): Fields {
	if (body === undefined) return new Fields({}, '', 400);
	if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidField('body', 'The body must be a JSON object.', 400);
	return new Fields(body as Record<string, unknown>, '', 400);
}

const ALIASES: Record<string, string> = { dedicated_accounts: 'dedicatedAccounts', tax_rates: 'taxRates', account_requests: 'accountRequests' };

/** What the control routes drive: the emulator (server.ts), described here so neither imports the other. */
export interface ControlledEmulator {
	readonly store: Store;
	readonly baseUrl: string;
	readonly apiKey: string;
	readonly requests: RecordedRequest[];
	readonly callbacks: CallbackAttempt[];
	readonly faults: { readonly current: FaultConfig | null };
	reset(seed?: Partial<Record<Collection, number>>): void;
	clearLogs(): void;
	setFaults(faults: FaultConfig): void;
	clearFaults(): void;
	setListLag(ms: number): void;
	list(collection: Listable): Record<string, unknown>[];
	completePayment(idOrReference: string, status?: string): Promise<Record<string, unknown>>;
	completePayout(idOrReference: string, status?: string, failure?: { failureCode?: string; failureMessage?: string }): Promise<Record<string, unknown>>;
	payInvoice(idOrReference: string, amount?: number, options?: { loseCallbacks?: boolean }): Promise<Record<string, unknown>>;
	activateAccountRequest(code: string): Promise<Record<string, unknown>>;
	callbacksSettled(): Promise<void>;
	callbacksFirstAttempted(): Promise<void>;
}

export function registerControlRoutes(router: Router, emulator: ControlledEmulator): void {
	const ok = (body: unknown = { ok: true }) => ({ status: 200, body });
	const counts = () => Object.fromEntries(LISTABLE.map((name) => [name, emulator.store[name].size]));

	router
		.add('GET', '/__emulator/health', () =>
			ok({ status: 'ok', baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, counts: counts(), balances: emulator.store.balances, faults: emulator.faults.current, listLagMs: emulator.store.payouts.listLagMs }),
		)
		.add('POST', '/__emulator/reset', (ctx) => {
			const seed = fields(ctx.body).object('seed')?.source as Partial<Record<Collection, number>> | undefined;
			try {
				emulator.reset(seed);
			} catch (error) {
				throw invalidField('seed', (error as Error).message, 400);
			}
			return ok({ ok: true, counts: counts() });
		})
		.add('GET', '/__emulator/requests', () => ok(emulator.requests))
		.add('GET', '/__emulator/callbacks', () => ok(emulator.callbacks))
		.add('GET', '/__emulator/callbacks/first-attempts', async () => {
			await emulator.callbacksFirstAttempted();
			return ok({ ok: true, attempts: emulator.callbacks.length });
		})
		.add('GET', '/__emulator/callbacks/settled', async () => {
			await emulator.callbacksSettled();
			return ok({ ok: true, attempts: emulator.callbacks.length });
		})
		.add('DELETE', '/__emulator/logs', () => {
			emulator.clearLogs();
			return ok();
		})
		.add('PUT', '/__emulator/faults', (ctx) => {
			try {
				emulator.setFaults(fields(ctx.body).source as FaultConfig);
			} catch (error) {
				throw apiError(400, 'invalid_request_error', 'parameter_invalid', (error as Error).message);
			}
			return ok({ ok: true, faults: emulator.faults.current });
		})
		.add('DELETE', '/__emulator/faults', () => {
			emulator.clearFaults();
			return ok();
		})
		.add('PUT', '/__emulator/list-lag', (ctx) => {
			const ms = fields(ctx.body).integer('ms', { min: 0, required: true }) as number;
			emulator.setListLag(ms);
			return ok({ ok: true, listLagMs: ms });
		})
		.add('GET', '/__emulator/balance', () => ok(emulator.store.balances))
		.add('PUT', '/__emulator/balance', (ctx) => {
			const f = fields(ctx.body);
			const NGN = f.integer('NGN', { min: 0 });
			const USD = f.integer('USD', { min: 0 });
			if (NGN !== undefined) emulator.store.balances.NGN = NGN;
			if (USD !== undefined) emulator.store.balances.USD = USD;
			return ok(emulator.store.balances);
		})
		.add('GET', '/__emulator/store/:collection', (ctx) => {
			const name = ALIASES[ctx.params.collection] ?? ctx.params.collection;
			if (!(LISTABLE as readonly string[]).includes(name)) {
				throw apiError(404, 'invalid_request_error', 'resource_missing', `No collection ${ctx.params.collection}; one of ${LISTABLE.join(', ')}.`);
			}
			return ok(emulator.list(name as (typeof LISTABLE)[number]));
		})
		.add('POST', '/__emulator/payments/:idOrReference/complete', async (ctx) =>
			ok(await emulator.completePayment(ctx.params.idOrReference, fields(ctx.body).string('status'))),
		)
		.add('POST', '/__emulator/payouts/:idOrReference/complete', async (ctx) => {
			const f = fields(ctx.body);
			const status = f.string('status');
			const failure = { failureCode: f.string('failureCode'), failureMessage: f.string('failureMessage') };
			return ok(await emulator.completePayout(ctx.params.idOrReference, status, failure));
		})
		.add('POST', '/__emulator/invoices/:idOrReference/pay', async (ctx) =>
			ok(
				await emulator.payInvoice(ctx.params.idOrReference, fields(ctx.body).integer('amount'), {
					loseCallbacks: fields(ctx.body).boolean('loseCallbacks') === true,
				}),
			),
		)
		.add('POST', '/__emulator/dedicated_accounts/requests/:code/activate', async (ctx) =>
			ok(await emulator.activateAccountRequest(ctx.params.code)),
		);
}
