/**
 * The order in which jest starts the test files (jest.config.js `testSequencer`), for a run on
 * 2 cores where a few files take minutes:
 * - The longest files first, so that none starts last and runs alone at the end. jest's own
 *   sequencer orders by the durations it cached in the last run on this machine, and by file size
 *   without them; on a fresh machine that puts the small files that run a shared suite in another
 *   runtime (test/e2e-1x/, test/e2e-queue/), minutes each, last. Without a cached duration a file
 *   gets the figure of `KNOWN_SECONDS`, or its project's.
 * - On a machine without n8n (a cold CI run: the installs take minutes), the files that need no
 *   install (`unit`, and any other that loads nothing of the lab: the emulator-only fault runs of
 *   `reliability`) first: they run while the run's shared services install n8n
 *   (test/support/setup/sharedRun.cts), where every other file would wait for the installs; and the
 *   files of n8n 1.123, which installs after 2.41, last.
 * Loaded by jest itself: plain JavaScript, Node's modules only.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');

const Sequencer = require('@jest/test-sequencer').default;

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Seconds a file took in a full warm run on a 2-core machine (the long ones; others by project). */
const KNOWN_SECONDS = {
	'test/browser/editor.test.cts': 420,
	'test/e2e-queue/n8n.test.cts': 280,
	'test/e2e-queue/shared.test.cts': 350,
	'test/e2e/start.test.cts': 150,
	'test/e2e/pollTrigger.test.cts': 140,
	'test/e2e-1x/pollTrigger.test.cts': 140,
	'test/e2e/wait.test.cts': 110,
	'test/e2e-1x/wait.test.cts': 100,
	'test/reliability/hardening.test.cts': 90,
	'test/reliability/crash.test.cts': 70,
	'test/e2e/installer.test.cts': 40,
	'test/reliability/payouts.test.cts': 40,
};
const PROJECT_SECONDS = { browser: 300, 'e2e-queue': 150, 'e2e-1x': 20, e2e: 15, reliability: 10, engine: 5, 'engine-1x': 5 };
/** Projects whose files install nothing (scripts/n8n/lab.cts INSTALLS). */
const NO_INSTALL = new Set(['unit']);
/** What a test file of another project imports when it needs an install: the lab, the e2e harness, n8n's engine. */
const LAB_IMPORTS = /from '[./]*(?:scripts\/n8n\/|support\/e2e\/|support\/engine\/|support\/suites\/)/;

/** Whether a file needs none of the lab's installs: its project's, or its imports say so. */
function needsNoInstall(test, project) {
	if (NO_INSTALL.has(project)) return true;
	if (project !== 'reliability') return false;
	try {
		return !LAB_IMPORTS.test(fs.readFileSync(test.path, 'utf8'));
	} catch {
		return false;
	}
}
/** Projects of n8n 1.123, which a cold run installs after 2.41 (test/support/setup/sharedRun.cts). */
const N8N_1X = new Set(['engine-1x', 'e2e-1x']);

/** Whether n8n 2.41 is installed where the tests look for it (scripts/n8n/env.sh's layout). */
function n8nInstalled() {
	const tools = process.env.PAYCASHLESS_TOOLS || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'n8n-nodes-paycashless');
	try {
		return fs.readdirSync(tools).some((name) => /^n8n-2\./.test(name) && fs.existsSync(path.join(tools, name, '.paycashless-install-stamp')));
	} catch {
		return false;
	}
}

class CostSequencer extends Sequencer {
	sort(tests) {
		const cold = !n8nInstalled();
		const project = (test) => {
			const name = test.context.config.displayName;
			return typeof name === 'string' ? name : (name && name.name) || '';
		};
		const seconds = (test) => {
			const cached = this._getCache(test)[test.path];
			if (cached && cached[1] > 0) return cached[1] / 1000;
			const known = KNOWN_SECONDS[path.relative(ROOT, test.path).split(path.sep).join('/')];
			return known ?? PROJECT_SECONDS[project(test)] ?? 1;
		};
		const group = (test) => (!cold ? 0 : needsNoInstall(test, project(test)) ? 0 : N8N_1X.has(project(test)) ? 2 : 1);
		return [...tests].sort((a, b) => group(a) - group(b) || seconds(b) - seconds(a));
	}
}

module.exports = CostSequencer;
