/**
 * The real `npm start`, with its own data folder and free ports: what its banner names, and that it
 * stops n8n and the emulator when a process manager signals npm's own PID (not the whole process
 * group): package.json runs start.sh with `exec`, so npm's child is start.ts, and npm passes
 * SIGINT/SIGTERM on to it.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { freePort, LAB, N8nSession, ROOT } from '../../scripts/n8n/lab.cjs';

jest.setTimeout(15 * 60_000);

async function listening(url: string): Promise<boolean> {
	try {
		await fetch(url, { signal: AbortSignal.timeout(2000) });
		return true;
	} catch {
		return false;
	}
}

/** `npm start` with its own data folder `home`; resolves once it says "is running". */
async function npmStart(home: string, ports: { n8n: number; emulator: number }) {
	const env: NodeJS.ProcessEnv = { ...process.env, LAB, PAYCASHLESS_N8N_HOME: home, N8N_PORT: String(ports.n8n), PAYCASHLESS_EMULATOR_PORT: String(ports.emulator) };
	for (const key of Object.keys(env)) if (key.startsWith('npm_') || key === 'JEST_WORKER_ID' || key.startsWith('PAYCASHLESS_API_')) delete env[key];
	const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
	const state = { output: '' };
	npm.stdout.on('data', (chunk: Buffer) => (state.output += chunk.toString()));
	npm.stderr.on('data', (chunk: Buffer) => (state.output += chunk.toString()));
	const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
	const stop = async () => {
		if (npm.exitCode !== null) return;
		process.kill(npm.pid!, 'SIGINT');
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 60_000))]);
		if (npm.exitCode === null) npm.kill('SIGKILL');
	};
	const deadline = Date.now() + 10 * 60_000;
	while (!state.output.includes('is running')) {
		if (npm.exitCode !== null || Date.now() > deadline) {
			await stop();
			throw new Error(`npm start did not come up:\n${state.output.slice(-3000)}`);
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
describe('npm start, stopped and started again on the same data folder', () => {
	const home = path.join(LAB, 'e2e', `start-${process.pid}`);
	const credentialId = 'paycashlessExmpl1';
	type Stored = { name: string; data: Record<string, unknown> };
	let ports: { n8n: number; emulator: number };
	beforeAll(async () => {
		fs.rmSync(home, { recursive: true, force: true });
		ports = { n8n: await freePort(), emulator: await freePort() };
	});
	afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

	it('the banner names the editor, the emulator and its Pay page; n8n runs in Lagos time; SIGINT to npm’s PID stops n8n and the emulator', async () => {
		const first = await npmStart(home, ports);
		try {
			const { output } = first.state;
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
		const second = await npmStart(home, ports);
		try {
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
	await Promise.race([started.exited, new Promise((resolve) => setTimeout(resolve, 60_000))]);
	expect(started.exitCode()).not.toBeNull();
	expect(started.state.output).toContain(`${signal} received`);
	for (const url of urls) expect(await listening(url)).toBe(false);
}
