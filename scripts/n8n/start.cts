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
 *   N8N_*: passed on to n8n (e.g. N8N_RESTRICT_FILE_ACCESS_TO, N8N_LOG_LEVEL), except the few the lab
 *   sets itself (LAB_OWNED_N8N_SETTINGS), which the start names as ignored.
 *   N8N_RESTRICT_FILE_ACCESS_TO: the folders Read/Write Files from Disk may use (n8n's default, kept
 *   here: ~/.n8n-files); the start creates them and names them in the banner.
 *
 * Stopping: Ctrl-C, or SIGINT/SIGTERM to npm's own PID (package.json's `exec` makes npm's child
 * this process, and npm passes the signal on), or the parent going away: n8n and the emulator stop.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import type { EmulatorHandle } from '../../emulator/types.cjs';
import {
	LAB,
	LAB_OWNER,
	N8nSession,
	NODE_TYPE_TRIGGER,
	PACKAGE_NAME,
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
import { copyExampleFiles, EXAMPLE_CREDENTIAL, exampleFileName, inviteMember, keepOrImportCredential, loadExampleWorkflows, PAYROLL_APPROVER, type WorkflowJson } from './examples.cjs';
import { exampleCredential, liveKeysOrExit } from './fresh-start.cjs';

const USER_FOLDER = process.env.PAYCASHLESS_N8N_HOME || path.join(LAB, 'home');
const FORM_TRIGGER = 'n8n-nodes-base.formTrigger';

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

/** N8N_* settings the lab sets itself (ports, addresses, data folder, encryption key): a user's value is not passed on. */
const LAB_OWNED_N8N_SETTINGS = [
	'N8N_USER_FOLDER',
	'N8N_ENCRYPTION_KEY',
	'N8N_PORT',
	'N8N_LISTEN_ADDRESS',
	'N8N_HOST',
	'N8N_PROTOCOL',
	'N8N_EDITOR_BASE_URL',
	'N8N_WEBHOOK_URL',
	'N8N_RUNNERS_BROKER_PORT',
];

/** The user's own N8N_* settings that reach n8n, and those the lab sets itself instead. */
function userN8nSettings(): { passed: Record<string, string>; ignored: string[] } {
	const passed: Record<string, string> = {};
	const ignored: string[] = [];
	for (const [key, value] of Object.entries(process.env)) {
		if (!key.startsWith('N8N_') || value === undefined) continue;
		if (LAB_OWNED_N8N_SETTINGS.includes(key)) {
			// N8N_PORT is taken as the preferred port (below).
			if (key !== 'N8N_PORT') ignored.push(key);
		} else passed[key] = value;
	}
	return { passed, ignored };
}

/**
 * The folders Read/Write Files from Disk may use, as n8n reads N8N_RESTRICT_FILE_ACCESS_TO (`;`
 * between folders, `~` for the home folder; n8n 2.x's default `~/.n8n-files`), created when
 * missing, as real paths. Empty: n8n restricts nothing.
 */
function fileFolders(setting: string): string[] {
	const folders = setting
		.split(';')
		.map((folder) => folder.trim())
		.filter(Boolean)
		.map((folder) => (folder.startsWith('~') ? folder.replace('~', os.homedir()) : folder));
	for (const folder of folders) fs.mkdirSync(folder, { recursive: true });
	// n8n compares the file's real path (links resolved) with these as written: a folder reached
	// through a link would refuse every file in it.
	return folders.map((folder) => fs.realpathSync(folder));
}

/** A hash of what the package is built from: the same hash, the same tarball. */
function sourceHash(): string {
	const hash = createHash('sha256');
	const walk = (dir: string): void => {
		for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
			const relative = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(relative);
			else hash.update(`${relative}\0`).update(fs.readFileSync(path.join(ROOT, relative))).update('\0');
		}
	};
	for (const dir of ['nodes', 'credentials', 'lib']) walk(dir);
	for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'gulpfile.js']) hash.update(`${file}\0`).update(fs.readFileSync(path.join(ROOT, file)));
	return hash.digest('hex');
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
	// The user's N8N_* settings reach n8n (the lab drops them for its tests); n8n 2.x reads and writes
	// files only in N8N_RESTRICT_FILE_ACCESS_TO (default ~/.n8n-files), so the start makes that folder.
	const settings = userN8nSettings();
	const fileAccess = settings.passed.N8N_RESTRICT_FILE_ACCESS_TO ?? '~/.n8n-files';
	const folders = fileFolders(fileAccess);
	// The examples' data files (the payroll CSV) go into the first of those folders (with no
	// restriction: n8n's default one), only when missing: a user's edited copy is never overwritten.
	const filesFolder = folders[0] ?? fileFolders('~/.n8n-files')[0];
	const copiedFiles = copyExampleFiles(filesFolder);
	if (copiedFiles.length > 0) say(`copied the examples' ${copiedFiles.join(', ')} into ${filesFolder}`);
	const config: N8nConfig = {
		userFolder: USER_FOLDER,
		port: n8nPort,
		brokerPort,
		env: { GENERIC_TIMEZONE: process.env.GENERIC_TIMEZONE || 'Africa/Lagos', ...settings.passed, N8N_RESTRICT_FILE_ACCESS_TO: folders.join(';') },
	};
	const n8nUrl = `http://127.0.0.1:${n8nPort}`;
	if (Object.keys(settings.passed).length > 0) say(`passing your settings on to n8n: ${Object.keys(settings.passed).sort().join(', ')}`);
	if (settings.ignored.length > 0) say(`ignoring ${settings.ignored.sort().join(', ')}: npm start sets these itself`);
	// A new data folder: n8n's database is made now, empty (no credential or workflow to ask n8n about).
	const freshDatabase = !fs.existsSync(path.join(USER_FOLDER, '.n8n', 'database.sqlite'));

	// The same sources as the package installed at the last start: no build, pack or install.
	const nodesDir = path.join(USER_FOLDER, '.n8n', 'nodes');
	const stamp = path.join(nodesDir, '.paycashless-source-hash');
	const hash = sourceHash();
	const installed = fs.existsSync(path.join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json'));
	if (installed && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) {
		say(`n8n-nodes-paycashless unchanged since the last start: kept the one installed in ${path.relative(ROOT, nodesDir)}`);
	} else {
		say('building and packing n8n-nodes-paycashless ...');
		const tgz = await buildAndPack({ quiet: true });
		installPackageIntoN8n(tgz, USER_FOLDER);
		fs.writeFileSync(stamp, hash);
		say(`installed ${path.basename(tgz)} into ${path.relative(ROOT, nodesDir)} (as n8n installs community nodes)`);
	}

	const credential = await exampleCredential(liveKeys, say);
	emulator = credential.emulator;
	// The user's credential survives a restart: only created when missing (examples.cts).
	const kept = keepOrImportCredential(
		{ cli: (args) => n8nCli(config, args), import: (kind, data) => importIntoN8n(config, kind, data), folder: path.join(USER_FOLDER, 'imports'), fresh: freshDatabase },
		{ name: credential.name, data: credential.data, fromEnvironment: live },
	);
	const credentialName = kept.name;
	say(`${kept.said}.`);
	const workflows = loadExampleWorkflows({ n8nBaseUrl: n8nUrl, credential: { id: EXAMPLE_CREDENTIAL.id, name: credentialName }, filesFolder });
	// An example already in this n8n (from an earlier npm start) stays as the user left it: edited,
	// published or not. Only the missing ones are imported (and their triggers published).
	const existing = new Set(freshDatabase ? [] : n8nCli(config, ['list:workflow', '--onlyId']).split('\n').map((line) => line.trim()).filter(Boolean));
	const missing = workflows.filter((wf) => !existing.has(wf.id));
	if (missing.length > 0) importIntoN8n(config, 'workflow', missing);
	const triggerWorkflows = workflows.filter((wf) => wf.nodes.some((node) => node.type === NODE_TYPE_TRIGGER));
	// The payroll's forms (only n8n users open them: n8n User Auth), published once n8n runs (no CLI start more).
	const formWorkflows = missing.filter((wf) => wf.nodes.some((node) => node.type === FORM_TRIGGER && node.parameters.authentication === 'n8nUserAuth'));
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
	// The payroll example's approver: a second n8n user (an approval counts only from another user than the preparer).
	let approverNote = '';
	try {
		const made = await inviteMember(session, PAYROLL_APPROVER);
		approverNote = made ? '' : ' (already in this n8n)';
	} catch (error) {
		approverNote = ` (not made: ${(error as Error).message.slice(0, 200)})`;
	}
	for (const wf of formWorkflows) {
		try {
			const stored = await session.rest<{ versionId: string }>('GET', `/rest/workflows/${wf.id}`);
			await session.rest('POST', `/rest/workflows/${wf.id}/activate`, { versionId: stored.versionId });
		} catch (error) {
			say(`could not publish "${wf.name}" (${(error as Error).message.slice(0, 200)}): open it and click Publish`);
		}
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
		`  Approver:  ${PAYROLL_APPROVER.email}  /  ${PAYROLL_APPROVER.password}${approverNote}  (a second n8n user, for the payroll's approval)`,
		live
			? '  API:       the Paycashless API from PAYCASHLESS_* (real money if these are live keys!)'
			: `  Emulator:  ${emulator?.baseUrl}  (a local Paycashless with test data; the credential points at it)\n` +
				`  Pay:       ${emulator?.baseUrl}/  (invoices and transfers to pay, payouts to settle or fail, test banks and accounts)`,
		folders.length > 0
			? `  Files:     ${folders.join(', ')}  (put your CSV files here: n8n's Read/Write Files from Disk reads and writes only here;\n` +
				'             N8N_RESTRICT_FILE_ACCESS_TO=/your/folder npm start changes it)'
			: '  Files:     any folder (N8N_RESTRICT_FILE_ACCESS_TO is empty: n8n reads and writes files anywhere)',
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
		`    5. "payroll": open ${n8nUrl}/form/paycashless-payroll, submit (no file: the 7 staff of ${path.join(filesFolder, exampleFileName('payroll.csv'))}),`,
		'       then send the approval page it shows to the Approver above (another browser): only their approval pays.',
		`       "payroll status" (${n8nUrl}/form/paycashless-payroll-status): paid, pending and failed, with totals.`,
		'    6. Credentials > "' + credentialName + '": n8n checks it when you save it ("Retry" checks again).',
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
