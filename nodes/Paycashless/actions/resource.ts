/**
 * A resource's part of the node description, derived from its operation files: the Operation
 * list (options sorted by name, as n8n's lint wants) and each operation's fields, shown only for
 * that resource and operation.
 */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PaycashlessResourceDefinition } from './types';

export function resourceDescription(resource: string, definition: PaycashlessResourceDefinition): INodeProperties[] {
	const { defaultOperation } = definition;
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: Object.entries(definition.operations)
			.map(([value, { option }]) => ({ name: option.name, value, description: option.description, action: option.action }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};
	const fields = Object.entries(definition.operations).flatMap(([value, { description }]) =>
		updateDisplayOptions({ show: { resource: [resource], operation: [value] } }, description),
	);
	return [operation, ...fields];
}
