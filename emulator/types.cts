/**
 * The emulator's public contract: what tests, benchmarks and scripts may rely on.
 * Everything here is also reachable over HTTP under the reserved prefix `/__emulator`
 * (see emulator/README.md), so a separate process (n8n, a benchmark) can drive it too.
 */
import type { BodilessSigning } from '../lib/signing';

export type Collection = 'invoices' | 'payments' | 'payouts' | 'dedicatedAccounts';

/** Collections the control API can list. */
export type Listable = Collection | 'taxRates' | 'accountRequests';
export const LISTABLE: readonly Listable[] = ['invoices', 'payments', 'payouts', 'dedicatedAccounts', 'taxRates', 'accountRequests'];

export interface EmulatorOptions {
	/** 0 (default) picks a free port. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Bearer key the emulator expects. Default `pk_test_emulator`. Empty string: no bearer check. */
	apiKey?: string;
	/** Secret requests are signed with. Default `sk_test_emulator_secret`. */
	apiSecret?: string;
	/** Which form of signing is accepted for requests without a body. Default `either`. */
	bodilessSigning?: BodilessSigning | 'either';
	/** Accepted clock skew of `Request-Timestamp`, seconds. Default 300. */
	timestampToleranceSeconds?: number;
	/** Records generated per list at start (0 to 100,000 each). Default 0 for all. */
	seed?: Partial<Record<Collection, number>>;
	/** PRNG seed for the generated data set: same value, same records. Default 1. */
	seedValue?: number;
	/**
	 * When the generated records were created, Unix seconds (`from` before `to`). Default: calendar
	 * year 2025 (UTC), so tests see the same data on any day. `npm start` seeds the 30 days up to
	 * its start, so filters such as "since yesterday" find records on a fresh start.
	 */
	seedPeriod?: { from: number; to: number };
	/** Delay between callback retries, ms. Default 60,000 (the documented 1 minute). */
	callbackRetryDelayMs?: number;
	/** Retries after the first attempt on a non-2xx or failed callback. Default 3. */
	callbackRetries?: number;
	/** Clock used for timestamps and signature checks. Default Date.now. */
	now?: () => number;
	/**
	 * How long after its create an object shows in the lists (`GET /v1/payouts`, ... ; ms, default
	 * 0): Paycashless answers a payout create 202 and its list may show it seconds later. Reads by id
	 * or reference (`GET /v1/payouts/verify/{reference}`) and the repeated-reference check see it at once.
	 */
	listLagMs?: number;
	/**
	 * More API keys of the same account, each with its own secret (default: one,
	 * `pk_test_emulator_second` / `sk_test_emulator_second_secret`). Every key sees the same objects.
	 */
	otherKeys?: Array<{ apiKey: string; apiSecret: string }>;
}

export interface RecordedRequest {
	method: string;
	/** Path without query string, as received (e.g. `/v1/payouts/verify/ref-1`). */
	path: string;
	/** Parsed query, e.g. `{ limit: '100', 'createdAt.gte': '1700000000' }`. */
	query: Record<string, string>;
	headers: Record<string, string>;
	/** Raw body text ('' when none). */
	rawBody: string;
	/** Parsed JSON body, or undefined. */
	body: unknown;
	/** Status the emulator answered with (0 when the connection was dropped). */
	status: number;
	/** When the request arrived (ms since the epoch). */
	receivedAt: number;
	/** Fault applied, if any. */
	fault?: 'latency' | 'error5xx' | 'rateLimit' | 'dropAfterCommit' | 'slow';
}

export interface CallbackAttempt {
	/** Unique per event; the same for every retry of that event. */
	deliveryId: string;
	url: string;
	event: string;
	/** 1 for the first attempt, 2..4 for retries. */
	attempt: number;
	headers: Record<string, string>;
	/** The exact body text sent. */
	body: string;
	/** HTTP status received, or 0 when the request failed. */
	status: number;
}

export interface FaultConfig {
	/** Added latency before every answer, ms. */
	latencyMs?: number;
	/** Share (0..1) of matching requests answered 500/502/503 before doing anything. */
	error5xxRate?: number;
	/** Share (0..1) of matching requests answered 429 with `Retry-After`. */
	rateLimitRate?: number;
	/** `Retry-After` value in seconds sent with 429. Default 1. */
	retryAfterSeconds?: number;
	/** Share (0..1) of matching requests that are fully processed (committed), then the socket is destroyed without an answer. */
	dropAfterCommitRate?: number;
	/**
	 * Share (0..1) of matching requests answered `slowMs` late (on top of `latencyMs`) and then
	 * processed normally: a client with a shorter timeout gives up while the request still commits.
	 */
	slowRate?: number;
	/** Extra delay of a slow answer, ms. Default 1,000. */
	slowMs?: number;
	/** Only requests whose `METHOD /path` matches this regular expression get faults. Default all `/v1` requests. */
	match?: string;
	/** Apply faults to at most this many requests in total, then stop. Default unlimited. */
	maxFaults?: number;
	/** PRNG seed for deciding which requests get faults. Default 1. */
	seed?: number;
}

export interface EmulatorHandle {
	/** e.g. `http://127.0.0.1:43123` (no trailing slash, no `/v1`). */
	baseUrl: string;
	port: number;
	apiKey: string;
	apiSecret: string;
	/** The account's other API keys (`otherKeys`): the same account through another key. */
	readonly otherKeys: ReadonlyArray<{ apiKey: string; apiSecret: string }>;
	/** Every request received on `/v1`, in order (control requests are not recorded). */
	readonly requests: RecordedRequest[];
	/** Every callback attempt made, in order. */
	readonly callbacks: CallbackAttempt[];
	clearLogs(): void;
	/** Drops all state and logs, then generates `seed` records (same PRNG seed as at start). */
	reset(seed?: Partial<Record<Collection, number>>): void;
	setFaults(faults: FaultConfig): void;
	clearFaults(): void;
	/** Sets `listLagMs` (kept by `reset`). */
	setListLag(ms: number): void;
	/** All stored objects of one kind (created and seeded), in creation order. */
	list(collection: Collection | 'taxRates' | 'accountRequests'): Record<string, unknown>[];
	/** Move a payment to `succeeded` (default) or another status; sends its callback. */
	completePayment(idOrReference: string, status?: string): Promise<Record<string, unknown>>;
	/** Move a payout to `succeeded` (default), `failed` or `reversed` (with its failure code and message); sends its callback. */
	completePayout(idOrReference: string, status?: string, failure?: { failureCode?: string; failureMessage?: string }): Promise<Record<string, unknown>>;
	/**
	 * Record a payment against an invoice (default: the full amount due); INVOICE_PAYMENT_SUCCEEDED,
	 * then INVOICE_PAID when fully paid. `loseCallbacks`: record it but send no callback.
	 */
	payInvoice(idOrReference: string, amount?: number, options?: { loseCallbacks?: boolean }): Promise<Record<string, unknown>>;
	/** Give a dedicated account request its account and make it active; sends its callback. */
	activateAccountRequest(code: string): Promise<Record<string, unknown>>;
	/** Resolves when every callback scheduled so far has finished all its attempts. */
	callbacksSettled(): Promise<void>;
	close(): Promise<void>;
}
