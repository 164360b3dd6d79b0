/**
 * The Paycashless Tool behind n8n's MCP Server Trigger, driven by the official MCP SDK's client
 * (Streamable HTTP, on this machine only): every `tools/call` is a new n8n execution, so only a
 * limit that does not live in the execution holds. The period total (Paycashless's own payout
 * list) refuses the third USD 200 payout against USD 500, 2 payouts made; and a limit field
 * filled by the client through `$fromAI` is refused.
 * Runs on n8n 2.41 (test/e2e-1x/mcpTriggerMoney.test.cts: the same on 1.123).
 */
import { randomUUID } from 'crypto';

import { ACCESS_BANK } from '../reliability.cjs';
import { NODE_TYPE_TOOL } from '../e2e/agentHarness.cjs';
import { patience } from '../../../scripts/n8n/patience.cjs';
import { selectE2eRuntime, SETUP_TIMEOUT_MS, startE2eLab, waitFor, type E2eLab, type E2eRuntime } from '../e2e/harness.cjs';
import { freshFetch } from '../e2e/freshFetch.cjs';

// The SDK ships CommonJS builds under these paths.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');

/**
 * The MCP Server Trigger suite against one runtime (an e2e project's), called once by a small test file
 * in each project that runs it (test/README.md). The body keeps its indentation from when it was
 * a test file of its own.
 */
export function describeMcpTriggerMoney(runtime: Partial<E2eRuntime>): void {
selectE2eRuntime(runtime);

jest.setTimeout(SETUP_TIMEOUT_MS);

const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';
const ACCOUNT = '0123456789';
const DAILY = 'Pay Daily USD';
const MODEL_LIMIT = 'Pay Model Limit';

let lab: E2eLab;
let workflowId: string;
let mcpUrl: URL;

beforeAll(async () => {
	// The emulator's list shows a payout 3 s after its create, as Paycashless's may after its 202
	// (issue 48): the limits hold on the payouts in flight, not on a list that shows them at once.
	lab = await startE2eLab({ emulator: { listLagMs: 3000 } });
	const path = `e2e-mcp-${randomUUID().slice(0, 8)}`;
	const tool = (name: string, parameters: Record<string, unknown>) => ({
		name,
		type: NODE_TYPE_TOOL,
		typeVersion: 1,
		parameters: { resource: 'payout', operation: 'create', ...parameters },
		credentials: { paycashlessApi: lab.good },
	});
	workflowId = await lab.createActiveWorkflow(
		`e2e mcp ${path}`,
		[
			{ name: 'MCP Server Trigger', type: MCP_TRIGGER_TYPE, typeVersion: 2, webhookId: randomUUID(), parameters: { path } },
			tool(DAILY, { currency: 'USD', moneyLimits: { currency: 'USD', maxAmount: 200, periodTotal: 500 } }),
			tool(MODEL_LIMIT, { currency: 'NGN', moneyLimits: { maxAmount: "={{ $fromAI('Max_Amount', 'The largest amount allowed', 'number') }}", periodTotal: 1000 } }),
		],
		{
			[DAILY]: { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] },
			[MODEL_LIMIT]: { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] },
		},
		[],
	);
	mcpUrl = new URL(`${lab.n8n.baseUrl}/mcp/${path}`);
	await waitFor(
		'the MCP server to be registered',
		async (saw) => {
			const status = (await freshFetch(mcpUrl, { method: 'GET' })).status;
			saw(`HTTP ${status}`);
			return status === 404 ? undefined : true;
		},
		patience(3_000),
	);
});

afterAll(async () => {
	await lab?.close();
});

async function connect(): Promise<InstanceType<typeof Client>> {
	const client = new Client({ name: 'paycashless-e2e', version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(mcpUrl));
	return client;
}

/** The text the MCP client got back from one tools/call. */
function textOf(result: Awaited<ReturnType<InstanceType<typeof Client>['callTool']>>): string {
	const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
	return content.map((part) => part.text ?? '').join('\n');
}

it('lists the Paycashless tools with their $fromAI arguments', async () => {
	const client = await connect();
	try {
		const { tools } = await client.listTools();
		const daily = tools.find((candidate) => candidate.name === 'Pay_Daily_USD');
		expect(daily?.description).toMatch(/REAL MONEY leaves/);
		expect(Object.keys((daily?.inputSchema.properties ?? {}) as object).sort()).toEqual(['Account_Number', 'Amount', 'Bank_ID', 'Reference']);
	} finally {
		await client.close();
	}
});

it('the period total holds across MCP tool calls, each its own execution: USD 200, 200, then refused; 2 payouts', async () => {
	const refs = Array.from({ length: 3 }, (_, k) => `mcp-day-${k}-${randomUUID().slice(0, 6)}`);
	const before = (await lab.executions(workflowId)).length;
	const texts: string[] = [];
	for (const reference of refs) {
		// A new client each time, as separate MCP sessions would be.
		const client = await connect();
		try {
			texts.push(textOf(await client.callTool({ name: 'Pay_Daily_USD', arguments: { Reference: reference, Amount: 200, Account_Number: ACCOUNT, Bank_ID: ACCESS_BANK } })));
		} finally {
			await client.close();
		}
	}
	expect(texts[0]).toMatch(/"amount":\s*"USD 200\.00"/);
	expect(texts[1]).toMatch(/"amount":\s*"USD 200\.00"/);
	expect(texts[2]).toMatch(/Refused: this payout would pass the Maximum Total per Period/);
	expect(texts[2]).not.toMatch(/USD (400|500|600)/);
	expect(texts[2]).toMatch(/MAX_TOTAL_PERIOD/);
	expect(lab.emulator.list('payouts').filter((payout) => refs.includes(String(payout.reference)))).toHaveLength(2);
	// Each call was an execution of its own: a limit per execution would have started again.
	const executions = await waitFor('the three MCP executions', async (saw) => {
		const all = await lab.executions(workflowId);
		saw(`${all.length - before} new`);
		return all.length - before >= 3 ? all : undefined;
	});
	expect(executions.length - before).toBeGreaterThanOrEqual(3);
});

it('a limit the client fills through $fromAI is refused, 0 payouts', async () => {
	const reference = `mcp-fromai-${randomUUID().slice(0, 6)}`;
	const client = await connect();
	try {
		const text = textOf(
			await client.callTool({ name: 'Pay_Model_Limit', arguments: { Reference: reference, Amount: 10, Account_Number: ACCOUNT, Bank_ID: ACCESS_BANK, Max_Amount: 99999999 } }),
		);
		expect(text).toMatch(/Refused: Money Limits → Maximum Amount is an expression/);
	} finally {
		await client.close();
	}
	expect(lab.emulator.list('payouts').filter((payout) => payout.reference === reference)).toHaveLength(0);
});
}
