/**
 * An n8n AI Agent holding Paycashless Tool nodes, driven by the scripted model (scriptedModel.ts)
 * instead of a real LLM: `Webhook (respond with the last node) → AI Agent`, with an OpenAI Chat
 * Model sub-node whose credential points at the scripted server and one or more Paycashless Tool
 * sub-nodes configured by the test. A run posts the prompt to the webhook and returns the agent's
 * answer, what the model was sent (tools offered, tool results) and the saved execution, whose
 * runData holds one run per tool call of each tool node.
 */
import { randomUUID } from 'crypto';

import { PACKAGE_NAME } from '../../scripts/n8n/lab';
import { webhookNode, waitFor, type CredentialRef, type E2eLab, type Execution, type WorkflowNode } from './harness';
import { startScriptedModel, type ChatRequest, type ScriptedModel, type ScriptStep } from './scriptedModel';

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
export function agentVersions(lab: E2eLab): { agent: number; chatModel: number } {
	return lab.n8nVersion.startsWith('1.') ? { agent: 3, chatModel: 1.3 } : { agent: 3.1, chatModel: 1.3 };
}

export interface AgentTool {
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
	/** The agent's system message (default: n8n's). */
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
	/** What n8n shows as the tool's input: the model's arguments. */
	inputOverride?: { ai_tool?: Array<Array<{ json: Record<string, unknown> }>> };
	/** The tool node's output items (the tool result). */
	data?: { ai_tool?: Array<Array<{ json: Record<string, unknown> }>>; main?: Array<Array<{ json: Record<string, unknown> }>> };
	error?: { message?: string };
	source?: Array<{ previousNode: string; previousNodeRun?: number } | null>;
}

export interface AgentRun {
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

/** `Webhook → AI Agent` with the scripted model and the given Paycashless Tool nodes, created and activated. */
export async function createAgentWorkflow(lab: E2eLab, scripted: ScriptedModelInN8n, options: AgentWorkflowOptions): Promise<AgentWorkflow> {
	const versions = agentVersions(lab);
	const webhookPath = `e2e-agent-${randomUUID().slice(0, 8)}`;
	const agentOptions: Record<string, unknown> = { ...options.agentOptions };
	if (options.systemMessage !== undefined) agentOptions.systemMessage = options.systemMessage;
	if (options.maxIterations !== undefined) agentOptions.maxIterations = options.maxIterations;
	const webhook = webhookNode(webhookPath);
	if (options.streaming) {
		webhook.typeVersion = 2.1;
		webhook.parameters = { httpMethod: 'POST', path: webhookPath, responseMode: 'streaming', options: {} };
	}
	const nodes: WorkflowNode[] = [
		webhook,
		{
			name: 'AI Agent',
			type: AGENT_TYPE,
			typeVersion: versions.agent,
			parameters: { promptType: 'define', text: '={{ $json.body.prompt }}', options: agentOptions },
		},
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
		Webhook: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
	};
	for (const tool of options.tools) connections[tool.name] = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
	const workflowId = await lab.createActiveWorkflow(`e2e agent ${webhookPath}`, nodes, connections, [webhookPath]);

	const run: AgentWorkflow['run'] = async (prompt, script, finalText) => {
		const before = new Set((await lab.executions(workflowId)).map((e) => String(e.id)));
		scripted.model.script(script, finalText);
		const response = await fetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, {
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
			30_000,
		);
		const runData = (execution.data?.resultData.runData ?? {}) as unknown as Record<string, ToolRun[]>;
		return {
			status: response.status,
			items,
			output: items[0]?.output,
			chunks,
			requests: scripted.model.chatRequests(),
			execution,
			toolRuns: (nodeName) => runData[nodeName] ?? [],
		};
	};
	return { workflowId, webhookPath, run };
}

/** The JSON items a tool run gave back (what the model gets as the tool result). */
export function toolRunItems(run: ToolRun): Array<Record<string, unknown>> {
	return (run.data?.ai_tool?.[0] ?? run.data?.main?.[0] ?? []).map((item) => item.json);
}
