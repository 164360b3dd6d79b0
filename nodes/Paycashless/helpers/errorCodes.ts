/**
 * Stable codes of failed items: `error.code` of an item that failed under "Continue On Fail" (or
 * went to the error output), for an IF or Switch node to branch on. One code per kind of failure;
 * the message may be reworded, the code is not. The list is in docs/operations.md ("Failed items").
 *
 * - The package's own codes are UPPER_SNAKE_CASE (below, and the Money Limits' refusals, e.g.
 *   `MAX_AMOUNT`, which set theirs with `withErrorCode`).
 * - A refusal by Paycashless keeps Paycashless's own code as it sends it (lower case, e.g.
 *   `resource_missing`, `duplicate_reference`); an answer without one is `HTTP_<status>`.
 * - No answer at all keeps the network's code (`ECONNREFUSED`, `ETIMEDOUT`...), else `NO_ANSWER`.
 */
import { NodeApiError, NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { InvalidInputError } from './validation';

export const ERROR_CODES = {
	/** A field of the item is missing or not allowed (`error.field` names it); nothing was sent. */
	INVALID_INPUT: 'INVALID_INPUT',
	/** The item came in as a failed item of the node before (its error output or Continue On Fail). */
	FAILED_BEFORE: 'FAILED_BEFORE',
	/** The item's reference belongs to another object with other details (transport/create.ts). */
	REFERENCE_MISMATCH: 'REFERENCE_MISMATCH',
	/** The request got no answer and the network gave no code. */
	NO_ANSWER: 'NO_ANSWER',
	/** Anything else the node refused (no more specific code set). */
	NODE_ERROR: 'NODE_ERROR',
} as const;

type NodeError = NodeApiError | NodeOperationError;

/**
 * Gives `error` the stable code its failed item carries as `error.code` (see the list above),
 * and returns it: `throw withErrorCode(new NodeOperationError(node, message, { itemIndex }), 'MAX_AMOUNT')`.
 * Set the code where the error is made; the failed item is built from it in actions/router.ts.
 */
export function withErrorCode<E extends NodeError>(error: E, code: string): E {
	const details = (error.context.paycashless ?? {}) as IDataObject;
	error.context.paycashless = { ...details, code } as IDataObject as typeof error.context.paycashless;
	return error;
}

/** The stable code of `error`: the one set, Paycashless's own, the network's, or a fallback. */
export function errorCodeOf(error: NodeError): string {
	const details = (error.context.paycashless ?? {}) as IDataObject;
	if (typeof details.code === 'string' && details.code !== '') return details.code;
	if (error instanceof NodeApiError) {
		return error.httpCode && /^\d+$/.test(error.httpCode) ? `HTTP_${error.httpCode}` : ERROR_CODES.NO_ANSWER;
	}
	return ERROR_CODES.NODE_ERROR;
}

/**
 * Any failure as an n8n error of item `itemIndex`: n8n's errors keep theirs (and get the item when
 * they have none), bad input becomes `INVALID_INPUT` naming its field, anything else a plain
 * NodeOperationError. The one place the router, the money step and the batch check turn a failure
 * into an item's error.
 */
export function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	if (error instanceof InvalidInputError) {
		const invalid = withErrorCode(new NodeOperationError(context.getNode(), error.message, { itemIndex }), ERROR_CODES.INVALID_INPUT);
		(invalid.context.paycashless as IDataObject).field = error.field;
		return invalid;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}
