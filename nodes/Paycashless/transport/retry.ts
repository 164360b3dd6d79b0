/**
 * The one retry loop: sends a request until it succeeds or may not be sent again, and decides
 * which failures it retries (what a failure means: send.ts's `classify`): a repeatable request
 * (a read's, or a write's look-up: `isRepeatable`, from the operation's declaration) after any
 * transient failure, a write only after a failure that changed nothing (429, no connection). When a create's attempts stop on a failure, its reconciliation
 * step (create.ts) finds it by its reference or has it sent again. Waits use `sleep` from
 * n8n-workflow (node code may not use timers) and stop when the execution is cancelled.
 */
import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { classify, sendAttempt } from './send';
import { isRepeatable, type Attempt, type Call, type FailureClass, type PaycashlessRequest, type SendResult, type WaitDecision } from './types';

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
 * A 429 holds the whole run, not just the request that got it (./run.ts): until the wait
 * Paycashless asked for is over, no request of the run starts.
 */
function holdRun(call: Call, ms: number): void {
	const until = Date.now() + ms;
	if (until > call.hold.until) call.hold.until = until;
}

/** Waits while the run is held by an earlier 429 (see `holdRun`). */
async function waitWhileHeld(call: Call): Promise<void> {
	for (let until = call.hold.until; until > Date.now(); until = call.hold.until) {
		await pause(call, until - Date.now());
	}
}

/** Failures after which any request may be sent again: nothing happened. */
const HARMLESS: ReadonlySet<FailureClass> = new Set<FailureClass>(['rateLimited', 'notSent']);
/** Failures after which a repeatable request (a read) is sent again. */
const TRANSIENT: ReadonlySet<FailureClass> = new Set<FailureClass>(['rateLimited', 'notSent', 'uncertain']);

/**
 * What a create's reconciliation (create.ts) makes of a series of attempts that stopped on a
 * failure: the object found again by its reference, as the create's output; or send the create
 * again after `resendAfterMs` (within Max Attempts and Max Retry Time, counted from `startedAt`).
 * It throws when the create ends in an error.
 */
export type ReconcileStep = (stopped: SendResult, startedAt: number) => Promise<{ found: IDataObject } | { resendAfterMs: number }>;

export interface LoopResult extends SendResult {
	/** The answer, on success. */
	body?: IDataObject;
	/** A create found again by its reference: its output (create.ts). */
	found?: IDataObject;
}

/**
 * Sends `request` until it succeeds, fails in a way it may not be retried after, runs out of
 * attempts (at most Max Attempts sends in all) or of time (Max Retry Time from the first send), or
 * is asked to wait too long. With `reconcile` (a create that carries a reference), a stop on a
 * failure goes to that step, which returns the object or has the loop send the create again.
 */
export async function sendWithRetries(call: Call, request: PaycashlessRequest, reconcile?: ReconcileStep): Promise<LoopResult> {
	const { maxAttempts } = call.settings;
	const retryOn = isRepeatable(request, call.policy) ? TRANSIENT : HARMLESS;
	const startedAt = Date.now();
	let sends = 0;
	for (let attempts = 1; ; attempts++) {
		await waitWhileHeld(call);
		const attempt = await sendAttempt(call, request);
		sends += 1;
		const failure = classify(attempt, request, call.policy);
		// classify says undefined only for a 2xx JSON object (succeeded, send.ts).
		if (failure === undefined) return { attempt, attempts, sends, body: (attempt as Extract<Attempt, { answered: true }>).body as IDataObject };
		let stopped: SendResult | undefined;
		let wait: WaitDecision | undefined;
		// No connection at all (wrong Base URL, server down) is a setting to fix, not a bad network to ride out.
		if (!retryOn.has(failure) || sends >= maxAttempts || (failure === 'notSent' && attempts >= NOT_SENT_MAX_ATTEMPTS)) {
			stopped = { attempt, attempts, sends, failure };
		} else {
			wait = waitBeforeRetry(call, attempt, attempts);
			if (wait.tooLong) stopped = { attempt, attempts, sends, failure, waitTooLong: wait };
			else if (failure === 'rateLimited') holdRun(call, wait.ms);
			// Bounded by time as well as by count: a bad network is ridden out for Max Retry Time.
			if (!stopped && outOfTime(call, startedAt, wait.ms)) stopped = { attempt, attempts, sends, failure };
		}
		if (stopped && !reconcile) return stopped;
		let waitMs: number;
		if (stopped) {
			const next = await reconcile!(stopped, startedAt);
			if ('found' in next) return { ...stopped, found: next.found };
			attempts = 0;
			waitMs = next.resendAfterMs;
		} else {
			waitMs = wait!.ms;
			call.context.logger.debug(`Paycashless ${request.method} ${request.path}: attempt ${attempts} failed (${failure}); retrying in ${waitMs} ms`, {
				attempt: attempts,
				failure,
				waitMs,
			});
		}
		await pause(call, waitMs);
	}
}
