/**
 * jest's global setup (jest.config.js): starts the run's shared services (test/support/setup/sharedRun.cts)
 * in a process beside jest, idle until a test file asks for the build or a shared n8n, and tells
 * the test files where to ask (PAYCASHLESS_SHARED_RUN, inherited by jest's workers). Loaded by jest
 * itself, so it imports only Node's modules; the services run under ts-node like the lab scripts.
 */
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
/** As scripts/n8n/lab.cts names it (a link to a folder outside the checkout, made when missing): only when services start. */
function labFolder(): string {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return process.env.LAB ?? (require('../../../scripts/n8n/lab-folder.js') as { labFolder(root: string): string }).labFolder(ROOT);
}
const SHARED_RUN_ENV = 'PAYCASHLESS_SHARED_RUN';

/**
 * What each project's test files install (scripts/n8n/lab.cts INSTALLS): the shared services start
 * these at once, so a machine without them installs while the first files start. Each file still
 * runs the installs it needs (and waits for these): a project missing here only starts later.
 */
const INSTALLS_BY_PROJECT: Record<string, string[]> = {
	engine: ['n8n-2'],
	'engine-1x': ['n8n-1'],
	e2e: ['n8n-2', 'scanner', 'registry'],
	'e2e-queue': ['n8n-2', 'registry', 'queue'],
	'e2e-1x': ['n8n-1'],
	reliability: ['n8n-2'],
	browser: ['n8n-2', 'chromium'],
};

/**
 * The projects of `--selectProjects` on jest's command line (what jest's own argument parser takes:
 * every word after it up to the next option), or undefined: all. jest passes no such list to a
 * global setup (its globalConfig has none).
 */
function selectedProjects(argv: string[]): string[] | undefined {
	let selected: string[] | undefined;
	for (let i = 0; i < argv.length; i++) {
		const [flag, value] = argv[i].split(/=(.*)/s);
		if (flag !== '--selectProjects') continue;
		selected ??= [];
		if (value !== undefined) selected.push(value);
		else for (; i + 1 < argv.length && !argv[i + 1].startsWith('-'); i++) selected.push(argv[i + 1]);
	}
	return selected;
}

/** Every test file of the projects, as absolute paths. */
function testFiles(dir = path.join(ROOT, 'test')): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'support' ? [] : testFiles(full);
		return entry.name.endsWith('.test.cts') ? [full] : [];
	});
}

/** Projects whose files need no services, no lab folder, nothing started (their folders under test/). */
const NOTHING_STARTED = ['unit', 'tooling'];

/**
 * Whether the files chosen on the command line (`npx jest <pattern>`, jest's testPathPattern: a
 * regular expression over each file's path) are all files of `NOTHING_STARTED`'s projects.
 */
function onlyFilesNeedingNothing(pattern: string | undefined): boolean {
	if (!pattern) return false;
	let matcher: RegExp;
	try {
		matcher = new RegExp(pattern, 'i');
	} catch {
		return false;
	}
	const folders = NOTHING_STARTED.map((name) => path.join(ROOT, 'test', name) + path.sep);
	const chosen = testFiles().filter((file) => matcher.test(file));
	return chosen.length > 0 && chosen.every((file) => folders.some((folder) => file.startsWith(folder)));
}

async function globalSetup(globalConfig: { testPathPattern?: string }): Promise<void> {
	// A test run started by a test (none today) would use its parent's services.
	if (process.env[SHARED_RUN_ENV]) return;
	const selected = selectedProjects(process.argv.slice(2));
	// `npm run test:unit` or `test:tooling`, and their files chosen by name (`npx jest test/unit/node/money.test.cts`), need none.
	if (selected?.length && selected.every((name) => NOTHING_STARTED.includes(name))) return;
	if (onlyFilesNeedingNothing(globalConfig.testPathPattern)) return;
	const LAB = labFolder();
	// Whole projects (`npm test`, `--selectProjects`): their installs. Chosen files (`npx jest <file>`)
	// install what they need when they start, nothing more.
	const projects = selected?.length ? selected : Object.keys(INSTALLS_BY_PROJECT);
	const installs = globalConfig.testPathPattern ? [] : [...new Set(projects.flatMap((name) => INSTALLS_BY_PROJECT[name] ?? []))];
	// The services remove the folders of runs that are over.
	const dir = path.join(LAB, 'shared', `run-${process.pid}`);
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const log = fs.openSync(path.join(dir, 'shared-run.log'), 'w');
	const env: NodeJS.ProcessEnv = { ...process.env, LAB };
	delete env[SHARED_RUN_ENV];
	const child: ChildProcess = spawn(process.execPath, [require.resolve('ts-node/dist/bin.js'), '--transpile-only', path.join(__dirname, 'sharedRun.cts'), dir, installs.join(',')], {
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
