/**
 * The Paycashless node as a tool of n8n's AI Agent, in a real n8n (2.41.1, one process), with a
 * scripted model in place of an LLM (scriptedModel.ts): what the model is offered (tool name,
 * description, parameters from `$fromAI`), what it gets back, one node run per tool call, and a
 * payout asked for twice with one reference paid once.
 * Run: npx jest test/e2e/agent.test.cts
 */
import { randomUUID } from 'crypto';

import { ACCESS_BANK } from '../reliability.cjs';
import {
	connectScriptedModel,
	createAgentWorkflow,
	createReviewedAgentWorkflow,
	toolRunItems,
	type AgentWorkflow,
	type ReviewedAgentWorkflow,
	type ScriptedModelInN8n,
} from '../e2e/agentHarness.cjs';
import { selectE2eRuntime, SETUP_TIMEOUT_MS, startE2eLab, type E2eLab, type E2eRuntime } from '../e2e/harness.cjs';
import { offeredTools, toolResults, type ChatRequest } from '../e2e/scriptedModel.cjs';

/**
 * The AI Agent suite against one runtime (an e2e project's), called once by a small test file
 * in each project that runs it (test/README.md). The body keeps its indentation from when it was
 * a test file of its own.
 */
export function describeAgent(runtime: Partial<E2eRuntime>): void {
selectE2eRuntime(runtime);

jest.setTimeout(SETUP_TIMEOUT_MS);

let lab: E2eLab;
let scripted: ScriptedModelInN8n;
let agent: AgentWorkflow;

/** A 10-digit account the emulator knows (numbers starting with 000 do not exist there). */
const ACCOUNT = '0123456789';

const LIST_TOOL = 'List Payouts';
const PAY_TOOL = 'Pay Out';

beforeAll(async () => {
	lab = await startE2eLab({ emulator: { seed: { payouts: 5 } } });
	scripted = await connectScriptedModel(lab);
	agent = await createAgentWorkflow(lab, scripted, {
		systemMessage: 'You are a payments assistant.',
		tools: [
			{
				name: LIST_TOOL,
				parameters: {
					resource: 'payout',
					operation: 'getAll',
					returnAll: false,
					limit: "={{ $fromAI('Limit', 'How many payouts to list, 1 to 50', 'number') }}",
				},
			},
			{
				name: PAY_TOOL,
				parameters: {
					resource: 'payout',
					operation: 'create',
					reference: "={{ $fromAI('Reference', 'Your unique reference for this payout', 'string') }}",
					amount: "={{ $fromAI('Amount', 'Amount in naira, e.g. 1500.50', 'number') }}",
					currency: 'NGN',
					destinationAccountNumber: "={{ $fromAI('Destination_Account_Number', '10-digit NUBAN', 'string') }}",
					bankId: "={{ $fromAI('Bank_ID', 'Paycashless bank id, starts with bank_', 'string') }}",
					// As a tool, a payout needs Maximum Amount and Maximum Total per Period (or an explicit opt-out) to run at all.
					moneyLimits: { maxAmount: 10000, maxCount: 5, periodTotal: 1000000 },
				},
			},
		],
	});
});

afterAll(async () => {
	await scripted?.close();
	await lab?.close();
});

const payoutsWithReference = (reference: string) => lab.emulator.list('payouts').filter((p) => p.reference === reference);

describe('AI Agent with the Paycashless Tool (scripted model)', () => {
	it('offers each Paycashless Tool node as a tool: node name, description from the operation, parameters from $fromAI', async () => {
		const { requests, status } = await agent.run('Hello', [{ text: 'Hello, how can I help?' }]);
		expect(status).toBe(200);
		expect(requests).toHaveLength(1);
		const tools = offeredTools(requests[0]);
		expect([...tools.keys()].sort()).toEqual(['List_Payouts', 'Pay_Out']);

		const list = tools.get('List_Payouts')!;
		// The node's own Tool Description for the operation (actions/tool.ts): the action, then what it does to money.
		expect(list.description).toMatch(/^Get many payouts in Paycashless\. It only reads/);
		expect(list.parameters).toMatchObject({ type: 'object', required: ['Limit'] });
		expect(list.parameters?.properties).toEqual({ Limit: { type: 'number', description: 'How many payouts to list, 1 to 50' } });

		const pay = tools.get('Pay_Out')!;
		expect(pay.description).toMatch(/^Send a Paycashless payout: moves real money now to a bank account\. REAL MONEY leaves/);
		expect(Object.keys(pay.parameters?.properties ?? {}).sort()).toEqual(['Amount', 'Bank_ID', 'Destination_Account_Number', 'Reference']);
		expect(pay.parameters?.properties?.Amount).toEqual({ type: 'number', description: 'Amount in naira, e.g. 1500.50' });
		expect(pay.parameters?.required?.sort()).toEqual(['Amount', 'Bank_ID', 'Destination_Account_Number', 'Reference']);

		// The system message and the prompt reach the model as sent.
		expect(requests[0].messages.slice(0, 2)).toEqual([
			expect.objectContaining({ role: 'system', content: 'You are a payments assistant.' }),
			expect.objectContaining({ role: 'user', content: 'Hello' }),
		]);
	});

	it('the OpenAI credential pointing at the scripted model passes n8n\'s credential Test (GET …/models)', async () => {
		scripted.model.script([]);
		const stored = await lab.session.rest<{ id: string; name: string; type: string; data: Record<string, unknown> }>('GET', `/rest/credentials/${scripted.credential.id}?includeData=true`);
		const result = await lab.session.rest('POST', '/rest/credentials/test', { credentials: { id: stored.id, name: stored.name, type: stored.type, data: stored.data } });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(scripted.model.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
	});

	it('Payout → Get Many as a tool: the model gets the payouts as the tool result, then answers', async () => {
		const run = await agent.run('Show me my last two payouts', [
			{ toolCalls: [{ name: 'List_Payouts', arguments: { Limit: 2 } }] },
			(request) => ({ text: `You have ${JSON.parse(toolResults(request)[0].content).length} recent payouts.` }),
		]);
		expect(run.status).toBe(200);
		expect(run.output).toBe('You have 2 recent payouts.');
		expect(run.requests).toHaveLength(2);

		// The tool ran once, with the model's argument, and listed the two newest seeded payouts.
		const [toolRun, ...more] = run.toolRuns(LIST_TOOL);
		expect(more).toHaveLength(0);
		const items = toolRunItems(toolRun);
		expect(items).toHaveLength(2);
		const seeded = lab.emulator.list('payouts');
		const newestFirst = seeded.slice(-2).reverse().map((p) => p.reference);
		expect(items.map((i) => i.reference)).toEqual(newestFirst);

		// What the model was sent back: its call, then a tool message holding those payouts.
		const [result] = toolResults(run.requests[1]);
		expect(result.name).toBe('List_Payouts');
		const sent = JSON.parse(result.content) as Array<Record<string, unknown>>;
		expect(sent.map((p) => p.reference)).toEqual(newestFirst);
		const newest = seeded[seeded.length - 1];
		// Simplify (on by default): compact, the amount in naira with its currency.
		expect(sent[0]).toMatchObject({ id: newest.id, amount: `NGN ${(Number(newest.amount) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`, destinationAccountNumber: newest.destinationAccountNumber });
	});

	it('Payout → Create called twice with one reference (two turns): one payout, the second call finds it again', async () => {
		const reference = `agent-${randomUUID().slice(0, 8)}`;
		const args = { Reference: reference, Amount: 1500.5, Destination_Account_Number: ACCOUNT, Bank_ID: ACCESS_BANK };
		const run = await agent.run(`Pay NGN 1,500.50 to ${ACCOUNT}, reference ${reference}`, [
			{ toolCalls: [{ name: 'Pay_Out', arguments: args }] },
			{ toolCalls: [{ name: 'Pay_Out', arguments: args }] },
			{ text: 'Paid.' },
		]);
		expect(run.status).toBe(200);
		expect(run.output).toBe('Paid.');

		const stored = payoutsWithReference(reference);
		expect(stored).toHaveLength(1);
		expect(stored[0]).toMatchObject({ amount: 150050, destinationAccountNumber: ACCOUNT });

		// One run of the tool node per call: runIndex 0 created it, runIndex 1 found it again.
		const runs = run.toolRuns(PAY_TOOL);
		expect(runs).toHaveLength(2);
		const [first, second] = runs.map((r) => toolRunItems(r)[0]);
		expect(first).toMatchObject({ reference });
		expect(first.repeatedReference).toBeUndefined();
		expect(second).toMatchObject({ reference, id: first.id, repeatedReference: expect.stringMatching(/nothing new was created or paid/) });
		expect(runs[0].inputOverride?.ai_tool?.[0]?.[0]?.json).toMatchObject(args);

		// The model saw both results, the second one saying the reference was used before.
		const results = toolResults(run.requests[2]);
		expect(results).toHaveLength(2);
		expect(JSON.parse(results[1].content)[0]).toMatchObject({ reference, repeatedReference: expect.any(String) });
	});

	it('Payout → Create twice with one reference in one turn (parallel tool calls): one payout; the calls run one after the other', async () => {
		const reference = `agent-par-${randomUUID().slice(0, 8)}`;
		const args = { Reference: reference, Amount: 250, Destination_Account_Number: ACCOUNT, Bank_ID: ACCESS_BANK };
		const run = await agent.run(`Pay NGN 250 to ${ACCOUNT}, reference ${reference}`, [
			{ toolCalls: [{ name: 'Pay_Out', arguments: args }, { name: 'Pay_Out', arguments: args }] },
			{ text: 'Done.' },
		]);
		expect(run.status).toBe(200);
		expect(run.output).toBe('Done.');
		expect(payoutsWithReference(reference)).toHaveLength(1);

		// One run per call, runIndex in the model's order (run 0 = the turn's first call).
		const runs = run.toolRuns(PAY_TOOL);
		expect(runs).toHaveLength(2);
		expect(runs.map((r) => r.inputOverride?.ai_tool?.[0]?.[0]?.json.toolCallId ?? null)).toEqual(lab.n8nVersion.startsWith('1.') ? ['call_1_0', 'call_1_1'] : [null, null]);
		// Not concurrent: one run ends before the other starts. n8n 2.41 runs them in the model's
		// order, n8n 1.123 in reverse (its execution stack takes the last call first).
		const [earlier, later] = [...runs].sort((a, b) => a.startTime - b.startTime);
		expect(later.startTime).toBeGreaterThanOrEqual(earlier.startTime + earlier.executionTime);
		expect(earlier).toBe(lab.n8nVersion.startsWith('1.') ? runs[1] : runs[0]);
		// The one that ran first created the payout, the other found it again.
		expect(toolRunItems(earlier)[0].repeatedReference).toBeUndefined();
		expect(toolRunItems(later)[0].repeatedReference).toEqual(expect.any(String));

		const request: ChatRequest = run.requests[1];
		expect(toolResults(request)).toHaveLength(2);
	});
});

describe('AI Agent streaming its answer (Webhook: Respond Streaming)', () => {
	let streaming: AgentWorkflow;

	beforeAll(async () => {
		streaming = await createAgentWorkflow(lab, scripted, {
			streaming: true,
			tools: [{ name: LIST_TOOL, parameters: { resource: 'payout', operation: 'getAll', returnAll: false, limit: "={{ $fromAI('Limit', 'How many payouts to list', 'number') }}" } }],
		});
	});

	it('asks the model with stream: true, runs the tool from the streamed tool call and streams the final text', async () => {
		const run = await streaming.run('How many payouts?', [
			{ toolCalls: [{ name: 'List_Payouts', arguments: { Limit: 3 } }] },
			(request) => ({ text: `There are ${JSON.parse(toolResults(request)[0].content).length} payouts in this page.` }),
		]);
		expect(run.status).toBe(200);
		expect(run.requests.map((r) => r.stream)).toEqual([true, true]);
		expect(run.output).toBe('There are 3 payouts in this page.');
		expect(run.chunks.some((c) => c.type === 'item')).toBe(true);
		expect(run.toolRuns(LIST_TOOL)).toHaveLength(1);
		expect(toolRunItems(run.toolRuns(LIST_TOOL)[0])).toHaveLength(3);
	});
});

describe('human review of a tool call (n8n 2.x: Chat review node, Approve or Decline by a press of its link)', () => {
	let reviewed: ReviewedAgentWorkflow | undefined;
	let refusedOn1x: string | undefined;
	const payArgs = (reference: string) => ({ Reference: reference, Amount: 75, Destination_Account_Number: ACCOUNT, Bank_ID: ACCESS_BANK });

	beforeAll(async () => {
		const creating = createReviewedAgentWorkflow(lab, scripted, {
			reviewMessage: '=Allow {{ $tool.name }} with {{ JSON.stringify($tool.parameters) }}?',
			tools: [
				{
					name: PAY_TOOL,
					parameters: {
						resource: 'payout',
						operation: 'create',
						reference: "={{ $fromAI('Reference', 'Your unique reference for this payout', 'string') }}",
						amount: "={{ $fromAI('Amount', 'Amount in naira', 'number') }}",
						currency: 'NGN',
						destinationAccountNumber: "={{ $fromAI('Destination_Account_Number', '10-digit NUBAN', 'string') }}",
						bankId: "={{ $fromAI('Bank_ID', 'Paycashless bank id', 'string') }}",
						moneyLimits: { maxAmount: 10000, maxCount: 5, periodTotal: 1000000 },
					},
				},
			],
		});
		// n8n 1.123 has no review (…HitlTool) nodes: there the workflow cannot be created or published.
		if (lab.n8nVersion.startsWith('1.')) refusedOn1x = await creating.then(() => 'created', (error: Error) => error.message);
		else reviewed = await creating;
	});

	it('n8n 1.123 has no review nodes (the workflow is refused there; 2.x runs the tests below)', () => {
		if (!lab.n8nVersion.startsWith('1.')) return;
		// 1.123 strips "Tool" from the type name and knows no "chatHitl" node.
		expect(refusedOn1x).toMatch(/Unrecognized node type: @n8n\/n8n-nodes-langchain\.chatHitl\b/);
	});

	it('pays only after Approve: the execution waits with the review message, nothing is sent before the press', async () => {
		if (!reviewed) return;
		const reference = `agent-hitl-${randomUUID().slice(0, 8)}`;
		const { executionId, review } = await reviewed.send(`Pay NGN 75, reference ${reference}`, [
			// Behind a review node the tool's arguments sit under toolParameters (hitlParameters: the review node's own $fromAI keys).
			{ toolCalls: [{ name: 'Pay_Out', arguments: { toolParameters: payArgs(reference), hitlParameters: {} } }] },
			(request) => ({ text: `Paid: ${JSON.parse(toolResults(request)[0].content)[0].reference}` }),
		]);
		expect(review).toBeDefined();
		expect(review!.text).toContain(`"Reference":"${reference}"`);
		expect(review!.buttons.map((b) => b.text)).toEqual(['Approve', 'Decline']);
		expect(payoutsWithReference(reference)).toHaveLength(0);

		// What the model was offered: the same tool name and description, its parameters wrapped.
		const offered = offeredTools(scripted.model.chatRequests()[0]).get('Pay_Out')!;
		expect(offered.description).toMatch(/^Send a Paycashless payout: moves real money now to a bank account\. REAL MONEY leaves/);
		expect(Object.keys(offered.parameters?.properties ?? {})).toEqual(['toolParameters', 'hitlParameters']);
		expect(Object.keys(offered.parameters?.properties?.toolParameters.properties ?? {}).sort()).toEqual(['Amount', 'Bank_ID', 'Destination_Account_Number', 'Reference']);

		expect((await reviewed.press(review!, 'Approve')).status).toBe(200);
		const run = await reviewed.finished(executionId);
		expect(run.execution.status).toBe('success');
		expect(run.output).toBe(`Paid: ${reference}`);
		expect(payoutsWithReference(reference)).toHaveLength(1);
		expect(run.toolRuns('Human Review')).toHaveLength(1);
		expect(toolRunItems(run.toolRuns('Human Review')[0])[0]).toMatchObject({ data: { approved: true } });
		expect(run.toolRuns(PAY_TOOL)).toHaveLength(1);
	});

	it('pays nothing after Decline: the model is told the call was rejected', async () => {
		if (!reviewed) return;
		const reference = `agent-hitl-no-${randomUUID().slice(0, 8)}`;
		const { executionId, review } = await reviewed.send(`Pay NGN 75, reference ${reference}`, [
			{ toolCalls: [{ name: 'Pay_Out', arguments: { toolParameters: payArgs(reference), hitlParameters: {} } }] },
			{ text: 'Understood, I did not pay.' },
		]);
		expect((await reviewed.press(review!, 'Decline')).status).toBe(200);
		const run = await reviewed.finished(executionId);
		expect(run.execution.status).toBe('success');
		expect(run.output).toBe('Understood, I did not pay.');
		expect(payoutsWithReference(reference)).toHaveLength(0);
		expect(run.toolRuns(PAY_TOOL)).toHaveLength(0);
		const [result] = toolResults(run.requests[1]);
		// n8n's wording (processHitlResponses.js), naming the tool node, not the tool.
		expect(JSON.parse(result.content)).toEqual([
			{ output: `User rejected the tool call to ${PAY_TOOL} (id: call_1_0). STOP what you are doing and wait for the user to tell you how to proceed. The tool is still available if needed.` },
		]);
	});
});

// The example examples/ai-agent/agent-pays-claim-with-approval.json (approval by e-mail): test/e2e/agentApproval.test.cts.
}
