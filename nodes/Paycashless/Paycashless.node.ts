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
import { emptyLimitNotices, moneyLimitsCollection } from './money/limitFields';
import { findOperation, operationPairs, resources, showFor } from './actions/registry';
import { batchKind, limitsKind, type OperationDeclaration } from './actions/types';
import { router } from './actions/router';
import { toolOnlyProperties } from './actions/tool';
import { concurrencyProperties } from './actions/fields/concurrency';
import { requestOptionsProperty } from './actions/fields/requestOptions';
import { readableSubtitle } from './actions/fields/subtitle';
import { actionRelatedNodes, actionSearchHint, moneyLimitsHint, toolSearchHint } from './actions/fields/builderHints';
import { operationTypeHints } from './actions/hints';
import { listSearch } from './methods';
import { resumeWebhook } from './wait/webhook';
import { nothingToRegister } from './helpers/webhookMethods';
import { PACKAGE_DOCS_URL } from '../../lib/api';

const RESOURCE_PROPERTY: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	// A description per resource: n8n's AI builders take it as the caption of each operation's type.
	options: Object.entries(resources).map(([value, { displayName, caption }]) => ({ name: displayName, value, description: caption })),
	default: 'payment',
};

/** Each resource's Operation list and fields, from its operation files. */
const REGULAR = Object.entries(resources).map(([name, resource]) => resourceDescription(name, resource));

/** The tool variant's Operation lists and fields (only shown in "Paycashless Tool"). */
const TOOL = toolOnlyProperties(resources);

const creates = (declaration: OperationDeclaration) => declaration.kind === 'create';

/** The fields after the operations' own, shared by several operations, shown as their declarations say. */
const SHARED_PROPERTIES: INodeProperties[] = [
	// Money Limits: on the operations that move money of its kind, and on the batch checks for them.
	...MONEY_KINDS.flatMap((kind) => {
		const shownFor = showFor(operationPairs((declaration) => limitsKind(declaration) === kind));
		// A limit added but left empty: a notice right under the collection (money/limits.ts).
		return [{ ...moneyLimitsCollection(kind), builderHint: moneyLimitsHint, displayOptions: shownFor }, ...emptyLimitNotices(kind, shownFor)];
	}),
	requestOptionsProperty(showFor(operationPairs(creates), '/')),
	// Requests in Parallel: a batch check runs once for all items, so it has none.
	...concurrencyProperties(showFor(operationPairs((declaration) => declaration.kind === 'read' && batchKind(declaration) === undefined)), showFor(operationPairs(creates))),
];

type Part = { operations: INodeProperties[]; fields: INodeProperties[] };

/**
 * The properties in n8n's order: the Resource list, every Operation list, then the fields. n8n
 * resolves parameters in order, and a field shown for an operation needs its Operation list
 * before it; of two fields with one name, it keeps the first in the types it gives AI builders.
 */
function inOrder(first: Part, then: Part): INodeProperties[] {
	return [RESOURCE_PROPERTY, ...first.operations, ...then.operations, ...first.fields, ...then.fields, ...SHARED_PROPERTIES];
}

const REGULAR_PART: Part = { operations: REGULAR.map((part) => part.operation), fields: REGULAR.flatMap((part) => part.fields) };
const PROPERTIES = inOrder(REGULAR_PART, TOOL);

/**
 * What the tool variant's description replaces: its own fields first, its own hint. n8n spreads
 * `replacements` over the whole description of the tool variant it lists (createAiTools), though
 * n8n-workflow's type names only the base fields, not `properties`: test/engine/toolVariant.test.cts
 * runs that code of n8n 2.41 and 1.123.
 */
const TOOL_REPLACEMENTS: UsableAsToolDescription['replacements'] & Pick<INodeTypeDescription, 'properties'> = {
	properties: inOrder(TOOL, REGULAR_PART),
	builderHint: { searchHint: toolSearchHint, extraTypeDefContent: operationTypeHints(resources, { patterns: false }) },
};

export class Paycashless implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Paycashless',
		name: 'paycashless',
		icon: { light: 'file:paycashless.svg', dark: 'file:paycashless.dark.svg' },
		group: ['transform'],
		version: 1,
		// The panel's Docs link (n8n's editor takes it before the codex file's primaryDocumentation).
		documentationUrl: `${PACKAGE_DOCS_URL}/README.md#operations`,
		// In the words of the node's menus: "Look Up: Bank Account".
		subtitle: readableSubtitle(PROPERTIES),
		description: 'Collect payments, send payouts and issue invoices with Paycashless (NGN and USD)',
		defaults: { name: 'Paycashless' },
		// n8n offers it to AI agents as "Paycashless Tool"; the tool's own fields: ./actions/tool.ts.
		// n8n keeps the first property of each name in the types it gives AI builders, so the node
		// lists the regular fields first and the tool variant its own fields first (the same fields:
		// n8n runs a tool from the node's own properties, where each name shows in one variant only).
		usableAsTool: { replacements: TOOL_REPLACEMENTS },
		// What n8n's MCP server and AI Workflow Builder tell a model (./actions/fields/builderHints.ts).
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
		properties: PROPERTIES,
	};

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
