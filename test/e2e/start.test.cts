/**
 * `npm start` stops n8n and the emulator when a process manager signals npm's own PID (not the
 * whole process group): package.json runs start.sh with `exec`, so npm's child is start.ts, and npm
 * passes SIGINT/SIGTERM on to it. Runs the real `npm start` against the lab n8n with its own data
 * folder and free ports.
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

it.each(['SIGINT', 'SIGTERM'] as const)('%s to npm’s PID stops n8n and the emulator', async (signal) => {
	const home = path.join(LAB, 'e2e', `start-${process.pid}-${signal}`);
	fs.rmSync(home, { recursive: true, force: true });
	const [n8nPort, emulatorPort] = [await freePort(), await freePort()];
	const env: NodeJS.ProcessEnv = { ...process.env, LAB, PAYCASHLESS_N8N_HOME: home, N8N_PORT: String(n8nPort), PAYCASHLESS_EMULATOR_PORT: String(emulatorPort) };
	for (const key of Object.keys(env)) if (key.startsWith('npm_') || key === 'JEST_WORKER_ID') delete env[key];
	// Not detached: the signal goes to npm's PID only, as a process manager sends it.
	const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
	try {
		const deadline = Date.now() + 10 * 60_000;
		while (!output.includes('is running')) {
			if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not come up:\n${output.slice(-3000)}`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		// The banner's editor address opens the workflows list (n8n 2.41's / may open its Assistant).
		const editorUrl = /Editor:\s+(http:\/\/\S+)/.exec(output)![1];
		expect(new URL(editorUrl).pathname).toBe('/home/workflows');
		const n8nUrl = new URL(editorUrl).origin;
		const emulatorUrl = /Emulator:\s+(http:\/\/\S+)/.exec(output)![1];
		expect(await listening(`${n8nUrl}/healthz`)).toBe(true);
		expect(await listening(emulatorUrl)).toBe(true);
		// The banner names the page that lists what is waiting to be paid (a waiting Create and Wait shows no link).
		const payUrl = /Pay:\s+(http:\/\/\S+)/.exec(output)![1];
		expect(payUrl).toBe(`${emulatorUrl}/`);
		expect(await (await fetch(payUrl)).text()).toContain('<h1>Waiting to be paid</h1>');
		// n8n's time zone is Lagos (its own default is America/New_York): $now in the editor is Lagos time.
		const session = new N8nSession(n8nUrl);
		await session.ownerSetupAndLogin();
		expect((await session.rest<{ timezone: string }>('GET', '/rest/settings')).timezone).toBe('Africa/Lagos');

		process.kill(npm.pid!, signal);
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 60_000))]);
		expect(npm.exitCode).not.toBeNull();
		expect(output).toContain(`${signal} received`);
		expect(await listening(`${n8nUrl}/healthz`)).toBe(false);
		expect(await listening(emulatorUrl)).toBe(false);
	} finally {
		if (npm.exitCode === null) npm.kill('SIGKILL');
		fs.rmSync(home, { recursive: true, force: true });
	}
});

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
	return { state, stop, n8nUrl: new URL(/Editor:\s+(http:\/\/\S+)/.exec(state.output)![1]).origin };
}

it('a restart keeps the credential the user edited, and says so', async () => {
	const home = path.join(LAB, 'e2e', `start-${process.pid}-credential`);
	fs.rmSync(home, { recursive: true, force: true });
	const ports = { n8n: await freePort(), emulator: await freePort() };
	const credentialId = 'paycashlessExmpl1';
	type Stored = { name: string; data: Record<string, unknown> };
	try {
		const first = await npmStart(home, ports);
		expect(first.state.output).toContain('created the credential "Paycashless (local emulator)"');
		const session = new N8nSession(first.n8nUrl);
		await session.ownerSetupAndLogin();
		// What a user does in the editor: paste sandbox keys into the example credential and save.
		const before = await session.rest<Stored>('GET', `/rest/credentials/${credentialId}?includeData=true`);
		const userData = { ...before.data, apiKey: 'pk_test_pasted_by_user', apiSecret: 'sk_test_pasted_by_user', baseUrl: 'https://sandbox.example.com' };
		await session.rest('PATCH', `/rest/credentials/${credentialId}`, { name: before.name, type: 'paycashlessApi', data: userData });
		await first.stop();

		const second = await npmStart(home, ports);
		try {
			expect(second.state.output).toContain('kept the credential "Paycashless (local emulator)" as you edited it');
			expect(second.state.output).not.toContain('sk_test_pasted_by_user');
			const again = new N8nSession(second.n8nUrl);
			await again.ownerSetupAndLogin();
			const after = await again.rest<Stored>('GET', `/rest/credentials/${credentialId}?includeData=true`);
			// n8n redacts the key and secret in what it shows; the Base URL shows the edit survived.
			expect(after.data).toMatchObject({ baseUrl: 'https://sandbox.example.com' });
		} finally {
			await second.stop();
		}
	} finally {
		fs.rmSync(home, { recursive: true, force: true });
	}
});
