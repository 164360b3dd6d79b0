/**
 * Failed items: what names the item that failed (its Reference, and its Amount in main units with
 * the Currency), the output item of a failure under "Continue On Fail" / the error output, and the
 * error of an item that was already a failed item of the step before. The stable codes are in
 * helpers/errorCodes.ts; the router (router.ts) decides when an item failed.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CURRENCIES, type Currency } from '../helpers/amount';
import { ERROR_CODES, errorCodeOf, withErrorCode } from '../helpers/errorCodes';
import { fromSmallestUnit } from '../helpers/mainUnits';
import type { InvalidInputError } from '../helpers/validation';

/** Which item failed, in its own words: its Reference, and its Amount in main units with the Currency. */
export function itemIdentity(this: IExecuteFunctions, i: number): IDataObject {
	const read = (name: string): unknown => {
		try {
			return this.getNodeParameter(name, i, undefined);
		} catch {
			return undefined;
		}
	};
	const identity: IDataObject = {};
	const reference = read('reference');
	if ((typeof reference === 'string' && reference.trim() !== '') || typeof reference === 'number') identity.reference = String(reference).trim();
	const given = read('amount');
	const amount = typeof given === 'string' && given.trim() !== '' ? Number(given) : given;
	const currency = read('currency');
	if (typeof amount === 'number' && Number.isFinite(amount) && amount > 0 && CURRENCIES.includes(currency as Currency)) {
		identity.amount = read('amountInSmallestUnit') === true ? fromSmallestUnit(amount, currency as Currency) : amount;
		identity.currency = currency as Currency;
	}
	return identity;
}

/**
 * An input item that is itself a failed item of the node before: n8n's shapes of one (`{ error }`
 * or `{ message, error }`, what Continue On Fail gives), also with the fields of that node's input
 * that n8n 2.x merges into an item of the error output (handleNodeErrorOutput).
 */
function failedBefore(json: IDataObject): boolean {
	if (json.error === undefined || json.error === null) return false;
	if (Object.keys(json).every((key) => key === 'error' || key === 'message')) return true;
	const error = json.error as IDataObject;
	return typeof error === 'object' && typeof json.message === 'string' && error.message === json.message;
}

/**
 * Why input item `i` is a failed item of the step before (its name, the reason and code it gave),
 * or undefined when it is a record: Payout → Check Batch lists such a row as refused.
 */
export function failedInputOf(this: IExecuteFunctions, i: number): { step?: string; reason: string; code?: string } | undefined {
	const json = this.getInputData()[i]?.json;
	if (!json || !failedBefore(json)) return undefined;
	let step: string | undefined;
	try {
		step = this.getInputSourceData(0)?.previousNode;
	} catch {
		step = undefined;
	}
	const before = json.error as IDataObject | string;
	const reason = typeof json.message === 'string' ? json.message : typeof before === 'string' ? before : String(before.message ?? '');
	const code = typeof before === 'object' && typeof before.code === 'string' ? before.code : undefined;
	return { ...(step ? { step } : {}), reason, ...(code ? { code } : {}) };
}

/**
 * A field missing because the item is a failed item of the step before ("Invalid Reference
 * (empty)") says so, and which step, instead of blaming the field.
 */
export function failedBeforeError(this: IExecuteFunctions, i: number, cause: InvalidInputError): NodeOperationError | undefined {
	const json = this.getInputData()[i]?.json;
	if (!json || !failedBefore(json)) return undefined;
	let step = 'the node before';
	try {
		const previous = this.getInputSourceData(0)?.previousNode;
		if (previous) step = `"${previous}"`;
	} catch {
		// No source data (e.g. the first node): keep the general words.
	}
	const before = json.error as IDataObject | string;
	const reason = typeof json.message === 'string' ? json.message : typeof before === 'string' ? before : String(before.message ?? '');
	const error = new NodeOperationError(this.getNode(), `Item ${i + 1} is a failed item from ${step}${reason ? `: ${reason}` : ''}`, {
		itemIndex: i,
		description: `This node got the error item of ${step}, not a record, so it has nothing to work on (${cause.message}). Connect this node to the success output of ${step}, or send its error output to a node that handles failures (branch on {{ $json.error.code }}).`,
	});
	const code = typeof before === 'object' && typeof before.code === 'string' ? before.code : undefined;
	withErrorCode(error, ERROR_CODES.FAILED_BEFORE);
	if (code) (error.context.paycashless as IDataObject).codeBefore = code;
	return error;
}

/**
 * The output item of a failed input item under "Continue On Fail", and what an AI agent reads
 * when its tool call fails: `{ message, error: { message, description, code, reference, amount,
 * currency, httpCode, type } }`. `error.code` is stable (helpers/errorCodes.ts) for an IF node;
 * reference, amount (main units) and currency name the item that failed.
 * - No `item.error`: n8n (2.41 and 1.123) replaces the JSON of an item that carries one with
 *   `{ error: message }` (normalizeNodeErrors in n8n-core), dropping the advice and the codes.
 * - Exactly the keys `error` and `message`: what "Continue (using error output)" routes by in
 *   both lines (1.123: `error` alone or with `message`; 2.41: also `details`), so what names the
 *   item goes under `error`.
 */
export function errorJson(error: NodeApiError | NodeOperationError, identity: IDataObject): IDataObject {
	const details: IDataObject = { message: error.message, code: errorCodeOf(error), ...identity };
	if (error.description) details.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
	const paycashless = error.context.paycashless as IDataObject | undefined;
	if (paycashless) {
		for (const key of ['type', 'field', 'codeBefore', 'params', 'done', 'moneyLimits'] as const) {
			if (paycashless[key] !== undefined) details[key] = paycashless[key];
		}
	}
	return { message: error.message, error: details };
}
