/**
 * The stable `error.code` of a failed item (helpers/errorCodes.ts): what `withErrorCode` sets is
 * what `errorCodeOf` reads (the router builds the failed item's `error.code` with it; the engine
 * tests in test/engine/onError.test.cts show the item n8n passes on), and the fallbacks.
 */
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

import { ERROR_CODES, errorCodeOf, withErrorCode } from '../../../nodes/Paycashless/helpers/errorCodes';

const node = { id: 'n', name: 'Create Payout', type: 'n8n-nodes-paycashless.paycashless', typeVersion: 1, position: [0, 0], parameters: {} } as INode;

it('withErrorCode sets the code read back, keeps what the error already carried, and returns the same error', () => {
	const error = new NodeOperationError(node, 'Refused: above the Maximum Amount', { itemIndex: 2 });
	error.context.paycashless = { done: [{ item: 0 }] } as unknown as JsonObject;
	expect(withErrorCode(error, 'MAX_AMOUNT')).toBe(error);
	expect(errorCodeOf(error)).toBe('MAX_AMOUNT');
	expect((error.context.paycashless as JsonObject).done).toEqual([{ item: 0 }]);
	expect(error.context.itemIndex).toBe(2);
});

it('without a code set: Paycashless’s own code, then HTTP_<status>, NO_ANSWER, NODE_ERROR', () => {
	const answered = new NodeApiError(node, { message: 'No such payout' } as JsonObject, { httpCode: '404' });
	expect(errorCodeOf(answered)).toBe('HTTP_404');
	answered.context.paycashless = { code: 'resource_missing' } as JsonObject;
	expect(errorCodeOf(answered)).toBe('resource_missing');
	const unanswered = new NodeApiError(node, { message: 'socket hang up' } as JsonObject, {});
	unanswered.httpCode = null;
	expect(errorCodeOf(unanswered)).toBe(ERROR_CODES.NO_ANSWER);
	expect(errorCodeOf(new NodeOperationError(node, 'anything'))).toBe(ERROR_CODES.NODE_ERROR);
});
