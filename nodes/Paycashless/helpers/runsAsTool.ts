/**
 * Whether this node runs as an AI agent's tool (n8n names the tool variant `<type>Tool`), and the
 * node of this run read once. Its own file, importing nothing, so operations, Money Limits and the
 * router can all ask it.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

/** The node per node run (an action node's context lives for one run; see transport/index.ts). */
const nodes = new WeakMap<object, INode>();

/**
 * The node of this run, to read its type, name and stored parameters: n8n deep-copies the node on
 * every `getNode()`, and Money Limits asked for it several times per item. Read only.
 */
export function nodeOfRun(this: IExecuteFunctions): INode {
	let node = nodes.get(this);
	if (!node) {
		node = this.getNode();
		nodes.set(this, node);
	}
	return node;
}

export function runsAsTool(this: IExecuteFunctions): boolean {
	return nodeOfRun.call(this).type.endsWith('Tool');
}
