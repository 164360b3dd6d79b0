/**
 * Whether a node runs as an AI agent's tool: n8n names the tool variant `<type>Tool`. Its own file,
 * importing nothing, so operations, Money Limits and the router all ask it the same way (a run
 * asks it once: ../money/run.ts).
 */
import type { INode } from 'n8n-workflow';

export function runsAsTool(node: Pick<INode, 'type'>): boolean {
	return node.type.endsWith('Tool');
}
