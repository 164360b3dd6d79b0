/**
 * The order in which jest starts the test files (jest.config.js `testSequencer`), for a run on
 * 2 cores where a few files take minutes:
 * - On a machine without n8n (a cold CI run: the installs take minutes), the files that need no
 *   install (`unit`, `tooling`, and any other that loads nothing of the lab: the emulator-only fault
 *   runs of `reliability`) first: they run while the run's shared services install n8n
 *   (test/support/setup/sharedRun.cts), where every other file would wait for the installs; and the
 *   files of n8n 1.123, which installs after 2.41, last.
 * - Within that, the longest files first, so that none starts last and runs alone at the end. When
 *   jest has cached how long every file of the run took (its own per-file durations, kept in its
 *   cache folder after each run on this machine), by those, as jest's own sequencer does. Without
 *   them (a fresh clone: CI; or a new file), jest would order by file size, which puts the small
 *   files that run a shared suite in another runtime, minutes each, last; instead: the files whose
 *   header declares `@cost minutes` first, then by project, costliest first (`BY_COST`), then by
 *   size, counting the shared suites a file runs (test/support/suites/).
 * No figure of seconds is written here: the order ranks, jest's cache measures.
 * Loaded by jest itself: plain JavaScript, Node's modules only.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');

const Sequencer = require('@jest/test-sequencer').default;

/**
 * The projects by what one of their files costs, costliest first: the editor in Chromium, a queue-mode
 * set of processes per file, fault runs of thousands of requests and an n8n killed mid-batch, a real
 * n8n 2.41 then 1.123, n8n's engine in the test process, then the tests that start nothing.
 */
const BY_COST = ['browser', 'e2e-queue', 'reliability', 'e2e', 'e2e-1x', 'engine', 'engine-1x', 'tooling', 'unit'];
/** Projects whose files install nothing (scripts/n8n/lab.cts INSTALLS). */
const NO_INSTALL = new Set(['unit', 'tooling']);
/** Projects of n8n 1.123, which a cold run installs after 2.41 (test/support/setup/sharedRun.cts). */
const N8N_1X = new Set(['engine-1x', 'e2e-1x']);
/** What a test file of another project imports when it needs an install: the lab, the e2e harness, n8n's engine. */
const LAB_IMPORTS = /from '[./]*(?:scripts\/n8n\/|support\/e2e\/|support\/engine\/|support\/suites\/)/;
/** A file's header says it takes minutes on its own (a line ` * @cost minutes` in its first comment). */
const COST_MINUTES = /^\s*\*\s*@cost minutes\b/m;
/** A shared suite a file runs. */
const SUITE_IMPORT = /from '[./]*support\/suites\/([\w-]+)\.cjs'/g;

function read(file) {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return '';
	}
}

/** The first comment of a file's source (its header). */
function header(source) {
	const match = /^\s*\/\*[\s\S]*?\*\//.exec(source);
	return match ? match[0] : '';
}

/** Whether n8n 2.41 is installed where the tests look for it (scripts/n8n/env.sh's layout). */
function n8nInstalled() {
	const tools = process.env.PAYCASHLESS_TOOLS || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'n8n-nodes-paycashless');
	try {
		return fs.readdirSync(tools).some((name) => /^n8n-2\./.test(name) && fs.existsSync(path.join(tools, name, '.paycashless-install-stamp')));
	} catch {
		return false;
	}
}

function projectOf(test) {
	const name = test.context.config.displayName;
	return typeof name === 'string' ? name : (name && name.name) || '';
}

class CostSequencer extends Sequencer {
	sort(tests) {
		const cold = !n8nInstalled();
		const facts = new Map(
			tests.map((test) => {
				const project = projectOf(test);
				const source = read(test.path);
				const cached = this._getCache(test)[test.path];
				const suites = [...source.matchAll(SUITE_IMPORT)].map((match) => path.join(__dirname, '..', 'suites', `${match[1]}.cts`));
				const noInstall = NO_INSTALL.has(project) || (project === 'reliability' && source !== '' && !LAB_IMPORTS.test(source));
				return [
					test,
					{
						group: !cold || noInstall ? 0 : N8N_1X.has(project) ? 2 : 1,
						duration: cached && cached[1] > 0 ? cached[1] : undefined,
						minutes: COST_MINUTES.test(header(source)),
						rank: BY_COST.includes(project) ? BY_COST.indexOf(project) : BY_COST.length,
						size: source.length + suites.reduce((sum, suite) => sum + read(suite).length, 0),
					},
				];
			}),
		);
		const timed = tests.every((test) => facts.get(test).duration !== undefined);
		const cost = timed
			? (a, b) => b.duration - a.duration
			: (a, b) => Number(b.minutes) - Number(a.minutes) || a.rank - b.rank || b.size - a.size;
		return [...tests].sort((a, b) => {
			const [fa, fb] = [facts.get(a), facts.get(b)];
			return fa.group - fb.group || cost(fa, fb) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
		});
	}
}

module.exports = CostSequencer;
module.exports.BY_COST = BY_COST;
