/**
 * n8n's own execution engine in this process (the engine tier, faster than a real n8n): a workflow JSON run through
 * n8n-core's `WorkflowExecute`, as n8n's `NodeTestHarness` runs n8n's own nodes, with the BUILT
 * package (the tarball every e2e test installs, unpacked) and the emulator as the Paycashless API.
 * What n8n does to items between nodes (pairing, On Error settings, the error output,
 * `normalizeNodeErrors`, which rewrites the JSON of any item carrying `error`) is n8n's code here,
 * not a fake context's idea of it, at unit speed and without an n8n server.
 *
 * The n8n line comes from the jest project (jest.config.js: `engine` runs n8n-core 2.41.1, `engine-1x`
 * 1.123.81, both from the tools cache); its moduleNameMapper points `n8n-workflow` at that
 * install's (test/support/engine/n8n-workflow.cts), so the package, n8n-core and this file share one n8n-workflow, as inside n8n.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	ICredentialType,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWebhookFunctions,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { buildAndPack, CREDENTIAL_TYPE, isAlive, LAB, N8N_HOST_DIR, PACKAGE_NAME } from '../../../scripts/n8n/lab.cjs';
import { N8N_1X } from '../../../scripts/n8n/versions.cjs';

/** Which n8n's engine: set by the jest project (its `globals`: paycashlessEngineN8n '1' for 1.123). */
const LINE = (globalThis as { paycashlessEngineN8n?: string }).paycashlessEngineN8n === '1' ? '1' : '2';
export const ENGINE_N8N = LINE === '1' ? { version: N8N_1X.version, hostDir: N8N_1X.hostDir } : { version: '2.41.1', hostDir: N8N_HOST_DIR };

/** n8n-workflow as the jest project maps it: the same module the package and n8n-core load. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const workflowLib = require('n8n-workflow') as typeof import('n8n-workflow');

interface Core {
	WorkflowExecute: new (additionalData: IWorkflowExecuteAdditionalData, mode: string, runExecutionData?: IRunExecutionData) => { processRunExecutionData(workflow: unknown): Promise<IRun> };
	ExecutionLifecycleHooks: new (mode: string, executionId: string, workflowData: unknown) => { addHandler(hook: string, handler: (...args: unknown[]) => void): void };
	WebhookContext: new (
		workflow: unknown,
		node: INode,
		additionalData: IWorkflowExecuteAdditionalData,
		mode: string,
		webhookData: unknown,
		closeFunctions: Array<() => Promise<void>>,
		runExecutionData: IRunExecutionData | null,
	) => IWebhookFunctions;
}

function core(): Core {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(path.join(ENGINE_N8N.hostDir, 'node_modules', 'n8n-core')) as Core;
}

export interface EnginePackage {
	nodes: Record<string, INodeType | IVersionedNodeType>;
	credential: ICredentialType;
}

let loaded: Promise<EnginePackage> | undefined;

/**
 * The package as users install it: the run's tarball (lab.buildAndPack, one build per jest run),
 * unpacked, its nodes and credential loaded from `dist/` as n8n loads them (package.json's `n8n`).
 */
export function enginePackage(): Promise<EnginePackage> {
	loaded ??= (async () => {
		// The engine's n8n is installed by then: test/support/engine/n8n-workflow.cts, loaded first, installs it.
		const tgz = await buildAndPack({ quiet: true });
		const root = path.join(LAB, 'engine');
		fs.mkdirSync(root, { recursive: true });
		// Unpacked copies of processes that are gone.
		for (const name of fs.readdirSync(root)) {
			const pid = Number(/^run-(\d+)$/.exec(name)?.[1] ?? 0);
			if (pid && !isAlive(pid)) fs.rmSync(path.join(root, name), { recursive: true, force: true });
		}
		const dir = path.join(root, `run-${process.pid}`);
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		const untar = spawnSync('tar', ['xzf', tgz, '-C', dir], { encoding: 'utf8' });
		if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
		const unpacked = path.join(dir, 'package');
		const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } };
		const nodes: EnginePackage['nodes'] = {};
		for (const file of manifest.n8n.nodes) {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const exported = require(path.join(unpacked, file)) as Record<string, new () => INodeType | IVersionedNodeType>;
			for (const NodeClass of Object.values(exported)) {
				const node = new NodeClass();
				nodes[`${PACKAGE_NAME}.${node.description.name}`] = node;
			}
		}
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const credentials = Object.values(require(path.join(unpacked, manifest.n8n.credentials[0])) as Record<string, new () => ICredentialType>);
		// n8n copies a community credential with an object spread (LoadNodesAndCredentials): so does this.
		return { nodes, credential: { ...new credentials[0]() } };
	})();
	return loaded;
}

// Each engine test file loads the package before its first test: on a fresh clone that waits for
// the run's build (and, before the file was loaded, the n8n install), longer than a test's timeout.
beforeAll(() => enginePackage(), 15 * 60_000);

/** A node of n8n's own (n8n-nodes-base), from the same install as the engine. */
function baseNode(name: string): INodeType {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = require(path.join(ENGINE_N8N.hostDir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', name, `${name}.node.js`)) as Record<string, new () => INodeType>;
	return new exported[name]();
}

export interface EngineRun {
	run: IRun;
	/** The items of `node`'s output `output` (0: main / success, 1: the error output), first run. */
	output(node: string, output?: number): INodeExecutionData[];
	/** Nodes in the order n8n ran them. */
	order: string[];
	/**
	 * A run that waits (`run.status` 'waiting'): the call to its resume URL, as n8n's server gives it
	 * to the waiting node (WaitingWebhooks: the node's `webhook` in n8n-core's WebhookContext over the
	 * stored execution, then, with the items it returns, the node disabled and the execution run on
	 * from its stack). What the webhook answered, and the run on when it resumed.
	 */
	resume(call: WebhookCall): Promise<{ answer: { status: number; body: unknown }; resumed?: EngineRun }>;
}

/** One HTTP call to a webhook: the body as sent, its headers, the URL it was made to. */
interface WebhookCall {
	body: string;
	headers: Record<string, string>;
	url: string;
}

/** This engine's resume URL of a waiting execution (`$execution.resumeUrl`: the base below, execution 1). */
export const ENGINE_RESUME_URL = 'http://127.0.0.1:5678/webhook-waiting/1';

/**
 * Runs `nodes` (connected by `connections`) in n8n's engine, starting at the first node with
 * `input` as its items: the first node is a No Operation node named `Start` unless given.
 */
export async function runWorkflow(options: {
	nodes: Array<Omit<INode, 'id' | 'position'> & Partial<Pick<INode, 'id' | 'position'>>>;
	connections: IConnections;
	input: INodeExecutionData[];
	credentials: Record<string, ICredentialDataDecryptedObject>;
}): Promise<EngineRun> {
	const pkg = await enginePackage();
	const { WorkflowExecute, ExecutionLifecycleHooks } = core();
	const types: Record<string, INodeType | IVersionedNodeType> = { ...pkg.nodes, 'n8n-nodes-base.noOp': baseNode('NoOp') };
	const nodeTypes: INodeTypes = {
		getByName: (type) => types[type],
		getByNameAndVersion: (type, version) => workflowLib.NodeHelpers.getVersionedNodeType(types[type], version),
		getKnownTypes: () => ({}),
	};
	const nodes = options.nodes.map((node, index) => ({ id: `node-${index}`, position: [index * 200, 0] as [number, number], ...node }));
	const workflow = new workflowLib.Workflow({ id: 'engine', name: 'engine', nodes, connections: options.connections, active: false, nodeTypes, settings: { executionOrder: 'v1' } });
	const hooks = new ExecutionLifecycleHooks('manual', '1', { id: 'engine', name: 'engine', nodes, connections: options.connections, active: false, settings: {} });
	const order: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (name) => order.push(String(name)));
	const credentialsHelper = {
		getParentTypes: () => [],
		getCredentialsProperties: () => [],
		authenticate: async (credentials: ICredentialDataDecryptedObject, typeName: string, request: IHttpRequestOptions) => {
			if (typeName !== CREDENTIAL_TYPE || typeof pkg.credential.authenticate !== 'function') return request;
			return (pkg.credential.authenticate as (c: ICredentialDataDecryptedObject, r: IHttpRequestOptions) => Promise<IHttpRequestOptions>)(credentials, request);
		},
		preAuthentication: async () => undefined,
		runPreAuthentication: async () => undefined,
		getDecrypted: async (_additional: unknown, _details: unknown, type: string) => options.credentials[type] ?? {},
		updateCredentials: async () => undefined,
		updateCredentialsOauthTokenData: async () => undefined,
		isCredentialUsableByNode: () => true,
	};
	const known: Record<string, unknown> = {
		hooks,
		credentialsHelper,
		currentNodeParameters: undefined,
		executionId: '1',
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		variables: {},
		userId: 'engine-user',
	};
	// The rest of what n8n's server passes (pushes to the editor, sub-workflows, runner identity) is absent.
	const additionalData = known as unknown as IWorkflowExecuteAdditionalData;
	const start = workflow.getNode(nodes[0].name);
	if (!start) throw new Error('no start node');
	const runExecutionData: IRunExecutionData = {
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: null,
			nodeExecutionStack: [{ node: start, data: { main: [options.input] }, source: null }],
		},
	} as unknown as IRunExecutionData;
	const run = await new WorkflowExecute(additionalData, 'manual', runExecutionData).processRunExecutionData(workflow);
	const engineRun = (done: IRun): EngineRun => ({
		run: done,
		order,
		output: (node, output = 0) => done.data.resultData.runData[node]?.[0]?.data?.main[output] ?? [],
		resume: async (call) => await resume(done, call),
	});
	const resume = async (waiting: IRun, call: WebhookCall): Promise<{ answer: { status: number; body: unknown }; resumed?: EngineRun }> => {
		const data = waiting.data;
		const entry = data.executionData?.nodeExecutionStack[0];
		if (waiting.status !== 'waiting' || !entry) throw new Error(`the run is ${waiting.status}, not waiting`);
		const node = workflow.getNode(entry.node.name) as INode;
		const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType;
		const url = new URL(call.url);
		const answer: { status: number; body: unknown } = { status: 200, body: undefined };
		const response = {
			headersSent: false,
			status(code: number) {
				answer.status = code;
				return response;
			},
			json(body: unknown) {
				answer.body = body;
				return response;
			},
			end() {
				response.headersSent = true;
				return response;
			},
			setHeader: () => response,
		};
		const request = {
			method: 'POST',
			url: `${url.pathname}${url.search}`,
			originalUrl: `${url.pathname}${url.search}`,
			headers: Object.fromEntries(Object.entries(call.headers).map(([name, value]) => [name.toLowerCase(), value])),
			query: Object.fromEntries(url.searchParams),
			params: {},
			body: JSON.parse(call.body) as unknown,
			rawBody: Buffer.from(call.body),
		};
		const webhookAdditionalData = { ...known, httpRequest: request, httpResponse: response } as unknown as IWorkflowExecuteAdditionalData;
		const webhookData = { httpMethod: 'POST', node: node.name, path: '', webhookDescription: nodeType.description.webhooks?.[0], workflowId: workflow.id, workflowExecuteAdditionalData: webhookAdditionalData };
		const context = new (core().WebhookContext)(workflow, node, webhookAdditionalData, 'webhook', webhookData, [], data);
		const result = await (nodeType.webhook as (this: IWebhookFunctions) => Promise<IWebhookResponseData>).call(context);
		if (!result.workflowData) return { answer };
		// As n8n resumes it: the webhook's items replace the waiting node's, which is then passed through.
		entry.data.main = result.workflowData;
		entry.metadata = { ...entry.metadata, forwardAllOutputs: true };
		entry.node.disabled = true;
		data.waitTill = undefined;
		const resumed = await new WorkflowExecute(additionalData, 'webhook', data).processRunExecutionData(workflow);
		return { answer, resumed: engineRun(resumed) };
	};
	return engineRun(run);
}

/** A Paycashless action node (the package's own type) with the credential. */
export function paycashlessEngineNode(name: string, parameters: Record<string, unknown>, extra: Partial<INode> = {}): Omit<INode, 'id' | 'position'> {
	return { name, type: `${PACKAGE_NAME}.paycashless`, typeVersion: 1, parameters: parameters as INode['parameters'], credentials: { [CREDENTIAL_TYPE]: { id: 'engine', name: 'Paycashless (emulator)' } }, ...extra };
}
