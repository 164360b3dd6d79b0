import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** The option names of one `options` property, by value. */
function namesByValue(property: INodeProperties): Record<string, string> {
	return Object.fromEntries(((property.options ?? []) as INodePropertyOptions[]).map((option) => [String(option.value), option.name]));
}

/**
 * An expression for the option name of the `name` parameter, which is defined once per resource
 * (e.g. "Look Up" for `lookUp` under Bank Account), falling back to the raw value.
 */
function optionNameExpression(properties: INodeProperties[], name: string): string {
	const names: Record<string, string> = {};
	for (const property of properties) {
		if (property.name !== name) continue;
		const byValue = namesByValue(property);
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
			for (const [value, label] of Object.entries(byValue)) names[`${resource}:${value}`] = label;
		}
	}
	return `(${JSON.stringify(names)}[$parameter["resource"] + ":" + $parameter["${name}"]] || $parameter["${name}"])`;
}

/**
 * The subtitle under the node on the canvas, in the words of the node's own menus
 * ("Look Up: Bank Account", not "lookUp: bankAccount"): an expression over maps built from the
 * Resource and Operation options, so a new operation gets its subtitle without another edit.
 */
export function readableSubtitle(properties: INodeProperties[]): string {
	const resources: Record<string, string> = {};
	for (const property of properties) if (property.name === 'resource') Object.assign(resources, namesByValue(property));
	const resource = `(${JSON.stringify(resources)}[$parameter["resource"]] || $parameter["resource"])`;
	return `={{ ${optionNameExpression(properties, 'operation')} + ": " + ${resource} }}`;
}

/** The Poll Trigger's subtitle: the chosen Event's name, which already names the resource ("Payment Succeeded"). */
export function eventSubtitle(properties: INodeProperties[]): string {
	return `={{ ${optionNameExpression(properties, 'event')} }}`;
}
