/**
 * jest's global setup (jest.config.js): starts the run's shared services (test/setup/sharedRun.cts)
 * in a process beside jest, idle until a test file asks for the build or a shared n8n, and tells
 * the test files where to ask (PAYCASHLESS_SHARED_RUN, inherited by jest's workers). Loaded by jest
 * itself, so it imports only Node's modules; the services run under ts-node like the lab scripts.
 */
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
/** As scripts/n8n/lab.cts names them. */
const LAB = process.env.LAB ?? path.join(ROOT, '.n8n-lab');
const SHARED_RUN_ENV = 'PAYCASHLESS_SHARED_RUN';

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

async function globalSetup(globalConfig: { selectProjects?: string[] }): Promise<void> {
	// A test run started by a test (none today) would use its parent's services.
	if (process.env[SHARED_RUN_ENV]) return;
	// `npm run test:unit` needs none.
	if (globalConfig.selectProjects?.length && globalConfig.selectProjects.every((name) => name === 'unit')) return;
	const root = path.join(LAB, 'shared');
	fs.mkdirSync(root, { recursive: true });
	// Folders of runs that are over (their jest process is gone).
	for (const name of fs.readdirSync(root)) {
		const pid = Number(/^run-(\d+)$/.exec(name)?.[1] ?? 0);
		if (pid && !isAlive(pid)) fs.rmSync(path.join(root, name), { recursive: true, force: true });
	}
	const dir = path.join(root, `run-${process.pid}`);
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const log = fs.openSync(path.join(dir, 'shared-run.log'), 'w');
	const env: NodeJS.ProcessEnv = { ...process.env, LAB };
	delete env[SHARED_RUN_ENV];
	const child: ChildProcess = spawn(process.execPath, [require.resolve('ts-node/dist/bin.js'), '--transpile-only', path.join(__dirname, 'sharedRun.cts'), dir], {
		cwd: ROOT,
		env,
		// stdin stays open while jest runs: when jest ends in any way, it closes and the services stop.
		stdio: ['pipe', log, log],
	});
	fs.closeSync(log);
	child.unref();
	(child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
	child.stdin?.on('error', () => undefined);
	(globalThis as { paycashlessSharedRun?: ChildProcess }).paycashlessSharedRun = child;
	process.env[SHARED_RUN_ENV] = dir;
}

export = globalSetup;
