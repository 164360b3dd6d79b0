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

import type { EmulatorHandle, EmulatorOptions } from '../../emulator/types';
import {
	CREDENTIAL_TYPE,
	LAB,
	N8nSession,
	NODE_TYPE_ACTION,
	buildAndPack,
	freePort,
	importIntoN8n,
	installN8n,
	installPackageIntoN8n,
	startN8n,
	waitForProductionWebhook,
	type RunningN8n,
} from '../../scripts/n8n/lab';

/** Generous: a cold install of Node 24 + n8n takes 3-4 minutes on a 2-core machine. */
export const SETUP_TIMEOUT_MS = 15 * 60_000;

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
	data?: { resultData: { runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>>; error?: unknown } };
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
	close(): Promise<void>;
}

async function startEmulator(options: EmulatorOptions): Promise<EmulatorHandle> {
	// Resolved at run time so this file type-checks on its own contract (emulator/types.ts).
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const emulator = require('../../emulator') as { startEmulator: (o: EmulatorOptions) => Promise<EmulatorHandle> };
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

export async function startE2eLab(): Promise<E2eLab> {
	installN8n({ quiet: true });
	const tgz = await buildAndPack({ quiet: true });
	const runsRoot = path.join(LAB, 'e2e');
	removeStaleRuns(runsRoot);
	const userFolder = path.join(runsRoot, `run-${process.pid}`);
	fs.rmSync(userFolder, { recursive: true, force: true });
	installPackageIntoN8n(tgz, userFolder);

	const emulator = await startEmulator({ port: 0, callbackRetries: 0, callbackRetryDelayMs: 500 });
	let n8n: RunningN8n | undefined;
	try {
		const config = { userFolder, port: await freePort(), brokerPort: await freePort() };
		const good: CredentialRef = { id: 'e2eGoodCredential', name: 'Paycashless e2e (emulator)' };
		const bad: CredentialRef = { id: 'e2eBadCredential1', name: 'Paycashless e2e (wrong secret)' };
		const badKey: CredentialRef = { id: 'e2eBadCredential2', name: 'Paycashless e2e (wrong key)' };
		const badBaseUrl: CredentialRef = { id: 'e2eBadCredential3', name: 'Paycashless e2e (wrong base URL)' };
		const data = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl, bodilessSigning: 'documented' };
		importIntoN8n(config, 'credentials', [
			{ ...good, type: CREDENTIAL_TYPE, data },
			{ ...bad, type: CREDENTIAL_TYPE, data: { ...data, apiSecret: `${emulator.apiSecret}-wrong` } },
			{ ...badKey, type: CREDENTIAL_TYPE, data: { ...data, apiKey: `${emulator.apiKey}-wrong` } },
			{ ...badBaseUrl, type: CREDENTIAL_TYPE, data: { ...data, baseUrl: `${emulator.baseUrl}/not-paycashless` } },
		]);
		n8n = await startN8n(config);
		const session = new N8nSession(n8n.baseUrl);
		await session.ownerSetupAndLogin();
		await session.createApiKey('e2e');
		const running = n8n;

		let counter = 0;
		const createActiveWorkflow: E2eLab['createActiveWorkflow'] = async (name, nodes, connections, webhookPaths) => {
			const created = await session.api<{ id: string }>('POST', '/workflows', {
				name,
				nodes: nodes.map((node, index) => ({ id: randomUUID(), position: [index * 240, 0], ...node })),
				connections,
				settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all', saveManualExecutions: true },
			});
			await session.api('POST', `/workflows/${created.id}/activate`);
			for (const webhookPath of webhookPaths) await waitForProductionWebhook(running.baseUrl, webhookPath);
			return created.id;
		};

		const runNode: E2eLab['runNode'] = async (node) => {
			counter += 1;
			const webhookPath = `e2e-node-${counter}-${randomUUID().slice(0, 8)}`;
			const name = node.name ?? 'Node Under Test';
			await createActiveWorkflow(
				`e2e ${counter}: ${String(node.parameters.resource ?? node.type)} ${String(node.parameters.operation ?? '')}`,
				[webhookNode(webhookPath), { onError: 'continueRegularOutput', ...node, name }],
				{ Webhook: { main: [[{ node: name, type: 'main', index: 0 }]] } },
				[webhookPath],
			);
			const response = await fetch(`${running.baseUrl}/webhook/${webhookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
			});
			const text = await response.text();
			if (response.status !== 200) throw new Error(`workflow answered HTTP ${response.status}: ${text.slice(0, 2000)}`);
			if (text === '') return [];
			const parsed = JSON.parse(text) as unknown;
			return (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
		};

		const executions: E2eLab['executions'] = async (workflowId) => {
			const page = await session.api<{ data: Execution[] }>('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=100`);
			return page.data;
		};

		return {
			n8n: running,
			session,
			emulator,
			good,
			bad,
			badKey,
			badBaseUrl,
			createActiveWorkflow,
			runNode,
			executions,
			close: async () => {
				await running.stop();
				await emulator.close();
			},
		};
	} catch (error) {
		await n8n?.stop();
		await emulator.close();
		throw error;
	}
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
