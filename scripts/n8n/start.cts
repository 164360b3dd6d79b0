/**
 * `npm start` (after scripts/start.sh has installed what is missing): builds and packs this
 * package, installs the tarball into a local n8n as a community package, starts the Paycashless
 * emulator (or uses the live API when PAYCASHLESS_API_KEY and PAYCASHLESS_API_SECRET are set),
 * starts n8n on 127.0.0.1 with an owner account, a Paycashless credential and the example
 * workflows, prints what to do, and stops everything it started on Ctrl-C.
 *
 * Environment (all optional):
 *   PAYCASHLESS_API_KEY, PAYCASHLESS_API_SECRET, PAYCASHLESS_BASE_URL  use the live/sandbox API
 *   N8N_PORT (default 5678), PAYCASHLESS_EMULATOR_PORT (default 4010): preferred ports; a
 *   busy port is replaced by a free one.
 *   PAYCASHLESS_N8N_HOME  n8n's data folder (default .n8n-lab/home; the test of `npm start` uses its own)
 *
 * Stopping: Ctrl-C, or SIGINT/SIGTERM to npm's own PID (package.json's `exec` makes npm's child
 * this process, and npm passes the signal on), or the parent going away: n8n and the emulator stop.
 */
import * as fs from 'fs';
import * as path from 'path';

import type { EmulatorHandle } from '../../emulator/types.cjs';
import {
	LAB,
	LAB_OWNER,
	N8nSession,
	NODE_TYPE_TRIGGER,
	ROOT,
	buildAndPack,
	freePort,
	importIntoN8n,
	installPackageIntoN8n,
	n8nCli,
	startN8n,
	waitForProductionWebhook,
	type N8nConfig,
	type RunningN8n,
} from './lab.cjs';
import { EXAMPLE_CREDENTIAL, keepOrImportCredential, loadExampleWorkflows, type WorkflowJson } from './examples.cjs';
import { exampleCredential, liveKeysOrExit } from './fresh-start.cjs';

const USER_FOLDER = process.env.PAYCASHLESS_N8N_HOME || path.join(LAB, 'home');

let n8n: RunningN8n | undefined;
let emulator: EmulatorHandle | undefined;
let stopping: Promise<void> | undefined;

function say(message: string): void {
	process.stdout.write(`[start] ${message}\n`);
}

function stopAll(exitCode: number): Promise<void> {
	stopping ??= (async () => {
		if (n8n) {
			say('stopping n8n ...');
			await n8n.stop().catch(() => undefined);
		}
		if (emulator) {
			say('stopping the emulator ...');
			await emulator.close().catch(() => undefined);
		}
		say('stopped.');
		process.exit(exitCode);
	})();
	return stopping;
}

function triggerWebhookPaths(workflows: WorkflowJson[]): string[] {
	return workflows.flatMap((wf) =>
		wf.nodes.filter((node) => node.type === NODE_TYPE_TRIGGER && node.webhookId).map((node) => `${node.webhookId}/webhook`),
	);
}

async function main(): Promise<void> {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => {
			say(`${signal} received`);
			void stopAll(0);
		});
	}
	// A process manager that signals only npm, or a parent that dies: this process is re-parented.
	const parent = process.ppid;
	setInterval(() => {
		if (process.ppid !== parent) {
			say('the process that started npm start is gone');
			void stopAll(0);
		}
	}, 1000).unref();

	const liveKeys = liveKeysOrExit(say);
	const live = liveKeys !== undefined;

	const n8nPort = await freePort(Number(process.env.N8N_PORT || 5678));
	const brokerPort = await freePort(n8nPort === 5678 ? 5679 : 0);
	// The users are in Lagos: $now, $today and schedules in Lagos time unless GENERIC_TIMEZONE says otherwise
	// (n8n's own default is America/New_York).
	const config: N8nConfig = { userFolder: USER_FOLDER, port: n8nPort, brokerPort, env: { GENERIC_TIMEZONE: process.env.GENERIC_TIMEZONE || 'Africa/Lagos' } };
	const n8nUrl = `http://127.0.0.1:${n8nPort}`;

	say('building and packing n8n-nodes-paycashless ...');
	const tgz = await buildAndPack({ quiet: true });
	installPackageIntoN8n(tgz, USER_FOLDER);
	say(`installed ${path.basename(tgz)} into ${path.relative(ROOT, path.join(USER_FOLDER, '.n8n', 'nodes'))} (as n8n installs community nodes)`);

	const credential = await exampleCredential(liveKeys, say);
	emulator = credential.emulator;
	// The user's credential survives a restart: only created when missing (examples.cts).
	const kept = keepOrImportCredential(
		{ cli: (args) => n8nCli(config, args), import: (kind, data) => importIntoN8n(config, kind, data), folder: path.join(USER_FOLDER, 'imports') },
		{ name: credential.name, data: credential.data, fromEnvironment: live },
	);
	const credentialName = kept.name;
	say(`${kept.said}.`);
	const workflows = loadExampleWorkflows({ n8nBaseUrl: n8nUrl, credential: { id: EXAMPLE_CREDENTIAL.id, name: credentialName } });
	// An example already in this n8n (from an earlier npm start) stays as the user left it: edited,
	// published or not. Only the missing ones are imported (and their triggers published).
	const existing = new Set(n8nCli(config, ['list:workflow', '--onlyId']).split('\n').map((line) => line.trim()).filter(Boolean));
	const missing = workflows.filter((wf) => !existing.has(wf.id));
	if (missing.length > 0) importIntoN8n(config, 'workflow', missing);
	const triggerWorkflows = workflows.filter((wf) => wf.nodes.some((node) => node.type === NODE_TYPE_TRIGGER));
	const published = triggerWorkflows.filter((trigger) => missing.includes(trigger));
	for (const wf of published) n8nCli(config, ['publish:workflow', `--id=${wf.id}`]);
	const keptWorkflows = workflows.length - missing.length;
	say(
		`imported ${missing.length} example workflows` +
			(keptWorkflows > 0 ? `; kept ${keptWorkflows} already in this n8n as you left them (delete one in n8n to get it back as shipped at the next start)` : ''),
	);

	say(`starting n8n ${n8nUrl} (log: ${path.relative(ROOT, path.join(USER_FOLDER, 'n8n.log'))}) ...`);
	n8n = await startN8n(config);
	n8n.process.once('exit', (code, signal) => {
		if (stopping) return;
		say(`n8n stopped on its own (${code ?? signal}); last log lines:\n${n8n?.logTail(20) ?? ''}`);
		n8n = undefined;
		void stopAll(1);
	});
	const session = new N8nSession(n8nUrl);
	let loginNote = '';
	try {
		await session.ownerSetupAndLogin(LAB_OWNER);
	} catch {
		loginNote = ' (this n8n already has an owner with another password: use yours)';
	}
	// Only the triggers published just now: a kept example may have been unpublished on purpose.
	for (const webhookPath of triggerWebhookPaths(published)) await waitForProductionWebhook(n8nUrl, webhookPath);

	// n8n 2.41 opens its Assistant at / when that module is on (editor-ui's router, the `/` route's
	// beforeEnter): the banner names the workflows list itself.
	const lines = [
		'',
		'  n8n with n8n-nodes-paycashless is running.',
		'',
		`  Editor:    ${n8nUrl}/home/workflows`,
		`  Login:     ${LAB_OWNER.email}  /  ${LAB_OWNER.password}${loginNote}`,
		live
			? '  API:       the Paycashless API from PAYCASHLESS_* (real money if these are live keys!)'
			: `  Emulator:  ${emulator?.baseUrl}  (a local Paycashless with test data; the credential points at it)\n` +
				`  Pay:       ${emulator?.baseUrl}/  (invoices and transfers to pay, payouts to settle or fail, test banks and accounts)`,
		'',
		'  Try first:',
		'    1. Open "Paycashless example: invoice pipeline" and click "Execute workflow":',
		'       it creates an invoice and returns its hostedInvoiceUrl (the payment link).',
		live
			? '    2. When the invoice is paid, Paycashless calls the active "invoice paid" workflow (it needs a public n8n URL: see examples/README.md).'
			: '    2. Open that hostedInvoiceUrl (or the Pay page above) and click "Simulate payment": the emulator sends the signed\n' +
				'       INVOICE_PAID callback and the active "invoice paid" workflow runs (see Executions).',
		live
			? '    3. "invoice, wait for payment": "Execute workflow", submit the order form: the run pauses until the invoice is paid.'
			: '    3. "invoice, wait for payment": click "Execute workflow" and submit the order form it opens; the run pauses.\n' +
				'       On the Pay page open invoice order-A-1001, "Simulate payment": the run goes on (also "transfer payment, wait").',
		'    4. "payout pipeline" (look up, pay out, verify) and "daily reconciliation" (Return All, summary).',
		'    5. Credentials > "' + credentialName + '": n8n checks it when you save it ("Retry" checks again).',
		'',
		'  Workflows are in examples/ (see examples/README.md). Press Ctrl-C to stop n8n' + (live ? '.' : ' and the emulator.'),
		...(live ? [] : ['  The emulator starts from its test data at every npm start: what was created or paid in it before is gone.']),
		'',
	];
	process.stdout.write(`${lines.join('\n')}\n`);
	fs.writeFileSync(path.join(LAB, 'start.json'), JSON.stringify({ pid: process.pid, n8nUrl, emulatorUrl: emulator?.baseUrl ?? null }));
}

main().catch((error: Error) => {
	process.stderr.write(`[start] failed: ${error.message}\n`);
	void stopAll(1);
});
