/**
 * The retry policy, written once: what a failed attempt means, how long to wait before the next
 * one, and the loop that sends a request until it succeeds or may not be sent again.
 *
 * - `rateLimited` (429): Paycashless did nothing; wait `Retry-After` (or the backoff) and resend.
 * - `notSent` (connection refused, DNS): the request never left; resend after the backoff.
 * - `uncertain` (5xx, 408, dropped connection, timeout): Paycashless may have acted. Safe to
 *   resend only when the request is repeatable (GET, PUT); a create is reconciled by reference
 *   first (reconcile.ts); anything else ends with "outcome unknown".
 * - `final`: any other answer (4xx, a failure body) or error; never retried.
 * Waits use `sleep` from n8n-workflow (node code may not use timers) and stop when the execution
 * is cancelled.
 */
import { sleep } from 'n8n-workflow';
import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { errorCodes, errorMessages } from './errors';
import { attemptError, sendAttempt, succeeded, type Call } from './send';
import { isRepeatable, type Attempt, type PaycashlessRequest } from './types';

export type FailureClass = 'rateLimited' | 'notSent' | 'uncertain' | 'final';

/** Attempts at most when no connection could be made at all. */
export const NOT_SENT_MAX_ATTEMPTS = 3;

/** Codes of failures before the request left this machine. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ENETUNREACH',
	'ENETDOWN',
	'EHOSTUNREACH',
	'UND_ERR_CONNECT_TIMEOUT',
]);

/** Codes of failures after the request may have reached Paycashless. */
const UNCERTAIN_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'UND_ERR_SOCKET',
	'UND_ERR_CLOSED',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
	'ERR_STREAM_PREMATURE_CLOSE',
]);

const UNCERTAIN_MESSAGE = /socket hang up|timeout|timed out|other side closed|terminated|connection (was )?(reset|closed)/i;

/** What a thrown error (no answer) means. */
function classifyNoAnswer(error: unknown, request: PaycashlessRequest): FailureClass {
	const codes = errorCodes(error);
	if (codes.includes('ERR_CANCELED')) return 'final';
	if (codes.some((code) => UNCERTAIN_CODES.has(code))) return 'uncertain';
	if (codes.some((code) => NOT_SENT_CODES.has(code))) return 'notSent';
	if (errorMessages(error).some((message) => UNCERTAIN_MESSAGE.test(message))) return 'uncertain';
	// Unknown failure: a read is not retried; a write may have gone out, so it counts as uncertain.
	return isRepeatable(request) ? 'final' : 'uncertain';
}

/** What a failed attempt means (`undefined`: it succeeded). */
export function classify(attempt: Attempt, request: PaycashlessRequest): FailureClass | undefined {
	if (!attempt.answered) return classifyNoAnswer(attempt.error, request);
	if (succeeded(attempt)) return undefined;
	const { status } = attempt;
	if (status === 429) return 'rateLimited';
	if (status >= 500 || status === 408) return 'uncertain';
	// A 2xx that is not the JSON Paycashless sends (e.g. a proxy page): a write may have happened.
	if (status >= 200 && status < 300 && !attempt.failureBody && !isRepeatable(request)) return 'uncertain';
	return 'final';
}

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

export interface WaitDecision {
	ms: number;
	/** Paycashless asked for a longer wait than allowed: do not retry. */
	tooLong: boolean;
	/** The wait asked for by `Retry-After`, when there was one. */
	retryAfterMs?: number;
}

/** How long to wait after `attempts` attempts, the last one being `attempt`. */
export function waitBeforeRetry(call: Call, attempt: Attempt, attempts: number): WaitDecision {
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
export async function pause(call: Call, ms: number): Promise<void> {
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

export interface SendResult {
	/** The last attempt (a success, or the failure that ended the loop). */
	attempt: Attempt;
	/** Attempts made. */
	attempts: number;
	/** Why the last attempt failed; undefined on success. */
	failure?: FailureClass;
	/** Set when Paycashless asked for a wait longer than Max Retry Wait. */
	waitTooLong?: WaitDecision;
}

/**
 * Sends `request` until it succeeds, fails in a way not in `retryOn`, runs out of attempts
 * (at most `maxAttempts`), or is asked to wait too long.
 */
export async function sendWithRetries(
	call: Call,
	request: PaycashlessRequest,
	retryOn: ReadonlySet<FailureClass>,
	maxAttempts: number = call.settings.maxAttempts,
	startedAt: number = Date.now(),
): Promise<SendResult> {
	for (let attempts = 1; ; attempts++) {
		await waitWhileHeld(call);
		const attempt = await sendAttempt(call, request);
		const failure = classify(attempt, request);
		if (failure === undefined) return { attempt, attempts };
		if (!retryOn.has(failure) || attempts >= maxAttempts) return { attempt, attempts, failure };
		// No connection at all (wrong Base URL, server down) is a setting to fix, not a bad network to ride out.
		if (failure === 'notSent' && attempts >= NOT_SENT_MAX_ATTEMPTS) return { attempt, attempts, failure };
		const wait = waitBeforeRetry(call, attempt, attempts);
		if (wait.tooLong) return { attempt, attempts, failure, waitTooLong: wait };
		if (failure === 'rateLimited') holdRun(call, wait.ms);
		// Bounded by time as well as by count: a bad network is ridden out for Max Retry Time.
		if (outOfTime(call, startedAt, wait.ms)) return { attempt, attempts, failure };
		call.context.logger.debug(`Paycashless ${request.method} ${request.path}: attempt ${attempts} failed (${failure}); retrying in ${wait.ms} ms`, {
			attempt: attempts,
			failure,
			waitMs: wait.ms,
		});
		await pause(call, wait.ms);
	}
}

/** Failures after which any request may be sent again: nothing happened. */
export const HARMLESS: ReadonlySet<FailureClass> = new Set<FailureClass>(['rateLimited', 'notSent']);
/** Failures after which a repeatable request (a read) is sent again. */
export const TRANSIENT: ReadonlySet<FailureClass> = new Set<FailureClass>(['rateLimited', 'notSent', 'uncertain']);

/** The body of a successful result. */
export function resultBody(result: SendResult): IDataObject | undefined {
	return result.failure === undefined && succeeded(result.attempt) ? result.attempt.body : undefined;
}

/** The error that ends a request whose last attempt failed. */
export function resultError(call: Call, request: PaycashlessRequest, result: SendResult): NodeApiError {
	if (result.waitTooLong) {
		return attemptError(call, request, result.attempt, result.attempts, {
			kind: 'waitTooLong',
			askedMs: result.waitTooLong.ms,
			maxMs: call.settings.maxRetryWaitMs,
		});
	}
	const unknown = result.failure === 'uncertain' && !isRepeatable(request);
	return attemptError(call, request, result.attempt, result.attempts, unknown ? { kind: 'unknownOutcome' } : undefined);
}
