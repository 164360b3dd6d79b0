/**
 * Through n8n 2.41's own instance-level MCP server, as Claude, Cursor or any MCP client reaches it:
 * instance MCP access turned on and its API key taken as the owner would (Settings → Instance-level
 * MCP, here through the REST calls that screen makes), then the official MCP SDK client over
 * streamable HTTP (`/mcp-server/http`, no network beyond this n8n).
 * - search_nodes finds Paycashless for everyday words, with its hints;
 * - get_node_types carries every hint as written, each operation under its own caption;
 * - validate_workflow accepts a correct payout workflow and reports a placeholder left in Reference;
 * - a scripted builder follows the server's instructions (search, types, validate, create), builds
 *   the look-up-then-pay workflow from the pattern the server gave it, runs it with execute_workflow
 *   against the emulator: the amount in naira, paid once under a stable reference.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { operationPairs, registry, resources } from '../../nodes/Paycashless/actions/registry';
import { actionSearchHint, toolSearchHint } from '../../nodes/Paycashless/actions/fields/builderHints';
import { Paycashless } from '../../nodes/Paycashless/Paycashless.node';
import { patience } from '../../scripts/n8n/patience.cjs';
import { SETUP_TIMEOUT_MS, startE2eLab, waitFor, type E2eLab, type Execution } from '../support/e2e/harness.cjs';

const NODE = 'n8n-nodes-paycashless.paycashless';
const description = new Paycashless().description;

/** How n8n's type generator writes a hint into a doc comment (@n8n/workflow-sdk emitBuilderHint). */
const asWritten = (hint: string) => hint.replace(/\*\//g, '*\\/').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const pascal = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** The regular node's field `name` of one operation (nested in a collection too). */
function field(resource: string, operation: string, name: string): INodeProperties {
	for (const property of description.properties) {
		const show = property.displayOptions?.show ?? {};
		if ((show['@tool'] as boolean[] | undefined)?.includes(true)) continue;
		if ((show.resource as string[] | undefined)?.includes(resource) === false || (show.operation as string[] | undefined)?.includes(operation) === false) continue;
		if (property.name === name) return property;
		const nested = property.type === 'collection' ? (property.options as INodeProperties[]).find((option) => option.name === name) : undefined;
		if (nested) return nested;
	}
	throw new Error(`no field ${name} in ${resource} → ${operation}`);
}

/** The search result blocks of one query, by node id. */
function searchSection(results: string, query: string): string {
	const section = results.split('\n\n---\n\n').find((part) => part.startsWith(`## "${query}"`));
	if (!section) throw new Error(`no section for "${query}" in:\n${results.slice(0, 2000)}`);
	return section;
}

let lab: E2eLab;
let client: Client;

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; structured: Record<string, unknown> }> {
	const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };
	const text = result.content.map((part) => part.text).join('\n');
	if (result.isError && name !== 'validate_workflow') throw new Error(`${name} failed: ${text.slice(0, 3000)}`);
	return { text, structured: result.structuredContent ?? {} };
}

beforeAll(async () => {
	lab = await startE2eLab();
	// What Settings → Instance-level MCP does: turn access on, then take the MCP API key (a fresh one).
	await lab.session.rest('PATCH', '/rest/mcp/settings', { mcpAccessEnabled: true });
	const { apiKey } = await lab.session.rest<{ apiKey: string }>('POST', '/rest/mcp/api-key/rotate');
	client = new Client({ name: 'paycashless-e2e-builder', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${lab.n8n.baseUrl}/mcp-server/http`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }),
	);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await client?.close();
	await lab?.close();
});

describe("n8n's MCP server tells an AI builder what the Paycashless node declares", () => {
	it('search_nodes finds Paycashless for everyday words, with its hint, related nodes and operation hints', async () => {
		// Before the codex aliases, none of these found it. n8n scores each word of a query on display
		// names, names and aliases and keeps each word's best five: "Nigerian" missed the alias
		// "Nigeria", "invoices" missed "invoice" (the query must be a subsequence of the word). The
		// aliases now hold plurals and adjectives; "customers" still ranks n8n's own Customer
		// Datastore and Messenger first (their names), Paycashless after them. Still not found: "send
		// money to a bank account" (Sendy, SendGrid, Send Email and their tool forms fill the five).
		const queries = [
			'bank payout',
			'disbursement',
			'naira',
			'NGN',
			'virtual account',
			'transfer',
			'payout',
			'pay a supplier bank account',
			// Issue 43: everyday phrasings of these jobs.
			'pay Nigerian suppliers',
			'send invoices to customers',
			'bank transfer payouts in naira',
			'collect payments from customers',
		];
		const { text } = await call('search_nodes', { queries });
		for (const query of queries) {
			const section = searchSection(text, query);
			const found = [...section.matchAll(/^- (\S+)/gm)].map((m) => m[1]);
			expect({ query, found: found.includes(NODE) ? 'Paycashless' : found }).toEqual({ query, found: 'Paycashless' });
		}
		const block = searchSection(text, 'bank payout');
		expect(block).toContain(`  @builderHint ${actionSearchHint}`);
		expect(block).toContain('    - n8n-nodes-paycashless.paycashlessTrigger: "');
		expect(block).toContain(`          ${resources.payout.caption}`);
		const payoutCreate = (description.properties.find((p) => p.name === 'operation' && (p.displayOptions?.show?.resource as string[] | undefined)?.includes('payout'))!
			.options as INodePropertyOptions[]).find((o) => o.value === 'create')!;
		expect(block).toContain(`              @builderHint ${payoutCreate.builderHint!.propertyHint}`);
	});

	it('get_node_types: every operation under its own caption, each hint as written, no tool field in the regular types', async () => {
		const { text } = await call('get_node_types', { nodeIds: [{ nodeId: NODE, resource: 'payout', operation: 'create' }] });
		expect(text).not.toMatch(/# Errors|not found|could not be generated/);
		expect(text).toContain(` * @builderHint ${asWritten(actionSearchHint)}`);
		const lines = text.split('\n');
		let operations = 0;
		for (const [resource, definition] of Object.entries(resources)) {
			for (const [value, operation] of Object.entries(registry[resource as keyof typeof registry])) {
				const at = lines.indexOf(`export type PaycashlessV1${pascal(resource)}${pascal(value)}Params = {`);
				expect({ resource, value, at: at > 0 }).toEqual({ resource, value, at: true });
				// The caption above the type is this resource's; the type opens with this operation's own words.
				expect({ resource, value, caption: lines[at - 1] }).toEqual({ resource, value, caption: `/** ${definition.caption} */` });
				expect({ resource, value, own: lines[at + 2] }).toEqual({ resource, value, own: `   * ${definition.displayName} → ${operation.option.name}: ${operation.option.description}.` });
				operations += 1;
			}
		}
		expect(operations).toBe(operationPairs().length);
		const payout = text.slice(text.indexOf('export type PaycashlessV1PayoutCreateParams = {'), text.indexOf('export type PaycashlessV1PayoutCreateAndWaitParams'));
		for (const name of ['reference', 'amount', 'bankId', 'callbackUrl', 'moneyLimits']) {
			const hint = field('payout', 'create', name).builderHint!;
			expect({ name, hint: payout.includes(`* @builderHint ${asWritten(hint.propertyHint)}`) }).toEqual({ name, hint: true });
			if (hint.placeholderSupported === false) expect(payout).toContain(`* @builderHint ${asWritten(hint.propertyHint)}\n * @placeholderSupported false`);
		}
		expect(payout).toContain('<pattern title="Look up the account, then pay it once');
		expect(payout).toContain("bankId: expr('{{ $json.bank.id }}')");
		// The regular node's types show the regular fields: the tool's fromAI defaults only in the tool's types.
		expect(text).not.toContain('$fromAI');
		const tool = await call('get_node_types', { nodeIds: [{ nodeId: `${NODE}Tool`, resource: 'payout', operation: 'create' }] });
		expect(tool.text).toContain(` * @builderHint ${asWritten(toolSearchHint)}`);
		expect(tool.text).toMatch(/@default =\{\{ \$fromAI\('Amount', 'Amount in MAIN units/);
	});

	const payoutCode = (reference: string) => `
const start = trigger({ type: 'n8n-nodes-base.manualTrigger', version: 1, config: { name: 'Start' } });
const lookUp = node({
  type: '${NODE}', version: 1,
  config: { name: 'Look Up Account', parameters: { resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: '058' }, credentials: { paycashlessApi: newCredential('Paycashless') } }
});
const pay = node({
  type: '${NODE}', version: 1,
  config: { name: 'Send Payout', parameters: { resource: 'payout', operation: 'create', reference: ${reference}, amount: 1500.5, currency: 'NGN', destinationAccountNumber: expr('{{ $json.accountNumber }}'), bankId: expr('{{ $json.bank.id }}') }, credentials: { paycashlessApi: newCredential('Paycashless') } }
});
export default workflow('payout', 'Payout').add(start).to(lookUp).to(pay);
`;

	it('validate_workflow: a correct payout workflow validates; a placeholder left in Reference is reported on that node and field', async () => {
		const good = await call('validate_workflow', { code: payoutCode(`expr("payout-{{ $('Start').item.json.orderId }}")`) });
		expect(good.structured).toMatchObject({ valid: true, nodeCount: 3 });
		const goodWarnings = (good.structured.warnings ?? []) as Array<{ code: string; nodeName?: string }>;
		expect(goodWarnings.filter((w) => w.nodeName === 'Send Payout' || w.nodeName === 'Look Up Account')).toEqual([]);
		const mistake = await call('validate_workflow', { code: payoutCode(`placeholder('Payout reference')`) });
		const warnings = (mistake.structured.warnings ?? []) as Array<{ code: string; message: string; nodeName?: string; parameterPath?: string }>;
		expect(warnings).toContainEqual(
			expect.objectContaining({ code: 'INVALID_PARAMETER', nodeName: 'Send Payout', message: expect.stringMatching(/placeholder\(\) is not supported for parameter 'reference'/) }),
		);
	});
});

describe('a scripted builder follows the server and builds look-up-then-pay from what it was told', () => {
	it('search → types → validate → create → execute: pays the order once, in naira, under a stable reference', async () => {
		// 1. The server's own instructions name the steps it follows.
		const instructions = client.getInstructions() ?? '';
		for (const step of ['search_nodes', 'get_node_types', 'validate_workflow', 'create_workflow_from_code']) expect({ step, named: instructions.includes(step) }).toEqual({ step, named: true });
		// 2. search_nodes: the node and its discriminators.
		const search = await call('search_nodes', { queries: ['bank payout'] });
		const nodeId = /^- (n8n-nodes-paycashless\.paycashless)$/m.exec(search.text)?.[1];
		expect(nodeId).toBe(NODE);
		expect(search.text).toMatch(/- payout:\n.*\n\s+operations:\n\s+- create/);
		// 3. get_node_types: the pattern for Payout → Create, taken as the server wrote it.
		const types = await call('get_node_types', { nodeIds: [{ nodeId, resource: 'bankAccount', operation: 'lookUp' }, { nodeId, resource: 'payout', operation: 'create' }] });
		const body = types.text.slice(types.text.indexOf('export type PaycashlessV1PayoutCreateParams = {'));
		const pattern = body
			.slice(body.indexOf('<pattern title='), body.indexOf('</pattern>'))
			.split('\n')
			.slice(1)
			.map((line) => line.replace(/^\s*\* ?/, ''))
			.filter((line) => !line.startsWith('//'))
			.join('\n');
		expect(pattern).toMatch(/const pay = node\(/);
		// 4. list_credentials: the existing Paycashless credential, by id, as the SDK reference asks.
		const credentials = await call('list_credentials', {});
		expect(credentials.text).toContain(lab.good.id);
		const code = [
			"const incoming = trigger({ type: 'n8n-nodes-base.webhook', version: 2, config: { name: 'Incoming Order', parameters: { httpMethod: 'POST', path: 'mcp-built-payout', responseMode: 'onReceived' } } });",
			"const orders = node({ type: 'n8n-nodes-base.set', version: 3.4, config: { name: 'Orders', parameters: { mode: 'manual', includeOtherFields: false, assignments: { assignments: [",
			"  { id: 'o1', name: 'orderId', value: expr('{{ $json.body.orderId }}'), type: 'string' },",
			"  { id: 'o2', name: 'accountNumber', value: expr('{{ $json.body.accountNumber }}'), type: 'string' },",
			"  { id: 'o3', name: 'bankCode', value: expr('{{ $json.body.bankCode }}'), type: 'string' },",
			"  { id: 'o4', name: 'amountNaira', value: expr('{{ $json.body.amountNaira }}'), type: 'number' }",
			'] } } } });',
			pattern.replace(/newCredential\('Paycashless'\)/g, `newCredential(${JSON.stringify(lab.good.name)}, ${JSON.stringify(lab.good.id)})`),
			"export default workflow('mcp-payout', 'Pay an order (built over MCP)').add(incoming).to(orders).to(lookUp).to(pay);",
		].join('\n');
		// 5. validate_workflow, then create_workflow_from_code.
		const validated = await call('validate_workflow', { code });
		expect(validated.structured).toMatchObject({ valid: true, nodeCount: 4 });
		expect(((validated.structured.warnings ?? []) as Array<{ code: string }>).filter((w) => w.code === 'INVALID_PARAMETER')).toEqual([]);
		const created = await call('create_workflow_from_code', { code, versionName: 'Pay an order', versionDescription: 'Look up the account, then pay the order once' });
		const workflowId = String(created.structured.workflowId);
		expect(workflowId).toMatch(/\w+/);
		// 6. execute_workflow twice with the same order: one payout, in kobo on the wire for 2,500.50 naira.
		const order = { orderId: `ORD-${Date.now()}`, accountNumber: '0123456789', bankCode: '058', amountNaira: 2500.5 };
		const outputs: Array<Record<string, unknown>> = [];
		for (let run = 0; run < 2; run++) {
			const started = await call('execute_workflow', {
				workflowId,
				executionMode: 'manual',
				triggerNodeName: 'Incoming Order',
				inputs: { webhookData: { method: 'POST', body: order } },
			});
			expect(started.structured).toMatchObject({ status: 'started' });
			const executionId = String(started.structured.executionId);
			const execution = await waitFor(
				`execution ${executionId}`,
				async (saw) => {
					const found = await lab.session.api<Execution>('GET', `/executions/${executionId}?includeData=true`).catch(() => undefined);
					saw(found?.status ?? 'not found');
					return found && found.finished ? found : found && found.status === 'error' ? found : undefined;
				},
				// A payout workflow's run: a few seconds alone (scripts/n8n/patience.cts).
				patience(6_000),
			);
			expect({ status: execution.status, error: execution.data?.resultData.error }).toEqual({ status: 'success', error: undefined });
			// The pattern's payout node, named as n8n's panel names it (its action).
			outputs.push(execution.data!.resultData.runData['Create a payout'][0].data!.main[0][0].json);
		}
		const payouts = lab.emulator.list('payouts').filter((p) => p.reference === `payout-${order.orderId}`);
		expect(payouts).toHaveLength(1);
		expect(JSON.stringify(payouts[0])).toMatch(/250050/);
		expect(outputs[0]).toMatchObject({ reference: `payout-${order.orderId}`, inMainUnits: expect.objectContaining({ currency: 'NGN' }) });
		expect(outputs[1]).toMatchObject({ reference: `payout-${order.orderId}`, _paycashless: expect.objectContaining({ repeated: true }) });
	});
});
