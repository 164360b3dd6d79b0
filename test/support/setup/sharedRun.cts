/**
 * A jest run's shared services (one build, one n8n per runtime): one process beside jest, started by jest's global setup
 * (test/support/setup/globalSetup.cts) and stopped by its global teardown. On request (a file under
 * `<dir>/want/`, written by lab.fromSharedRun from any test file, or from `npm start` run by a test):
 *
 * - `pack`: builds and packs the package once for the whole run (every test file installs, scans
 *   or publishes that one tarball);
 * - `single-2` / `single-1`: one n8n 2.41.1 / 1.123.81 with that tarball installed and the lab owner
 *   set up, shared by every test file of that runtime (test/support/e2e/harness.cts): each file brings its
 *   own emulator and creates its own credentials and workflows through n8n's APIs. (Queue-mode
 *   files start their own sets: see test/support/e2e/harness.cts.)
 *
 * - `install-<what>`: one of the lab's installs (lab.INSTALLS: n8n 2.41 or 1.123 with Node 24, the
 *   scanner, the local registry, PostgreSQL and Redis, Chromium), run without blocking this process.
 *
 * The answer is `<dir>/<what>.json` (or `<what>.error`). Nothing builds or starts before a test asks,
 * so `npm run test:unit` builds nothing and starts no n8n. The installs the run's projects need
 * (`<installs>`, from the global setup) start at once, side by side (n8n 1.123 and the scanner
 * after n8n 2.41): on a machine without them, they install while the first test files start; once installed, each is a check of under a
 * second. A test file that needs one runs it too (lab.install): it waits for this one's install
 * (the scripts lock each install folder) and then finds it done, so the list only decides how early
 * an install starts, never whether it happens. Stops everything on SIGTERM/SIGINT or when jest's
 * process ends (this process's stdin closes).
 *
 * usage: ts-node --transpile-only test/support/setup/sharedRun.cts <dir> [<installs, comma-separated>]
 */
import * as fs from 'fs';
import * as path from 'path';

import {
	N8N_DEFAULT,
	N8nSession,
	SHARED_RUN_ENV,
	buildAndPack,
	INSTALLS,
	freePort,
	installInBackground,
	isAlive,
	installPackageIntoN8n,
	startN8n,
	type Install,
	type RunningN8n,
} from '../../../scripts/n8n/lab.cjs';
import { N8N_1X } from '../../../scripts/n8n/versions.cjs';

/** What a test file needs to use a shared n8n (test/support/e2e/harness.cts). */
export interface SharedN8n {
	baseUrl: string;
	n8nVersion: string;
	userFolder: string;
	port: number;
	brokerPort: number;
	logFile: string;
	/** The owner's login cookie: test files use it (n8n allows 5 logins a minute per user). */
	login: string;
}

const dir = process.argv[2];
// This process does the work itself: its own buildAndPack must build, not ask itself.
delete process.env[SHARED_RUN_ENV];
process.env.PAYCASHLESS_COUNT_BY = 'shared run (test/support/setup/sharedRun.cts)';

const tasks = new Map<string, Promise<unknown>>();
const servers: Array<Pick<RunningN8n, 'stop'>> = [];
let stopping = false;

function say(message: string): void {
	process.stdout.write(`${new Date().toISOString()} ${message}\n`);
}

function writeAtomically(file: string, text: string): void {
	fs.writeFileSync(`${file}.tmp`, text);
	fs.renameSync(`${file}.tmp`, file);
}

async function pack(): Promise<{ tgz: string }> {
	const started = Date.now();
	const tgz = await buildAndPack({ quiet: true });
	say(`built and packed ${path.basename(tgz)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return { tgz };
}

async function sharedN8n(line: '1' | '2'): Promise<SharedN8n> {
	await task(`install-n8n-${line}`);
	const install = line === '1' ? N8N_1X : N8N_DEFAULT;
	const { tgz } = (await task('pack')) as { tgz: string };
	const started = Date.now();
	const userFolder = path.join(dir, `single-${line}`);
	installPackageIntoN8n(tgz, userFolder);
	const config = { n8n: install, userFolder, port: await freePort(), brokerPort: await freePort() };
	const n8n = await startN8n(config);
	servers.push(n8n);
	// The owner, once: every test file uses this login (useLogin) and makes its own API key.
	const session = new N8nSession(n8n.baseUrl);
	await session.ownerSetupAndLogin();
	say(`n8n ${install.version} ready on ${n8n.baseUrl} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return { baseUrl: n8n.baseUrl, n8nVersion: install.version, userFolder, port: config.port, brokerPort: config.brokerPort, logFile: n8n.logFile, login: session.login };
}

async function installed(what: Install): Promise<{ installed: Install; seconds: number }> {
	const started = Date.now();
	await installInBackground(what, path.join(dir, `install-${what}.log`));
	const seconds = Math.round((Date.now() - started) / 100) / 10;
	say(`install ${what} ready after ${seconds} s`);
	return { installed: what, seconds };
}

const WORK: Record<string, () => Promise<unknown>> = {
	pack,
	'single-2': () => sharedN8n('2'),
	'single-1': () => sharedN8n('1'),
	...Object.fromEntries(Object.keys(INSTALLS).map((what) => [`install-${what}`, () => installed(what as Install)])),
};

function task(what: string): Promise<unknown> {
	let running = tasks.get(what);
	if (running) return running;
	const work = WORK[what];
	running = work ? work() : Promise.reject(new Error(`unknown request ${what}`));
	tasks.set(what, running);
	running.then(
		(value) => writeAtomically(path.join(dir, `${what}.json`), JSON.stringify(value, null, '\t')),
		(error: Error) => {
			say(`${what} failed: ${error.stack ?? error.message}`);
			writeAtomically(path.join(dir, `${what}.error`), error.stack ?? error.message);
		},
	);
	return running;
}

async function stop(reason: string): Promise<void> {
	if (stopping) return;
	stopping = true;
	say(`stopping (${reason})`);
	await Promise.all(servers.map((server) => server.stop().catch(() => undefined)));
	process.exit(0);
}

fs.mkdirSync(path.join(dir, 'want'), { recursive: true });
fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
// Folders of earlier runs whose jest process is gone (`run-<jest pid>`).
for (const name of fs.readdirSync(path.dirname(dir))) {
	const pid = Number(/^run-(\d+)$/.exec(name)?.[1] ?? 0);
	if (pid && !isAlive(pid)) fs.rmSync(path.join(path.dirname(dir), name), { recursive: true, force: true });
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
process.stdin.on('close', () => void stop('jest ended'));
process.stdin.resume();
// n8n 1.123 (and the scanner, which installs beside 2.41) once n8n 2.41 is in: most files need
// 2.41, and two npm installs of ~2,000 packages side by side on 2 cores make both late.
const wanted = (process.argv[3] ?? '').split(',').filter(Boolean);
const afterN8n2 = (what: string) => wanted.includes('n8n-2') && (what === 'n8n-1' || what === 'scanner');
for (const what of wanted.filter((name) => !afterN8n2(name))) void task(`install-${what}`).catch(() => undefined);
if (wanted.includes('n8n-2')) {
	void task('install-n8n-2')
		.catch(() => undefined)
		.then(() => {
			for (const what of wanted.filter(afterN8n2)) void task(`install-${what}`).catch(() => undefined);
		});
}
setInterval(() => {
	if (stopping) return;
	for (const what of fs.readdirSync(path.join(dir, 'want'))) void task(what).catch(() => undefined);
}, 200);
say(`waiting for requests in ${dir}`);
