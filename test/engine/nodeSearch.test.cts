/**
 * What n8n 2.41's MCP server answers to `search_nodes` (the instance MCP's node search: n8n
 * `NodeCatalogService.searchNodes` → `@n8n/ai-utilities` `searchCodeBuilderNodes`), run here on the
 * node types n8n lists after loading n8n's own packages and this one: n8n-nodes-base's and the
 * LangChain nodes' type files, this package's three nodes with their codex (as n8n's loader adds
 * it), then the tool variants (createAiTools), as `LoadNodesAndCredentials.postProcessLoaders` does.
 *
 * How n8n ranks (its search-engine.js): each word of the query (two letters or more) is matched on
 * every node's display name (weight 1.5), type name (1.3) and codex aliases (1.0) by sublime
 * search; each word keeps its best five; a node's score is its best word's; the five best nodes are
 * shown. Descriptions count only when fewer than five nodes match by name, action names not at all:
 * for this node only the aliases can be changed (Paycashless.node.json).
 *
 * n8n 1.123's MCP server has no node search: skipped on that line.
 */
import * as fs from 'fs';
import * as path from 'path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { Paycashless } from '../../nodes/Paycashless/Paycashless.node';
import { PaycashlessPollTrigger } from '../../nodes/Paycashless/PaycashlessPollTrigger.node';
import { PaycashlessTrigger } from '../../nodes/Paycashless/PaycashlessTrigger.node';
import { ENGINE_N8N } from '../support/engine/engine.cjs';
import { engineN8nModule } from '../support/engine/n8nModule.cjs';

const PACKAGE = 'n8n-nodes-paycashless';
const NODE = `${PACKAGE}.paycashless`;
const LINE_1 = ENGINE_N8N.version.startsWith('1.');
const NODES_FOLDER = path.join(__dirname, '../../nodes/Paycashless');

interface Types {
	nodes: INodeTypeDescription[];
	credentials: unknown[];
}

type Search = (queries: string[]) => { results: string; queriesWithNoResults: string[] };

/** n8n's catalog after loading its packages and this one, and its `search_nodes` over it. */
function n8nNodeSearch(): Search {
	const types: Types = { nodes: [], credentials: [] };
	const known: { nodes: Record<string, object>; credentials: Record<string, object> } = { nodes: {}, credentials: {} };
	for (const pkg of ['n8n-nodes-base', '@n8n/n8n-nodes-langchain']) {
		for (const description of engineN8nModule(path.join(pkg, 'dist', 'types', 'nodes.json')) as INodeTypeDescription[]) {
			types.nodes.push({ ...description, name: `${pkg}.${description.name}` });
			known.nodes[`${pkg}.${description.name}`] = {};
		}
	}
	const ours: Array<[INodeTypeDescription, string]> = [
		[new Paycashless().description, 'Paycashless.node.json'],
		[new PaycashlessTrigger().description, 'PaycashlessTrigger.node.json'],
		[new PaycashlessPollTrigger().description, 'PaycashlessPollTrigger.node.json'],
	];
	for (const [description, codexFile] of ours) {
		// As n8n's DirectoryLoader adds the codex file to a node's description (categories, aliases).
		const codex = JSON.parse(fs.readFileSync(path.join(NODES_FOLDER, codexFile), 'utf8')) as { categories: string[]; alias?: string[] };
		types.nodes.push({ ...structuredClone(description), name: `${PACKAGE}.${description.name}`, codex: { categories: codex.categories, alias: codex.alias } });
		known.nodes[`${PACKAGE}.${description.name}`] = {};
	}
	const { createAiTools } = engineN8nModule(path.join('n8n', 'dist', 'tool-generation', 'ai-tools.js')) as { createAiTools(types: Types, known: object): void };
	createAiTools(types, known);
	const { NodeTypeParser, searchCodeBuilderNodes } = engineN8nModule(path.join('@n8n', 'ai-utilities', 'dist', 'cjs', 'node-catalog', 'index.js')) as {
		NodeTypeParser: new (nodes: INodeTypeDescription[]) => unknown;
		searchCodeBuilderNodes: (parser: unknown, queries: string[]) => { results: string; queriesWithNoResults: string[] };
	};
	const parser = new NodeTypeParser(types.nodes);
	return (queries) => searchCodeBuilderNodes(parser, queries);
}

/** The nodes `search_nodes` shows for one query, in its order (not the related ones it adds). */
function shown(results: string, query: string): string[] {
	const section = results.split('\n\n---\n\n').find((part) => part.startsWith(`## "${query}"`)) ?? '';
	return [...section.matchAll(/^- (\S+)(?: \[TRIGGER\])?$/gm)].map((match) => match[1]);
}

(LINE_1 ? describe.skip : describe)("n8n 2.41's MCP node search (search_nodes) finds Paycashless", () => {
	const search = LINE_1 ? undefined : n8nNodeSearch();

	it('for a dedicated (virtual) account in the words people use, and the everyday words it found before', () => {
		const queries = [
			// Issue 51: a dedicated virtual account, in the words people use.
			'create a dedicated virtual account',
			'dedicated virtual account',
			'create a virtual account',
			'virtual accounts for customers',
			'create dedicated virtual accounts for customers',
			'DVA',
			'NUBAN',
			'reserved account',
			'receive bank transfers',
			// Found before (test/e2e/mcp.test.cts asks the running server for these).
			'bank payout',
			'virtual account',
			'pay Nigerian suppliers',
			'collect payments from customers',
		];
		const { results } = search!(queries);
		for (const query of queries) expect({ query, found: shown(results, query).includes(NODE) }).toEqual({ query, found: true });
	});

	it('not for "… for a customer" (the singular): five nodes named "Customer…" outrank any alias on that word', () => {
		// Each word keeps its best score on a name or an alias. "customer" scores 708 to 791 on the
		// display names of Customer.io (node, tool, trigger) and n8n's two training nodes "Customer
		// Datastore" and "Customer Messenger" (display names weigh 1.5); the best any alias of this
		// node can score on another word of the phrase is 595 ("dedicated", an alias of exactly that
		// word: 115 + 60 per further letter, weight 1.0). So n8n shows those five and not this node,
		// whatever its aliases say; the plural ("customers") is not in "Customer.io" and does not
		// rank them so. When n8n ranks otherwise, this fails: add the phrase to the test above.
		for (const query of ['create a dedicated virtual account for a customer', 'virtual account for a customer']) {
			const { results } = search!([query]);
			expect({ query, shown: shown(results, query) }).toEqual({
				query,
				shown: ['n8n-nodes-base.customerIo', 'n8n-nodes-base.customerIoTool', 'n8n-nodes-base.customerIoTrigger', 'n8n-nodes-base.n8nTrainingCustomerDatastore', 'n8n-nodes-base.n8nTrainingCustomerMessenger'],
			});
		}
	});
});
