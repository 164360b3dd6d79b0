/**
 * What AI builders read of each operation (n8n's `builderHint`s; the rest is
 * ./fields/builderHints.ts, which knows no operation): an operation's option in its
 * Operation list with its own hint, and the node's `extraTypeDefContent`, one entry per operation.
 */
import type { IBuilderHintVariation, INodePropertyOptions } from 'n8n-workflow';

import type { PaycashlessOperation, PaycashlessResourceDefinition } from './types';

/** One operation's option in an Operation list, with its builder hint if it has one. */
export function operationOption({ option, builderHint }: PaycashlessOperation, value: string): INodePropertyOptions {
	const hint = builderHint?.option;
	return { name: option.name, value, description: option.description, action: option.action, ...(hint ? { builderHint: { propertyHint: hint } } : {}) };
}

/**
 * The node-level `extraTypeDefContent`: each operation's own sentence (and, for the operations
 * that move money or wait, its hint and a short correct pattern) inside that operation's type.
 */
export function operationTypeHints(resources: Record<string, PaycashlessResourceDefinition>, { patterns = true } = {}): IBuilderHintVariation[] {
	return Object.entries(resources).flatMap(([resource, definition]) =>
		Object.entries(definition.operations).map(([value, operation]: [string, PaycashlessOperation]) => {
			const lines = [`${definition.displayName} → ${operation.option.name}: ${operation.option.description}.`];
			if (patterns && operation.builderHint) lines.push(operation.builderHint.option, ...(operation.builderHint.pattern ? [operation.builderHint.pattern] : []));
			return { displayOptions: { show: { resource: [resource], operation: [value] } }, content: lines.join('\n') };
		}),
	);
}
