import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as bankAccount from './actions/bankAccount';
import * as dedicatedAccount from './actions/dedicatedAccount';
import * as invoice from './actions/invoice';
import * as payment from './actions/payment';
import * as payout from './actions/payout';
import { operationPairs, resources, router } from './actions/router';
import * as taxRate from './actions/taxRate';
import { concurrencyProperties } from './descriptions/concurrency';
import { requestOptionsProperty } from './descriptions/requestOptions';
import { listSearch } from './methods';

export class Paycashless implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Paycashless',
		name: 'paycashless',
		icon: { light: 'file:paycashless.svg', dark: 'file:paycashless.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Collect payments, send payouts and issue invoices with Paycashless (NGN and USD)',
		defaults: { name: 'Paycashless' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'paycashlessApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: Object.entries(resources).map(([value, { displayName }]) => ({ name: displayName, value })),
				default: 'payment',
			},
			...bankAccount.description,
			...dedicatedAccount.description,
			...invoice.description,
			...payment.description,
			...payout.description,
			...taxRate.description,
			requestOptionsProperty(operationPairs('create'), operationPairs()),
			...concurrencyProperties(operationPairs('read'), operationPairs('create'), operationPairs()),
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
