/**
 * The layering the package promises, checked on the source: no import cycles anywhere (type-only
 * imports count: they tie modules together just the same), nothing imports from a layer above it,
 * and nothing below the operations names node parameters. And the shape of nodes/: each fact about
 * a Paycashless object written once (catalog/objects.ts), the transport one pipe, and folders by
 * job with files short enough to read (or saying why not).
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FOLDERS = ['lib', 'credentials', 'nodes', 'emulator', 'scripts', 'bench', 'test'];

function sourceFiles(folder: string): string[] {
	const out: string[] = [];
	const walk = (dir: string) => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			if (entry.name === 'node_modules') continue;
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (/\.c?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
		}
	};
	if (fs.existsSync(path.join(ROOT, folder))) walk(path.join(ROOT, folder));
	return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|(?:^|\n)\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/g;

/** Relative imports of a file, resolved to absolute .ts paths. */
function importsOf(file: string): string[] {
	const text = fs.readFileSync(file, 'utf8');
	const out: string[] = [];
	for (const match of text.matchAll(IMPORT)) {
		const spec = match[1] ?? match[2];
		const base = path.resolve(path.dirname(file), spec);
		// Tooling (.cts) imports a tooling module as `./x.cjs`, the file TypeScript emits for `x.cts`.
		const candidates = spec.endsWith('.cjs') ? [`${base.slice(0, -4)}.cts`] : [`${base}.ts`, path.join(base, 'index.ts')];
		const found = candidates.find((candidate) => fs.existsSync(candidate));
		if (found) out.push(found);
	}
	return out;
}

const files = FOLDERS.flatMap(sourceFiles);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const rel = (file: string) => path.relative(ROOT, file);

function cycles(): string[][] {
	const found: string[][] = [];
	const state = new Map<string, 'open' | 'done'>();
	const stack: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		stack.push(file);
		for (const next of graph.get(file) ?? []) {
			if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].map(rel));
			else if (!state.has(next)) visit(next);
		}
		stack.pop();
		state.set(file, 'done');
	};
	for (const file of files) if (!state.has(file)) visit(file);
	return found;
}

function importsFrom(fromFolder: string, toFolder: string): string[] {
	const from = path.join(ROOT, fromFolder) + path.sep;
	const to = path.join(ROOT, toFolder) + path.sep;
	return files
		.filter((file) => file.startsWith(from))
		.flatMap((file) => (graph.get(file) ?? []).filter((target) => target.startsWith(to)).map((target) => `${rel(file)} → ${rel(target)}`));
}

describe('module layering', () => {
	it('the import scan sees the package (guards against a scan that finds nothing)', () => {
		expect(graph.get(path.join(ROOT, 'nodes/Paycashless/Paycashless.node.ts'))?.length).toBeGreaterThan(3);
		expect(importsFrom('credentials', 'lib').length).toBeGreaterThan(0);
	});

	it('has no import cycles', () => {
		expect(cycles()).toEqual([]);
	});

	it('lib/ imports nothing of the package above it', () => {
		for (const upper of ['credentials', 'nodes', 'emulator', 'scripts', 'bench', 'test']) {
			expect(importsFrom('lib', upper)).toEqual([]);
		}
	});

	it('the credential and the nodes do not import each other', () => {
		expect(importsFrom('credentials', 'nodes')).toEqual([]);
		expect(importsFrom('nodes', 'credentials')).toEqual([]);
	});

	it('shipped code imports no test, emulator or script code', () => {
		for (const shipped of ['lib', 'credentials', 'nodes']) {
			for (const tool of ['test', 'emulator', 'scripts', 'bench']) expect(importsFrom(shipped, tool)).toEqual([]);
		}
	});

	it('the transport knows no operations, descriptions or node parameters', () => {
		const transport = 'nodes/Paycashless/transport';
		for (const upper of ['actions', 'descriptions', 'methods', 'trigger', 'catalog', 'callbacks', 'poll', 'wait']) {
			expect(importsFrom(transport, `nodes/Paycashless/${upper}`)).toEqual([]);
		}
		const readsParameters = sourceFiles(transport).filter((file) => /getNodeParameter\s*\(/.test(fs.readFileSync(file, 'utf8')));
		expect(readsParameters.map(rel)).toEqual([]);
	});
});

const NODE = 'nodes/Paycashless';
const nodeFiles = sourceFiles('nodes');

/** The code of a file without its comments (string contents kept). */
function codeOf(file: string): string {
	return fs
		.readFileSync(file, 'utf8')
		.replace(/\/\*[\s\S]*?\*\//g, '')
		.replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('one catalog per Paycashless object', () => {
	const catalog = path.join(ROOT, NODE, 'catalog/objects.ts');

	it('writes every API path literal once, in the catalog (every other path is built from its base)', () => {
		const written: string[] = [];
		for (const file of nodeFiles) {
			for (const match of codeOf(file).matchAll(/['"`](\/v1\/[^'"`]*)['"`]/g)) written.push(`${match[1]} in ${rel(file)}`);
		}
		// Guards against a scan that finds nothing.
		expect(written.length).toBeGreaterThanOrEqual(5);
		expect(written.filter((entry) => !entry.endsWith(` in ${rel(catalog)}`))).toEqual([]);
		const paths = written.map((entry) => entry.split(' in ')[0]);
		expect(paths.filter((entry, index) => paths.indexOf(entry) !== index)).toEqual([]);
	});

	it('writes every status list once, in the catalog', () => {
		const catalogText = codeOf(catalog);
		const lists = [...catalogText.matchAll(/(?:statuses|finalStatuses): \[([^\]]*)\]/g)].map((match) =>
			[...match[1].matchAll(/'([a-z_]+)'/g)].map((word) => word[1]),
		);
		expect(lists.length).toBeGreaterThanOrEqual(4);
		const statusWords = new Set(lists.flat());
		// Any other array literal of three or more status words is a status list written again.
		const repeated: string[] = [];
		for (const file of nodeFiles.filter((candidate) => candidate !== catalog)) {
			for (const match of codeOf(file).matchAll(/\[\s*((?:'[a-z_]+'\s*,\s*){2,}'[a-z_]+'\s*,?\s*)\]/g)) {
				const words = [...match[1].matchAll(/'([a-z_]+)'/g)].map((word) => word[1]);
				if (words.every((word) => statusWords.has(word))) repeated.push(`${rel(file)}: [${words.join(', ')}]`);
			}
		}
		expect(repeated).toEqual([]);
	});

	it('the catalog knows no operations, triggers, waits or callbacks', () => {
		for (const upper of ['actions', 'descriptions', 'methods', 'trigger', 'poll', 'wait', 'callbacks']) {
			expect(importsFrom(`${NODE}/catalog`, `${NODE}/${upper}`)).toEqual([]);
		}
	});
});

describe('the transport as one pipe', () => {
	const transport = `${NODE}/transport`;

	it('defines the _paycashless marker of a create once', () => {
		const defining = nodeFiles.filter((file) => /['"`]_paycashless['"`]/.test(codeOf(file)));
		expect(defining.map(rel)).toEqual([`${transport}/create.ts`]);
	});

	it('makes every API error in errors.ts', () => {
		const making = sourceFiles(transport).filter((file) => /new NodeApiError\s*\(/.test(codeOf(file)));
		expect(making.map(rel)).toEqual([`${transport}/errors.ts`]);
	});

	it('has one retry loop: only retry.ts sends attempts, and no operation marks its own create', () => {
		const sending = nodeFiles.filter((file) => /\bsendAttempt\s*\(/.test(codeOf(file)) && !file.endsWith('send.ts'));
		expect(sending.map(rel)).toEqual([`${transport}/retry.ts`]);
		const actions = sourceFiles(`${NODE}/actions`);
		expect(actions.length).toBeGreaterThan(10);
		expect(actions.filter((file) => /\bMARKER\b|_paycashless/.test(codeOf(file)) && !file.endsWith('tool.ts')).map(rel)).toEqual([]);
	});
});

describe('the money code lives together', () => {
	const money = `${NODE}/money`;

	it('money/ holds the limits, the period, the payouts in flight, the payee checks and the money step, and imports no operation', () => {
		const names = sourceFiles(money).map((file) => path.basename(file)).sort();
		expect(names).toEqual(expect.arrayContaining(['beneficiary.ts', 'inFlight.ts', 'kinds.ts', 'limits.ts', 'period.ts', 'refusal.ts', 'step.ts']));
		expect(importsFrom(money, `${NODE}/actions`)).toEqual([]);
		// Nothing outside money/ checks Money Limits itself: the operations send through money/step.ts.
		const enforcing = nodeFiles.filter((file) => !file.startsWith(path.join(ROOT, money)) && /\benforceMoneyLimits\b/.test(codeOf(file)));
		expect(enforcing.map(rel)).toEqual([]);
	});
});

describe('folders by job', () => {
	it('keeps each file in nodes/ within 250 lines (the transport\'s, a handful of files, within 400), or says in its header why not', () => {
		const limitOf = (file: string) => (rel(file).startsWith(`${NODE}/transport/`) ? 400 : 250);
		const long = nodeFiles.filter((file) => fs.readFileSync(file, 'utf8').split('\n').length > limitOf(file));
		// Guards against a scan that finds nothing: the node files are long.
		expect(long.length).toBeGreaterThan(0);
		const unexplained = long.filter((file) => {
			const header = /^\/\*\*[\s\S]*?\*\//.exec(fs.readFileSync(file, 'utf8'))?.[0] ?? '';
			return !new RegExp(`Longer than ${limitOf(file)} lines`).test(header);
		});
		expect(unexplained.map(rel)).toEqual([]);
	});

	it('shares the callback check from callbacks/, which knows none of its users', () => {
		for (const user of ['trigger', 'wait', 'actions', 'poll', 'transport']) {
			expect(importsFrom(`${NODE}/callbacks`, `${NODE}/${user}`)).toEqual([]);
		}
		// The trigger, the resume webhook and Callback → Verify all run the one check.
		const users = ['PaycashlessTrigger.node.ts', 'wait/webhook.ts', 'actions/callback/verify.operation.ts'];
		for (const user of users) {
			expect(graph.get(path.join(ROOT, NODE, user))).toContain(path.join(ROOT, NODE, 'callbacks/evaluate.ts'));
		}
	});

	it('keeps the poll engine and the waits apart from the operations and each other', () => {
		for (const upper of ['actions', 'wait', 'trigger']) expect(importsFrom(`${NODE}/poll`, `${NODE}/${upper}`)).toEqual([]);
		for (const upper of ['actions', 'poll', 'trigger']) expect(importsFrom(`${NODE}/wait`, `${NODE}/${upper}`)).toEqual([]);
		for (const upper of ['actions', 'poll', 'wait']) expect(importsFrom(`${NODE}/trigger`, `${NODE}/${upper}`)).toEqual([]);
	});
});

describe('scripts run without the tests', () => {
	it('scripts/ imports no test code (what a script shares with the tests lives in scripts/harness/)', () => {
		// The docs screenshot drives the browser tests' own n8n lab and editor: it is a test run that keeps a picture.
		const allowed = [path.join('scripts', 'browser', 'screenshot.cts')];
		const found = importsFrom('scripts', 'test');
		expect(found.filter((line) => !allowed.some((file) => line.startsWith(`${file} →`)))).toEqual([]);
		expect(found.length).toBeGreaterThan(0); // the scan sees the screenshot's imports: it would see others
	});
});
