import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

/** The option names of one `options` property, by value. */
function namesByValue(property: INodeProperties): Record<string, string> {
	return Object.fromEntries(((property.options ?? []) as INodePropertyOptions[]).map((option) => [String(option.value), option.name]));
}

/**
 * The subtitle under the node on the canvas, in the words of the node's own menus
 * ("Look Up: Bank Account", not "lookUp: bankAccount"): an expression over two maps built from the
 * Resource and Operation options, so a new operation gets its subtitle without another edit.
 */
export function readableSubtitle(properties: INodeProperties[]): string {
	const resources: Record<string, string> = {};
	const operations: Record<string, string> = {};
	for (const property of properties) {
		if (property.name === 'resource') Object.assign(resources, namesByValue(property));
		if (property.name !== 'operation') continue;
		const names = namesByValue(property);
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
			for (const [value, name] of Object.entries(names)) operations[`${resource}:${value}`] = name;
		}
	}
	const operation = `(${JSON.stringify(operations)}[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"])`;
	const resource = `(${JSON.stringify(resources)}[$parameter["resource"]] || $parameter["resource"])`;
	return `={{ ${operation} + ": " + ${resource} }}`;
}

/** `description` with its subtitle made from its own Resource and Operation options. */
export function withReadableSubtitle(description: INodeTypeDescription): INodeTypeDescription {
	return { ...description, subtitle: readableSubtitle(description.properties) };
}
