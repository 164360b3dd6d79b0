/**
 * The order jest starts the files in (test/support/setup/sequencer.js), on the real file list: on a
 * cold machine (no n8n installed, no durations cached: a fresh clone on CI) the files that install
 * nothing first, n8n 1.123's last, and in each the files that take minutes first, so that none of
 * them starts last; with every file's duration in jest's cache, by those durations.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

interface Test {
	path: string;
	context: { config: { displayName: string; cache: boolean; rootDir: string; id: string } };
}
interface Sequencer {
	sort(tests: Test[]): Test[];
	_getCache(test: Test): Record<string, [number, number]>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const CostSequencer = require('../../support/setup/sequencer.js') as (new () => Sequencer) & { BY_COST: string[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(path.join(ROOT, 'jest.config.js')) as { projects: Array<{ displayName: string; roots: string[] }> };

function filesUnder(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(full) : entry.name.endsWith('.test.cts') ? [full] : [];
	});
}

/** Every test file of every project, as jest hands them to the sequencer (the engine files twice). */
const TESTS: Test[] = config.projects.flatMap((project) => {
	const context = { config: { displayName: project.displayName, cache: false, rootDir: ROOT, id: project.displayName } };
	return filesUnder(project.roots[0].replace('<rootDir>', ROOT)).map((file) => ({ path: file, context }));
});
const name = (test: Test) => `${test.context.config.displayName} ${path.relative(ROOT, test.path)}`;
const declaresMinutes = (test: Test) => /^\s*\*\s*@cost minutes\b/m.test(/^\s*\/\*[\s\S]*?\*\//.exec(fs.readFileSync(test.path, 'utf8'))?.[0] ?? '');

let tools: string;
const savedTools = process.env.PAYCASHLESS_TOOLS;
beforeEach(() => {
	tools = fs.mkdtempSync(path.join(os.tmpdir(), 'paycashless-sequencer-'));
	process.env.PAYCASHLESS_TOOLS = tools;
});
afterEach(() => {
	fs.rmSync(tools, { recursive: true, force: true });
	if (savedTools === undefined) delete process.env.PAYCASHLESS_TOOLS;
	else process.env.PAYCASHLESS_TOOLS = savedTools;
});

/** n8n 2.41 installed where the tests look for it: a warm machine. */
function installN8n(): void {
	fs.mkdirSync(path.join(tools, 'n8n-2.41.1'), { recursive: true });
	fs.writeFileSync(path.join(tools, 'n8n-2.41.1', '.paycashless-install-stamp'), '');
}

it('ranks every project of jest.config.js by cost, and nothing else', () => {
	expect([...CostSequencer.BY_COST].sort()).toEqual(config.projects.map((project) => project.displayName).sort());
});

it('cold: files that install nothing first, n8n 1.123 last; in each, the files that take minutes first; none of them among the last', () => {
	const order = new CostSequencer().sort([...TESTS]);
	expect(order).toHaveLength(TESTS.length);
	const project = (test: Test) => test.context.config.displayName;
	const group = (test: Test) => (['unit', 'tooling'].includes(project(test)) ? 0 : ['e2e-1x', 'engine-1x'].includes(project(test)) ? 2 : 1);
	// unit and tooling files come before every file of another project but the emulator-only fault runs.
	const firstInstalling = order.findIndex((test) => group(test) === 1 && /support\/(e2e|engine|suites)\/|scripts\/n8n\//.test(fs.readFileSync(test.path, 'utf8')));
	expect(order.slice(firstInstalling).filter((test) => group(test) === 0).map(name)).toEqual([]);
	const first1x = order.findIndex((test) => group(test) === 2);
	expect(order.slice(first1x).filter((test) => group(test) !== 2).map(name)).toEqual([]);
	// The minutes-long files of each stretch start before every other file of it.
	for (const [from, to] of [[0, firstInstalling], [firstInstalling, first1x], [first1x, order.length]]) {
		const stretch = order.slice(from, to);
		const long = stretch.filter(declaresMinutes).length;
		expect(long).toBeGreaterThan(0);
		expect(stretch.slice(0, long).map(name)).toEqual(stretch.filter(declaresMinutes).map(name));
	}
	// The longest of all (the editor, queue mode) start first once n8n 2.41 is there; none of the long ones ends the run.
	// (Every browser file that takes minutes, the editor's among them, then queue mode.)
	const browserLong = order.filter((test) => project(test) === 'browser' && declaresMinutes(test)).map(name);
	expect(browserLong).toContain('browser test/browser/editor.test.cts');
	expect(order.slice(firstInstalling, firstInstalling + browserLong.length + 2).map(name)).toEqual([...browserLong, 'e2e-queue test/e2e-queue/shared.test.cts', 'e2e-queue test/e2e-queue/n8n.test.cts']);
	expect(order.slice(-5).filter(declaresMinutes).map(name)).toEqual([]);
});

it("with every duration in jest's cache: by those, longest first (warm: no groups)", () => {
	installN8n();
	const sequencer = new CostSequencer();
	// A duration per file, unrelated to size, project or declared cost: the order must follow it alone.
	const durations = new Map(TESTS.map((test, index) => [test, 1000 + ((index * 7919) % 997)]));
	sequencer._getCache = (test) => ({ [test.path]: [1, durations.get(test)!] });
	const order = sequencer.sort([...TESTS]);
	const seconds = order.map((test) => durations.get(test)!);
	expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
	// One file without a cached duration (a new one): the declared order again, the minutes-long files first.
	const fresh = TESTS.find((test) => test.path.endsWith(path.join('unit', 'node', 'amount.test.cts')))!;
	sequencer._getCache = (test) => (test === fresh ? {} : { [test.path]: [1, durations.get(test)!] });
	expect(declaresMinutes(sequencer.sort([...TESTS])[0])).toBe(true);
});
