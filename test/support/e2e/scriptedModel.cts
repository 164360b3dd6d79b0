/**
 * A scripted stand-in for the OpenAI Chat Completions API, so an n8n AI Agent can be tested
 * without a real model: n8n's "OpenAI Chat Model" node (credential `openAiApi`, Base URL = this
 * server's `baseUrl`) talks to it like to OpenAI, and each answer comes from a script the test
 * gives: a queue of turns, each either tool calls (several = parallel tool calls in one turn) or a
 * final text. Every request body is recorded, so a test can read what the model was offered
 * (tools: name, description, JSON schema) and what it was sent (tool results).
 *
 * Bounded by design: once the script is used up, every answer is a final text, so an agent never
 * loops on this model. Listens on 127.0.0.1 and a port the system picks, nothing else.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

/** One tool call the model asks for: the tool's name as offered and its arguments. */
interface ScriptedToolCall {
	name: string;
	arguments: Record<string, unknown>;
	/** Default: `call_<request number>_<index>`. */
	id?: string;
}

/** One answer of the model: tool calls (run by the agent, then the model is asked again) or its final text. */
type ScriptedTurn = { toolCalls: ScriptedToolCall[] } | { text: string };

/** A turn, or a function that decides it from the request (e.g. from a tool result it was sent). */
export type ScriptStep = ScriptedTurn | ((request: ChatRequest) => ScriptedTurn);

/** The parts of a Chat Completions request body the tests read (the rest is kept as sent). */
export interface ChatRequest {
	model?: string;
	stream?: boolean;
	messages: ChatMessage[];
	tools?: OfferedTool[];
	[key: string]: unknown;
}

interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool' | string;
	content?: unknown;
	tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
	[key: string]: unknown;
}

export interface OfferedTool {
	type: 'function';
	function: { name: string; description?: string; parameters?: JsonSchema; strict?: boolean };
}

interface JsonSchema {
	type?: string;
	properties?: Record<string, JsonSchema>;
	required?: string[];
	description?: string;
	[key: string]: unknown;
}

/** Everything that reached the server, in order. */
interface RecordedRequest {
	method: string;
	path: string;
	/** Parsed JSON body (undefined for a GET). */
	body?: unknown;
	/** What the server answered: the turn for a chat completion, or a note. */
	answered: ScriptedTurn | { other: string };
}

export interface ScriptedModel {
	/** e.g. `http://127.0.0.1:43123/v1`: the value of the openAiApi credential's Base URL. */
	baseUrl: string;
	/** The id answered in responses and in GET /models. */
	modelId: string;
	/** Every request, in order. */
	readonly requests: RecordedRequest[];
	/** The chat-completion request bodies, in order. */
	chatRequests(): ChatRequest[];
	/** Replaces the script (what is left of an earlier one is dropped) and forgets recorded requests. */
	script(steps: ScriptStep[], finalText?: string): void;
	/** Steps not used yet. */
	remaining(): number;
	close(): Promise<void>;
}

/** What the model answers once the script is used up. */
const SCRIPT_FINISHED_TEXT = 'The script has no more turns.';

/** A ceiling on requests per script, far above any test's needs: a runaway agent fails fast. */
const MAX_REQUESTS_PER_SCRIPT = 100;

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
	res.end(text);
}

function openAiError(res: ServerResponse, status: number, message: string): void {
	sendJson(res, status, { error: { message, type: 'invalid_request_error', param: null, code: null } });
}

/** OpenAI sends arguments as a JSON string. */
function toolCallsOf(turn: { toolCalls: ScriptedToolCall[] }, requestNumber: number): NonNullable<ChatMessage['tool_calls']> {
	return turn.toolCalls.map((call, index) => ({
		id: call.id ?? `call_${requestNumber}_${index}`,
		type: 'function',
		function: { name: call.name, arguments: JSON.stringify(call.arguments) },
	}));
}

export async function startScriptedModel(options: { modelId?: string } = {}): Promise<ScriptedModel> {
	const modelId = options.modelId ?? 'scripted-model';
	const requests: RecordedRequest[] = [];
	let steps: ScriptStep[] = [];
	let finalText = SCRIPT_FINISHED_TEXT;
	let chatCount = 0;

	function nextTurn(request: ChatRequest): ScriptedTurn {
		if (chatCount > MAX_REQUESTS_PER_SCRIPT) return { text: `${finalText} (request limit reached)` };
		const step = steps.shift();
		if (step === undefined) return { text: finalText };
		return typeof step === 'function' ? step(request) : step;
	}

	function completion(turn: ScriptedTurn, requestNumber: number): Record<string, unknown> {
		const message: ChatMessage =
			'text' in turn ? { role: 'assistant', content: turn.text, refusal: null } : { role: 'assistant', content: null, tool_calls: toolCallsOf(turn, requestNumber), refusal: null };
		return {
			id: `chatcmpl-scripted-${requestNumber}`,
			object: 'chat.completion',
			created: Math.floor(Date.now() / 1000),
			model: modelId,
			choices: [{ index: 0, message, logprobs: null, finish_reason: 'text' in turn ? 'stop' : 'tool_calls' }],
			usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
		};
	}

	/** The same answer as Server-Sent Events, in the chunks OpenAI sends (role, content or tool calls, finish, usage). */
	function stream(res: ServerResponse, turn: ScriptedTurn, requestNumber: number, includeUsage: boolean): void {
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
		const base = { id: `chatcmpl-scripted-${requestNumber}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: modelId };
		const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
			res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`);
		if ('text' in turn) {
			chunk({ role: 'assistant', content: '' }, null);
			// In a few pieces, as a model streams tokens.
			const words = turn.text.split(/(?<= )/);
			for (const word of words) chunk({ content: word }, null);
			chunk({}, 'stop');
		} else {
			chunk({ role: 'assistant', content: null }, null);
			toolCallsOf(turn, requestNumber).forEach((call, index) => {
				chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, null);
				chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }, null);
			});
			chunk({}, 'tool_calls');
		}
		if (includeUsage) res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
		res.write('data: [DONE]\n\n');
		res.end();
	}

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
		const method = req.method ?? 'GET';
		if (method === 'GET' && /\/models$/.test(path)) {
			requests.push({ method, path, answered: { other: 'models' } });
			sendJson(res, 200, { object: 'list', data: [{ id: modelId, object: 'model', created: 0, owned_by: 'paycashless-tests' }] });
			return;
		}
		const text = await readBody(req);
		let body: unknown;
		try {
			body = text ? (JSON.parse(text) as unknown) : undefined;
		} catch {
			requests.push({ method, path, body: text, answered: { other: 'invalid JSON' } });
			openAiError(res, 400, 'The body is not valid JSON');
			return;
		}
		if (method !== 'POST' || !/\/chat\/completions$/.test(path)) {
			// e.g. the Responses API (/v1/responses): the chat model node must have it switched off.
			requests.push({ method, path, body, answered: { other: 'not supported' } });
			openAiError(res, 404, `The scripted model answers POST …/chat/completions and GET …/models only, not ${method} ${path}`);
			return;
		}
		const request = body as ChatRequest;
		chatCount += 1;
		const turn = nextTurn(request);
		requests.push({ method, path, body, answered: turn });
		if (request.stream === true) {
			const streamOptions = request.stream_options as { include_usage?: boolean } | undefined;
			stream(res, turn, chatCount, streamOptions?.include_usage === true);
		} else {
			sendJson(res, 200, completion(turn, chatCount));
		}
	}

	const server: Server = createServer((req, res) => {
		handle(req, res).catch((error: Error) => {
			if (!res.headersSent) openAiError(res, 500, `scripted model failed: ${error.message}`);
			else res.end();
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;

	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		modelId,
		requests,
		chatRequests: () => requests.filter((r) => r.path.endsWith('/chat/completions') && r.body !== undefined && !('other' in r.answered)).map((r) => r.body as ChatRequest),
		script(newSteps, newFinalText = SCRIPT_FINISHED_TEXT) {
			steps = [...newSteps];
			finalText = newFinalText;
			chatCount = 0;
			requests.length = 0;
		},
		remaining: () => steps.length,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** The tools offered in a request, by name. */
export function offeredTools(request: ChatRequest): Map<string, OfferedTool['function']> {
	return new Map((request.tools ?? []).map((tool) => [tool.function.name, tool.function]));
}

/** The tool results (role `tool` messages) in a request, with the name of the call they answer. */
export function toolResults(request: ChatRequest): Array<{ toolCallId: string; name?: string; content: string }> {
	const names = new Map<string, string>();
	for (const message of request.messages) for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
	return request.messages
		.filter((message) => message.role === 'tool')
		.map((message) => ({
			toolCallId: String(message.tool_call_id),
			name: names.get(String(message.tool_call_id)),
			content: typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
		}));
}
