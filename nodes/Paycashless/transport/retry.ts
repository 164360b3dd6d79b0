/**
 * The retry policy's waits and the one loop that sends a request until it succeeds or may not be
 * sent again (what a failure means: classify.ts). Waits use `sleep` from n8n-workflow (node code
 * may not use timers) and stop when the execution is cancelled.
 */
import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { classify } from './classify';
import { sendAttempt, type Call } from './send';
import type { Attempt, FailureClass, PaycashlessRequest, SendResult, WaitDecision } from './types';

/** Attempts at most when no connection could be made at all. */
const NOT_SENT_MAX_ATTEMPTS = 3;

/** `Retry-After` in ms (seconds, decimals accepted, or an HTTP date), if the answer has one. */
export function retryAfterMs(attempt: Attempt, now: number = Date.now()): number | undefined {
	if (!attempt.answered) return undefined;
	const header = Object.entries(attempt.headers).find(([name]) => name.toLowerCase() === 'retry-after')?.[1];
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Capped exponential backoff with jitter: between half and all of base × 2^(attempts − 1). */
export function backoffMs(attempts: number, retryDelayMs: number, maxRetryWaitMs: number, random = Math.random): number {
	const ceiling = Math.min(maxRetryWaitMs, retryDelayMs * 2 ** Math.max(0, attempts - 1));
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** How long to wait after `attempts` attempts, the last one being `attempt`. */
function waitBeforeRetry(call: Call, attempt: Attempt, attempts: number): WaitDecision {
	const { retryDelayMs, maxRetryWaitMs } = call.settings;
	const asked = retryAfterMs(attempt);
	if (asked !== undefined) return { ms: asked, tooLong: asked > maxRetryWaitMs, retryAfterMs: asked };
	return { ms: backoffMs(attempts, retryDelayMs, maxRetryWaitMs), tooLong: false };
}

/** Waiting `waitMs` more would take this request past Max Retry Time (counted from its first attempt). */
export function outOfTime(call: Call, startedAt: number, waitMs: number): boolean {
	return Date.now() + waitMs - startedAt > call.settings.maxRetryTimeMs;
}

/** Waits with n8n's `sleep`; rejects when the execution is cancelled. */
async function pause(call: Call, ms: number): Promise<void> {
	if (ms <= 0) return;
	const context = call.context as { getExecutionCancelSignal?: () => AbortSignal | undefined };
	const signal = typeof context.getExecutionCancelSignal === 'function' ? context.getExecutionCancelSignal() : undefined;
	await sleep(ms, signal);
}

/**
 * A 429 holds the whole node run, not just the request that got it: until the wait Paycashless
 * asked for is over, no request of this run starts (every item in flight, reads and creates), so
 * items sent in parallel back off together instead of each finding the limit again. Kept per n8n
 * context object, which is one node run, so it ends with the run and is never shared between
 * runs or processes.
 */
const heldUntil = new WeakMap<object, number>();

function holdRun(call: Call, ms: number): void {
	const until = Date.now() + ms;
	if (until > (heldUntil.get(call.context) ?? 0)) heldUntil.set(call.context, until);
}

/** Waits while the run is held by an earlier 429 (see `holdRun`). */
async function waitWhileHeld(call: Call): Promise<void> {
	for (let until = heldUntil.get(call.context) ?? 0; until > Date.now(); until = heldUntil.get(call.context) ?? 0) {
		await pause(call, until - Date.now());
	}
}

/**
 * What the create step (reconcile.ts) makes of a series of attempts that stopped on a failure:
 * the object found again by its reference, as the create's output; or send the create again
 * after `resendAfterMs` (within Max Attempts and Max Retry Time, counted from `startedAt`). It
 * throws when the create ends in an error.
 */
export type ReconcileStep = (stopped: SendResult, startedAt: number) => Promise<{ found: IDataObject } | { resendAfterMs: number }>;

/**
 * Waits; `true` when the execution was cancelled during the read-back of a create (`created`):
 * the create stands and the read ends. A cancellation at any other time rejects as it is.
 */
async function cancelledWhileReadingBack(wait: Promise<void>, created: IDataObject | undefined): Promise<boolean> {
	if (created === undefined) {
		await wait;
		return false;
	}
	return await wait.then(
		() => false,
		() => true,
	);
}

/** How a read-back cancelled with the execution ends. */
const cancelled = { attempt: { answered: false, error: 'cancelled' }, failure: 'final' } as const;

/** The steps a create adds to the loop (request.ts makes them from the operation's create policy). */
export interface CreateSteps {
	/** When the attempts stop on a failure: find the object by its reference (reconcile.ts). */
	reconcile?: ReconcileStep;
	/** After the create's answer: the read that completes a short answer, if the policy declares one (created.ts). */
	readBack?(answer: IDataObject): PaycashlessRequest | undefined;
}

export interface LoopResult extends SendResult {
	/** The answer of the last request, on success. */
	body?: IDataObject;
	/** A create found again by its reference: its output (reconcile.ts). */
	found?: IDataObject;
	/** A create whose answer was read back: that answer (`body` is then the read's, or none if the read failed). */
	created?: IDataObject;
}

/**
 * The one retry loop: sends `request` until it succeeds, fails in a way not in `retryOn`, runs
 * out of attempts (at most Max Attempts sends in all) or of time (Max Retry Time from the first
 * send), or is asked to wait too long. A create adds its steps (`steps`): when the attempts stop
 * on a failure, `reconcile` finds the object by its reference and returns it or has the loop send
 * the create again; after a short answer, the loop goes on with the read `readBack` names (retried
 * as a read, with its own attempts and time), whose failure leaves the create standing.
 */
export async function sendWithRetries(
	call: Call,
	request: PaycashlessRequest,
	retryOn: ReadonlySet<FailureClass>,
	steps: CreateSteps = {},
): Promise<LoopResult> {
	const { maxAttempts } = call.settings;
	let current = request;
	let retrying = retryOn;
	let startedAt = Date.now();
	let sends = 0;
	let created: IDataObject | undefined;
	for (let attempts = 1; ; attempts++) {
		if (await cancelledWhileReadingBack(waitWhileHeld(call), created)) return { ...cancelled, attempts, sends, created };
		const attempt = await sendAttempt(call, current);
		sends += 1;
		const failure = classify(attempt, current);
		if (failure === undefined) {
			// classify says undefined only for a 2xx JSON object (succeeded, classify.ts).
			const body = (attempt as Extract<Attempt, { answered: true }>).body as IDataObject;
			const next = created === undefined ? steps.readBack?.(body) : undefined;
			if (next === undefined) return { attempt, attempts, sends, body, ...(created !== undefined ? { created } : {}) };
			// A short create answer: this loop reads the object back, as a read.
			created = body;
			current = next;
			retrying = TRANSIENT;
			startedAt = Date.now();
			sends = 0;
			attempts = 0;
			continue;
		}
		let stopped: SendResult | undefined;
		let wait: WaitDecision | undefined;
		// No connection at all (wrong Base URL, server down) is a setting to fix, not a bad network to ride out.
		if (!retrying.has(failure) || sends >= maxAttempts || (failure === 'notSent' && attempts >= NOT_SENT_MAX_ATTEMPTS)) {
			stopped = { attempt, attempts, sends, failure };
		} else {
			wait = waitBeforeRetry(call, attempt, attempts);
			if (wait.tooLong) stopped = { attempt, attempts, sends, failure, waitTooLong: wait };
			else if (failure === 'rateLimited') holdRun(call, wait.ms);
			// Bounded by time as well as by count: a bad network is ridden out for Max Retry Time.
			if (!stopped && outOfTime(call, startedAt, wait.ms)) stopped = { attempt, attempts, sends, failure };
		}
		if (stopped && created !== undefined) return { ...stopped, created };
		if (stopped && !steps.reconcile) return stopped;
		let waitMs: number;
		if (stopped) {
			const next = await steps.reconcile!(stopped, startedAt);
			if ('found' in next) return { ...stopped, found: next.found };
			attempts = 0;
			waitMs = next.resendAfterMs;
		} else {
			waitMs = wait!.ms;
			call.context.logger.debug(`Paycashless ${current.method} ${current.path}: attempt ${attempts} failed (${failure}); retrying in ${waitMs} ms`, {
				attempt: attempts,
				failure,
				waitMs,
			});
		}
		if (await cancelledWhileReadingBack(pause(call, waitMs), created)) return { ...cancelled, attempts, sends, created };
	}
}

/** Failures after which any request may be sent again: nothing happened. */
export const HARMLESS: ReadonlySet<FailureClass> = new Set<FailureClass>(['rateLimited', 'notSent']);
/** Failures after which a repeatable request (a read) is sent again. */
export const TRANSIENT: ReadonlySet<FailureClass> = new Set<FailureClass>(['rateLimited', 'notSent', 'uncertain']);
