/**
 * n8n's queue mode in the lab: the distributed set merchants run when one n8n process is not
 * enough. Its own PostgreSQL and Redis (Debian programs, installed by install-queue.sh, run on
 * free loopback ports with their data under the lab folder; never a system service), an n8n
 * main process (editor, REST, activation, test webhooks), workers that run the executions, a
 * webhook processor that receives production webhooks, and a small front proxy that plays the
 * load balancer of a real deployment: `/webhook/…` goes to the webhook processor, everything
 * else to main. `N8N_WEBHOOK_URL` is the proxy's address, the one public address Paycashless
 * calls back.
 *
 * The package is installed the way a user installs it: built, published to a local npm registry
 * (scripts/n8n/registry.cts), installed through main's Settings → Community Nodes
 * (`POST /rest/community-packages`), with `N8N_REINSTALL_MISSING_PACKAGES=true` on every process: the
 * workers and the webhook processor, started after it with empty nodes folders, install the version
 * main recorded; later installs, updates and uninstalls reach the running ones through n8n's pub/sub.
 * `checkPackageInEveryProcess()` asks each process's n8n what it loads and which version it has,
 * so a process without the package, or with another version than main, is found before a callback is lost.
 *
 * Used by `npm start -- --queue` (scripts/n8n/start-queue.cts) and test/e2e-queue/.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { spawnSync, type ChildProcess } from 'child_process';

import { patience, waitedNote } from './patience.cjs';

import {
	LAB,
	LAB_ENCRYPTION_KEY,
	LAB_OWNER,
	N8N_DEFAULT,
	N8nSession,
	NODE_TYPE_ACTION,
	NODE_TYPE_TRIGGER,
	PACKAGE_NAME,
	ROOT,
	countN8nCommand,
	delay,
	freePort,
	install,
	isAlive,
	installPackageIntoN8n,
	logSaysListening,
	n8nEnv,
	restMounted,
	spawnDetached,
	stopProcessGroup,
	tail,
	type N8nConfig,
	type N8nInstall,
	type RunningN8n,
} from './lab.cjs';
import { communityPackages, startRegistry, type LocalRegistry } from './registry.cjs';

export type Role = 'main' | 'worker' | 'webhook';

export interface QueueProcess {
	/** `main`, `worker1`, `worker2`, `webhook1`, ... */
	name: string;
	role: Role;
	config: N8nConfig;
	/** The port the process listens on (main/webhook: HTTP; worker: health check). */
	port: number;
	/** Whether the process gets the package (from main's record, N8N_REINSTALL_MISSING_PACKAGES, or put in its folder). */
	hasPackage: boolean;
	child: ChildProcess;
	logFile: string;
	env: NodeJS.ProcessEnv;
	/** Ctrl-C: SIGTERM to the process (through its supervisor), SIGKILL to its group after a grace period. */
	stop(): Promise<void>;
	/** A crash: SIGKILL to the whole process group (n8n and its task runner), no shutdown. */
	kill(): Promise<void>;
	logTail(lines?: number): string;
}

export interface QueueLabOptions {
	/** Folder for this set: postgres/, redis/, one n8n user folder per process, logs. */
	root: string;
	/** The packed package (lab.buildAndPack()): published to the lab's registry, installed through main. */
	tgz: string;
	n8n?: N8nInstall;
	workers?: number;
	/** Executions one worker runs at once (`n8n worker --concurrency`). */
	workerConcurrency?: number;
	/**
	 * Process names started without the package (empty nodes folder, N8N_REINSTALL_MISSING_PACKAGES=false:
	 * to show what happens, and that the check finds it).
	 */
	withoutPackage?: string[];
	/** Extra environment for every n8n process (e.g. N8N_EXPRESSION_ENGINE). */
	env?: Record<string, string>;
	/** Called before the n8n processes start (imports need the database, n8n not running). */
	beforeN8n?: (lab: { baseUrl: string; cli(args: string[]): string; import(kind: 'credentials' | 'workflow', data: unknown): void }) => Promise<void> | void;
	/** Prints progress. */
	log?: (message: string) => void;
}

export interface QueueLab {
	/** The public address (front proxy): editor, REST and public API go to main, /webhook/ to the webhook processor. */
	baseUrl: string;
	mainUrl: string;
	webhookUrls: string[];
	postgresPort: number;
	redisPort: number;
	processes: QueueProcess[];
	/** Milliseconds from the first command to every process ready. */
	startupMs: number;
	/** For code written against one n8n (lab.RunningN8n): the public address, main's config. */
	asRunningN8n(): RunningN8n;
	/** Stops main (it runs the polls and schedules) and starts it again on the same port and database. */
	restartMain(whileDown?: () => Promise<void>): Promise<void>;
	/**
	 * Starts one more n8n process of a role. Default: empty nodes folder, reinstall on (it installs
	 * main's version). `withPackage: false`: without the package and without reinstall. `version`: that
	 * version from the lab's registry put into its nodes folder first (a process that missed an update).
	 */
	addProcess(role: Role, options?: { withPackage?: boolean; version?: string }): Promise<QueueProcess>;
	/** The lab's npm registry (the package is published there; publish a newer version to update). */
	registry: LocalRegistry;
	/** The version published and installed through main at start. */
	packageVersion: string;
	/** The packed build that was published (publish it again under a newer version to update). */
	tgz: string;
	/** A session logged in to main as the lab owner (Settings → Community Nodes calls). */
	session: N8nSession;
	/** Seconds main's installer took to install the package at start (0 when main reinstalled it itself). */
	installSeconds: number;
	/** Which worker ran which execution, from the workers' logs ("Worker started execution N"). */
	executionsByWorker(): Map<string, string>;
	/** Runs an n8n CLI command against the set's database (as main). */
	cli(args: string[]): string;
	stop(): Promise<void>;
}

function log(options: QueueLabOptions, message: string): void {
	options.log?.(message);
}

/** The newest PostgreSQL server programs Debian installed. */
export function postgresBin(): string {
	const base = '/usr/lib/postgresql';
	const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'postgres'))) : [];
	versions.sort((a, b) => Number(a) - Number(b));
	if (versions.length === 0) throw new Error('PostgreSQL is not installed: run bash scripts/n8n/install-queue.sh');
	return path.join(base, versions[versions.length - 1], 'bin');
}

/** Runs scripts/n8n/install-queue.sh (idempotent; apt-get only when Postgres or Redis is missing). */
export function installQueuePrograms(quiet = true): void {
	install('queue', { quiet });
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Postgres refuses to run as root: as root, its programs run as the `postgres` user. */
function asPostgres(command: string, args: string[]): [string, string[]] {
	if (!isRoot) return [command, args];
	return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', command, ...args]];
}

function runOk(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): string {
	countN8nCommand(command, args);
	const result = spawnSync(command, args, { encoding: 'utf8', env, cwd, maxBuffer: 64 * 1024 * 1024 });
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
	return result.stdout;
}

export interface Service {
	child: ChildProcess;
	logFile: string;
}

/** The postgres user's home folder (Debian: /var/lib/postgresql), which that user can always reach. */
function postgresHome(): string {
	const entry = spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' });
	const home = entry.status === 0 ? entry.stdout.trim().split(':')[5] : '';
	if (!home || !fs.existsSync(home)) throw new Error('no home folder for the postgres user (expected from the postgresql package)');
	return home;
}

/**
 * Where PostgreSQL keeps a set's data (`data/`, `socket/`). As root the server runs as the
 * `postgres` user, which must be able to enter every folder above its data: a checkout in a folder
 * only its owner can enter (mode 700, as root's home or a private home folder is) is out of its
 * reach. So as root the data goes under the postgres user's home (`paycashless-lab/set-…`), named in
 * `<set root>/postgres/data-dir`, which keeps it for the next start of the same set (`npm run
 * start:queue`); a data folder whose set folder is gone or names another is removed by the next
 * start. Otherwise the server runs as this user and the data stays in `<set root>/postgres/`.
 */
function postgresDataRoot(setRoot: string): string {
	if (!isRoot) return setRoot;
	const pointer = path.join(setRoot, 'data-dir');
	const base = path.join(postgresHome(), 'paycashless-lab');
	fs.mkdirSync(base, { recursive: true });
	for (const name of fs.readdirSync(base)) {
		const candidate = path.join(base, name);
		const owner = readText(path.join(candidate, 'owner'));
		const postmaster = Number(readText(path.join(candidate, 'data', 'postmaster.pid')).split('\n')[0] || 0);
		// A minute's grace: a set starting right now has written `owner` but not yet its pointer.
		const settled = Date.now() - (fs.statSync(candidate, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 60_000;
		if (owner && readText(owner) !== candidate && settled && !(postmaster && isAlive(postmaster))) fs.rmSync(candidate, { recursive: true, force: true });
	}
	const recorded = readText(pointer);
	if (recorded && recorded.startsWith(`${base}${path.sep}`) && fs.existsSync(recorded)) return recorded;
	const dataRoot = fs.mkdtempSync(path.join(base, 'set-'));
	fs.writeFileSync(path.join(dataRoot, 'owner'), pointer);
	fs.writeFileSync(pointer, dataRoot);
	return dataRoot;
}

function readText(file: string): string {
	try {
		return fs.readFileSync(file, 'utf8').trim();
	} catch {
		return '';
	}
}

/** PostgreSQL for one set: data from postgresDataRoot(`setRoot`), its log in `setRoot`. */
export async function startPostgres(setRoot: string, port: number): Promise<Service> {
	const bin = postgresBin();
	fs.mkdirSync(setRoot, { recursive: true });
	const dataRoot = postgresDataRoot(setRoot);
	const dataDir = path.join(dataRoot, 'data');
	const socketDir = path.join(dataRoot, 'socket');
	fs.mkdirSync(socketDir, { recursive: true });
	if (isRoot) runOk('chown', ['-R', 'postgres:postgres', dataRoot]);
	if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
		const [cmd, args] = asPostgres(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
		// Its working folder must be one the server's user can enter too.
		runOk(cmd, args, process.env, dataRoot);
	}
	const logFile = path.join(setRoot, 'postgres.log');
	const [cmd, args] = asPostgres(path.join(bin, 'postgres'), [
		'-D', dataDir,
		'-p', String(port),
		'-k', socketDir,
		'-c', 'listen_addresses=127.0.0.1',
		// A lab database: speed over durability.
		'-c', 'fsync=off',
		'-c', 'synchronous_commit=off',
		'-c', 'full_page_writes=off',
		'-c', 'max_connections=200',
	]);
	const child = spawnDetached(cmd, args, process.env, logFile, dataRoot);
	const psql = path.join(bin, 'psql');
	// A few seconds alone (scripts/n8n/patience.cts).
	const started = Date.now();
	for (;;) {
		const probe = spawnSync(psql, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-tAc', "SELECT 1 FROM pg_database WHERE datname = 'n8n'"], { encoding: 'utf8' });
		if (probe.status === 0) {
			if (probe.stdout.trim() !== '1') runOk(psql, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', 'CREATE DATABASE n8n']);
			break;
		}
		if (child.exitCode !== null || Date.now() - started > patience(6_000)) throw new Error(`PostgreSQL did not start (psql: ${probe.stderr.trim().slice(0, 300)}), ${waitedNote(started)}:\n${tail(logFile, 30)}`);
		await delay(150);
	}
	return { child, logFile };
}

async function startRedis(dataRoot: string, port: number): Promise<Service> {
	fs.mkdirSync(dataRoot, { recursive: true });
	const logFile = path.join(dataRoot, 'redis.log');
	const child = spawnDetached('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dataRoot, '--daemonize', 'no'], process.env, logFile, dataRoot);
	const started = Date.now();
	for (;;) {
		if (tail(logFile, 50).includes('Ready to accept connections')) return { child, logFile };
		if (child.exitCode !== null || Date.now() - started > patience(3_000)) throw new Error(`Redis did not start, ${waitedNote(started)}:\n${tail(logFile, 30)}`);
		await delay(100);
	}
}

/** Waits until `url` answers 2xx, the process being alive: an n8n process starts in 20 to 40 s alone. */
async function waitReady(url: string, child: ChildProcess, logFile: string, timeoutMs = patience(40_000)): Promise<void> {
	const started = Date.now();
	for (;;) {
		if (child.exitCode !== null || child.signalCode !== null) throw new Error(`process exited during start-up (${child.exitCode ?? child.signalCode}):\n${tail(logFile, 40)}`);
		const status = await fetch(url).then(
			(r) => r.status,
			() => 0,
		);
		// Only our process's answer counts, not another's that holds the port (see freePort).
		if (status >= 200 && status < 300 && logSaysListening(logFile, Number(new URL(url).port))) return;
		if (Date.now() - started > timeoutMs) throw new Error(`${url} not ready (last answer: ${status ? `HTTP ${status}` : 'none'}), ${waitedNote(started)}:\n${tail(logFile, 40)}`);
		await delay(200);
	}
}

/**
 * The front proxy: `/webhook/` (production webhooks) to the webhook processors, the rest to main.
 * Every call on a connection of its own to n8n, closed after the answer (the client's too: n8n's
 * `Connection: close` comes back). A kept-alive connection that one side closes after 5 s idle
 * meets the next call when the test process (which runs this proxy) stalls longer: the call fails
 * ECONNRESET before n8n reads it (stop 55's CI failure; test/support/e2e/freshFetch.cts).
 */
function startProxy(port: number, targets: () => { main: number; webhooks: number[] }): Promise<http.Server> {
	let next = 0;
	const server = http.createServer((req, res) => {
		const { main, webhooks } = targets();
		const toWebhook = /^\/webhook\//.test(req.url ?? '') && webhooks.length > 0;
		const targetPort = toWebhook ? webhooks[next++ % webhooks.length] : main;
		const { connection: _connection, 'keep-alive': _keepAlive, ...headers } = req.headers;
		const upstream = http.request(
			{ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, agent: false, headers: { ...headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' } },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
				answer.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
			res.end(`lab proxy: ${error.message}`);
		});
		req.pipe(upstream);
	});
	server.keepAliveTimeout = 5_000;
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve(server));
	});
}

export async function startQueueLab(options: QueueLabOptions): Promise<QueueLab> {
	const started = Date.now();
	const n8n = options.n8n ?? N8N_DEFAULT;
	const major = Number(n8n.version.split('.')[0]);
	fs.mkdirSync(options.root, { recursive: true });
	installQueuePrograms();

	const services: Service[] = [];
	const processes: QueueProcess[] = [];
	let proxy: http.Server | undefined;
	let registry: LocalRegistry | undefined;
	const stopAll = async () => {
		// Workers and webhook processors first, main, then Redis and Postgres.
		const order = [...processes.filter((p) => p.role !== 'main'), ...processes.filter((p) => p.role === 'main')];
		await Promise.all(order.filter((p) => p.role !== 'main').map((p) => p.stop().catch(() => undefined)));
		for (const p of order.filter((p) => p.role === 'main')) await p.stop().catch(() => undefined);
		await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
		proxy?.closeAllConnections?.();
		for (const service of services.reverse()) await stopProcessGroup(service.child, 10_000).catch(() => undefined);
		await registry?.stop().catch(() => undefined);
	};

	try {
		const [postgresPort, redisPort, publicPort] = [await freePort(), await freePort(), await freePort()];
		log(options, `PostgreSQL on 127.0.0.1:${postgresPort}, Redis on 127.0.0.1:${redisPort} (data under ${path.relative(ROOT, options.root) || options.root})`);
		const [pg, redis, localRegistry] = await Promise.all([
			startPostgres(path.join(options.root, 'postgres'), postgresPort),
			startRedis(path.join(options.root, 'redis'), redisPort),
			startRegistry({ root: path.join(options.root, 'registry'), log: options.log }),
		]);
		services.push(pg, redis);
		registry = localRegistry;

		const baseUrl = `http://127.0.0.1:${publicPort}`;
		const shared: Record<string, string> = {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgresPort),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: 'lab',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redisPort),
			// Manual runs from the editor go to the workers too, like production ones.
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			// One proxy (the lab's, standing for the load balancer) in front: trust its X-Forwarded-For.
			N8N_PROXY_HOPS: '1',
			N8N_ENCRYPTION_KEY: LAB_ENCRYPTION_KEY,
			N8N_EDITOR_BASE_URL: `${baseUrl}/`,
			// The public address Paycashless calls: the trigger verifies signed callbacks against it.
			...(major >= 2 ? { N8N_WEBHOOK_URL: `${baseUrl}/` } : { WEBHOOK_URL: `${baseUrl}/` }),
			// Every process installs the package main recorded when its nodes folder lacks it (a new
			// worker, a restarted container); see docs/queue-mode.md.
			N8N_REINSTALL_MISSING_PACKAGES: 'true',
			...options.env,
		};

		// Every process starts with an empty nodes folder: the package comes from n8n's installer only
		// (a kept database, `npm run start:queue`'s, makes main reinstall the version it recorded).
		const mainFolder = path.join(options.root, 'main');
		fs.rmSync(path.join(mainFolder, '.n8n', 'nodes'), { recursive: true, force: true });
		fs.mkdirSync(path.join(mainFolder, '.n8n'), { recursive: true });
		let counters: Record<Role, number> = { main: 0, worker: 0, webhook: 0 };
		let mainStarts = 0;

		const makeProcess = async (role: Role, withPackage: boolean, fixedPort?: number, version?: string): Promise<QueueProcess> => {
			counters = { ...counters, [role]: counters[role] + 1 };
			const name = role === 'main' ? 'main' : `${role}${counters[role]}`;
			const userFolder = role === 'main' ? mainFolder : path.join(options.root, name);
			const hasPackage = withPackage && !(options.withoutPackage ?? []).includes(name);
			if (role !== 'main') {
				fs.rmSync(path.join(userFolder, '.n8n', 'nodes'), { recursive: true, force: true });
				fs.mkdirSync(path.join(userFolder, '.n8n'), { recursive: true });
				// A process that missed an update: that version in its folder (npm, as n8n lays it out).
				if (version) installPackageIntoN8n(`${PACKAGE_NAME}@${version}`, userFolder, { registry: localRegistry.url });
			}
			const port = fixedPort ?? (await freePort());
			const config: N8nConfig = { n8n, userFolder, port, brokerPort: await freePort(), env: { ...shared }, pathPrefix: [localRegistry.npmShimDir] };
			const env = n8nEnv(config);
			delete env.WEBHOOK_URL;
			delete env.N8N_WEBHOOK_URL;
			Object.assign(env, shared);
			if (!hasPackage) env.N8N_REINSTALL_MISSING_PACKAGES = 'false';
			if (role === 'worker') Object.assign(env, { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port) });
			const args = role === 'main' ? ['start'] : role === 'worker' ? ['worker', `--concurrency=${options.workerConcurrency ?? 10}`] : ['webhook'];
			// A restarted main gets a new log (main-2.log, ...): the one before the restart is kept.
			if (role === 'main') mainStarts += 1;
			const logFile = path.join(userFolder, role === 'main' && mainStarts > 1 ? `main-${mainStarts}.log` : `${name}.log`);
			const child = spawnDetached(n8n.bin, args, env, logFile, LAB);
			const proc: QueueProcess = {
				name,
				role,
				config,
				port,
				hasPackage,
				child,
				logFile,
				env,
				stop: () => stopProcessGroup(child),
				kill: async () => {
					if (child.exitCode !== null || child.signalCode !== null) return;
					const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
					try {
						process.kill(-(child.pid as number), 'SIGKILL');
					} catch {
						child.kill('SIGKILL');
					}
					await exited;
				},
				logTail: (lines = 40) => tail(logFile, lines),
			};
			processes.push(proc);
			return proc;
		};
		const ready = (proc: QueueProcess) => waitReady(`http://127.0.0.1:${proc.port}/healthz/readiness`, proc.child, proc.logFile);

		const cliConfig: N8nConfig = { n8n, userFolder: mainFolder, port: 0, brokerPort: await freePort(), env: { ...shared, N8N_REINSTALL_MISSING_PACKAGES: 'false' } };
		const cli = (args: string[]): string => runOk(n8n.bin, args, n8nEnv(cliConfig));
		const importData = (kind: 'credentials' | 'workflow', data: unknown) => {
			const file = path.join(mainFolder, `import-${kind}-${Date.now()}.json`);
			fs.writeFileSync(file, JSON.stringify(data), { mode: 0o600 });
			try {
				cli([`import:${kind}`, `--input=${file}`]);
			} finally {
				fs.rmSync(file, { force: true });
			}
		};

		// Main first: it creates the schema (migrations) the others need.
		log(options, 'starting n8n main (creates the database schema) ...');
		if (options.beforeN8n) {
			// The CLI migrates a fresh database itself; imports go in before main starts.
			await options.beforeN8n({ baseUrl, cli, import: importData });
		}
		let main = await makeProcess('main', true);
		// This build, under its own version, in the registry started empty (while main starts): what
		// main's installer installs below.
		const packageVersion = localRegistry.publish(options.tgz);
		const mainReady = async (proc: QueueProcess) => {
			await ready(proc);
			// n8n 1.x answers readiness before its REST routes are mounted (a few seconds later).
			const started = Date.now();
			while (!(await restMounted(`http://127.0.0.1:${proc.port}`))) {
				if (proc.child.exitCode !== null) throw new Error(`main exited:\n${proc.logTail()}`);
				if (Date.now() - started > patience(6_000)) throw new Error(`main answers readiness but not /rest/settings, ${waitedNote(started)}:\n${proc.logTail()}`);
				await delay(200);
			}
		};
		await mainReady(main);
		// Settings → Community Nodes on main: install this build from the lab's registry (or, with a
		// database that already records the package, update to it when main reinstalled another).
		const session = new N8nSession(`http://127.0.0.1:${main.port}`);
		await session.ownerSetupAndLogin(LAB_OWNER).catch((error: Error) => {
			throw new Error(`the lab installs the package through main's Settings → Community Nodes as ${LAB_OWNER.email}, and could not log in (${error.message}); remove ${options.root} to start afresh`);
		});
		const installStarted = Date.now();
		let installSeconds = 0;
		const [recorded] = (await communityPackages.list(session)).filter((p) => p.packageName === PACKAGE_NAME);
		if (!recorded) {
			await communityPackages.install(session, packageVersion);
			installSeconds = (Date.now() - installStarted) / 1000;
		} else if (recorded.installedVersion !== packageVersion || recorded.failedLoading) {
			await communityPackages.update(session, packageVersion);
			installSeconds = (Date.now() - installStarted) / 1000;
		}
		const how = installSeconds > 0 ? 'installed through its community-package installer' : 'reinstalled by main from its database record (N8N_REINSTALL_MISSING_PACKAGES)';
		log(options, `main ready and ${PACKAGE_NAME} ${packageVersion} ${how} after ${((Date.now() - started) / 1000).toFixed(1)} s; starting ${options.workers ?? 2} workers and a webhook processor (they install it themselves) ...`);
		const others: QueueProcess[] = [];
		for (let i = 0; i < (options.workers ?? 2); i++) others.push(await makeProcess('worker', true));
		others.push(await makeProcess('webhook', true));
		await Promise.all(others.map(ready));

		const webhookPorts = () => processes.filter((p) => p.role === 'webhook' && p.child.exitCode === null && p.hasPackage).map((p) => p.port);
		proxy = await startProxy(publicPort, () => ({ main: main.port, webhooks: webhookPorts() }));
		const startupMs = Date.now() - started;
		log(options, `queue-mode set ready in ${(startupMs / 1000).toFixed(1)} s`);

		const lab: QueueLab = {
			baseUrl,
			mainUrl: `http://127.0.0.1:${main.port}`,
			get webhookUrls() {
				return processes.filter((p) => p.role === 'webhook').map((p) => `http://127.0.0.1:${p.port}`);
			},
			postgresPort,
			redisPort,
			processes,
			startupMs,
			cli,
			asRunningN8n: () => ({
				baseUrl,
				config: main.config,
				process: main.child,
				logFile: main.logFile,
				stop: () => lab.stop(),
				logTail: (lines = 40) => processes.map((p) => `--- ${p.name}\n${p.logTail(lines)}`).join('\n'),
			}),
			restartMain: async (whileDown) => {
				await main.stop();
				await whileDown?.();
				processes.splice(processes.indexOf(main), 1);
				counters = { ...counters, main: 0 };
				// Same port and database: the front proxy and everything that talks to main keep working.
				main = await makeProcess('main', true, main.port);
				await mainReady(main);
			},
			addProcess: async (role, addOptions = {}) => {
				const proc = await makeProcess(role, addOptions.withPackage ?? true, undefined, addOptions.version);
				await ready(proc);
				return proc;
			},
			registry: localRegistry,
			packageVersion,
			tgz: options.tgz,
			session,
			installSeconds,
			executionsByWorker: () => {
				const map = new Map<string, string>();
				for (const p of processes.filter((q) => q.role === 'worker')) {
					const text = fs.existsSync(p.logFile) ? fs.readFileSync(p.logFile, 'utf8') : '';
					for (const match of text.matchAll(/Worker started execution (\d+)/g)) map.set(match[1], p.name);
				}
				return map;
			},
			stop: stopAll,
		};
		return lab;
	} catch (error) {
		await stopAll();
		throw error;
	}
}

export interface PackageCheck {
	process: string;
	role: Role;
	/** Version of the package in the process's nodes folder, or null. */
	installedVersion: string | null;
	/** Whether n8n, started as this process, loads the Paycashless nodes. */
	loadsNodes: boolean;
	problem?: string;
}

/** What each role loses when it lacks the package, and what to do. */
export function advice(role: Role, name: string): string {
	const consequence =
		role === 'webhook'
			? 'it answers Paycashless callbacks with 400 "Unrecognized node type" (Paycashless retries, then the event is gone)'
			: role === 'worker'
				? 'executions it picks up fail, and a callback the webhook processor already answered with 200 is lost'
				: 'the editor cannot show or save Paycashless nodes';
	return `${name} (${role}) does not load ${PACKAGE_NAME}: ${consequence}. Install the same version in this process's n8n (its ~/.n8n/nodes, or the shared nodes volume / image every process uses), then restart it; or restart it with N8N_REINSTALL_MISSING_PACKAGES=true when the package was installed in Settings → Community Nodes (it then installs main's version).`;
}

/**
 * Asks every process's n8n which nodes it loads: `n8n export:nodes` with that process's own
 * environment and user folder (what a container would load), and reads the package version in its
 * nodes folder. A process that lacks the package, or has another version than main, is a problem.
 * What the README tells users to run in each container (`n8n export:nodes`).
 */
export async function checkPackageInEveryProcess(processes: QueueProcess[], n8n: N8nInstall = N8N_DEFAULT): Promise<PackageCheck[]> {
	const checks = await Promise.all(
		processes.map(async (proc): Promise<PackageCheck> => {
			const output = path.join(proc.config.userFolder, 'package-check-nodes.json');
			fs.rmSync(output, { force: true });
			// Reinstall off: the check must see the folder as the process has it, never fill it in.
			const env = { ...proc.env, N8N_RUNNERS_BROKER_PORT: String(await freePort()), N8N_LOG_LEVEL: 'warn', QUEUE_HEALTH_CHECK_ACTIVE: 'false', N8N_REINSTALL_MISSING_PACKAGES: 'false' };
			const { spawn } = await import('child_process');
			const code = await new Promise<number | null>((resolve) => {
				countN8nCommand(n8n.bin, ['export:nodes']);
				const child = spawn(n8n.bin, ['export:nodes', `--output=${output}`], { env, stdio: 'ignore', cwd: LAB });
				child.once('exit', (c) => resolve(c));
				child.once('error', () => resolve(-1));
			});
			let names: string[] = [];
			try {
				names = (JSON.parse(fs.readFileSync(output, 'utf8')) as Array<{ name: string }>).map((node) => node.name);
			} catch {
				names = [];
			}
			fs.rmSync(output, { force: true });
			const pkgJson = path.join(proc.config.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json');
			const installedVersion = fs.existsSync(pkgJson) ? (JSON.parse(fs.readFileSync(pkgJson, 'utf8')) as { version: string }).version : null;
			const loadsNodes = names.includes(NODE_TYPE_ACTION) && names.includes(NODE_TYPE_TRIGGER);
			const check: PackageCheck = { process: proc.name, role: proc.role, installedVersion, loadsNodes };
			if (code !== 0 && names.length === 0) check.problem = `could not ask ${proc.name}'s n8n which nodes it loads (n8n export:nodes exit ${code})`;
			else if (!loadsNodes) check.problem = advice(proc.role, proc.name);
			return check;
		}),
	);
	const mainVersion = checks.find((c) => c.role === 'main')?.installedVersion;
	for (const check of checks) {
		if (!check.problem && mainVersion && check.installedVersion && check.installedVersion !== mainVersion) {
			check.problem = versionDriftAdvice(check.role, check.process, check.installedVersion, mainVersion);
		}
	}
	return checks;
}

/**
 * A process that loads another version than main. n8n sends an install, update or uninstall from
 * Settings → Community Nodes only to the processes running at that moment, and
 * N8N_REINSTALL_MISSING_PACKAGES reinstalls only a package that is missing, not one of another
 * version: a worker that was down during an update keeps its old version, silently.
 */
export function versionDriftAdvice(role: Role, name: string, version: string, mainVersion: string): string {
	const runs =
		role === 'webhook'
			? 'the Paycashless Trigger callbacks it receives are checked by that version'
			: role === 'worker'
				? 'the executions it picks up run that version, while others run main\'s'
				: 'the editor shows that version';
	return (
		`${name} (${role}) loads ${PACKAGE_NAME} ${version}, main has ${mainVersion}: ${runs}. ` +
		`It was probably not running when the package was updated (n8n sends updates only to running processes, and N8N_REINSTALL_MISSING_PACKAGES reinstalls only a missing package). ` +
		`Delete ${PACKAGE_NAME} from its ~/.n8n/nodes/node_modules and restart it (with N8N_REINSTALL_MISSING_PACKAGES=true it installs ${mainVersion}), or install ${mainVersion} in its image / nodes volume.`
	);
}

/**
 * A live probe of a webhook processor: a well-formed but unsigned callback to an active Paycashless
 * Trigger. With the package the trigger refuses it (401, no execution); without it n8n answers
 * 400 "Unrecognized node type".
 */
export async function probeWebhookProcessor(webhookBaseUrl: string, triggerWebhookPath: string): Promise<{ status: number; loadsTrigger: boolean; text: string }> {
	const body = JSON.stringify({ event: 'PAYMENT_SUCCEEDED', data: { id: 'probe', reference: 'lab-probe' } });
	const response = await fetch(`${webhookBaseUrl}/webhook/${triggerWebhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
	const text = await response.text();
	return { status: response.status, loadsTrigger: response.status === 401, text };
}
