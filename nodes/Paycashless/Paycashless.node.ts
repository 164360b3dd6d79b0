import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	UsableAsToolDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceDescription } from './actions/resource';
import { MONEY_KINDS } from './money/kinds';
import { moneyLimitsCollection } from './money/limits';
import { findOperation, limitPairs, operationPairs, resources } from './actions/registry';
import { router } from './actions/router';
import { toolOnlyProperties } from './actions/tool';
import { showExactly } from './descriptions/show';
import { concurrencyProperties } from './descriptions/concurrency';
import { requestOptionsProperty } from './descriptions/requestOptions';
import { withReadableSubtitle } from './descriptions/subtitle';
import { actionRelatedNodes, actionSearchHint, moneyLimitsHint, operationTypeHints, toolSearchHint } from './descriptions/builderHints';
import { listSearch } from './methods';
import { resumeWebhook } from './wait/webhook';
import { nothingToRegister } from './helpers/webhookMethods';
import { PACKAGE_DOCS_URL } from '../../lib/api';

function isBatchCheck({ resource, operation }: { resource: string; operation: string }): boolean {
	const declaration = findOperation(resource, operation)?.declaration;
	return declaration?.kind === 'read' && declaration.batch !== undefined;
}

const RESOURCE_PROPERTY: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	// A description per resource: n8n's AI builders take it as the caption of each operation's type.
	options: Object.entries(resources).map(([value, { displayName, caption }]) => ({ name: displayName, value, description: caption })),
	default: 'payment',
};

/** The tool variant's Operation lists and fields (only shown in "Paycashless Tool"). */
const TOOL_PROPERTIES = toolOnlyProperties(resources, operationPairs());

/** Each resource's Operation list and fields, from its operation files. */
const RESOURCE_PROPERTIES = Object.entries(resources).flatMap(([name, resource]) => resourceDescription(name, resource));

/** The fields after the operations' own, shared by several operations. */
const SHARED_PROPERTIES: INodeProperties[] = [
	// Money Limits for each money kind, shown for the operations that move it or check a batch of it.
	...MONEY_KINDS.map((kind) => ({ ...moneyLimitsCollection(kind), builderHint: moneyLimitsHint, displayOptions: showExactly(limitPairs(kind), operationPairs()) })),
	requestOptionsProperty(operationPairs('create'), operationPairs()),
	// A batch check runs once for all items: it has no Requests in Parallel.
	...concurrencyProperties(operationPairs('read').filter((pair) => !isBatchCheck(pair)), operationPairs('create'), operationPairs()),
];

/**
 * The properties in n8n's order: the Resource list, every Operation list, then the fields. n8n
 * resolves parameters in order, and a field shown for an operation needs its Operation list
 * before it; of two fields with one name, it keeps the first in the types it gives AI builders.
 */
function inOrder(first: INodeProperties[], then: INodeProperties[]): INodeProperties[] {
	const all = [...first, ...then];
	return [RESOURCE_PROPERTY, ...all.filter((p) => p.name === 'operation'), ...all.filter((p) => p.name !== 'operation'), ...SHARED_PROPERTIES];
}

/** What the tool variant's description replaces: its own fields first, its own hint. */
const TOOL_REPLACEMENTS = {
	properties: inOrder(TOOL_PROPERTIES, RESOURCE_PROPERTIES),
	builderHint: { searchHint: toolSearchHint, extraTypeDefContent: operationTypeHints(resources, { patterns: false }) },
} as Pick<INodeTypeDescription, 'properties' | 'builderHint'> as UsableAsToolDescription['replacements'];

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
		// n8n keeps the first property of each name in the types it gives AI builders, so the node
		// lists the regular fields first and the tool variant its own fields first (the same fields:
		// n8n runs a tool from the node's own properties, where each name shows in one variant only).
		// n8n spreads `replacements` over the whole description of the tool variant it lists
		// (tool-generation/ai-tools.js createAiTools), though its type names only the base fields.
		usableAsTool: { replacements: TOOL_REPLACEMENTS },
		// What n8n's MCP server and AI Workflow Builder tell a model (./descriptions/builderHints.ts).
		builderHint: {
			searchHint: actionSearchHint,
			relatedNodes: actionRelatedNodes,
			extraTypeDefContent: operationTypeHints(resources),
		},
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
		properties: inOrder(RESOURCE_PROPERTIES, TOOL_PROPERTIES),
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
