/**
 * How a Money Limit refuses an item, shared by the limits (limits.ts) and the beneficiary
 * checks (beneficiary.ts): a NodeOperationError (nothing was sent) whose context carries
 * `type: money_limit` and a stable `code` naming the limit (the failed item's `error.code`).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withErrorCode } from '../helpers/errorCodes';

/** The `type` of every Money Limits refusal in a failed item's `error`; the `code` names the limit. */
const LIMIT_ERROR_TYPE = 'money_limit';

/** A refusal: nothing was sent. `code` is stable (the failed item's `error.code`). */
export function refuse(this: IExecuteFunctions, i: number, code: string, message: string, description: string): never {
	const error = new NodeOperationError(this.getNode(), message, { itemIndex: i, description });
	error.context.paycashless = { type: LIMIT_ERROR_TYPE } as IDataObject as typeof error.context.paycashless;
	throw withErrorCode(error, code);
}
