/**
 * The tool variant ("Paycashless Tool") as n8n itself lists it, on both n8n lines (jest projects
 * `engine`, n8n 2.41, and `engine-1x`, n8n 1.123). The node gives its tool variant its own property
 * order and builder hint through `usableAsTool.replacements.properties` and `.builderHint`, which
 * n8n-workflow's type does not name: n8n spreads `replacements` over the whole description when it
 * lists the tool variants of a package's nodes (createAiTools: 2.41 tool-generation/ai-tools.js,
 * 1.123 LoadNodesAndCredentials). This runs that code of n8n's, so a line that stops doing so fails
 * here. What it protects: the types n8n gives AI builders keep the first property of each name, so
 * the tool variant's types show the `$fromAI` defaults and the regular node's none.
 */
import * as path from 'path';

import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { Paycashless } from '../../nodes/Paycashless/Paycashless.node';
import { ENGINE_N8N } from '../support/engine/engine.cjs';
import { engineN8nModule } from '../support/engine/n8nModule.cjs';

interface Types {
	nodes: INodeTypeDescription[];
	credentials: unknown[];
}
interface Known {
	nodes: Record<string, object>;
	credentials: Record<string, { supportedNodes?: string[] }>;
}

const PACKAGE = 'n8n-nodes-paycashless';
const LINE_1 = ENGINE_N8N.version.startsWith('1.');

/** The node types n8n lists for the package after loading it: each node, then its tool variant. */
function listedByN8n(description: INodeTypeDescription): INodeTypeDescription[] {
	// As n8n lists a loaded package's nodes (postProcessLoaders): a deep copy named `<package>.<name>`.
	const types: Types = { nodes: [{ ...structuredClone(description), name: `${PACKAGE}.${description.name}` }], credentials: [] };
	const known: Known = { nodes: { [`${PACKAGE}.${description.name}`]: {} }, credentials: {} };
	if (LINE_1) {
		const { LoadNodesAndCredentials } = engineN8nModule(path.join('n8n', 'dist', 'load-nodes-and-credentials.js')) as {
			LoadNodesAndCredentials: { prototype: { createAiTools(this: { types: Types; known: Known }): void } };
		};
		// Its own method on an instance holding only what the method reads (the service needs n8n's DI container).
		const loader = Object.assign(Object.create(LoadNodesAndCredentials.prototype) as { types: Types; known: Known }, { types, known });
		LoadNodesAndCredentials.prototype.createAiTools.call(loader);
	} else {
		const { createAiTools } = engineN8nModule(path.join('n8n', 'dist', 'tool-generation', 'ai-tools.js')) as { createAiTools(types: Types, known: Known): void };
		createAiTools(types, known);
	}
	return types.nodes;
}

const description = new Paycashless().description;
const replacements = (description.usableAsTool as { replacements: Pick<INodeTypeDescription, 'properties' | 'builderHint'> }).replacements;
const [regular, tool] = listedByN8n(description);

/** The names whose first property (the one n8n's types keep) has a `$fromAI` default. */
function fromAiFirst(properties: INodeProperties[]): string[] {
	const seen = new Set<string>();
	const names: string[] = [];
	for (const property of properties) {
		if (seen.has(property.name)) continue;
		seen.add(property.name);
		if (String(property.default).includes('$fromAI')) names.push(property.name);
	}
	return names.sort();
}

describe(`the tool variant as n8n ${ENGINE_N8N.version} lists it (createAiTools)`, () => {
	it('lists the node and "Paycashless Tool"', () => {
		expect([regular.name, tool.name]).toEqual([`${PACKAGE}.paycashless`, `${PACKAGE}.paycashlessTool`]);
		expect(tool.displayName).toBe('Paycashless Tool');
		expect(tool.usableAsTool).toBeUndefined();
	});

	it("the tool variant gets the node's replacements: its properties in its order, and its builder hint", () => {
		expect(tool.properties).toEqual(JSON.parse(JSON.stringify(replacements.properties)));
		expect(tool.builderHint).toEqual(JSON.parse(JSON.stringify(replacements.builderHint)));
		expect(tool.builderHint?.searchHint).toMatch(/^Paycashless as an AI Agent tool/);
		// n8n adds no Tool Description of its own: the node's toolDescription is there.
		expect(tool.properties.filter((property) => property.name === 'descriptionType')).toEqual([]);
	});

	it('the regular node keeps its own: no $fromAI first of any name, and the regular hint', () => {
		expect(regular.properties).toEqual(JSON.parse(JSON.stringify(description.properties)));
		expect(fromAiFirst(regular.properties)).toEqual([]);
		expect(regular.builderHint?.searchHint).toBe(description.builderHint?.searchHint);
		expect(regular.builderHint?.searchHint).not.toMatch(/AI Agent tool/);
	});

	it('in the tool variant the fields a model fills come first as $fromAI', () => {
		expect(fromAiFirst(tool.properties)).toEqual(['accountNumber', 'amount', 'bankCode', 'bankId', 'customerEmail', 'customerName', 'destinationAccountNumber', 'reference']);
	});

	(LINE_1 ? it.skip : it)("n8n's type files for AI builders (@n8n/workflow-sdk, 2.41 only): $fromAI in the tool's, none in the node's", () => {
		const { generateNodeTypeFile } = engineN8nModule(path.join('@n8n', 'workflow-sdk', 'dist', 'generate-types', 'generate-types.js')) as {
			generateNodeTypeFile(node: INodeTypeDescription): string;
		};
		const regularTypes = generateNodeTypeFile(regular);
		const toolTypes = generateNodeTypeFile(tool);
		expect(regularTypes).not.toContain('$fromAI');
		expect(toolTypes).toMatch(/@default =\{\{ \$fromAI\('Amount', 'Amount in MAIN units/);
		expect(toolTypes).toContain('Paycashless as an AI Agent tool');
		expect(regularTypes).not.toContain('Paycashless as an AI Agent tool');
	});
});
