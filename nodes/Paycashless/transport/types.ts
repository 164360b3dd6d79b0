/**
 * The transport's vocabulary, read by every other file of it: a request, the settings and the
 * write policy a call is made with, what an attempt came back with and what a failure means.
 * Plain values and pure helpers only.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestMethods, ILoadOptionsFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

/** The n8n contexts that may talk to Paycashless: nodes, list searches, polls and webhooks. */
export type PaycashlessContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IWebhookFunctions;

/**
 * One request to the Paycashless API, described without n8n's request options, so that the
 * transport alone decides how it is sent (and retried or reconciled).
 */
export interface PaycashlessRequest {
	method: IHttpRequestMethods;
	/** The API path from `/v1` on, e.g. `/v1/payouts`; build it with `apiPath` so ids are encoded. */
	path: string;
	/** Query values; `undefined` ones are left out. */
	qs?: IDataObject;
	/** JSON body as an object; the credential serialises and signs it. */
	body?: IDataObject;
	/** What to tell the user when Paycashless answers 404 (default: check the ID or reference). */
	notFoundAdvice?: string;
}

/** One page of a Paycashless list: `{ hasMore, cursor, data }`. */
export interface PaycashlessPage {
	data: IDataObject[];
	hasMore: boolean;
	cursor?: string;
}

/**
 * Whether a request may be sent again freely. The operation's declaration decides, through the
 * write policy it gives the transport: a read's requests may (no policy); under a write policy only
 * the look-ups on the way may (GET), and the write itself (any other method, a `PUT` too) is
 * reconciled by its reference or checked by the user. The method only checks the declaration: a
 * request that is not a GET without a write policy is refused before it is sent (`checkDeclared`).
 */
export function isRepeatable(request: PaycashlessRequest, policy: WritePolicy | undefined): boolean {
	return policy === undefined || request.method === 'GET';
}

/** A write sent without a write policy (its operation declared a read): nothing is sent; the reason, or undefined when it agrees. */
export function checkDeclared(request: PaycashlessRequest, policy: WritePolicy | undefined): string | undefined {
	if (policy !== undefined || request.method === 'GET') return undefined;
	return `Nothing was sent: ${request.method} ${request.path} would write, but its operation is declared a read (an error in the node; please report it)`;
}

/** The reference a create sends (`body.reference`): the one that finds it again. */
export function referenceOf(request: PaycashlessRequest): string | undefined {
	const reference = request.body?.reference;
	return typeof reference === 'string' && reference !== '' ? reference : undefined;
}

/** What a lookup by reference found. */
export type LookupResult = { found: IDataObject } | { notFound: true } | { inconclusive: string };

/** A field that must be equal in the create's body and the object found under its reference. */
export interface KeyField {
	field: string;
	requested(body: IDataObject): unknown;
	existing(found: IDataObject): unknown;
}

/**
 * How the transport treats the writes of one operation: the one policy type, which the node's
 * operations declare (actions/types.ts) and the transport acts on. `Op` names another operation
 * of the node: in a declaration its reference by the node's own names (`{ resource: 'payout',
 * operation: 'verify' }`), in the transport the name a user sees (`Payout → Verify`), put in by
 * the registry. Reads need none: their requests (GETs only) are retried as reads, and so are the
 * GETs a write makes on the way (`isRepeatable`).
 */
export type WritePolicy<Op = string> =
	/** Creates an object under the item's reference (`body.reference`): reconciled, never sent twice. */
	| { kind: 'create'; findsAgain: FoundByReference<Op> }
	/** Any other write: one item at a time; after an unclear answer, the user is told how to check. */
	| { kind: 'write'; check: ManualCheck<Op> };

/** How a create that carries a reference is found again by it. */
export interface FoundByReference<Op = string> {
	/** The object's name in messages, e.g. `payout`. */
	object: string;
	/** Creating it moves money: retries and advice say "so money never moves twice". */
	movesMoney: boolean;
	/** The read that finds it by its reference. */
	lookup(reference: string): PaycashlessRequest;
	/** How it was found, as the output marker says it (`verify`, `invoiceList`). */
	via: string;
	/** Reads the lookup's answer; default: the answer is the object. */
	pick?(body: IDataObject, reference: string): LookupResult;
	/** Fields that must agree between this create and the object found (compared when both have them). */
	sameAs: KeyField[];
	/** The operation a user runs to find it by hand, and the words after its name. */
	findWith: { operation: Op; how(reference: string): string };
	/** Said in the output marker when the object is returned from a lookup. */
	foundAgainNote?: string;
	/** The create answers short (`true` for this answer): the output is the object read back with `lookup`. */
	readBack?(answer: IDataObject): boolean;
	/**
	 * The list that shows new objects newest first, filtered by creation time (`query`, in Unix
	 * seconds): a run of many creates reads them back from it, 100 at a time (readBacks.ts).
	 */
	listedSince?: { path: string; query: string };
}

/** How a user checks by hand whether a write without a reference happened. */
export interface ManualCheck<Op = string> {
	/** The operation to run, named before `text`. */
	with?: Op;
	/** e.g. `whether the invoice is cancelled now`. */
	text: string;
}

/** How a user finds a create by hand, e.g. `Payout → Verify and the reference "r-1"`. */
export function findWithWords(found: FoundByReference, reference: string): string {
	return `${found.findWith.operation} ${found.findWith.how(reference)}`;
}

/** Completes "Before retrying, check …", e.g. `with Invoice → Get whether the invoice is cancelled now`. */
export function checkWords(check: ManualCheck): string {
	return check.with ? `with ${check.with} ${check.text}` : check.text;
}

/** What one attempt at a request came back with: an answer, or none. */
export type Attempt =
	| {
			answered: true;
			status: number;
			/** Parsed JSON, or the text when it was not JSON, or undefined when empty. */
			body: unknown;
			headers: IDataObject;
			/** The payout failure form `{ status: 'failed', message }`, whatever the status. */
			failureBody: boolean;
	  }
	| { answered: false; error: unknown };

/** What a failed attempt means (retry.ts). */
export type FailureClass = 'rateLimited' | 'notSent' | 'uncertain' | 'final';

export interface WaitDecision {
	ms: number;
	/** Paycashless asked for a longer wait than allowed: do not retry. */
	tooLong: boolean;
	/** The wait asked for by `Retry-After`, when there was one. */
	retryAfterMs?: number;
}

export interface SendResult {
	/** The last attempt (a success, or the failure that ended the loop). */
	attempt: Attempt;
	/** Attempts made (for a create, since it was last sent again after a lookup). */
	attempts: number;
	/** Sends of the request in all, re-sends after a lookup included. */
	sends: number;
	/** Why the last attempt failed; undefined on success. */
	failure?: FailureClass;
	/** Set when Paycashless asked for a wait longer than Max Retry Wait. */
	waitTooLong?: WaitDecision;
}

// ---- Settings: how hard the transport tries. The node reads them from its "Request Options"
// (actions/fields/requestOptions.ts) and hands them over; list searches, which have no item, use
// the defaults.

/** What to do when Paycashless says a reference was used before (HTTP 409). */
export type RepeatedReferenceMode = 'returnExisting' | 'error';

export interface TransportSettings {
	/** Sends of one request in all, first one included (1 = no retry). */
	maxAttempts: number;
	/** First wait of the exponential backoff, ms (doubles per attempt, with jitter). */
	retryDelayMs: number;
	/** Longest single wait, ms: caps the backoff; a longer `Retry-After` ends the retries. */
	maxRetryWaitMs: number;
	/** Timeout of every request, ms. */
	timeoutMs: number;
	/**
	 * How long one request (with its lookups) keeps being retried, ms from its first attempt: a
	 * bad network is ridden out by time, not given up after a small count.
	 */
	maxRetryTimeMs: number;
	onRepeatedReference: RepeatedReferenceMode;
}

export const DEFAULT_TRANSPORT_SETTINGS: Readonly<TransportSettings> = Object.freeze({
	maxAttempts: 10,
	retryDelayMs: 1000,
	maxRetryWaitMs: 60_000,
	timeoutMs: 30_000,
	maxRetryTimeMs: 120_000,
	onRepeatedReference: 'returnExisting',
});

/** Bounds of the settings (also used by the field definitions). */
export const SETTING_LIMITS = {
	maxAttempts: { min: 1, max: 100 },
	retryDelayMs: { min: 0, max: 600_000 },
	maxRetryWaitMs: { min: 0, max: 3_600_000 },
	timeoutMs: { min: 1, max: 3_600_000 },
	maxRetryTimeMs: { min: 0, max: 86_400_000 },
} as const;

/**
 * Builds an API path, encoding every interpolated value as one path segment:
 * apiPath`/v1/payouts/verify/${reference}`.
 */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
	return strings.reduce(
		(path, part, index) => path + part + (index < values.length ? encodeURIComponent(String(values[index])) : ''),
		'',
	);
}

/** n8n's clock (ms) until which no request of a run starts: an earlier 429's wait (./retry.ts). */
export interface RunHold {
	until: number;
}

/** Everything one call of the transport needs besides the request. */
export interface Call {
	context: PaycashlessContext;
	/** The 429 hold of the run the call belongs to (./run.ts, ./retry.ts). */
	hold: RunHold;
	settings: TransportSettings;
	/** The credential's base URL, without trailing slashes. */
	baseURL: string;
	itemIndex?: number;
	/** How the operation's writes are treated (reconciled creates, checks); none for reads. */
	policy?: WritePolicy;
}
