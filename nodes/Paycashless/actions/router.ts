/**
 * Runs the chosen operation for every input item. One place for item handling: pairing each
 * output with its input, turning bad input into NodeOperationError (with the item index),
 * honouring "Continue On Fail", and working on several items at once where the operation allows
 * it ("Requests in Parallel", descriptions/concurrency.ts). Output is always in input order.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CONCURRENCY_PARAMETER, defaultConcurrency, MAX_CONCURRENCY } from '../descriptions/concurrency';
import { InvalidInputError, requireInteger } from '../helpers/validation';
import * as bankAccount from './bankAccount';
import * as callback from './callback';
import * as dedicatedAccount from './dedicatedAccount';
import * as invoice from './invoice';
import * as payment from './payment';
import * as payout from './payout';
import * as taxRate from './taxRate';
import type { PaycashlessOperation, PaycashlessResource } from './types';

export const registry: Record<PaycashlessResource, Record<string, PaycashlessOperation>> = {
	bankAccount: bankAccount.operations,
	callback: callback.operations,
	dedicatedAccount: dedicatedAccount.operations,
	invoice: invoice.operations,
	payment: payment.operations,
	payout: payout.operations,
	taxRate: taxRate.operations,
};

/** The handler of `resource` + `operation`, or undefined. */
export function findOperation(resource: string, operation: string): PaycashlessOperation | undefined {
	const operations = registry[resource as PaycashlessResource] as Record<string, PaycashlessOperation> | undefined;
	return operations && Object.prototype.hasOwnProperty.call(operations, operation) ? operations[operation] : undefined;
}

/** Any failure as an n8n error that knows its item. */
function asNodeError(this: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	if (error instanceof InvalidInputError) {
		return new NodeOperationError(this.getNode(), error.message, { itemIndex });
	}
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex });
}

/** The output item of a failed input item under "Continue On Fail". */
function errorJson(error: NodeApiError | NodeOperationError): IDataObject {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	const details = error.context.paycashless as IDataObject | undefined;
	if (details) {
		for (const key of ['type', 'code', 'params'] as const) {
			if (details[key] !== undefined) json[key] = details[key];
		}
	}
	return json;
}

type Outcome = { items: INodeExecutionData[] } | { error: NodeApiError | NodeOperationError };

/** Runs item `i` and never throws: the records, or the error as an n8n error of that item. */
async function runItem(this: IExecuteFunctions, i: number): Promise<Outcome> {
	try {
		const resource = this.getNodeParameter('resource', i) as string;
		const operation = this.getNodeParameter('operation', i) as string;
		const handler = findOperation(resource, operation);
		if (!handler) {
			throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`, {
				itemIndex: i,
			});
		}
		const records = await handler.execute.call(this, i);
		return {
			items: this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(records), { itemData: { item: i } }),
		};
	} catch (error) {
		return { error: asNodeError.call(this, error, i) };
	}
}

/** Items in flight at once: "Requests in Parallel" of the operation, or 1 when it has none. */
function concurrencyOf(this: IExecuteFunctions): number {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const fallback = defaultConcurrency(resource, operation);
	if (fallback === undefined) return 1;
	const value = this.getNodeParameter(CONCURRENCY_PARAMETER, 0, fallback);
	try {
		return requireInteger(value, 'Requests in Parallel', 1, MAX_CONCURRENCY);
	} catch (error) {
		throw asNodeError.call(this, error, 0);
	}
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const outcomes: Array<Outcome | undefined> = new Array(items.length);
	const stopOnError = !this.continueOnFail();
	let next = 0;
	let failed = false;

	// Workers take the next item in input order. After a failure that stops the node, no new item
	// starts; the ones in flight finish (a create under way is never abandoned half-way).
	const worker = async () => {
		while (next < items.length && !failed) {
			const i = next++;
			const outcome = await runItem.call(this, i);
			outcomes[i] = outcome;
			if ('error' in outcome && stopOnError) failed = true;
		}
	};
	const workers = items.length === 0 ? 0 : Math.min(concurrencyOf.call(this), items.length);
	await Promise.all(Array.from({ length: workers }, worker));

	const returnData: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		const outcome = outcomes[i];
		// Only items after a stopping failure are missing, and that failure comes first.
		if (!outcome) break;
		if ('items' in outcome) {
			returnData.push(...outcome.items);
			continue;
		}
		// The failed item with the lowest index is the one reported, as one at a time would.
		if (stopOnError) throw outcome.error;
		returnData.push({ json: errorJson(outcome.error), pairedItem: { item: i } });
	}

	return [returnData];
}
