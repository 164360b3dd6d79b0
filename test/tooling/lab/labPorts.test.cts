/**
 * The lab's ports and readiness check (scripts/n8n/lab.cts), which every n8n of the tests relies
 * on. Seen in a full run: a poll run stopped its n8n to restart it; meanwhile another test file
 * was given that free port, and the restart's readiness check passed on the other file's n8n
 * (whose public API then answered 401 to every call).
 */
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';

import { freePort, logSaysListening, startN8n, type N8nInstall } from '../../../scripts/n8n/lab.cjs';

let scratch: string;
beforeAll(() => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paycashless-lab-ports-'));
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Another process (as another jest worker) that takes a port with freePort and keeps living. */
async function otherProcessPort(): Promise<{ port: number; child: ChildProcess }> {
	const script = `require('ts-node').register({ transpileOnly: true }); require(${JSON.stringify(path.resolve(__dirname, '../../../scripts/n8n/lab.cts'))}).freePort().then((p) => { process.stdout.write(String(p) + '\\n'); setInterval(() => undefined, 1000); });`;
	const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
	const port = await new Promise<number>((resolve, reject) => {
		child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
		child.once('exit', (code) => reject(new Error(`the other process ended (${code})`)));
	});
	return { port, child };
}

it('a port another live process took is not handed out again, even when nothing listens on it', async () => {
	const other = await otherProcessPort();
	try {
		// Nothing listens on it (the other process only took it): the operating system would hand it out.
		expect(await freePort(other.port)).not.toBe(other.port);
		for (let i = 0; i < 20; i++) expect(await freePort()).not.toBe(other.port);
	} finally {
		const gone = new Promise((resolve) => other.child.once('exit', resolve));
		other.child.kill('SIGKILL');
		// Gone means exited, not 200 ms later: on a busy machine a killed process takes longer.
		await gone;
	}
	// Once that process is gone, the port is free to take again.
	expect(await freePort(other.port)).toBe(other.port);
});

it("n8n's readiness counts only when its own log says it listens on that port", () => {
	const log = path.join(scratch, 'n8n.log');
	fs.writeFileSync(log, 'Initializing n8n process\nn8n ready on 127.0.0.1, port 41234\n');
	expect(logSaysListening(log, 41234)).toBe(true);
	expect(logSaysListening(log, 4123)).toBe(false);
	fs.writeFileSync(log, '\nn8n worker server listening on port 41235\n');
	expect(logSaysListening(log, 41235)).toBe(true);
	expect(logSaysListening(path.join(scratch, 'missing.log'), 41235)).toBe(false);
});

it('startN8n does not take another server on its port for the n8n it started', async () => {
	// Another "n8n" answers every readiness and REST probe on the port.
	const impostor = http.createServer((_req, res) => res.end('{"data":{}}'));
	const port = await freePort();
	await new Promise<void>((resolve) => impostor.listen(port, '127.0.0.1', resolve));
	// Ours never gets to listen: it exits after a while, as n8n does on EADDRINUSE.
	const bin = path.join(scratch, 'fake-n8n');
	fs.writeFileSync(bin, "#!/bin/sh\necho \"n8n's port is already in use\"\nsleep 2\nexit 1\n", { mode: 0o755 });
	const install: N8nInstall = { version: 'fake', nodeBin: path.dirname(process.execPath), hostDir: scratch, bin };
	try {
		await expect(startN8n({ n8n: install, userFolder: path.join(scratch, 'user'), port, brokerPort: await freePort() }, 20_000)).rejects.toThrow(/exited during start-up/);
	} finally {
		impostor.close();
	}
});
