/**
 * One real n8n for the end-to-end tests: installs the lab n8n if needed (scripts/n8n/install.sh),
 * builds and packs this package, installs the tarball into a fresh n8n user folder as a
 * community package, starts the emulator in this process and n8n as a child process group,
 * creates the owner, a public-API key and two Paycashless credentials (good and bad secret).
 *
 * Workflows are created through n8n's public API and started through a Webhook node whose
 * response is the last node's output, so a test reads the items n8n produced in one HTTP call.
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import type { EmulatorHandle, EmulatorOptions } from '../../../emulator/types.cjs';
import {
	CREDENTIAL_TYPE,
	LAB,
	N8N_DEFAULT,
	N8nSession,
	NODE_TYPE_ACTION,
	buildAndPack,
	freePort,
	fromSharedRun,
	importIntoN8n,
	installPackageIntoN8n,
	startN8n,
	tail,
	waitForProductionWebhook,
	type N8nConfig,
	type RunningN8n,
} from '../../../scripts/n8n/lab.cjs';
import { patience, waitedNote, waitFor } from '../../../scripts/n8n/patience.cjs';
import { installQueuePrograms, startQueueLab, type QueueLab } from '../../../scripts/n8n/queue.cjs';
import { N8N_1X, installN8nLine } from '../../../scripts/n8n/versions.cjs';
import type { SharedN8n } from '../setup/sharedRun.cjs';
import { freshFetch } from './freshFetch.cjs';

/**
 * Which n8n the e2e suites run against. Default: one n8n 2.41 process. A test file selects another
 * with selectE2eRuntime() before its beforeAll runs (a shared suite does it: RUNTIME below); by hand:
 * PAYCASHLESS_E2E_MODE=queue and/or PAYCASHLESS_E2E_N8N=1 (n8n 1.123) for any e2e file.
 */
export interface E2eRuntime {
	mode: 'single' | 'queue';
	n8nLine: '2' | '1';
	/**
	 * Why the file needs an n8n (or queue-mode set) of its own, e.g. it kills or adds processes:
	 * otherwise, in a jest run, it shares the run's one of its runtime (test/support/setup/sharedRun.cts).
	 */
	ownN8n?: string;
}

let runtime: E2eRuntime = {
	mode: process.env.PAYCASHLESS_E2E_MODE === 'queue' ? 'queue' : 'single',
	n8nLine: process.env.PAYCASHLESS_E2E_N8N?.startsWith('1') ? '1' : '2',
};

/**
 * The runtime of each end-to-end project: what its test files pass to a shared suite
 * (test/support/suites/, e.g. `describeWait(RUNTIME.e2e1x)`).
 */
export const RUNTIME = {
	/** n8n 2.41, one process (or what PAYCASHLESS_E2E_MODE and PAYCASHLESS_E2E_N8N say, by hand). */
	e2e: {},
	/** n8n 1.123.81, one process. */
	e2e1x: { n8nLine: '1' },
	/** n8n 2.41 in queue mode. */
	e2eQueue: { mode: 'queue' },
} as const satisfies Record<string, Partial<E2eRuntime>>;

export function selectE2eRuntime(choice: Partial<E2eRuntime>): void {
	runtime = { ...runtime, ...choice };
}

export function e2eRuntime(): E2eRuntime {
	return runtime;
}

let current: E2eLab | undefined;

/** The lab this test file started (for tests added beside a shared suite). */
export function currentE2eLab(): E2eLab {
	if (!current) throw new Error('no e2e lab started in this test file');
	return current;
}

/**
 * A test file's set-up: build and pack (about 40 s alone on a quiet machine), then n8n's CLI for the
 * imports and each published workflow and n8n's start (each a boot of n8n, 10 to 40 s): up to 150 s
 * alone (scripts/n8n/patience.cts). Issue 41's measure: the browser file's set-up took 830 s at a
 * median load of 19 on 2 cores. A cold install of Node 24 + n8n (3-4 minutes, mostly download, once
 * per machine) fits in it too.
 */
export const SETUP_TIMEOUT_MS = patience(150_000);
/** Closing a test file's lab (n8n stopped, the emulator closed): a few seconds alone. */
export const TEARDOWN_TIMEOUT_MS = patience(6_000);

/**
 * The lab of a suite that needs nothing but the default: started before its tests (handed to
 * `started`), closed after them.
 */
export function useE2eLab(started: (lab: E2eLab) => void, options: E2eLabOptions = {}): void {
	let lab: E2eLab | undefined;
	beforeAll(async () => {
		lab = await startE2eLab(options);
		started(lab);
	}, SETUP_TIMEOUT_MS);
	afterAll(async () => {
		await lab?.close();
	}, TEARDOWN_TIMEOUT_MS);
}

export interface CredentialRef {
	id: string;
	name: string;
}

export interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	position?: [number, number];
	credentials?: Record<string, CredentialRef>;
	webhookId?: string;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
}

export interface Execution {
	id: string | number;
	mode: string;
	status: string;
	finished: boolean;
	workflowId: string;
	/** The crashed or failed execution this one retries (n8n's Retry). */
	retryOf?: string | null;
	data?: { resultData: { runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>>; error?: unknown } };
}

/**
 * The ids of a workflow's executions, newest first: n8n's public list leaves out the executions its
 * main process still counts as active (a waiting one on n8n 1.x; in queue mode a test-URL run, for
 * minutes once), so the editor's list is read too. Read one by id: `executionById`.
 */
export async function executionIds(lab: Pick<E2eLab, 'session' | 'executions'>, workflowId: string): Promise<string[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const editor = await lab.session.rest<{ results?: Array<{ id: string | number }> }>('GET', `/rest/executions?filter=${filter}&limit=50`).catch(() => ({ results: [] }));
	const listed = await lab.executions(workflowId);
	return [...new Set([...listed, ...(editor.results ?? [])].map((execution) => Number(execution.id)))].sort((a, b) => b - a).map(String);
}

/** An execution by id, with its data, or undefined. */
export async function executionById(lab: Pick<E2eLab, 'session'>, id: string): Promise<Execution | undefined> {
	return await lab.session.api<Execution>('GET', `/executions/${id}?includeData=true`).catch(() => undefined);
}

/** The items `node` passed on in its last run of `execution` (stored with its data). */
export function nodeOutput(execution: Execution, node: string): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData.runData[node];
	if (!runs) throw new Error(`node ${node} did not run (execution ${execution.id}: ${JSON.stringify(execution.data?.resultData.error ?? {}).slice(0, 500)})`);
	return (runs[runs.length - 1].data?.main[0] ?? []).map((item) => item.json);
}

export interface E2eLab {
	n8n: RunningN8n;
	session: N8nSession;
	emulator: EmulatorHandle;
	good: CredentialRef;
	/** Wrong API secret. */
	bad: CredentialRef;
	/** Wrong API key (right secret). */
	badKey: CredentialRef;
	/** A base URL where no Paycashless API answers (the emulator under an unknown path prefix). */
	badBaseUrl: CredentialRef;
	/** Creates a workflow through the public API, publishes it and waits for its webhooks. */
	createActiveWorkflow(name: string, nodes: WorkflowNode[], connections: Record<string, unknown>, webhookPaths: string[]): Promise<string>;
	/**
	 * Creates and activates `Webhook → node` (the node continues on failure, so an error becomes
	 * an item with `error`), posts `{}` to the webhook and returns the node's output items.
	 */
	runNode(node: Omit<WorkflowNode, 'name'> & { name?: string }): Promise<Array<Record<string, unknown>>>;
	/** The workflow's executions, newest first, with their data. */
	executions(workflowId: string): Promise<Execution[]>;
	/** The queue-mode set (main, workers, webhook processor), when the runtime is queue mode. */
	queue?: QueueLab;
	/** The n8n version under test. */
	n8nVersion: string;
	close(): Promise<void>;
}

async function startEmulator(options: EmulatorOptions): Promise<EmulatorHandle> {
	// Resolved at run time so this file type-checks on its own contract (emulator/types.cts).
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const emulator = require('../../../emulator/index.cjs') as { startEmulator: (o: EmulatorOptions) => Promise<EmulatorHandle> };
	return emulator.startEmulator(options);
}

/** Old e2e user folders of runs that are over (their process is gone). */
function removeStaleRuns(root: string): void {
	if (!fs.existsSync(root)) return;
	for (const name of fs.readdirSync(root)) {
		// Only folders of this project's runs (`<kind>-<pid>`): others are left alone.
		const pid = Number(/^[a-z]+-(\d+)$/.exec(name)?.[1] ?? 0);
		if (!pid) continue;
		let alive = false;
		try {
			if (pid) process.kill(pid, 0);
			alive = pid > 0;
		} catch {
			alive = false;
		}
		if (!alive) fs.rmSync(path.join(root, name), { recursive: true, force: true });
	}
}

export function webhookNode(webhookPath: string): WorkflowNode {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	};
}

export interface E2eLabOptions {
	/** Emulator options (default: nothing seeded, no callback retries). */
	emulator?: EmulatorOptions;
	/**
	 * Runs after the credentials are imported and before n8n starts (e.g. to import workflows).
	 * Single-process n8n only: a queue-mode lab refuses it. The file gets an n8n of its own.
	 */
	beforeStart?: (config: N8nConfig, emulator: EmulatorHandle, good: CredentialRef) => void;
	/**
	 * Why this file needs an n8n of its own (it stops, restarts or kills n8n): without it, a file
	 * in a jest run uses the run's shared n8n of its runtime (test/support/setup/sharedRun.cts).
	 */
	ownN8n?: string;
}

const CREDENTIAL_NAMES = {
	good: 'Paycashless e2e (emulator)',
	bad: 'Paycashless e2e (wrong secret)',
	badKey: 'Paycashless e2e (wrong key)',
	badBaseUrl: 'Paycashless e2e (wrong base URL)',
} as const;
type CredentialRole = keyof typeof CREDENTIAL_NAMES;

/** The four e2e credentials' data: the good one against this file's emulator, three broken ones. */
function credentialData(emulator: EmulatorHandle): Record<CredentialRole, Record<string, unknown>> {
	const data = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl, bodilessSigning: 'documented' };
	return {
		good: data,
		bad: { ...data, apiSecret: `${emulator.apiSecret}-wrong` },
		badKey: { ...data, apiKey: `${emulator.apiKey}-wrong` },
		badBaseUrl: { ...data, baseUrl: `${emulator.baseUrl}/not-paycashless` },
	};
}

/** The run's shared n8n of this runtime, when this file may use it. */
async function sharedN8nFor(options: E2eLabOptions): Promise<SharedN8n | undefined> {
	if (options.beforeStart || options.ownN8n || runtime.ownN8n) return undefined;
	// Queue mode: every file starts its own set. A shared set idling for the whole run beside the
	// sweep's and the poll run's own sets (three sets, 12+ n8n processes on 2 cores) made the queue
	// sweep time out in 2 of 3 full runs; one set per file, two at a time, is what passed before.
	if (runtime.mode === 'queue') return undefined;
	return fromSharedRun<SharedN8n>(`single-${runtime.n8nLine}`);
}

/**
 * The queue-mode set of this test file, shared by every suite the file runs: the queue-mode suites
 * that neither kill nor restart a process run in one file (test/e2e-queue/shared.test.cts), so they
 * share one set, started by the first suite and stopped when the last one closes.
 */
let fileQueue: { queue: QueueLab; users: number } | undefined;

export async function startE2eLab(options: E2eLabOptions = {}): Promise<E2eLab> {
	const { mode, n8nLine } = runtime;
	if (mode === 'queue' && options.beforeStart) throw new Error('beforeStart works with a single n8n process only');
	const n8nInstall = n8nLine === '1' ? N8N_1X : N8N_DEFAULT;
	const shared = await sharedN8nFor(options);
	const sharesQueue = mode === 'queue' && !options.ownN8n && !runtime.ownN8n;
	const fileSet = sharesQueue ? fileQueue : undefined;
	let tgz = '';
	let userFolder = '';
	if (!shared && !fileSet) {
		installN8nLine(n8nLine);
		if (mode === 'queue') installQueuePrograms();
		tgz = await buildAndPack({ quiet: true });
		const runsRoot = path.join(LAB, mode === 'queue' ? 'e2e-queue' : 'e2e');
		removeStaleRuns(runsRoot);
		userFolder = path.join(runsRoot, `run-${process.pid}`);
		fs.rmSync(userFolder, { recursive: true, force: true });
		if (mode === 'single') installPackageIntoN8n(tgz, userFolder);
	}

	const emulator = await startEmulator({ port: 0, callbackRetries: 0, callbackRetryDelayMs: 500, ...options.emulator });
	let n8n: RunningN8n | undefined;
	let queue: QueueLab | undefined;
	const created: string[] = [];
	try {
		const data = credentialData(emulator);
		let refs: Record<CredentialRole, CredentialRef>;
		let session: N8nSession;
		if (shared || fileSet) {
			// The run's n8n (or this file's queue-mode set): this suite's credentials (against its own
			// emulator) and workflows beside others'; it stays up when this suite ends.
			if (fileSet) {
				queue = fileSet.queue;
				n8n = queue.asRunningN8n();
			} else if (shared) {
				n8n = {
					baseUrl: shared.baseUrl,
					config: { n8n: n8nInstall, userFolder: shared.userFolder, port: shared.port, brokerPort: shared.brokerPort },
					logFile: shared.logFile,
					stop: () => Promise.reject(new Error('this n8n is shared by the jest run: a test that stops it asks for its own (startE2eLab({ ownN8n }))')),
					logTail: (lines = 40) => tail(shared.logFile, lines),
				};
			}
			session = new N8nSession(n8n!.baseUrl);
			if (shared && !fileSet && shared.login) session.useLogin(shared.login);
			else await session.ownerSetupAndLogin();
			await session.createApiKey(`e2e-${process.pid}-${randomUUID().slice(0, 8)}`);
			const suffix = randomUUID().slice(0, 8);
			const entries = await Promise.all(
				(Object.keys(CREDENTIAL_NAMES) as CredentialRole[]).map(async (role) => {
					// As the editor saves one (n8n 1.123's public API asks for fields the editor fills in).
					const made = await session.rest<{ id: string; name: string }>('POST', '/rest/credentials', { name: `${CREDENTIAL_NAMES[role]} ${suffix}`, type: CREDENTIAL_TYPE, data: data[role] });
					return [role, { id: made.id, name: made.name }] as const;
				}),
			);
			refs = Object.fromEntries(entries) as Record<CredentialRole, CredentialRef>;
		} else {
			const config = { n8n: n8nInstall, userFolder, port: await freePort(), brokerPort: await freePort() };
			refs = {
				good: { id: 'e2eGoodCredential', name: CREDENTIAL_NAMES.good },
				bad: { id: 'e2eBadCredential1', name: CREDENTIAL_NAMES.bad },
				badKey: { id: 'e2eBadCredential2', name: CREDENTIAL_NAMES.badKey },
				badBaseUrl: { id: 'e2eBadCredential3', name: CREDENTIAL_NAMES.badBaseUrl },
			};
			const credentials = (Object.keys(refs) as CredentialRole[]).map((role) => ({ ...refs[role], type: CREDENTIAL_TYPE, data: data[role] }));
			if (mode === 'queue') {
				queue = await startQueueLab({ root: userFolder, tgz, n8n: n8nInstall, beforeN8n: (set) => set.import('credentials', credentials) });
				n8n = queue.asRunningN8n();
				if (sharesQueue) fileQueue = { queue, users: 0 };
			} else {
				importIntoN8n(config, 'credentials', credentials);
				options.beforeStart?.(config, emulator, refs.good);
				n8n = await startN8n(config);
			}
			session = new N8nSession(n8n.baseUrl);
			await session.ownerSetupAndLogin();
			await session.createApiKey('e2e');
		}
		const running = n8n!;
		const usesFileQueue = sharesQueue && fileQueue !== undefined && fileQueue.queue === queue;
		if (usesFileQueue) fileQueue!.users += 1;

		let counter = 0;
		const createActiveWorkflow: E2eLab['createActiveWorkflow'] = async (name, nodes, connections, webhookPaths) => {
			const workflow = await session.api<{ id: string }>('POST', '/workflows', {
				name,
				nodes: nodes.map((node, index) => ({ id: randomUUID(), position: [index * 240, 0], ...node })),
				connections,
				settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all', saveManualExecutions: true },
			});
			created.push(workflow.id);
			await session.api('POST', `/workflows/${workflow.id}/activate`);
			for (const webhookPath of webhookPaths) await waitForProductionWebhook(running.baseUrl, webhookPath);
			return workflow.id;
		};

		const runNode: E2eLab['runNode'] = async (node) => {
			counter += 1;
			const webhookPath = `e2e-node-${counter}-${randomUUID().slice(0, 8)}`;
			const name = node.name ?? 'Node Under Test';
			const workflowId = await createActiveWorkflow(
				`e2e ${counter}: ${String(node.parameters.resource ?? node.type)} ${String(node.parameters.operation ?? '')}`,
				[webhookNode(webhookPath), { onError: 'continueRegularOutput', ...node, name }],
				{ Webhook: { main: [[{ node: name, type: 'main', index: 0 }]] } },
				[webhookPath],
			);
			// A node run takes a few seconds alone (scripts/n8n/patience.cts). Seen once in queue mode
			// on a busy machine: the execution finished and the webhook's HTTP answer never came. Then
			// the node's output is read from the execution n8n stored (the node ran once, nothing is
			// sent again); no execution at all fails, saying what n8n recorded.
			const started = Date.now();
			const text = await freshFetch(`${running.baseUrl}/webhook/${webhookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
				signal: AbortSignal.timeout(patience(6_000)),
			}).then(
				async (response) => {
					const body = await response.text();
					if (response.status !== 200) throw new Error(`workflow answered HTTP ${response.status}: ${body.slice(0, 2000)}`);
					return body;
				},
				(error: Error) => ({ lost: error }),
			);
			if (typeof text !== 'string') {
				const stored = await waitFor(
					`the execution of /webhook/${webhookPath} (its HTTP answer never came: ${text.lost.name})`,
					async (saw) => {
						const list = await executions(workflowId);
						saw(list.map((execution) => `${execution.id}: ${execution.status}`).join(', ') || 'no execution');
						return list.find((execution) => execution.finished && execution.data);
					},
					patience(3_000),
				);
				process.stderr.write(`runNode: /webhook/${webhookPath} gave no answer in ${Math.round((Date.now() - started) / 1000)} s (${waitedNote(started)}); its output read from execution ${stored.id}\n`);
				return nodeOutput(stored, name);
			}
			if (text === '') return [];
			const parsed = JSON.parse(text) as unknown;
			return (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
		};

		const executions: E2eLab['executions'] = async (workflowId) => {
			const page = await session.api<{ data: Execution[] }>('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=100`);
			return page.data;
		};

		current = {
			n8n: running,
			session,
			emulator,
			queue,
			n8nVersion: n8nInstall.version,
			...refs,
			createActiveWorkflow,
			runNode,
			executions,
			close: async () => {
				if (shared || usesFileQueue) {
					// The shared n8n runs on: this suite's workflows stop (their credentials point at an
					// emulator that is about to close).
					for (const id of created) await session.api('POST', `/workflows/${id}/deactivate`).catch(() => undefined);
				}
				if (usesFileQueue) {
					fileQueue!.users -= 1;
					if (fileQueue!.users === 0) {
						fileQueue = undefined;
						await running.stop();
					}
				} else if (!shared) {
					await running.stop();
				}
				await emulator.close();
			},
		};
		return current;
	} catch (error) {
		if (!shared && !fileSet) {
			if (fileQueue?.queue === queue) fileQueue = undefined;
			await n8n?.stop();
		}
		await emulator.close();
		throw error;
	}
}

/**
 * The body the editor sends to `POST /rest/workflows/:id/run` (manual run): n8n 1.x's editor also
 * sends the workflow itself, and its server reads it from there.
 */
/** One listing of n8n's public API, all pages. */
async function listExecutions(session: N8nSession, query: string): Promise<Execution[]> {
	const result: Execution[] = [];
	let cursor = '';
	for (;;) {
		const page = await session.api<{ data: Execution[]; nextCursor?: string | null }>(
			'GET',
			`/executions?${query}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
		);
		result.push(...page.data);
		if (!page.nextCursor) return result;
		cursor = page.nextCursor;
	}
}

/**
 * Every execution of a workflow, newest first, with data, including those n8n's list leaves out.
 * The list leaves out what the main process still counts as running in its memory
 * (`excludeRunning`, n8n 2.41 executions/execution.service.js findManyAndCount), and in queue mode
 * main sometimes never learns that a worker finished a job: the execution is saved (a success,
 * say), yet stays out of the list until main restarts. Seen in the queue-mode poll run: a finished
 * execution holding 200 events, missing from the list for minutes. So the ids no listing shows are
 * read one by one (`GET /executions/:id` has no such filter), and `unlisted` collects them. It reads
 * the listing of every workflow: for a lab of its own (the poll run).
 */
export async function readExecutions(session: N8nSession, workflowId: string, unlisted?: Set<string>): Promise<Execution[]> {
	const result = await listExecutions(session, `workflowId=${workflowId}&includeData=true`);
	const listed = new Set((await listExecutions(session, 'includeData=false')).map((e) => String(e.id)));
	const newest = Math.max(0, ...[...listed].map(Number));
	// Ids count up across workflows; past the newest listed one, read on until five in a row are not there.
	for (let id = 1, misses = 0; id <= newest || misses < 5; id++) {
		if (listed.has(String(id))) continue;
		const execution = await session.api<Execution>('GET', `/executions/${id}?includeData=true`).catch(() => undefined);
		if (!execution) {
			if (id > newest) misses += 1;
			continue;
		}
		misses = 0;
		unlisted?.add(String(id));
		if (String(execution.workflowId) === String(workflowId)) result.push(execution);
	}
	return result.sort((a, b) => Number(b.id) - Number(a.id));
}

export async function manualRunBody(lab: E2eLab, workflowId: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
	if (!lab.n8nVersion.startsWith('1.')) return body;
	return { ...body, workflowData: await lab.session.rest('GET', `/rest/workflows/${workflowId}`) };
}

/** A Paycashless action node with the e2e credential. */
export function paycashlessNode(credential: CredentialRef, parameters: Record<string, unknown>): Omit<WorkflowNode, 'name'> {
	return { type: NODE_TYPE_ACTION, typeVersion: 1, parameters, credentials: { [CREDENTIAL_TYPE]: credential } };
}

/**
 * Creates a transfer payment through a real Paycashless node in n8n, with `callbackUrl`, and
 * returns its reference (unique per call, starting with `prefix`).
 */
export async function createTransferPayment(lab: E2eLab, callbackUrl: string, prefix = 'cb'): Promise<string> {
	const reference = `${prefix}-${randomUUID().slice(0, 12)}`;
	const [item] = await lab.runNode(
		paycashlessNode(lab.good, {
			resource: 'payment',
			operation: 'createTransfer',
			reference,
			amount: 150,
			currency: 'NGN',
			customerEmail: 'callbacks@example.com',
			customerName: 'Callback Test',
			expiresIn: 1800,
			additionalFields: { callbackUrl },
		}),
	);
	if (item?.reference !== reference) throw new Error(`the payment was not created: ${JSON.stringify(item)}`);
	return reference;
}

/** The tests' poll with a deadline (scripts/n8n/patience.cts, which the docs screenshot shares). */
export { waitFor };

/** Payments created at or after `since` (Unix seconds), counted and summed per currency/status. */
export function paymentTotalsSince(payments: Array<Record<string, unknown>>, since: number): Map<string, { count: number; total: number }> {
	const totals = new Map<string, { count: number; total: number }>();
	for (const payment of payments) {
		if (Date.parse(String(payment.createdAt)) / 1000 < since) continue;
		const key = `${String(payment.currency)}/${String(payment.status)}`;
		const row = totals.get(key) ?? { count: 0, total: 0 };
		row.count += 1;
		row.total += Number(payment.expectedAmount);
		totals.set(key, row);
	}
	return totals;
}
