/**
 * An n8n AI Agent holding Paycashless Tool nodes, driven by the scripted model (scriptedModel.ts)
 * instead of a real LLM: `Webhook (respond with the last node) → AI Agent`, with an OpenAI Chat
 * Model sub-node whose credential points at the scripted server and one or more Paycashless Tool
 * sub-nodes configured by the test. A run posts the prompt to the webhook and returns the agent's
 * answer, what the model was sent (tools offered, tool results) and the saved execution, whose
 * runData holds one run per tool call of each tool node. createReviewedAgentWorkflow puts n8n 2.x's
 * human review (a Chat review node) in front of the tools, started from a chat message instead.
 */
import { randomUUID } from 'crypto';

import { PACKAGE_NAME } from '../../../scripts/n8n/lab.cjs';
import { patience, untilEnded } from '../../../scripts/n8n/patience.cjs';
import { webhookNode, waitFor, type CredentialRef, type E2eLab, type Execution, type WorkflowNode } from './harness.cjs';
import { startScriptedModel, type ChatRequest, type ScriptedModel, type ScriptStep } from './scriptedModel.cjs';
import { freshFetch } from './freshFetch.cjs';

/**
 * The tool variant n8n derives from the action node (`usableAsTool: true`): the node's type name
 * plus `Tool` (n8n/dist/tool-generation/ai-tools.js, convertNodeToAiTool).
 */
export const NODE_TYPE_TOOL = `${PACKAGE_NAME}.paycashlessTool`;
export const AGENT_TYPE = '@n8n/n8n-nodes-langchain.agent';
export const CHAT_MODEL_TYPE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';
export const OPENAI_CREDENTIAL_TYPE = 'openAiApi';

/**
 * The newest AI Agent and OpenAI Chat Model versions of each n8n line (@n8n/n8n-nodes-langchain's
 * Agent.node.js and LmChatOpenAi.node.js): agent 3.1 in 2.41, 3 in 1.123; chat model 1.3 in both.
 */
function agentVersions(lab: E2eLab): { agent: number; chatModel: number } {
	return lab.n8nVersion.startsWith('1.') ? { agent: 3, chatModel: 1.3 } : { agent: 3.1, chatModel: 1.3 };
}

interface AgentTool {
	/** Node name; the model sees it as the tool name (characters other than [A-Za-z0-9_-] become `_`). */
	name: string;
	/** The Paycashless node's parameters (resource, operation, fields, `$fromAI(...)` expressions). */
	parameters: Record<string, unknown>;
	/** Default: the lab's good credential. */
	credential?: CredentialRef;
	/** Extra node settings (e.g. retryOnFail). */
	node?: Partial<WorkflowNode>;
}

export interface AgentWorkflowOptions {
	tools: AgentTool[];
	/** The agent's system message (default: none is sent; n8n's "You are a helpful assistant" only when the option is set). */
	systemMessage?: string;
	/** The agent's iteration limit (n8n's default: 10). */
	maxIterations?: number;
	/** More AI Agent options (options collection). */
	agentOptions?: Record<string, unknown>;
	/**
	 * Webhook with *Respond: Streaming* (Webhook 2.1): the agent streams its answer and asks the
	 * model with `stream: true`. Default: *When Last Node Finishes*, a plain JSON answer.
	 */
	streaming?: boolean;
}

/** A tool node's run in the execution (one per tool call). */
export interface ToolRun {
	startTime: number;
	executionTime: number;
	executionIndex?: number;
	executionStatus?: string;
	/** What n8n shows as the tool's input: the model's arguments (1.123: merged into the agent's input item, with toolCallId). */
	inputOverride?: { ai_tool?: Array<Array<{ json: Record<string, unknown> }>> };
	/** The tool node's output items (the tool result). */
	data?: { ai_tool?: Array<Array<{ json: Record<string, unknown> }>>; main?: Array<Array<{ json: Record<string, unknown> }>> };
	error?: { message?: string };
	source?: Array<{ previousNode: string; previousNodeRun?: number } | null>;
}

interface AgentRun {
	/** HTTP status of the webhook's answer. */
	status: number;
	/** The agent's items as the webhook answered them (`[{ output }]`). */
	items: Array<Record<string, unknown>>;
	/** The agent's final text (`items[0].output`; when streaming, the streamed pieces joined). */
	output: unknown;
	/** When streaming: the answer's chunks (`{ type: 'begin' | 'item' | 'end', content?, metadata }`) as n8n sent them. */
	chunks: Array<Record<string, unknown>>;
	/** The chat-completion requests the model received in this run, in order. */
	requests: ChatRequest[];
	/** The saved execution, with data. */
	execution: Execution;
	/** The runs of a tool node, in run order (runIndex 0, 1, ...). */
	toolRuns(nodeName: string): ToolRun[];
}

export interface AgentWorkflow {
	workflowId: string;
	webhookPath: string;
	/** Posts `{ prompt }` to the webhook with the model following `script`, and returns what happened. */
	run(prompt: string, script: ScriptStep[], finalText?: string): Promise<AgentRun>;
}

export interface ScriptedModelInN8n {
	model: ScriptedModel;
	/** The openAiApi credential pointing at the model. */
	credential: CredentialRef;
	close(): Promise<void>;
}

/** The URL of a Chat Trigger's chat, once n8n serves it (the chat page, GET, is served once the trigger is registered). */
export async function chatTriggerRegistered(lab: E2eLab, chatId: string): Promise<string> {
	const chatUrl = `${lab.n8n.baseUrl}/webhook/${chatId}/chat`;
	await waitFor(
		'the chat trigger to be registered',
		async (saw) => {
			const status = await freshFetch(chatUrl).then((r) => r.status, () => 0);
			saw(status ? `HTTP ${status}` : 'no answer');
			return status === 200 ? true : undefined;
		},
		patience(3_000),
	);
	return chatUrl;
}

/** Starts a scripted model and creates an n8n OpenAI credential whose Base URL is the model's. */
export async function connectScriptedModel(lab: E2eLab): Promise<ScriptedModelInN8n> {
	const model = await startScriptedModel();
	try {
		const name = `Scripted model ${randomUUID().slice(0, 8)}`;
		const created = await lab.session.api<{ id: string; name: string }>('POST', '/credentials', {
			name,
			type: OPENAI_CREDENTIAL_TYPE,
			// A key is required by the form; the scripted model ignores it.
			data: { apiKey: 'sk-scripted-model', url: model.baseUrl, header: false },
		});
		return { model, credential: { id: created.id, name: created.name }, close: () => model.close() };
	} catch (error) {
		await model.close();
		throw error;
	}
}

/** The agent, its model and its tools (the part every agent workflow shares), wired to the agent. */
function agentCluster(
	lab: E2eLab,
	scripted: ScriptedModelInN8n,
	options: AgentWorkflowOptions,
	prompt: Record<string, unknown>,
): { nodes: WorkflowNode[]; connections: Record<string, unknown> } {
	const versions = agentVersions(lab);
	const agentOptions: Record<string, unknown> = { ...options.agentOptions };
	if (options.systemMessage !== undefined) agentOptions.systemMessage = options.systemMessage;
	if (options.maxIterations !== undefined) agentOptions.maxIterations = options.maxIterations;
	const nodes: WorkflowNode[] = [
		{ name: 'AI Agent', type: AGENT_TYPE, typeVersion: versions.agent, parameters: { ...prompt, options: agentOptions } },
		{
			name: 'OpenAI Chat Model',
			type: CHAT_MODEL_TYPE,
			typeVersion: versions.chatModel,
			// Chat Completions: the scripted model does not speak the Responses API (on by default from 1.3).
			parameters: { model: { __rl: true, mode: 'id', value: scripted.model.modelId }, responsesApiEnabled: false, options: {} },
			credentials: { [OPENAI_CREDENTIAL_TYPE]: scripted.credential },
		},
		...options.tools.map(
			(tool): WorkflowNode => ({
				type: NODE_TYPE_TOOL,
				typeVersion: 1,
				...tool.node,
				name: tool.name,
				parameters: tool.parameters,
				credentials: { paycashlessApi: tool.credential ?? lab.good },
			}),
		),
	];
	const connections: Record<string, unknown> = {
		'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
	};
	for (const tool of options.tools) connections[tool.name] = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
	return { nodes, connections };
}

/** What a test reads of a finished agent execution. */
function agentRun(execution: Execution, requests: ChatRequest[], answer: Pick<AgentRun, 'status' | 'items' | 'chunks'>): AgentRun {
	const runData = (execution.data?.resultData.runData ?? {}) as unknown as Record<string, ToolRun[]>;
	return {
		...answer,
		output: answer.items[0]?.output,
		requests,
		execution,
		toolRuns: (nodeName) => runData[nodeName] ?? [],
	};
}

/** `Webhook → AI Agent` with the scripted model and the given Paycashless Tool nodes, created and activated. */
export async function createAgentWorkflow(lab: E2eLab, scripted: ScriptedModelInN8n, options: AgentWorkflowOptions): Promise<AgentWorkflow> {
	const webhookPath = `e2e-agent-${randomUUID().slice(0, 8)}`;
	const webhook = webhookNode(webhookPath);
	if (options.streaming) {
		webhook.typeVersion = 2.1;
		webhook.parameters = { httpMethod: 'POST', path: webhookPath, responseMode: 'streaming', options: {} };
	}
	const cluster = agentCluster(lab, scripted, options, { promptType: 'define', text: '={{ $json.body.prompt }}' });
	const workflowId = await lab.createActiveWorkflow(
		`e2e agent ${webhookPath}`,
		[webhook, ...cluster.nodes],
		{ ...cluster.connections, Webhook: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] } },
		[webhookPath],
	);

	const run: AgentWorkflow['run'] = async (prompt, script, finalText) => {
		const before = new Set((await lab.executions(workflowId)).map((e) => String(e.id)));
		scripted.model.script(script, finalText);
		const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ prompt }),
		});
		const text = await response.text();
		let parsed: unknown = text;
		let chunks: Array<Record<string, unknown>> = [];
		if (options.streaming) {
			// One JSON object per line.
			chunks = text
				.split('\n')
				.filter((line) => line.trim() !== '')
				.map((line) => JSON.parse(line) as Record<string, unknown>);
			parsed = [{ output: chunks.filter((c) => c.type === 'item').map((c) => String(c.content ?? '')).join('') }];
		} else {
			try {
				parsed = text === '' ? [] : (JSON.parse(text) as unknown);
			} catch {
				// Kept as text: an error page says more than a parse error.
			}
		}
		const items = (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
		// The execution is saved right after the answer is sent: wait for it to be there, finished.
		const execution = await waitFor(
			'the agent execution to be saved',
			async () => (await lab.executions(workflowId)).find((e) => !before.has(String(e.id)) && e.status !== 'running' && e.status !== 'new'),
			// An agent's run with the scripted model: a few seconds alone (scripts/n8n/patience.cts).
			patience(5_000),
		);
		return agentRun(execution, scripted.model.chatRequests(), { status: response.status, items, chunks });
	};
	return { workflowId, webhookPath, run };
}

/**
 * n8n 2.x's human review of tool calls: a `…HitlTool` node between the tools and the agent
 * (tool → review node → agent, all `ai_tool` connections). This one is the Chat node's
 * (`@n8n/n8n-nodes-langchain.chatHitlTool`): no outside service, but it needs a Chat Trigger
 * (hosted chat, Response Mode "Using Response Nodes"), so these workflows start from a chat message.
 */
const CHAT_REVIEW_TYPE = '@n8n/n8n-nodes-langchain.chatHitlTool';
export const CHAT_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.chatTrigger';

/** What the reviewer is shown: the review node's chat message with its buttons (each a signed resume link). */
interface Review {
	executionId: string;
	text: string;
	buttons: Array<{ text: string; link: string; type?: string }>;
}

export interface ReviewedAgentWorkflow {
	workflowId: string;
	/**
	 * Sends a chat message, the model following `script`, and waits until the execution waits for a
	 * review (returned) or ends without one (`review` undefined).
	 */
	send(message: string, script: ScriptStep[], finalText?: string): Promise<{ executionId: string; review?: Review }>;
	/** Presses a review button the way a person does: a browser's GET of its link. Returns n8n's answer. */
	press(review: Review, button: string): Promise<{ status: number; text: string }>;
	/** Waits until the execution has ended and returns it as an agent run (`output` from the agent's item). */
	finished(executionId: string): Promise<AgentRun>;
}

/**
 * n8n answers a review link opened by a bot or a link preview with an empty page and does not resume
 * (n8n-nodes-base/dist/utils/sendAndWait/utils.js, sendAndWaitWebhook: isbot(user-agent)); Node's
 * fetch counts as a bot, so the press is sent with a browser's User-Agent.
 */
export const BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/**
 * `Chat Trigger → AI Agent`, the scripted model, and the Paycashless Tool nodes behind one Chat
 * review node (Approve / Decline buttons): the agent runs a tool only after a press of Approve.
 * n8n 2.x only (1.123 has no review nodes).
 */
export async function createReviewedAgentWorkflow(lab: E2eLab, scripted: ScriptedModelInN8n, options: AgentWorkflowOptions & { reviewMessage?: string }): Promise<ReviewedAgentWorkflow> {
	const chatId = randomUUID();
	const cluster = agentCluster(lab, scripted, options, { promptType: 'auto' });
	const review: WorkflowNode = {
		id: randomUUID(),
		name: 'Human Review',
		type: CHAT_REVIEW_TYPE,
		typeVersion: 1.3,
		webhookId: randomUUID(),
		parameters: {
			...(options.reviewMessage !== undefined ? { message: options.reviewMessage } : {}),
			approvalOptions: { values: { approvalType: 'double' } },
		},
	};
	const connections: Record<string, unknown> = { ...cluster.connections, Chat: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] } };
	// Every tool goes through the review node, which stands in for them at the agent.
	for (const tool of options.tools) connections[tool.name] = { ai_tool: [[{ node: review.name, type: 'ai_tool', index: 0 }]] };
	connections[review.name] = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
	const chat: WorkflowNode = {
		name: 'Chat',
		type: CHAT_TRIGGER_TYPE,
		typeVersion: 1.3,
		webhookId: chatId,
		parameters: { public: true, mode: 'hostedChat', authentication: 'none', options: { responseMode: 'responseNodes' } },
	};
	const workflowId = await lab.createActiveWorkflow(`e2e reviewed agent ${chatId.slice(0, 8)}`, [chat, ...cluster.nodes, review], connections, []);
	return await reviewedAgentWorkflow(lab, scripted, { workflowId, chatId, reviewNode: review.name, agentNode: 'AI Agent' });
}

/** Sending chat messages, pressing review buttons and reading the end of a reviewed agent workflow. */
async function reviewedAgentWorkflow(
	lab: E2eLab,
	scripted: ScriptedModelInN8n,
	{ workflowId, chatId, reviewNode, agentNode }: { workflowId: string; chatId: string; reviewNode: string; agentNode: string },
): Promise<ReviewedAgentWorkflow> {
	const chatUrl = await chatTriggerRegistered(lab, chatId);

	const execution = async (executionId: string) => (await lab.executions(workflowId)).find((e) => String(e.id) === executionId);

	const send: ReviewedAgentWorkflow['send'] = async (message, script, finalText) => {
		scripted.model.script(script, finalText);
		const response = await freshFetch(chatUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'sendMessage', sessionId: randomUUID(), chatInput: message }),
		});
		// With response nodes, the chat trigger answers at once: { executionStarted, executionId }.
		const started = (await response.json()) as { executionStarted?: boolean; executionId?: string };
		if (!started.executionId) throw new Error(`the chat did not start an execution: HTTP ${response.status} ${JSON.stringify(started)}`);
		const executionId = String(started.executionId);
		const paused = await waitFor(
			`execution ${executionId} to wait for a review or end`,
			async (saw) => {
				const found = await execution(executionId);
				saw(found?.status ?? 'not listed');
				return found && !['new', 'running'].includes(found.status) ? found : undefined;
			},
			patience(5_000),
		);
		if (paused.status !== 'waiting') return { executionId };
		const runs = (paused.data?.resultData.runData[reviewNode] ?? []) as unknown as Array<{ data?: { ai_tool?: Array<Array<{ sendMessage?: { text: string; buttons: Review['buttons'] } }>> } }>;
		const sent = runs[runs.length - 1]?.data?.ai_tool?.[0]?.[0]?.sendMessage;
		if (!sent) throw new Error('the execution waits, but the review node sent no message');
		return { executionId, review: { executionId, text: sent.text, buttons: sent.buttons } };
	};

	const press: ReviewedAgentWorkflow['press'] = async (shown, button) => {
		const found = shown.buttons.find((b) => b.text === button);
		if (!found) throw new Error(`no button "${button}" in the review (${shown.buttons.map((b) => b.text).join(', ')})`);
		const response = await freshFetch(found.link, { headers: { 'user-agent': BROWSER_USER_AGENT } });
		return { status: response.status, text: await response.text() };
	};

	const finished: ReviewedAgentWorkflow['finished'] = async (executionId) => {
		const ended = await untilEnded(`the reviewed execution ${executionId}`, () => execution(executionId), patience(5_000));
		const agentItems = (ended.data?.resultData.runData[agentNode]?.at(-1)?.data?.main[0] ?? []).map((item) => item.json);
		return agentRun(ended, scripted.model.chatRequests(), { status: 200, items: agentItems, chunks: [] });
	};

	return { workflowId, send, press, finished };
}

/** The JSON items a tool run gave back (what the model gets as the tool result). */
export function toolRunItems(run: ToolRun): Array<Record<string, unknown>> {
	return (run.data?.ai_tool?.[0] ?? run.data?.main?.[0] ?? []).map((item) => item.json);
}
