/**
 * The bench's n8n: the end-to-end lab (test/support/e2e/harness.cts: lab n8n 2.41.1, the packed package
 * installed as a community package, the emulator in this process, the good credential), plus
 * what the bench adds: workflows created with execution saving of our choice, a timed webhook
 * call, and the n8n processes whose memory is watched.
 */
import { randomUUID } from 'crypto';

import { startE2eLab, webhookNode, type E2eLab, type WorkflowNode } from '../test/support/e2e/harness.cjs';
import { waitForProductionWebhook } from '../scripts/n8n/lab.cjs';
import { descendants, type ProcInfo } from './procmem.cjs';

export interface BenchLab {
	e2e: E2eLab;
	/** n8n's main process and its task runner (when it runs separately). */
	processes(): ProcInfo[];
	/**
	 * Creates and activates a workflow. `save: false` keeps n8n from storing the data of
	 * successful executions (the timed runs measure the nodes, not n8n's database).
	 */
	createWorkflow(name: string, nodes: WorkflowNode[], connections: Record<string, unknown>, webhookPaths: string[], save: boolean): Promise<string>;
	/** POSTs JSON to a production webhook; the time is from sending to the end of the answer. */
	post(webhookPath: string, body: unknown, headers?: Record<string, string>): Promise<{ ms: number; status: number; text: string }>;
	close(): Promise<void>;
}

/** `Webhook → …` answering when the last node is done, with its first item or all of them. */
export function startNode(webhookPath: string, responseData: 'firstEntryJson' | 'allEntries'): WorkflowNode {
	const node = webhookNode(webhookPath);
	return { ...node, parameters: { ...node.parameters, responseData } };
}

export function uniquePath(prefix: string): string {
	return `bench-${prefix}-${randomUUID().slice(0, 8)}`;
}

/** `a → b → c` connections on the main output. */
export function chain(nodes: WorkflowNode[]): Record<string, unknown> {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return connections;
}

/** `n8nEnv`: more environment for n8n (e.g. one of its expression-engine settings). */
/**
 * n8n answers 503 "Database is not ready!" while its database health check is failing (seen after a
 * long run on a machine at load 15): it refused before doing anything, so the call is made again,
 * for up to a minute.
 */
async function whileDatabaseBusy<T>(call: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await call();
		} catch (error) {
			if (attempt >= 20 || !/HTTP 503 .*Database is not ready/.test((error as Error).message)) throw error;
			await new Promise((resolve) => setTimeout(resolve, 3000));
		}
	}
}

export async function startBenchLab(options: { n8nEnv?: Record<string, string> } = {}): Promise<BenchLab> {
	const { n8nEnv } = options;
	const e2e = await startE2eLab(n8nEnv ? { beforeStart: (config) => void (config.env = { ...config.env, ...n8nEnv }) } : {});
	const rootPid = e2e.n8n.process?.pid;
	if (rootPid === undefined) throw new Error('the benchmark measures an n8n it started itself');
	return {
		e2e,
		processes: () => descendants(rootPid).filter((p) => p.role === 'n8n' || p.role === 'task-runner'),
		async createWorkflow(name, nodes, connections, webhookPaths, save) {
			const created = await whileDatabaseBusy(() => e2e.session.api<{ id: string }>('POST', '/workflows', {
				name,
				nodes: nodes.map((node, index) => ({ id: randomUUID(), position: [index * 240, 0], ...node })),
				connections,
				settings: {
					executionOrder: 'v1',
					saveDataSuccessExecution: save ? 'all' : 'none',
					saveDataErrorExecution: 'all',
					saveManualExecutions: false,
				},
			}));
			await whileDatabaseBusy(() => e2e.session.api('POST', `/workflows/${created.id}/activate`));
			for (const webhookPath of webhookPaths) await waitForProductionWebhook(e2e.n8n.baseUrl, webhookPath);
			return created.id;
		},
		async post(webhookPath, body, headers = {}) {
			const payload = typeof body === 'string' ? body : JSON.stringify(body);
			const started = performance.now();
			const response = await fetch(`${e2e.n8n.baseUrl}/webhook/${webhookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: payload,
			});
			const text = await response.text();
			return { ms: performance.now() - started, status: response.status, text };
		},
		close: () => e2e.close(),
	};
}
