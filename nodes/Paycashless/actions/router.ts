/**
 * Runs the chosen operation for every input item. One place for item handling: pairing each
 * output with its input, turning bad input into NodeOperationError (with the item index) and
 * honouring "Continue On Fail".
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InvalidInputError } from '../helpers/validation';
import * as bankAccount from './bankAccount';
import * as dedicatedAccount from './dedicatedAccount';
import * as invoice from './invoice';
import * as payment from './payment';
import * as payout from './payout';
import * as taxRate from './taxRate';
import type { PaycashlessOperation, PaycashlessResource } from './types';

export const registry: Record<PaycashlessResource, Record<string, PaycashlessOperation>> = {
	bankAccount: bankAccount.operations,
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

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];

	for (let i = 0; i < items.length; i++) {
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
			returnData.push(
				...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(records), { itemData: { item: i } }),
			);
		} catch (error) {
			const nodeError = asNodeError.call(this, error, i);
			if (!this.continueOnFail()) throw nodeError;
			returnData.push({ json: errorJson(nodeError), pairedItem: { item: i } });
		}
	}

	return [returnData];
}
