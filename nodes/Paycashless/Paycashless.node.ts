import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceDescription } from './actions/resource';
import { moneyLimitsCollection } from './actions/moneyLimits';
import { findOperation, moneyPairs, operationPairs, resources } from './actions/registry';
import { router } from './actions/router';
import { toolOnlyProperties } from './actions/tool';
import { showExactly } from './descriptions/show';
import { concurrencyProperties } from './descriptions/concurrency';
import { requestOptionsProperty } from './descriptions/requestOptions';
import { withReadableSubtitle } from './descriptions/subtitle';
import { listSearch } from './methods';
import { resumeWebhook } from './wait/webhook';
import { nothingToRegister } from './helpers/webhookMethods';
import { PACKAGE_DOCS_URL } from '../../lib/api';

export class Paycashless implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Paycashless',
		name: 'paycashless',
		icon: { light: 'file:paycashless.svg', dark: 'file:paycashless.dark.svg' },
		group: ['transform'],
		version: 1,
		// The panel's Docs link (n8n's editor takes it before the codex file's primaryDocumentation).
		documentationUrl: `${PACKAGE_DOCS_URL}/README.md#operations`,
		// Replaced by withReadableSubtitle: "Look Up: Bank Account".
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Collect payments, send payouts and issue invoices with Paycashless (NGN and USD)',
		defaults: { name: 'Paycashless' },
		// n8n offers it to AI agents as "Paycashless Tool"; the tool's own fields: ./actions/tool.ts.
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'paycashlessApi', required: true }],
		// Only for the operations that wait (Create and Wait, Wait for Payment): the callback that resumes a waiting execution
		// ($execution.resumeUrl). Never registered as a trigger (restartWebhook).
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: 'noData',
				path: '',
				restartWebhook: true,
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: Object.entries(resources).map(([value, { displayName }]) => ({ name: displayName, value })),
				default: 'payment',
			},
			// The tool variant's Operation lists and fields first: n8n resolves parameters in order.
			...toolOnlyProperties(resources, operationPairs()),
			// Each resource's Operation list and fields, from its operation files.
			...Object.entries(resources).flatMap(([name, resource]) => resourceDescription(name, resource)),
			{ ...moneyLimitsCollection('payout'), displayOptions: showExactly(moneyPairs('payout'), operationPairs()) },
			{ ...moneyLimitsCollection('payment'), displayOptions: showExactly(moneyPairs('payment'), operationPairs()) },
			{ ...moneyLimitsCollection('invoice'), displayOptions: showExactly(moneyPairs('invoice'), operationPairs()) },
			requestOptionsProperty(operationPairs('create'), operationPairs()),
			...concurrencyProperties(operationPairs('read'), operationPairs('create'), operationPairs()),
		],
	};

	constructor() {
		this.description = withReadableSubtitle(this.description);
	}

	methods = { listSearch };

	webhookMethods = nothingToRegister;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const operation = findOperation(this.getNodeParameter('resource', '') as string, this.getNodeParameter('operation', '') as string);
		return await resumeWebhook.call(this, operation?.wait);
	}
}
