/**
 * Turning Paycashless failures into n8n errors. Paycashless answers errors in several shapes
 * (`{error:{type,code,message,params}}`, top-level `{type,code,message}`, the payout form
 * `{status:'failed', message}`, or a non-JSON body from a proxy); all are read here, once.
 * Nothing from the request (headers, signature, key, secret) ever goes into an error.
 * `composeError` is the one place an error and its advice are put together; the words that
 * name operations come from the operation's write policy, never from a table here.
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isObject } from '../helpers/body';
import { isRepeatable, type Attempt, type CreatePolicy, type PaycashlessRequest, type WritePolicy } from './types';

export interface PaycashlessErrorDetails {
	/** HTTP status of the answer. */
	httpCode: number;
	/** `api_error`, `authentication_error`, `idempotency_error`, `invalid_request_error`, ... */
	type?: string;
	code?: string;
	/** The API's own message, or a description of the answer when it had none. */
	message: string;
	/** Names of the fields the API complained about. */
	params?: string[];
	/** The answer was not a JSON object (empty, HTML from a proxy, ...). */
	unexpected?: boolean;
}


function text(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number') return String(value);
	return undefined;
}

function snippet(body: string): string {
	const flat = body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
	return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}

/**
 * A 2xx answer that still reports a failure: the payout form `{ status: 'failed', message }`
 * without an `id` (a payout object whose status is `failed` carries its id and is a result).
 */
export function isFailureBody(body: unknown): boolean {
	return isObject(body) && body.status === 'failed' && typeof body.message === 'string' && !('id' in body);
}

/** Reads type, code, message and params from any of the documented error shapes. */
export function extractErrorDetails(httpCode: number, body: unknown): PaycashlessErrorDetails {
	if (typeof body === 'string' || Buffer.isBuffer(body)) {
		const raw = Buffer.isBuffer(body) ? body.toString('utf8') : body;
		if (raw.trim() !== '') {
			try {
				const parsed: unknown = JSON.parse(raw);
				if (isObject(parsed)) return extractErrorDetails(httpCode, parsed);
			} catch {
				// Not JSON: described below.
			}
			return { httpCode, message: `Paycashless answered with a non-JSON body: ${snippet(raw)}`, unexpected: true };
		}
	}
	if (!isObject(body)) return { httpCode, message: 'Paycashless answered with an empty body', unexpected: true };

	const nested = isObject(body.error) ? body.error : undefined;
	const source = nested ?? body;
	const message =
		text(source.message) ??
		text(body.message) ??
		(typeof body.error === 'string' ? body.error : undefined) ??
		text(source.detail) ??
		'Paycashless gave no error message';
	const rawParams = source.params ?? body.params;
	const params = Array.isArray(rawParams)
		? rawParams.map((param) => (typeof param === 'string' ? param : JSON.stringify(param)))
		: undefined;
	return {
		httpCode,
		type: text(source.type),
		code: text(source.code),
		message,
		params: params && params.length > 0 ? params : undefined,
	};
}

/** The error message: the API's message with its type/code and the HTTP status. */
export function errorMessage(details: PaycashlessErrorDetails): string {
	const labels = [details.type, details.code].filter((label) => label !== undefined).join(' / ');
	return `${details.message} (${labels ? `${labels}, ` : ''}HTTP ${details.httpCode})`;
}


/** The reference a create sends (`body.reference`): the one that finds it again. */
export function referenceOf(request: PaycashlessRequest): string | undefined {
	const reference = request.body?.reference;
	return typeof reference === 'string' && reference !== '' ? reference : undefined;
}

/**
 * The sentence that tells the user how to check whether a write went through before sending it
 * again ('' for requests that are safe to repeat). The words come from the operation's policy.
 */
export function checkAdvice(request: PaycashlessRequest, policy?: WritePolicy): string {
	if (isRepeatable(request)) return '';
	const reference = referenceOf(request);
	if (policy?.kind === 'create' && reference !== undefined) {
		return policy.movesMoney
			? ` Before retrying, check whether it went through with ${policy.findWith(reference)}, so money never moves twice.`
			: ` Before retrying, check whether it was created with ${policy.findWith(reference)}, so it is not created twice.`;
	}
	if (policy?.kind === 'write') return ` Before retrying, check ${policy.check}, so it does not happen twice.`;
	return ' Before retrying, check in the Paycashless dashboard whether it went through, so it does not happen twice.';
}

/** What the user should do about an answer. */
function answerAdvice(
	details: PaycashlessErrorDetails,
	request: PaycashlessRequest,
	policy: WritePolicy | undefined,
	attempts: number,
): string {
	const status = details.httpCode;
	const verify = checkAdvice(request, policy);
	const fields = details.params ? ` Fields named by Paycashless: ${details.params.join(', ')}.` : '';

	if (status === 401 || details.type === 'authentication_error') {
		return 'Paycashless did not accept the credential. Check the API Key and API Secret in the Paycashless credential: they must be one pair, copied without spaces, from the same mode (both test or both live).';
	}
	if (status === 403) {
		return 'Paycashless refused access with this API key. Check that the key is active and allowed to do this in the Paycashless dashboard.';
	}
	if (status === 404) {
		return request.notFoundAdvice ?? 'Nothing was found. Check the ID or reference, and that it belongs to this Paycashless account and mode (test or live).';
	}
	if (status === 409 || details.type === 'idempotency_error') {
		const reference = referenceOf(request);
		const lookup =
			policy?.kind === 'create' && reference !== undefined
				? `Look up the existing ${policy.object} with ${policy.findWith(reference)}`
				: `Look up the existing one${reference !== undefined ? ` with the reference "${reference}"` : ''}`;
		return `That reference was used before: Paycashless treats this as a repeat of an earlier request. ${lookup} instead of creating it again, or use a new, unique reference for a new one.`;
	}
	if (status === 400 || status === 422) {
		return `Paycashless refused a field of the request. Fix the field named in the message and run again.${fields}`;
	}
	if (status === 429) {
		const tried = attempts > 1 ? ` It still answered 429 after ${attempts} attempts, with the waits it asked for in between.` : '';
		return `Paycashless is receiving too many requests.${tried} Slow down: add a Wait node, or send fewer items at once (or raise Request Options → Max Attempts), then try again.`;
	}
	if (status >= 500) {
		return `Paycashless had a problem handling the request; try again later.${verify}`;
	}
	if (status >= 200 && status < 300 && details.unexpected) {
		return `The answer was not the JSON Paycashless sends: check the Base URL in the credential. The request may still have been processed.${verify}`;
	}
	if (status >= 200 && status < 300) {
		return `Paycashless did not accept the request. Fix the cause given in the message and try again.${fields}`;
	}
	return `Paycashless refused the request.${fields}`;
}

/** Codes found on an error and its causes, outermost first (n8n wraps the HTTP client's error in a NodeApiError). */
export function errorCodes(error: unknown): string[] {
	const codes: string[] = [];
	const seen = new Set<unknown>();
	let level: unknown = error;
	while (typeof level === 'object' && level !== null && !seen.has(level)) {
		seen.add(level);
		const code = (level as { code?: unknown }).code;
		if (typeof code === 'string') codes.push(code);
		level = (level as { cause?: unknown }).cause;
	}
	return codes;
}

/** Messages of an error and its causes, outermost first. */
export function errorMessages(error: unknown): string[] {
	const messages: string[] = [];
	const seen = new Set<unknown>();
	let level: unknown = error;
	while (typeof level === 'object' && level !== null && !seen.has(level)) {
		seen.add(level);
		const message = (level as { message?: unknown }).message;
		if (typeof message === 'string') messages.push(message);
		level = (level as { cause?: unknown }).cause;
	}
	return messages;
}


const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * What happened around the failed attempt beyond the attempt itself; `composeError` adds its
 * sentence (or replaces the advice) for each.
 */
export type Circumstance =
	/** Paycashless asked (Retry-After) for a longer wait than Max Retry Wait. */
	| { kind: 'waitTooLong'; askedMs: number; maxMs: number }
	/** A write without a reference got no clear answer: it is not sent again. */
	| { kind: 'unknownOutcome' }
	/** A create got no clear answer, and the lookup by reference failed too. */
	| { kind: 'lookupFailed'; reason: string }
	/** A create got no clear answer in every attempt, and the lookup shows nothing was created. */
	| { kind: 'notCreated' }
	/** The reference was used before, but the object could not be returned. */
	| { kind: 'repeatedNotReturned'; reason?: string }
	/** A list answered without a `data` list. */
	| { kind: 'notAList' }
	/** A lookup's answer did not settle whether the object exists. */
	| { kind: 'inconclusive'; message: string };

export interface ErrorInput {
	node: INode;
	request: PaycashlessRequest;
	/** The write policy of the operation; undefined for reads. */
	policy?: WritePolicy;
	attempt: Attempt;
	/** Attempts made in all. */
	attempts: number;
	baseURL: string;
	itemIndex?: number;
	circumstance?: Circumstance;
}

function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

/** The error of an attempt that got an answer. */
function answeredError(input: ErrorInput, attempt: Extract<Attempt, { answered: true }>): NodeApiError {
	const { node, request, policy, attempts, itemIndex, circumstance } = input;
	const details = extractErrorDetails(attempt.status, attempt.body);
	let message = errorMessage(details);
	let description = answerAdvice(details, request, policy, attempts);
	if (circumstance?.kind === 'notAList') {
		message = `Paycashless answered the list request ${request.path} without a "data" list`;
		description = 'The answer was not a Paycashless list: check the Base URL in the Paycashless credential.';
	} else if (circumstance?.kind === 'inconclusive') {
		message = circumstance.message;
	}
	const error = new NodeApiError(node, { ...details } as unknown as JsonObject, {
		message,
		description,
		httpCode: String(attempt.status),
		itemIndex,
	});
	error.context.paycashless = { ...details, attempts } as unknown as JsonObject;
	return error;
}

/** The error of an attempt that got no answer (DNS, refused, reset, timeout). */
function unansweredError(input: ErrorInput, cause: unknown): NodeApiError {
	const { node, request, policy, attempts, baseURL, itemIndex } = input;
	// The innermost message is the HTTP client's own ("timeout of 30000ms exceeded"); n8n's
	// NodeApiError around it replaces it with a generic text.
	const code = errorCodes(cause)[0];
	const reason = errorMessages(cause).map((message) => text(message)).filter((message) => message !== undefined).pop() ?? 'no answer';
	const timedOut = TIMEOUT_CODES.has(code ?? '') || /timeout|timed out/i.test(reason);
	const tried = attempts > 1 ? ` The node tried ${attempts} times.` : '';
	const slow = timedOut ? ' If Paycashless is just slow, raise Request Options → Timeout.' : '';
	const description = isRepeatable(request)
		? `Check the Base URL in the Paycashless credential (${baseURL}) and the network connection, then try again.${slow}${tried}`
		: `The request may or may not have reached Paycashless.${checkAdvice(request, policy)}${slow}${tried}`;
	const error = new NodeApiError(node, { message: reason, ...(code ? { code } : {}) } as JsonObject, { description, itemIndex });
	// Set afterwards: NodeApiError swaps messages that name a network error code for a generic text.
	error.message = `Could not reach Paycashless at ${baseURL}${code ? ` (${code})` : ''}: ${reason}`;
	error.context.paycashless = { message: reason, ...(code ? { code } : {}), attempts };
	return error;
}

/**
 * The one place an error of the transport is made: its message (the API's, or "could not
 * reach"), its advice, and what the circumstance adds. Never copies anything from the request's
 * headers.
 */
export function composeError(input: ErrorInput): NodeApiError {
	const { attempt, attempts, circumstance, policy, request } = input;
	const error = attempt.answered ? answeredError(input, attempt) : unansweredError(input, attempt.error);
	const reference = referenceOf(request);
	const finder = policy?.kind === 'create' && reference !== undefined ? policy.findWith(reference) : 'the Paycashless dashboard';
	const object = policy?.kind === 'create' ? policy.object : 'object';
	let outcome: 'unknown' | 'notCreated' | undefined;
	switch (circumstance?.kind) {
		case 'waitTooLong':
			error.description = `Paycashless asked to wait ${seconds(circumstance.askedMs)} before trying again, longer than Request Options → Max Retry Wait (${seconds(circumstance.maxMs)}), so the node stopped. Try again later, or raise Max Retry Wait.`;
			break;
		case 'unknownOutcome':
			error.description = `${error.description ?? ''} The outcome is unknown, and the node does not send this request again by itself: it has no reference to check first.`.trim();
			outcome = 'unknown';
			break;
		case 'lookupFailed':
			error.description = `${error.description ?? ''} The node then checked with ${finder} itself, but that failed too (${circumstance.reason}), so the outcome is unknown: the ${object} may or may not exist.`;
			outcome = 'unknown';
			break;
		case 'notCreated':
			error.description = `Paycashless gave no clear answer in ${attempts} attempt${attempts === 1 ? '' : 's'}, and ${finder} shows that no ${object} with this reference exists: nothing was created. Run the item again later (or raise Request Options → Max Attempts).`;
			outcome = 'notCreated';
			break;
		case 'repeatedNotReturned':
			error.description = `${error.description ?? ''} The node looked for it with ${finder}, but ${
				circumstance.reason !== undefined ? `that failed: ${circumstance.reason}` : 'Paycashless found none'
			}, so it cannot return it.`;
			break;
		default:
			break;
	}
	if (outcome) (error.context.paycashless as IDataObject).outcome = outcome;
	return error;
}

/** One field that differs between this item and the object already under its reference. */
export interface FieldDifference {
	field: string;
	existing: unknown;
	requested: unknown;
}

/**
 * The reference of this item already belongs to an object with other key fields (amount,
 * account...): a reused reference, not a repeat of this item. Never returned as if it were this one.
 */
export function referenceMismatchError(
	node: INode,
	policy: CreatePolicy,
	reference: string,
	existingId: string | undefined,
	differences: FieldDifference[],
	itemIndex?: number,
): NodeOperationError {
	const what = policy.object;
	const listed = differences
		.map((difference) => `${difference.field} ${JSON.stringify(difference.existing)} there, ${JSON.stringify(difference.requested)} in this item`)
		.join('; ');
	const error = new NodeOperationError(
		node,
		`The reference "${reference}" already belongs to another ${what}${existingId ? ` (${existingId})` : ''} with different details: ${listed}`,
		{
			description: `A reference identifies one ${what}, so Paycashless did not create this item's ${what}. Use a new, unique reference for a new ${what}; or, if the existing one is the ${what} you meant, make this item match it. Look at it with ${policy.findWith(reference)}. Amounts are compared in the smallest unit.`,
			itemIndex,
		},
	);
	error.context.paycashless = {
		code: 'reference_mismatch',
		message: error.message,
		...(existingId ? { existingId } : {}),
	};
	return error;
}
