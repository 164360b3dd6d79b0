/**
 * A field's fact as a field of the AI agent's tool ("Paycashless Tool"), written on the field
 * where it is declared: `[AS_TOOL]: { key, description }` (the model fills it) or
 * `[AS_TOOL]: 'leftOut'` (the tool has no such field). The tool variant is derived from these
 * facts (../actions/tool.ts); a field without one is the same in the tool, whatever its name.
 *
 * A symbol key, so that the fact never reaches the description n8n serves (JSON leaves symbol
 * keys out) nor n8n's parameters (it reads fields by name). TypeScript learns it from the
 * declaration merged into n8n-workflow's `INodeProperties` below.
 * test/unit/node/toolFacts.test.cts checks where facts may stand: on a string or number field at
 * the top level of an operation's fields, one key per operation.
 */

/**
 * The model fills the field: the tool's field defaults to `$fromAI(key, description, type)`, the
 * type being the field's own (`string` or `number`). The model reads `key` and `description`, not
 * the field's description: say the unit of amounts, what a reference is for, where an ID comes from.
 */
export interface FromAi {
	key: string;
	description: string;
}

/** Filled by the model, or `leftOut` of the tool (e.g. Amount in Smallest Unit: a model cannot flip amounts to kobo). */
type ToolFact = FromAi | 'leftOut';

export const AS_TOOL: unique symbol = Symbol('paycashless.asTool');

declare module 'n8n-workflow' {
	interface INodeProperties {
		/** The field as a field of the AI agent's tool (../helpers/toolFacts.ts). */
		[AS_TOOL]?: ToolFact;
	}
}
