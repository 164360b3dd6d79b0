/**
 * Turning Paycashless failures into n8n errors. Paycashless answers errors in several shapes
 * (`{error:{type,code,message,params}}`, top-level `{type,code,message}`, the payout form
 * `{status:'failed', message}`, or a non-JSON body from a proxy); all are read here, once.
 * Nothing from the request (headers, signature, key, secret) ever goes into an error.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isRepeatable, reconciledKind, type PaycashlessRequest, type ReconciledKind } from './types';

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

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
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

const RESOURCE_NAMES = { invoice: 'Invoice', payment: 'Payment', payout: 'Payout' } as const;

/** The sentence that tells the user to verify by reference before retrying a money movement. */
export function verifyAdvice(request: PaycashlessRequest): string {
	const moves = request.moneyMovement;
	if (!moves) return '';
	const withReference = request.reference ? ` and the reference "${request.reference}"` : ' by its reference';
	return ` Before retrying, check whether it went through with ${RESOURCE_NAMES[moves]} → Verify${withReference}, so money never moves twice.`;
}

/** Where to look for the result of a write without a reference to find it by. */
const UNREFERENCED_CHECKS: Array<[RegExp, string]> = [
	[/^POST \/v1\/tax_rates$/, 'whether the tax rate exists in the Paycashless dashboard (the API cannot list tax rates)'],
	[/^POST \/v1\/dedicated_accounts$/, 'with Dedicated Account → Get Many (or in the Paycashless dashboard) whether the account was requested'],
	[/^POST \/v1\/invoices\/[^/]+\/cancel$/, 'with Invoice → Get whether the invoice is cancelled now'],
];

/** How to check whether a lookup target exists: "Payout → Verify and the reference "x"". */
export function lookupName(kind: ReconciledKind, reference: string): string {
	if (kind === 'invoice') return `Invoice → Get Many (look for the reference "${reference}")`;
	return `${RESOURCE_NAMES[kind]} → Verify and the reference "${reference}"`;
}

/**
 * The sentence that tells the user how to check whether a write went through before sending it
 * again ('' for requests that are safe to repeat).
 */
export function checkAdvice(request: PaycashlessRequest): string {
	if (isRepeatable(request)) return '';
	if (request.moneyMovement) return verifyAdvice(request);
	const kind = reconciledKind(request);
	if (kind && request.reference) {
		return ` Before retrying, check whether it was created with ${lookupName(kind, request.reference)}, so it is not created twice.`;
	}
	const target = `${request.method} ${request.path}`;
	const check = UNREFERENCED_CHECKS.find(([pattern]) => pattern.test(target))?.[1];
	return check
		? ` Before retrying, check ${check}, so it does not happen twice.`
		: ' Before retrying, check in the Paycashless dashboard whether it went through, so it does not happen twice.';
}

/** What the user should do about it. */
export function errorAdvice(details: PaycashlessErrorDetails, request: PaycashlessRequest, attempts = 1): string {
	const status = details.httpCode;
	const moves = request.moneyMovement;
	const verify = checkAdvice(request);
	const fields = details.params ? ` Fields named by Paycashless: ${details.params.join(', ')}.` : '';

	if (status === 401 || details.type === 'authentication_error') {
		return 'Paycashless did not accept the credential. Check the API Key and API Secret in the Paycashless credential: they must be one pair, copied without spaces, from the same mode (both test or both live).';
	}
	if (status === 403) {
		return 'Paycashless refused access with this API key. Check that the key is active and allowed to do this in the Paycashless dashboard.';
	}
	if (status === 404) {
		return 'Nothing was found. Check the ID or reference, and that it belongs to this Paycashless account and mode (test or live).';
	}
	if (status === 409 || details.type === 'idempotency_error') {
		const lookup = moves
			? `Look up the existing ${moves} with ${RESOURCE_NAMES[moves]} → Verify${request.reference ? ` and the reference "${request.reference}"` : ''}`
			: `Look up the existing one${request.reference ? ` with the reference "${request.reference}"` : ''}`;
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

/** Builds the NodeApiError for a non-2xx answer (or a 2xx failure body). */
export function apiError(
	node: INode,
	httpCode: number,
	body: unknown,
	request: PaycashlessRequest,
	itemIndex?: number,
	attempts = 1,
): NodeApiError {
	const details = extractErrorDetails(httpCode, body);
	const error = new NodeApiError(node, { ...details } as unknown as JsonObject, {
		message: errorMessage(details),
		description: errorAdvice(details, request, attempts),
		httpCode: String(httpCode),
		itemIndex,
	});
	error.context.paycashless = { ...details, attempts } as unknown as JsonObject;
	return error;
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

/** Builds the NodeApiError for a request that got no answer (DNS, refused, reset, timeout). */
export function networkError(
	node: INode,
	cause: unknown,
	request: PaycashlessRequest,
	baseURL: string,
	itemIndex?: number,
	attempts = 1,
): NodeApiError {
	// The innermost message is the HTTP client's own ("timeout of 30000ms exceeded"); n8n's
	// NodeApiError around it replaces it with a generic text.
	const code = errorCodes(cause)[0];
	const reason = errorMessages(cause).map((message) => text(message)).filter((message) => message !== undefined).pop() ?? 'no answer';
	const timedOut = TIMEOUT_CODES.has(code ?? '') || /timeout|timed out/i.test(reason);
	const tried = attempts > 1 ? ` The node tried ${attempts} times.` : '';
	const slow = timedOut ? ' If Paycashless is just slow, raise Request Options → Timeout.' : '';
	const description = isRepeatable(request)
		? `Check the Base URL in the Paycashless credential (${baseURL}) and the network connection, then try again.${slow}${tried}`
		: `The request may or may not have reached Paycashless.${checkAdvice(request)}${slow}${tried}`;
	const error = new NodeApiError(node, { message: reason, ...(code ? { code } : {}) } as JsonObject, {
		description,
		itemIndex,
	});
	// Set afterwards: NodeApiError swaps messages that name a network error code for a generic text.
	error.message = `Could not reach Paycashless at ${baseURL}${code ? ` (${code})` : ''}: ${reason}`;
	error.context.paycashless = { message: reason, ...(code ? { code } : {}), attempts };
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
	kind: ReconciledKind,
	reference: string,
	existingId: string | undefined,
	differences: FieldDifference[],
	itemIndex?: number,
): NodeOperationError {
	const what = kind === 'invoice' ? 'invoice' : kind;
	const listed = differences
		.map((difference) => `${difference.field} ${JSON.stringify(difference.existing)} there, ${JSON.stringify(difference.requested)} in this item`)
		.join('; ');
	const error = new NodeOperationError(
		node,
		`The reference "${reference}" already belongs to another ${what}${existingId ? ` (${existingId})` : ''} with different details: ${listed}`,
		{
			description: `A reference identifies one ${what}, so Paycashless did not create this item's ${what}. Use a new, unique reference for a new ${what}; or, if the existing one is the ${what} you meant, make this item match it. Look at it with ${lookupName(kind, reference)}. Amounts are compared in the smallest unit.`,
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
