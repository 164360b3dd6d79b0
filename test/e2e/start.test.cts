/**
 * The real `npm start`, with its own data folder and free ports: what its banner names, and that it
 * stops n8n and the emulator when a process manager signals npm's own PID (not the whole process
 * group): package.json runs start.sh with `exec`, so npm's child is start.ts, and npm passes
 * SIGINT/SIGTERM on to it.
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { exampleFileName, PAYROLL_APPROVER } from '../../scripts/n8n/examples.cjs';
import { freePort, LAB, N8nSession, ROOT, waitForProductionWebhook } from '../../scripts/n8n/lab.cjs';
import { patience, waitedNote } from '../../scripts/n8n/patience.cjs';
import { freshFetch } from '../support/e2e/freshFetch.cjs';

// Deadlines (scripts/n8n/patience.cts): `npm start` comes up in about a minute alone and stops in a few
// seconds; a test starts it twice.
jest.setTimeout(patience(120_000));
const STOP_MS = patience(6_000);

async function listening(url: string): Promise<boolean> {
	try {
		await freshFetch(url, { signal: AbortSignal.timeout(2000) });
		return true;
	} catch {
		return false;
	}
}

/** `npm start` with its own data folder `home`; resolves once it says "is running". */
async function npmStart(home: string, ports: { n8n: number; emulator: number }, extraEnv: Record<string, string> = {}) {
	const env: NodeJS.ProcessEnv = { ...process.env, LAB, PAYCASHLESS_N8N_HOME: home, N8N_PORT: String(ports.n8n), PAYCASHLESS_EMULATOR_PORT: String(ports.emulator) };
	for (const key of Object.keys(env)) if (key.startsWith('npm_') || (key.startsWith('N8N_') && key !== 'N8N_PORT') || key === 'JEST_WORKER_ID' || key.startsWith('PAYCASHLESS_API_')) delete env[key];
	Object.assign(env, extraEnv);
	const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
	const state = { output: '' };
	npm.stdout.on('data', (chunk: Buffer) => (state.output += chunk.toString()));
	npm.stderr.on('data', (chunk: Buffer) => (state.output += chunk.toString()));
	const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
	const stop = async () => {
		if (npm.exitCode !== null) return;
		process.kill(npm.pid!, 'SIGINT');
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, STOP_MS))]);
		if (npm.exitCode === null) npm.kill('SIGKILL');
	};
	const started = Date.now();
	while (!state.output.includes('is running')) {
		if (npm.exitCode !== null || Date.now() - started > patience(60_000)) {
			const waited = waitedNote(started);
			await stop();
			throw new Error(`npm start did not say "is running" (exit code ${npm.exitCode}), ${waited}:\n${state.output.slice(-3000)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	return { state, stop, exited, pid: npm.pid!, exitCode: () => npm.exitCode, n8nUrl: new URL(/Editor:\s+(http:\/\/\S+)/.exec(state.output)![1]).origin };
}

/**
 * Two starts on one data folder, as a user meets them: the first checks the banner and what it
 * names, the user edits the credential, and SIGINT to npm's PID stops everything; the second
 * keeps the edit, says so, and SIGTERM stops everything. (Each start costs an install, imports and
 * an n8n boot, so the two signals share the two starts.)
 */
/**
 * What one start ran (PAYCASHLESS_COUNTS, scripts/n8n/lab.cts countEvent): package installs and n8n
 * commands (a build is left out: in a jest run the run's one build serves it).
 */
function ran(countsFile: string): string[] {
	const lines = fs.existsSync(countsFile) ? fs.readFileSync(countsFile, 'utf8').trim().split('\n').filter(Boolean) : [];
	return lines.map((line) => line.split('\t').slice(0, 2).join(' ')).filter((event) => !event.startsWith('build '));
}

describe('npm start, stopped and started again on the same data folder', () => {
	const home = path.join(LAB, 'e2e', `start-${process.pid}`);
	// The user's own N8N_RESTRICT_FILE_ACCESS_TO: a folder that does not exist yet.
	const files = path.join(LAB, 'e2e', `start-${process.pid}-files`);
	const counts = (which: string) => path.join(LAB, 'e2e', `start-${process.pid}-counts-${which}.tsv`);
	const credentialId = 'paycashlessExmpl1';
	type Stored = { name: string; data: Record<string, unknown> };
	let ports: { n8n: number; emulator: number };
	beforeAll(async () => {
		fs.rmSync(home, { recursive: true, force: true });
		ports = { n8n: await freePort(), emulator: await freePort() };
	});
	afterAll(() => {
		for (const folder of [home, files, counts('first'), counts('second')]) fs.rmSync(folder, { recursive: true, force: true });
	});

	it('the banner names the editor, the emulator and its Pay page; n8n runs in Lagos time; SIGINT to npm’s PID stops n8n and the emulator', async () => {
		const first = await npmStart(home, ports, { N8N_RESTRICT_FILE_ACCESS_TO: files, N8N_HOST: 'example.invalid', PAYCASHLESS_COUNTS: counts('first') });
		try {
			const { output } = first.state;
			// A new data folder: no n8n command asks for a credential or workflows it cannot hold yet.
			expect(ran(counts('first'))).toEqual(['install tarball', 'cli import:credentials', 'cli import:workflow', 'cli publish:workflow', 'boot start']);
			expect(output).toContain('created the credential "Paycashless (local emulator)"');
			// The banner's editor address opens the workflows list (n8n 2.41's / may open its Assistant).
			const editorUrl = /Editor:\s+(http:\/\/\S+)/.exec(output)![1];
			expect(new URL(editorUrl).pathname).toBe('/home/workflows');
			const emulatorUrl = /Emulator:\s+(http:\/\/\S+)/.exec(output)![1];
			expect(await listening(`${first.n8nUrl}/healthz`)).toBe(true);
			expect(await listening(emulatorUrl)).toBe(true);
			// The banner names the page that lists what is waiting to be paid (a waiting Create and Wait shows no link).
			const payUrl = /Pay:\s+(http:\/\/\S+)/.exec(output)![1];
			expect(payUrl).toBe(`${emulatorUrl}/`);
			expect(await (await fetch(payUrl)).text()).toContain('<h1>Waiting to be paid</h1>');
			// n8n's time zone is Lagos (its own default is America/New_York): $now in the editor is Lagos time.
			const session = new N8nSession(first.n8nUrl);
			await session.ownerSetupAndLogin();
			expect((await session.rest<{ timezone: string }>('GET', '/rest/settings')).timezone).toBe('Africa/Lagos');
			await expectFilesFolderReadable(session, output, files, home);

			// What a user does in the editor: paste sandbox keys into the example credential and save.
			const before = await session.rest<Stored>('GET', `/rest/credentials/${credentialId}?includeData=true`);
			const userData = { ...before.data, apiKey: 'pk_test_pasted_by_user', apiSecret: 'sk_test_pasted_by_user', baseUrl: 'https://sandbox.example.com' };
			await session.rest('PATCH', `/rest/credentials/${credentialId}`, { name: before.name, type: 'paycashlessApi', data: userData });

			await expectSignalStops(first, 'SIGINT', [`${first.n8nUrl}/healthz`, emulatorUrl]);
		} finally {
			await first.stop();
		}
	});

	it('the second start keeps the credential the user edited, and says so; SIGTERM to npm’s PID stops n8n and the emulator', async () => {
		const second = await npmStart(home, ports, { PAYCASHLESS_COUNTS: counts('second') });
		try {
			// Nothing changed in the sources: no build, pack or install; n8n's own default folder for files.
			expect(second.state.output).toContain('n8n-nodes-paycashless unchanged since the last start');
			expect(ran(counts('second'))).toEqual(['cli export:credentials', 'cli list:workflow', 'boot start']);
			expect(second.state.output).toMatch(new RegExp(`Files:\\s+${path.join(os.homedir(), '.n8n-files').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s`));
			expect(second.state.output).toContain('kept the credential "Paycashless (local emulator)" as you edited it');
			expect(second.state.output).not.toContain('sk_test_pasted_by_user');
			const again = new N8nSession(second.n8nUrl);
			await again.ownerSetupAndLogin();
			const after = await again.rest<Stored>('GET', `/rest/credentials/${credentialId}?includeData=true`);
			// n8n redacts the key and secret in what it shows; the Base URL shows the edit survived.
			expect(after.data).toMatchObject({ baseUrl: 'https://sandbox.example.com' });
			const emulatorUrl = /Emulator:\s+(http:\/\/\S+)/.exec(second.state.output)![1];
			await expectSignalStops(second, 'SIGTERM', [`${second.n8nUrl}/healthz`, emulatorUrl]);
		} finally {
			await second.stop();
		}
	});
});

/** Sends `signal` to npm's PID only (as a process manager does) and checks everything stopped. */
async function expectSignalStops(started: Awaited<ReturnType<typeof npmStart>>, signal: 'SIGINT' | 'SIGTERM', urls: string[]): Promise<void> {
	process.kill(started.pid, signal);
	await Promise.race([started.exited, new Promise((resolve) => setTimeout(resolve, STOP_MS))]);
	expect(started.exitCode()).not.toBeNull();
	expect(started.state.output).toContain(`${signal} received`);
	for (const url of urls) expect(await listening(url)).toBe(false);
}

/**
 * Issue 43: the folder the banner names for files exists, and n8n's Read/Write Files from Disk node
 * reads a CSV put there (N8N_RESTRICT_FILE_ACCESS_TO came from the user's environment); a file
 * outside it is refused with n8n's own message; the lab's own N8N_HOST is kept and said so.
 */
async function expectFilesFolderReadable(session: N8nSession, output: string, files: string, home: string): Promise<void> {
	// Named by its real path (n8n compares real paths; the lab folder is a link).
	expect(output).toContain(`Files:     ${fs.realpathSync(files)}  (put your CSV files here`);
	expect(output).toContain('passing your settings on to n8n: N8N_RESTRICT_FILE_ACCESS_TO');
	expect(output).toContain('ignoring N8N_HOST: npm start sets these itself');
	expect(fs.statSync(files).isDirectory()).toBe(true);
	// The payroll example's CSV, copied in under this clone's own name (it was missing), and the example reads it there.
	const own = exampleFileName('payroll.csv');
	expect(own).toMatch(/^payroll-[0-9a-f]{8}\.csv$/);
	expect(output).toContain(`copied the examples' ${own} into ${fs.realpathSync(files)}`);
	expect(fs.readFileSync(path.join(files, own), 'utf8')).toBe(fs.readFileSync(path.join(ROOT, 'examples', 'payroll.csv'), 'utf8'));
	const payroll = await session.rest<{ nodes: Array<{ name: string; parameters: Record<string, unknown> }> }>('GET', '/rest/workflows/pcxPayroll000001');
	expect(payroll.nodes.find((node) => node.name === 'Read Example CSV')?.parameters.fileSelector).toBe(path.join(fs.realpathSync(files), own));
	// The approver the payroll example needs: a second n8n user, named in the banner, who can sign in.
	expect(output).toContain(`Approver:  ${PAYROLL_APPROVER.email}  /  ${PAYROLL_APPROVER.password}`);
	expect((await new N8nSession(session.baseUrl).request('POST', '/rest/login', { emailOrLdapLoginId: PAYROLL_APPROVER.email, password: PAYROLL_APPROVER.password })).status).toBe(200);
	// The payroll's form is published: n8n answers it (sending a browser to its sign-in), not 404.
	expect((await freshFetch(`${session.baseUrl}/form/paycashless-payroll`)).headers.get('location')).toMatch(/\/oauth\/authorize\?/);
	fs.writeFileSync(path.join(files, 'payees.csv'), 'name,accountNumber,bankCode,amount\nAdaeze Okafor,0123456789,058,1500.50\n');
	fs.writeFileSync(path.join(home, 'outside.csv'), 'name\nNobody\n');
	await session.createApiKey('start-test');
	const read = async (file: string, hook: string) => {
		const workflow = await session.api<{ id: string }>('POST', '/workflows', {
			name: `start: read ${path.basename(file)}`,
			settings: { executionOrder: 'v1' },
			connections: { Webhook: { main: [[{ node: 'Read', type: 'main', index: 0 }]] }, Read: { main: [[{ node: 'Extract', type: 'main', index: 0 }]] } },
			nodes: [
				{ id: 'w', name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: hook, parameters: { httpMethod: 'POST', path: hook, responseMode: 'lastNode', responseData: 'allEntries', options: {} } },
				{ id: 'r', name: 'Read', type: 'n8n-nodes-base.readWriteFile', typeVersion: 1, position: [200, 0], parameters: { operation: 'read', fileSelector: file, options: {} } },
				{ id: 'e', name: 'Extract', type: 'n8n-nodes-base.extractFromFile', typeVersion: 1, position: [400, 0], parameters: { operation: 'csv', options: {} } },
			],
		});
		await session.api('POST', `/workflows/${workflow.id}/activate`);
		await waitForProductionWebhook(session.baseUrl, hook);
		const answer = await freshFetch(`${session.baseUrl}/webhook/${hook}`, { method: 'POST', signal: AbortSignal.timeout(patience(6_000)) });
		return { status: answer.status, text: await answer.text(), workflowId: workflow.id };
	};
	const inside = await read(path.join(files, 'payees.csv'), `start-files-${process.pid}`);
	expect({ status: inside.status, text: inside.status === 200 ? '' : inside.text }).toEqual({ status: 200, text: '' });
	expect(JSON.parse(inside.text)).toEqual([{ name: 'Adaeze Okafor', accountNumber: '0123456789', bankCode: '058', amount: '1500.50' }]);
	const outside = await read(path.join(home, 'outside.csv'), `start-outside-${process.pid}`);
	expect(outside.status).toBeGreaterThanOrEqual(400);
	type Saved = { status: string; data?: { resultData: { error?: { message?: string } } } };
	let failed: Saved | undefined;
	for (const deadline = Date.now() + patience(6_000); !failed && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 500))) {
		const { data } = await session.api<{ data: Saved[] }>('GET', `/executions?workflowId=${outside.workflowId}&includeData=true`);
		failed = data.find((execution) => execution.status === 'error');
	}
	expect(failed?.data?.resultData.error?.message).toBe('Access to the file is not allowed.');
}
