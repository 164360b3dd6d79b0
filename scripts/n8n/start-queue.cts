/**
 * `npm start -- --queue`: the package in n8n's queue mode, the deployment merchants run when one
 * n8n process is not enough (scripts/n8n/queue.cts): its own PostgreSQL and Redis, n8n main, two
 * workers and a webhook processor, the package installed through main's Settings → Community Nodes
 * from a local registry (every process installs it from there), behind one
 * public address (a small proxy: /webhook/ to the webhook processor, the rest to main). The
 * emulator (or the live API when PAYCASHLESS_API_KEY and PAYCASHLESS_API_SECRET are set), the
 * credential and the example workflows, as in `npm start`. Before saying "running" it checks that
 * every process loads the package. Ctrl-C stops everything.
 *
 * Data (database, Redis, user folders, logs) lives in .n8n-lab/queue-home/ and is kept between runs.
 */
import * as fs from 'fs';
import * as path from 'path';

import type { EmulatorHandle } from '../../emulator/types.cjs';
import { exampleCredential, liveKeysOrExit } from './fresh-start.cjs';
import { CREDENTIAL_TYPE, LAB, LAB_OWNER, N8nSession, NODE_TYPE_TRIGGER, ROOT, buildAndPack, waitForProductionWebhook } from './lab.cjs';
import { EXAMPLE_CREDENTIAL, loadExampleWorkflows, type WorkflowJson } from './examples.cjs';
import { checkPackageInEveryProcess, probeWebhookProcessor, startQueueLab, type QueueLab } from './queue.cjs';

const ROOT_DIR = path.join(LAB, 'queue-home');

let set: QueueLab | undefined;
let emulator: EmulatorHandle | undefined;
let stopping: Promise<void> | undefined;

function say(message: string): void {
	process.stdout.write(`[start:queue] ${message}\n`);
}

function stopAll(exitCode: number): Promise<void> {
	stopping ??= (async () => {
		if (set) {
			say('stopping the webhook processor, workers, main, Redis and PostgreSQL ...');
			await set.stop().catch(() => undefined);
		}
		if (emulator) await emulator.close().catch(() => undefined);
		say('stopped.');
		process.exit(exitCode);
	})();
	return stopping;
}

async function main(): Promise<void> {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => {
			say(`${signal} received`);
			void stopAll(0);
		});
	}
	const liveKeys = liveKeysOrExit(say);
	const live = liveKeys !== undefined;

	say('building and packing n8n-nodes-paycashless ...');
	const tgz = await buildAndPack({ quiet: true });

	const credential = await exampleCredential(liveKeys, say);
	emulator = credential.emulator;
	const credentialData = credential.data;
	const credentialName = credential.name;
	let workflows: WorkflowJson[] = [];
	let triggerWorkflows: WorkflowJson[] = [];

	set = await startQueueLab({
		root: ROOT_DIR,
		tgz,
		log: say,
		beforeN8n: (lab) => {
			lab.import('credentials', [{ id: EXAMPLE_CREDENTIAL.id, name: credentialName, type: CREDENTIAL_TYPE, data: credentialData }]);
			workflows = loadExampleWorkflows({ n8nBaseUrl: lab.baseUrl, credential: { id: EXAMPLE_CREDENTIAL.id, name: credentialName } });
			triggerWorkflows = workflows.filter((wf) => wf.nodes.some((node) => node.type === NODE_TYPE_TRIGGER));
			// Import always deactivates. The trigger workflows are activated once the package is
			// installed (through main's Settings → Community Nodes, after main has started).
			if (workflows.length > 0) lab.import('workflow', workflows);
		},
	});
	const queue = set;
	for (const proc of queue.processes) {
		proc.child.once('exit', (code, signal) => {
			if (stopping) return;
			say(`${proc.name} stopped on its own (${code ?? signal}); last log lines:\n${proc.logTail(20)}`);
			void stopAll(1);
		});
	}

	const session = new N8nSession(queue.baseUrl);
	let loginNote = '';
	try {
		await session.ownerSetupAndLogin(LAB_OWNER);
	} catch {
		loginNote = ' (this n8n already has an owner with another password: use yours)';
	}
	if (!loginNote && triggerWorkflows.length > 0) {
		await session.createApiKey('start-queue');
		for (const wf of triggerWorkflows) await session.api('POST', `/workflows/${wf.id}/activate`);
	}
	const triggerPaths = triggerWorkflows.flatMap((wf) => wf.nodes.filter((n) => n.type === NODE_TYPE_TRIGGER && n.webhookId).map((n) => `${n.webhookId}/webhook`));
	for (const webhookPath of triggerPaths) await waitForProductionWebhook(queue.baseUrl, webhookPath);

	say('checking that every process loads the package (n8n export:nodes in each) ...');
	const checks = await checkPackageInEveryProcess(queue.processes);
	const problems = checks.filter((c) => c.problem).map((c) => c.problem as string);
	if (triggerPaths[0]) {
		for (const url of queue.webhookUrls) {
			const probe = await probeWebhookProcessor(url, triggerPaths[0]);
			if (!probe.loadsTrigger) problems.push(`the webhook processor at ${url} answered an unsigned callback with ${probe.status} (expected 401 from the Paycashless Trigger): ${probe.text.slice(0, 200)}`);
		}
	}
	if (problems.length > 0) {
		say(`NOT READY: ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`);
		await stopAll(1);
		return;
	}
	say(`all ${checks.length} processes load n8n-nodes-paycashless ${checks[0].installedVersion}`);

	const roles = queue.processes.map((p) => `${p.name} ${p.role === 'worker' ? `(health :${p.port})` : `:${p.port}`}`).join(', ');
	process.stdout.write(
		[
			'',
			'  n8n in queue mode with n8n-nodes-paycashless is running.',
			'',
			`  Editor:     ${queue.baseUrl}   (public address; N8N_WEBHOOK_URL; /webhook/ goes to the webhook processor)`,
			`  Login:      ${LAB_OWNER.email}  /  ${LAB_OWNER.password}${loginNote}`,
			`  Processes:  ${roles}`,
			`  PostgreSQL: 127.0.0.1:${queue.postgresPort}   Redis: 127.0.0.1:${queue.redisPort}   (data: ${path.relative(ROOT, ROOT_DIR)})`,
			live ? '  API:        the Paycashless API from PAYCASHLESS_* (real money if these are live keys!)' : `  Emulator:   ${emulator?.baseUrl}`,
			`  Started in ${(queue.startupMs / 1000).toFixed(1)} s. Logs: ${path.relative(ROOT, ROOT_DIR)}/<process>/<process>.log`,
			'',
			'  Executions run on the workers; callbacks reach the "invoice paid" workflow through the webhook processor.',
			'  See docs/queue-mode.md. Press Ctrl-C to stop everything.',
			'',
		].join('\n') + '\n',
	);
	fs.writeFileSync(path.join(LAB, 'start-queue.json'), JSON.stringify({ pid: process.pid, n8nUrl: queue.baseUrl, emulatorUrl: emulator?.baseUrl ?? null }));
}

main().catch((error: Error) => {
	process.stderr.write(`[start:queue] failed: ${error.message}\n`);
	void stopAll(1);
});
