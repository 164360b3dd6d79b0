/**
 * A fake `this` for a trigger's `webhook()` (n8n's own test pattern: a plain object called through
 * `trigger.webhook.call(fakeThis)`), plus `n8nAnswer`, which turns the webhook's result into the
 * HTTP answer n8n would send for `responseMode: 'onReceived'`, `responseData: 'noData'`.
 */
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	IHttpRequestOptions,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

export const TEST_WEBHOOK_ID = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
export const TEST_PRODUCTION_URL = `https://n8n.example.com/webhook/${TEST_WEBHOOK_ID}/webhook`;

export interface LogLine {
	level: 'debug' | 'info' | 'warn' | 'error';
	message: string;
	meta?: unknown;
}

/** Records what the node writes to `getResponseObject()`. */
class RecordedResponse {
	statusCode = 200;
	body: unknown = undefined;
	ended = false;
	headers: Record<string, string> = {};
	/** Calls in order, e.g. ['status', 'json', 'end']. */
	calls: string[] = [];

	status(code: number): this {
		this.calls.push('status');
		this.statusCode = code;
		return this;
	}
	json(body: unknown): this {
		this.calls.push('json');
		this.body = body;
		this.headers['content-type'] = 'application/json';
		this.ended = true;
		return this;
	}
	send(body?: unknown): this {
		this.calls.push('send');
		this.body = body;
		this.ended = true;
		return this;
	}
	setHeader(name: string, value: string): this {
		this.headers[name.toLowerCase()] = value;
		return this;
	}
	end(): this {
		this.calls.push('end');
		this.ended = true;
		return this;
	}
}

export interface FakeWebhookOptions {
	/** Parsed body as n8n's body parser would give it (`getBodyData()`); default: JSON.parse of rawBody, else {}. */
	body?: unknown;
	/** `getRequestObject().rawBody`. A string is turned into a Buffer unless `rawBodyAsString`. Omit for none. */
	rawBody?: string | Buffer;
	rawBodyAsString?: boolean;
	/**
	 * A body n8n left unread (a webhook node of version 2, a content type n8n does not parse): the
	 * request has no `rawBody` until `readRawBody()` (n8n's, on the request) sets it to these bytes; an
	 * Error makes the read fail with it. The reads are counted in `getRequestObject().rawBodyReads`.
	 */
	unreadBody?: string | Error;
	/** Request headers in any case; they are lower-cased like Node's. */
	headers?: Record<string, string | string[] | undefined>;
	/** Path and query of the request as received, e.g. `/webhook/<id>/webhook?x=1`. */
	requestUrl?: string;
	/** Node parameters; unset ones take the default from the node's description. */
	parameters?: Record<string, unknown>;
	credentials?: Record<string, unknown>;
	/** `getNodeWebhookUrl('default')`. Default TEST_PRODUCTION_URL. */
	productionUrl?: string;
	/** When set, the context also has `getWebhookResourceUrl` returning it (newer n8n). */
	servedUrl?: string;
	webhookId?: string;
	mode?: 'webhook' | 'manual';
	/** `getWorkflowStaticData('node')`: pass the same object to several runs to share it. Default: a fresh {}. */
	staticData?: IDataObject;
	/** `helpers.httpRequestWithAuthentication` (for Confirm With Paycashless). Default: throws. */
	httpRequestWithAuthentication?: (credentialType: string, options: IHttpRequestOptions) => Promise<unknown>;
}

interface FakeWebhookContext {
	context: IWebhookFunctions;
	response: RecordedResponse;
	logs: LogLine[];
}

function descriptionDefaults(properties: INodeProperties[]): Record<string, unknown> {
	const defaults: Record<string, unknown> = {};
	for (const property of properties) {
		if (property.type === 'notice') continue;
		defaults[property.name] = property.default;
	}
	return defaults;
}

function lowerCaseHeaders(headers: FakeWebhookOptions['headers']): Record<string, string | string[]> {
	const result: Record<string, string | string[]> = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		if (value !== undefined) result[name.toLowerCase()] = value;
	}
	return result;
}

function parseQuery(requestUrl: string): IDataObject {
	const at = requestUrl.indexOf('?');
	if (at < 0) return {};
	return Object.fromEntries(new URLSearchParams(requestUrl.slice(at + 1)).entries());
}

function createWebhookContext(node: INodeType, options: FakeWebhookOptions = {}): FakeWebhookContext {
	const response = new RecordedResponse();
	const logs: LogLine[] = [];
	const staticData = options.staticData ?? {};
	const headers = lowerCaseHeaders(options.headers);
	const requestUrl = options.requestUrl ?? `/webhook/${options.webhookId ?? TEST_WEBHOOK_ID}/webhook`;

	let rawBody: string | Buffer | undefined;
	if (options.rawBody !== undefined) {
		rawBody =
			typeof options.rawBody === 'string' && !options.rawBodyAsString ? Buffer.from(options.rawBody, 'utf8') : options.rawBody;
	}
	let body = options.body;
	if (body === undefined) {
		try {
			body = options.rawBody === undefined ? {} : JSON.parse(options.rawBody.toString());
		} catch {
			body = {};
		}
	}

	const request: Record<string, unknown> = { method: 'POST', url: requestUrl, originalUrl: requestUrl, headers, body, rawBody, query: parseQuery(requestUrl) };
	if (options.unreadBody !== undefined) {
		const unread = options.unreadBody;
		request.rawBodyReads = 0;
		request.readRawBody = async () => {
			request.rawBodyReads = (request.rawBodyReads as number) + 1;
			if (unread instanceof Error) throw unread;
			request.rawBody ??= Buffer.from(unread, 'utf8');
		};
	}
	const parameters = { ...descriptionDefaults(node.description.properties), ...(options.parameters ?? {}) };
	const webhookNode = {
		id: 'node-1',
		name: 'Paycashless Trigger',
		type: 'n8n-nodes-paycashless.paycashlessTrigger',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: parameters as IDataObject,
		webhookId: options.webhookId ?? TEST_WEBHOOK_ID,
	};
	const log =
		(level: LogLine['level']) =>
		(message: string, meta?: unknown): void => {
			logs.push({ level, message, meta });
		};

	const context: Record<string, unknown> = {
		getRequestObject: () => request,
		getResponseObject: () => response,
		getHeaderData: () => headers,
		getBodyData: () => body,
		getQueryData: () => request.query,
		getParamsData: () => ({}),
		getNodeParameter: (name: string, fallback?: unknown) => (name in parameters ? parameters[name] : fallback),
		getCredentials: async (type: string) => {
			if (type !== 'paycashlessApi') throw new Error(`Unexpected credential type ${type}`);
			if (!options.credentials) throw new Error('Node does not have any credentials set');
			return options.credentials;
		},
		getNodeWebhookUrl: (name: string) => (name === 'default' ? (options.productionUrl ?? TEST_PRODUCTION_URL) : undefined),
		getWebhookName: () => 'default',
		getMode: () => options.mode ?? 'webhook',
		getNode: () => webhookNode,
		logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
		getWorkflowStaticData: () => staticData,
		helpers: {
			returnJsonArray: (data: IDataObject | IDataObject[]): INodeExecutionData[] =>
				(Array.isArray(data) ? data : [data]).map((json) => ({ json })),
			httpRequestWithAuthentication: async (credentialType: string, requestOptions: IHttpRequestOptions) => {
				if (!options.httpRequestWithAuthentication) throw new Error('no HTTP in this test');
				return await options.httpRequestWithAuthentication(credentialType, requestOptions);
			},
		},
	};
	if (options.servedUrl !== undefined) {
		context.getWebhookResourceUrl = (name: string) => (name === 'default' ? options.servedUrl : undefined);
	}
	return { context: context as unknown as IWebhookFunctions, response, logs };
}

export interface WebhookRun extends FakeWebhookContext {
	result: IWebhookResponseData;
	/** The HTTP answer n8n would send. */
	answer: { status: number; body: unknown };
	/** The items that would start the workflow (empty when none). */
	items: IDataObject[];
}

/**
 * The answer n8n gives for a webhook result (packages/cli/src/webhooks/webhook-helpers.ts):
 * `noWebhookResponse` → whatever the node wrote; no `workflowData` → 200 "Webhook call received"
 * (or `webhookResponse`); otherwise `onReceived` + `noData` → 200 with an empty body.
 */
function n8nAnswer(result: IWebhookResponseData, response: RecordedResponse): { status: number; body: unknown } {
	if (result.noWebhookResponse === true) return { status: response.statusCode, body: response.body };
	if (result.workflowData === undefined) {
		return { status: 200, body: result.webhookResponse ?? { message: 'Webhook call received' } };
	}
	return { status: 200, body: undefined };
}

/** Builds the context, calls `node.webhook` with it and collects what came out. */
export async function runWebhook(node: INodeType, options: FakeWebhookOptions = {}): Promise<WebhookRun> {
	const fake = createWebhookContext(node, options);
	if (!node.webhook) throw new Error('node has no webhook()');
	const result = await node.webhook.call(fake.context);
	const items = (result.workflowData?.[0] ?? []).map((item) => item.json);
	return { ...fake, result, answer: n8nAnswer(result, fake.response), items };
}
