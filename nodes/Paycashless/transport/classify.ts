/**
 * What a failed attempt means, written once:
 * - `rateLimited` (429): Paycashless did nothing; wait `Retry-After` (or the backoff) and resend.
 * - `notSent` (connection refused, DNS): the request never left; resend after the backoff.
 * - `uncertain` (5xx, 408, dropped connection, timeout): Paycashless may have acted. Safe to
 *   resend only when the request is repeatable (GET, PUT); a create is reconciled by reference
 *   first (the loop's `reconcile` step, reconcile.ts); anything else ends with "outcome unknown".
 * - `final`: any other answer (4xx, a failure body) or error; never retried.
 * The loop that acts on it is retry.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { ceilingRefusalOf } from '../../../lib/payoutCeiling';
import { errorCodes, errorMessages } from './answers';
import { isRepeatable, type Attempt, type FailureClass, type PaycashlessRequest } from './types';

/** A 2xx answer with a JSON object that is not the payout failure form. */
export function succeeded(attempt: Attempt): attempt is Extract<Attempt, { answered: true }> & { body: IDataObject } {
	return (
		attempt.answered &&
		attempt.status >= 200 &&
		attempt.status < 300 &&
		!attempt.failureBody &&
		typeof attempt.body === 'object' &&
		attempt.body !== null
	);
}

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
	// Refused by the credential before it was signed: nothing left this machine, and nothing will.
	if (codes.includes('ERR_CANCELED') || ceilingRefusalOf(error)) return 'final';
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
