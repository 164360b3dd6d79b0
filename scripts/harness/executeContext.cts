/**
 * A fake `IExecuteFunctions` (and `ILoadOptionsFunctions`) good enough to run the real node's
 * `execute` against the emulator or any HTTP server:
 * - per-item parameters, resolved with n8n-workflow's own NodeHelpers.getNodeParameters (the defaults of
 *   every parameter shown), nested paths (`additionalFields.narration`) and `{ extractValue: true }`;
 * - `helpers.httpRequestWithAuthentication` done the way n8n does it: the real credential's
 *   `authenticate`, then Node's `fetch` (baseURL + url, qs without undefined values, body
 *   string as is or object as JSON, `returnFullResponse`, `ignoreHttpStatusErrors`, `json`;
 *   network errors throw with `code`);
 * - `returnJsonArray`, `constructExecutionMetaData`, `continueOnFail`, `getNode`, `logger`.
 * Every request sent is recorded in `sent`, every log line in `logs`.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	IPairedItemData,
	JsonObject,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeApiError, NodeHelpers } from 'n8n-workflow';

import { PaycashlessApi, type PaycashlessCredentialData } from '../../credentials/PaycashlessApi.credentials';
import { joinUrl } from '../../lib/signing';
import { Paycashless } from '../../nodes/Paycashless/Paycashless.node';

export interface SentRequest {
	method: string;
	/** Full URL with query string. */
	url: string;
	/** Path without query string. */
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	/** Body text sent, or undefined. */
	body?: string;
	/** When it was sent (Date.now()). */
	at: number;
	/** Timeout asked for in the request options, ms. */
	timeout?: number;
}

export interface LogLine {
	level: 'debug' | 'info' | 'warn' | 'error';
	message: string;
	meta?: unknown;
}

export interface ContextOptions {
	/** Parameters of every item (one object for all items, or one per item). */
	parameters: INodeParameters | INodeParameters[];
	/** Input items; default one empty item per parameter set (at least one). */
	items?: INodeExecutionData[];
	credentials: PaycashlessCredentialData;
	continueOnFail?: boolean;
	/** Run as n8n runs the tool variant ("Paycashless Tool"): type and description named `…Tool`. */
	asTool?: boolean;
	/** n8n's per-execution node context (getContext('node')); share one object across runs of one execution. */
	nodeContext?: IDataObject;
	/** n8n's per-execution flow context (getContext('flow')), which every node of an execution shares; share one object across runs. */
	flowContext?: IDataObject;
	/** Workflow time zone; default UTC. */
	timezone?: string;
	/** Node type whose description supplies the defaults; default the Paycashless node. */
	nodeType?: INodeType;
	/**
	 * Throw failed requests the way n8n-core does: a NodeApiError wrapping an axios-like error
	 * whose `config` holds the signed request (headers with the API key and signature). Default
	 * false: a plain Error with `code`.
	 */
	wrapErrorsLikeN8n?: boolean;
	/** The workflow and execution n8n names (`getWorkflow`, `getExecutionId`); defaults below. */
	workflow?: { id: string; name: string };
	executionId?: string;
	/**
	 * The nodes before this one (`getParentNodes`), each with its output in this execution (what
	 * `evaluateExpression('{{ $("Name").first().json }}')` reads; none: it did not run) and the
	 * names of the nodes before it.
	 */
	upstream?: UpstreamNode[];
	/** The node the input items came from (`getInputSourceData`). */
	previousNode?: string;
}

export interface UpstreamNode {
	name: string;
	type: string;
	parameters?: INodeParameters;
	output?: IDataObject;
	parents?: string[];
}

/** n8n's `getParentNodes` and `evaluateExpression` (the `$("Name").first().json` form only) over `upstream`. */
function upstreamFunctions(upstream: UpstreamNode[], self: string) {
	const byName = new Map(upstream.map((node) => [node.name, node]));
	const ancestors = (name: string, seen = new Set<string>()): UpstreamNode[] => {
		const direct = name === self ? upstream.map((node) => node.name) : (byName.get(name)?.parents ?? []);
		for (const parent of direct) {
			if (seen.has(parent)) continue;
			seen.add(parent);
			if (name !== self) ancestors(parent, seen);
		}
		return [...seen].map((parent) => byName.get(parent)).filter((node): node is UpstreamNode => node !== undefined);
	};
	return {
		getParentNodes: (name: string, options?: { includeNodeParameters?: boolean }) =>
			ancestors(name).map((node) => ({ name: node.name, type: node.type, typeVersion: 1, disabled: false, ...(options?.includeNodeParameters ? { parameters: clone(node.parameters ?? {}) } : {}) })),
		evaluateExpression: (expression: string) => {
			const match = /^\{\{ \$\((".*?")\)\.first\(\)\.json \}\}$/.exec(expression);
			if (!match) throw new Error(`the test context evaluates only {{ $("Name").first().json }}, not ${expression}`);
			const output = byName.get(JSON.parse(match[1]) as string)?.output;
			if (!output) throw new Error(`Node '${JSON.parse(match[1]) as string}' hasn't been executed`);
			return clone(output);
		},
	};
}

export interface ExecuteHarness {
	context: IExecuteFunctions;
	sent: SentRequest[];
	logs: LogLine[];
	/** What the node gave `addExecutionHints`. */
	hints: NodeExecutionHint[];
}

const TEST_NODE: INode = {
	id: 'b3a1c0de-0000-4000-8000-000000000001',
	name: 'Paycashless',
	type: 'n8n-nodes-paycashless.paycashless',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function clone<T>(value: T): T {
	return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/**
 * The node's parameters as n8n resolves them: the user's values, plus the defaults of every
 * parameter shown for them (n8n-workflow's own `NodeHelpers.getNodeParameters`, as the editor and
 * the engine use it), so a test sees exactly what a real run sees.
 */
function resolveParameters(description: INodeTypeDescription, parameters: INodeParameters): INodeParameters {
	return (
		NodeHelpers.getNodeParameters(description.properties, parameters, true, false, { typeVersion: TEST_NODE.typeVersion }, description) ??
		{}
	);
}

function extract(value: unknown): unknown {
	if (value && typeof value === 'object' && (value as IDataObject).__rl === true) return (value as IDataObject).value;
	return value;
}

/** n8n-style getNodeParameter over per-item parameters. */
function makeGetNodeParameter(
	description: INodeTypeDescription,
	parametersOf: (itemIndex: number) => INodeParameters,
) {
	const resolved = new Map<INodeParameters, INodeParameters>();
	return (name: string, itemIndex: number, fallbackValue?: unknown, options?: IGetNodeParameterOptions): unknown => {
		const parameters = parametersOf(itemIndex);
		let all = resolved.get(parameters);
		if (!all) {
			all = resolveParameters(description, parameters);
			resolved.set(parameters, all);
		}
		const [top, ...rest] = name.split('.');
		let value: unknown = all[top];
		for (const key of rest) {
			value = value && typeof value === 'object' ? (value as IDataObject)[key] : undefined;
		}
		if (value === undefined) {
			if (fallbackValue !== undefined) return fallbackValue;
			throw new Error(`Could not get parameter "${name}"`);
		}
		value = clone(value);
		return options?.extractValue ? extract(value) : value;
	};
}

/** Query serialisation like n8n's: undefined values skipped, arrays repeated. */
function queryString(qs: IDataObject | undefined): string {
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(qs ?? {})) {
		if (value === undefined) continue;
		if (Array.isArray(value)) for (const element of value) params.append(key, String(element));
		else params.append(key, value === null ? '' : String(value));
	}
	const text = params.toString();
	return text ? `?${text}` : '';
}

interface FullResponse {
	body: unknown;
	headers: Record<string, string>;
	statusCode: number;
	statusMessage: string;
}

/** Sends a request the way n8n's `httpRequest` treats its options (subset used here). */
async function sendHttpRequest(options: IHttpRequestOptions, sent: SentRequest[]): Promise<unknown> {
	const method = (options.method ?? 'GET').toUpperCase();
	const base = joinUrl(options.baseURL, options.url);
	const url = base + queryString(options.qs);
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		if (value !== undefined && value !== null) headers[name] = String(value);
	}
	let body: string | Buffer | undefined;
	if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
	else if (options.body !== undefined && options.body !== null) {
		body = JSON.stringify(options.body);
		if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
	}
	if (options.json && !Object.keys(headers).some((h) => h.toLowerCase() === 'accept')) {
		headers.Accept = 'application/json';
	}
	const parsedUrl = new URL(url);
	sent.push({
		method,
		url,
		path: parsedUrl.pathname,
		query: Object.fromEntries(parsedUrl.searchParams.entries()),
		headers: { ...headers },
		body: body === undefined ? undefined : body.toString(),
		at: Date.now(),
		timeout: options.timeout,
	});

	let response: Response;
	let text: string;
	const signal = options.timeout ? AbortSignal.timeout(options.timeout) : undefined;
	try {
		response = await fetch(url, { method, headers, body, signal });
		text = await response.text();
	} catch (error) {
		if ((error as Error).name === 'TimeoutError') {
			// What axios (n8n's HTTP client) throws when `timeout` runs out.
			const failure = new Error(`timeout of ${options.timeout}ms exceeded`) as Error & { code?: string };
			failure.code = 'ECONNABORTED';
			throw failure;
		}
		const cause = (error as { cause?: { code?: string; message?: string } }).cause;
		const failure = new Error(cause?.message ?? (error as Error).message) as Error & { code?: string };
		failure.code = cause?.code ?? 'ECONNRESET';
		throw failure;
	}
	let parsed: unknown = text;
	if (options.json !== false && text !== '') {
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = text;
		}
	}
	const responseHeaders: Record<string, string> = {};
	response.headers.forEach((value, name) => {
		responseHeaders[name] = value;
	});
	if (response.status >= 400 && !options.ignoreHttpStatusErrors) {
		const failure = new Error(`Request failed with status code ${response.status}`) as Error & {
			httpCode?: string;
			response?: FullResponse;
		};
		failure.httpCode = String(response.status);
		failure.response = { body: parsed, headers: responseHeaders, statusCode: response.status, statusMessage: response.statusText };
		throw failure;
	}
	if (options.returnFullResponse) {
		return { body: parsed, headers: responseHeaders, statusCode: response.status, statusMessage: response.statusText };
	}
	return parsed;
}

/**
 * n8n-core's `httpRequestWithAuthentication` rethrows every failure as
 * `new NodeApiError(node, axiosError)`; the axios error carries the signed request in `config`.
 */
function wrapLikeN8n(error: unknown, signed: IHttpRequestOptions, node: INode): NodeApiError {
	const axiosError = Object.assign(new Error((error as Error).message), {
		name: 'AxiosError',
		isAxiosError: true,
		code: (error as { code?: string }).code,
		config: { ...signed, headers: { ...(signed.headers ?? {}) } },
		request: { _header: JSON.stringify(signed.headers ?? {}) },
	});
	return new NodeApiError(node, axiosError as unknown as JsonObject);
}

function makeHelpers(credentials: PaycashlessCredentialData, sent: SentRequest[], wrapErrorsLikeN8n = false) {
	const credentialType = new PaycashlessApi();
	return {
		async httpRequestWithAuthentication(credentialsType: string, requestOptions: IHttpRequestOptions) {
			if (credentialsType !== credentialType.name) throw new Error(`Unknown credential type ${credentialsType}`);
			const signed = await credentialType.authenticate(
				credentials as unknown as ICredentialDataDecryptedObject,
				clone(requestOptions),
			);
			try {
				return await sendHttpRequest(signed, sent);
			} catch (error) {
				if (wrapErrorsLikeN8n) throw wrapLikeN8n(error, signed, TEST_NODE);
				throw error;
			}
		},
		async httpRequest(requestOptions: IHttpRequestOptions) {
			return await sendHttpRequest(requestOptions, sent);
		},
		returnJsonArray(data: IDataObject | IDataObject[]): INodeExecutionData[] {
			const list = Array.isArray(data) ? data : [data];
			return list.map((entry) => (entry && typeof entry.json === 'object' ? (entry as unknown as INodeExecutionData) : { json: entry }));
		},
		constructExecutionMetaData(
			inputData: INodeExecutionData[],
			options: { itemData: IPairedItemData | IPairedItemData[] },
		): INodeExecutionData[] {
			return inputData.map((data) => ({ ...data, pairedItem: options.itemData }));
		},
	};
}

function makeLogger(logs: LogLine[]) {
	const log = (level: LogLine['level']) => (message: string, meta?: unknown) => {
		logs.push({ level, message, meta });
	};
	return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export function createExecuteContext(options: ContextOptions): ExecuteHarness {
	const nodeType = options.nodeType ?? new Paycashless();
	const parameterSets = Array.isArray(options.parameters) ? options.parameters : [options.parameters];
	const items = options.items ?? parameterSets.map(() => ({ json: {} }));
	const parametersOf = (i: number) => parameterSets[Math.min(i, parameterSets.length - 1)];
	const sent: SentRequest[] = [];
	const logs: LogLine[] = [];
	const hints: NodeExecutionHint[] = [];

	const context = {
		getInputData: () => items,
		addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
		getNodeParameter: makeGetNodeParameter(
			options.asTool ? { ...nodeType.description, name: `${nodeType.description.name}Tool` } : nodeType.description,
			parametersOf,
		),
		getCredentials: async (type: string) => {
			if (type !== 'paycashlessApi') throw new Error(`Node has no credential of type ${type}`);
			return clone(options.credentials) as unknown as ICredentialDataDecryptedObject;
		},
		getNode: () => ({ ...TEST_NODE, ...(options.asTool ? { type: `${TEST_NODE.type}Tool` } : {}), parameters: clone(parametersOf(0)) }),
		getTimezone: () => options.timezone ?? 'UTC',
		continueOnFail: () => options.continueOnFail ?? false,
		getContext: (() => {
			const contexts: Record<string, IDataObject> = { node: options.nodeContext ?? {}, flow: options.flowContext ?? {} };
			return (type: string) => contexts[type];
		})(),
		logger: makeLogger(logs),
		helpers: makeHelpers(options.credentials, sent, options.wrapErrorsLikeN8n),
		getWorkflow: () => ({ active: false, ...(options.workflow ?? { id: 'wfUnitTest000001', name: 'Unit test workflow' }) }),
		getExecutionId: () => options.executionId ?? '1',
		getInputSourceData: () => (options.previousNode ? { previousNode: options.previousNode, previousNodeOutput: 0, previousNodeRun: 0 } : undefined),
		...upstreamFunctions(options.upstream ?? [], TEST_NODE.name),
	};
	return { context: context as unknown as IExecuteFunctions, sent, logs, hints };
}

export interface LoadOptionsHarness {
	context: ILoadOptionsFunctions;
	sent: SentRequest[];
	logs: LogLine[];
}

export function createLoadOptionsContext(options: {
	credentials: PaycashlessCredentialData;
	parameters?: INodeParameters;
}): LoadOptionsHarness {
	const sent: SentRequest[] = [];
	const logs: LogLine[] = [];
	const getParameter = makeGetNodeParameter(new Paycashless().description, () => options.parameters ?? {});
	const context = {
		getNodeParameter: (name: string, fallback?: unknown, opts?: IGetNodeParameterOptions) =>
			getParameter(name, 0, fallback, opts),
		getCredentials: async () => clone(options.credentials) as unknown as ICredentialDataDecryptedObject,
		getNode: () => ({ ...TEST_NODE }),
		getTimezone: () => 'UTC',
		logger: makeLogger(logs),
		helpers: makeHelpers(options.credentials, sent),
	};
	return { context: context as unknown as ILoadOptionsFunctions, sent, logs };
}

export interface RunResult {
	output: INodeExecutionData[];
	sent: SentRequest[];
	logs: LogLine[];
	hints: NodeExecutionHint[];
}

/** Runs the Paycashless node's `execute` once over the given items. */
export async function runNode(options: ContextOptions): Promise<RunResult> {
	const harness = createExecuteContext(options);
	const node = (options.nodeType ?? new Paycashless()) as INodeType & {
		execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;
	};
	const [output] = await node.execute.call(harness.context);
	return { output, sent: harness.sent, logs: harness.logs, hints: harness.hints };
}
