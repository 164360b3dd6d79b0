/**
 * A resource's part of the node description, derived from its operation files: the Operation
 * list (options sorted by name, as n8n's lint wants) and each operation's fields, shown only for
 * that resource and operation, with their hints for AI builders (./fields/builderHints.ts).
 */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { withFieldHints } from './fields/builderHints';
import { operationOption } from './hints';
import { differsAsTool, REGULAR_ONLY } from './tool';
import type { PaycashlessResourceDefinition } from './types';

export function resourceDescription(resource: string, definition: PaycashlessResourceDefinition): { operation: INodeProperties; fields: INodeProperties[] } {
	const { defaultOperation } = definition;
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		// The tool variant has its own list (./tool.ts).
		displayOptions: { show: { resource: [resource], '@tool': [false] } },
		options: Object.entries(definition.operations)
			.map(([value, operation]) => operationOption(operation, value))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};
	const fields = Object.entries(definition.operations).flatMap(([value, operation]) =>
		updateDisplayOptions(
			{ show: { resource: [resource], operation: [value] } },
			withFieldHints(operation.description, { creates: operation.declaration.kind === 'create' }).map((field) => (differsAsTool(field) ? updateDisplayOptions(REGULAR_ONLY, [field])[0] : field)),
		),
	);
	return { operation, fields };
}
