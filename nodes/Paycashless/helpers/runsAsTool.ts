/**
 * Whether this node runs as an AI agent's tool (n8n names the tool variant `<type>Tool`). Its own
 * file, importing nothing, so operations, Money Limits and the router can all ask it.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

export function runsAsTool(this: IExecuteFunctions): boolean {
	return this.getNode().type.endsWith('Tool');
}
