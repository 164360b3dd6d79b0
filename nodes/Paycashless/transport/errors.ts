/**
 * Writing the transport's errors: `composeError` is the one place an error of the transport is
 * made, with its message, its advice and what the circumstance adds. The answer is read in
 * send.ts (any of Paycashless's error shapes); the words that name operations come from the
 * operation's write policy, never from a table here. Nothing from the request (headers,
 * signature, key, secret) ever goes into an error: every error of the transport and every
 * sentence of advice a user reads is made here, so that no other file words an error.
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CEILING_REFUSAL_CODE, ceilingRefusalOf } from '../../../lib/payoutCeiling';
import { ERROR_CODES } from '../helpers/errorCodes';
import { errorCodes, errorMessages, extractErrorDetails, text, type PaycashlessErrorDetails } from './send';
import { checkWords, findWithWords, isRepeatable, referenceOf, type Attempt, type Call, type PaycashlessRequest, type SendResult, type WritePolicy } from './types';

/** The error message: the API's message with its type/code and the HTTP status. */
function errorMessage(details: PaycashlessErrorDetails): string {
	const labels = [details.type, details.code].filter((label) => label !== undefined).join(' / ');
	return `${details.message} (${labels ? `${labels}, ` : ''}HTTP ${details.httpCode})`;
}

/**
 * The sentence that tells the user how to check whether a write went through before sending it
 * again ('' for requests that are safe to repeat). The words come from the operation's policy.
 */
function checkAdvice(request: PaycashlessRequest, policy?: WritePolicy): string {
	if (isRepeatable(request, policy)) return '';
	const reference = referenceOf(request);
	if (policy?.kind === 'create' && reference !== undefined) {
		return policy.findsAgain.movesMoney
			? ` Before retrying, check whether it went through with ${findWithWords(policy.findsAgain, reference)}, so money never moves twice.`
			: ` Before retrying, check whether it was created with ${findWithWords(policy.findsAgain, reference)}, so it is not created twice.`;
	}
	if (policy?.kind === 'write') return ` Before retrying, check ${checkWords(policy.check)}, so it does not happen twice.`;
	return ' Before retrying, check in the Paycashless dashboard whether it went through, so it does not happen twice.';
}

/** A refusal of the key or the signature (a wrong secret), not of the request's fields. */
function isCredentialRefusal(details: PaycashlessErrorDetails): boolean {
	return details.httpCode === 401 || details.type === 'authentication_error';
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

	if (isCredentialRefusal(details)) {
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
				? `Look up the existing ${policy.findsAgain.object} with ${findWithWords(policy.findsAgain, reference)}`
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
	| { kind: 'inconclusive'; message: string }
	/** The reference already belongs to an object with other key fields (create.ts). */
	| { kind: 'referenceMismatch'; existingId?: string; differences: FieldDifference[] };

interface ErrorInput {
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
	} else if (isCredentialRefusal(details)) {
		// The toast shows the message: the plain advice first, Paycashless's own (technical) words
		// below it in the description.
		message = `Paycashless did not accept the credential: check its API Key and API Secret (HTTP ${details.httpCode})`;
		description = `${description} Paycashless said: ${errorMessage(details)}.`;
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
	const refused = ceilingRefusalOf(cause);
	if (refused) {
		const error = new NodeApiError(node, { message: refused.message } as JsonObject, { description: refused.description, itemIndex });
		error.message = refused.message;
		error.context.paycashless = { message: refused.message, code: CEILING_REFUSAL_CODE, attempts };
		return error;
	}
	// The innermost message is the HTTP client's own ("timeout of 30000ms exceeded"); n8n's
	// NodeApiError around it replaces it with a generic text.
	const code = errorCodes(cause)[0];
	const reason = errorMessages(cause).map((message) => text(message)).filter((message) => message !== undefined).pop() ?? 'no answer';
	const timedOut = TIMEOUT_CODES.has(code ?? '') || /timeout|timed out/i.test(reason);
	const tried = attempts > 1 ? ` The node tried ${attempts} times.` : '';
	const slow = timedOut ? ' If Paycashless is just slow, raise Request Options → Timeout.' : '';
	const description = isRepeatable(request, policy)
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
function composeError(input: ErrorInput): NodeApiError | NodeOperationError {
	const { attempt, attempts, circumstance, policy, request } = input;
	if (circumstance?.kind === 'referenceMismatch') return referenceMismatchError(input, circumstance);
	const error = attempt.answered ? answeredError(input, attempt) : unansweredError(input, attempt.error);
	const reference = referenceOf(request);
	const finder = policy?.kind === 'create' && reference !== undefined ? findWithWords(policy.findsAgain, reference) : 'the Paycashless dashboard';
	const object = policy?.kind === 'create' ? policy.findsAgain.object : 'object';
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
function referenceMismatchError(
	input: ErrorInput,
	{ existingId, differences }: Extract<Circumstance, { kind: 'referenceMismatch' }>,
): NodeOperationError {
	const { node, policy, request, itemIndex } = input;
	const reference = referenceOf(request) ?? '';
	const what = policy?.kind === 'create' ? policy.findsAgain.object : 'object';
	const finder = policy?.kind === 'create' ? findWithWords(policy.findsAgain, reference) : 'the Paycashless dashboard';
	// Only the names of the fields that differ: the other object's values (its account, its
	// amount) are not this item's to show, to a person's output or to an AI model.
	const names = [...new Set(differences.map((difference) => difference.field))];
	const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names.join('');
	const error = new NodeOperationError(node, `The reference "${reference}" already belongs to another ${what} with a different ${listed}`, {
		description: `A reference identifies one ${what}, so Paycashless did not create this item's ${what}. Use a new, unique reference for a new ${what}; or, if the existing one is the ${what} you meant, make this item match it. Look at it with ${finder}.`,
		itemIndex,
	});
	error.context.paycashless = {
		code: ERROR_CODES.REFERENCE_MISMATCH,
		message: error.message,
		...(existingId ? { existingId } : {}),
	};
	return error;
}

/** The error of a failed attempt of `call` (the policy applies to writes only). */
export function failureError(
	call: Call,
	request: PaycashlessRequest,
	attempt: Attempt,
	attempts = 1,
	circumstance?: Circumstance,
): NodeApiError | NodeOperationError {
	return composeError({
		node: call.context.getNode(),
		request,
		policy: isRepeatable(request, call.policy) ? undefined : call.policy,
		attempt,
		attempts,
		baseURL: call.baseURL,
		itemIndex: call.itemIndex,
		circumstance,
	});
}

/** The error that ends a request whose retries stopped on a failure (retry.ts). */
export function stoppedError(call: Call, request: PaycashlessRequest, result: SendResult): NodeApiError | NodeOperationError {
	if (result.waitTooLong) {
		return failureError(call, request, result.attempt, result.attempts, {
			kind: 'waitTooLong',
			askedMs: result.waitTooLong.ms,
			maxMs: call.settings.maxRetryWaitMs,
		});
	}
	const unknown = result.failure === 'uncertain' && !isRepeatable(request, call.policy);
	return failureError(call, request, result.attempt, result.attempts, unknown ? { kind: 'unknownOutcome' } : undefined);
}
