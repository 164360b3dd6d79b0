/**
 * The layering the package promises, read from docs/architecture.md's layer table and checked on
 * every shipped file: no import cycles (type-only imports count: they tie modules together just the
 * same), every import between layers one the table allows, node parameters read only where the table
 * says so (resolved with `getNodeParameter`, or raw as stored: `getNode().parameters`), and the doc naming every file of the node's folders and only code that exists. And the
 * shape of nodes/: each fact about a Paycashless object written once (catalog/objects.ts), the
 * transport one pipe, and files short enough to read (or saying why not).
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

const NODE = 'nodes/Paycashless';
const DOC = path.join(ROOT, 'docs/architecture.md');

/** The code of a file without its comments (string contents kept). */
function codeOf(file: string): string {
	return fs
		.readFileSync(file, 'utf8')
		.replace(/\/\*[\s\S]*?\*\//g, '')
		.replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

interface Layer {
	name: string;
	/** Whether a file is of this layer. */
	holds: (file: string) => boolean;
	/** The layers it may import, or 'everything'. */
	imports: string[] | 'everything';
	readsParameters: boolean;
	/** Whether it reads parameters as stored (raw, unresolved). */
	readsStored: boolean;
}

/** The layer table of docs/architecture.md (the rows after its `<!-- layers -->` marker). */
function layersOfDoc(): Layer[] {
	const text = fs.readFileSync(DOC, 'utf8');
	const table = text.slice(text.indexOf('<!-- layers')).split('\n').slice(1);
	const rows = table.slice(2, table.findIndex((line, index) => index > 0 && !line.startsWith('|')));
	const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
	return rows.map((row) => {
		const [, first, , imports, reads, stored] = row.split('|').map((cell) => cell.trim());
		const name = names(first)[0];
		const folder = ['lib/', 'credentials/'].includes(name) ? name : `${NODE}/${name}`;
		const holds =
			name === '*.node.ts'
				? (file: string) => path.dirname(file) === path.join(ROOT, NODE) && file.endsWith('.node.ts')
				: (file: string) => file.startsWith(path.join(ROOT, folder));
		return {
			name,
			holds,
			imports: imports === 'everything' ? 'everything' : imports === 'nothing' ? [] : names(imports),
			readsParameters: !/^no\b/.test(reads),
			readsStored: stored !== undefined && !/^no\b/.test(stored),
		};
	});
}

const layers = layersOfDoc();

/** A parameter read as stored: a node's `parameters` (member, index or destructured), or a parent node's. */
const RAW_PARAMETER_READ = [/\.parameters\b/, /\[\s*['"`]parameters['"`]\s*\]/, /\{[^{}]*\bparameters\b[^{}]*\}\s*=/, /\bincludeNodeParameters\b/];
const shippedFiles = ['lib', 'credentials', 'nodes'].flatMap(sourceFiles);
const layerOf = (file: string) => layers.find((layer) => layer.holds(file));

describe('module layering: the table of docs/architecture.md, checked on every file', () => {
	it('the import scan sees the package and the table (guards against a scan that finds nothing)', () => {
		expect(graph.get(path.join(ROOT, 'nodes/Paycashless/Paycashless.node.ts'))?.length).toBeGreaterThan(3);
		expect(layers.map((layer) => layer.name)).toEqual(expect.arrayContaining(['lib/', 'credentials/', 'transport/', 'money/', 'actions/', '*.node.ts']));
		expect(layers.length).toBeGreaterThanOrEqual(13);
	});

	it('has no import cycles', () => {
		expect(cycles()).toEqual([]);
	});

	it('puts every shipped file in one layer of the table', () => {
		expect(shippedFiles.filter((file) => layers.filter((layer) => layer.holds(file)).length !== 1).map(rel)).toEqual([]);
	});

	it('the table names only layers it has, and has no cycle: no two layers import each other, even through others', () => {
		const known = new Set(layers.map((layer) => layer.name));
		expect(layers.flatMap((layer) => (layer.imports === 'everything' ? [] : layer.imports.filter((name) => !known.has(name))))).toEqual([]);
		const reach = (from: Layer, seen = new Set<string>()): Set<string> => {
			for (const name of from.imports === 'everything' ? [] : from.imports) {
				if (seen.has(name)) continue;
				seen.add(name);
				reach(layers.find((layer) => layer.name === name)!, seen);
			}
			return seen;
		};
		expect(layers.filter((layer) => reach(layer).has(layer.name)).map((layer) => layer.name)).toEqual([]);
	});

	it('every import between layers is one the importing layer\'s row allows', () => {
		const wrong: string[] = [];
		for (const file of shippedFiles) {
			const from = layerOf(file);
			if (!from || from.imports === 'everything') continue;
			for (const target of graph.get(file) ?? []) {
				const to = layerOf(target);
				if (to === from) continue;
				if (!to || !from.imports.includes(to.name)) wrong.push(`${rel(file)} → ${rel(target)} (${from.name} may import ${from.imports.join(', ') || 'nothing'})`);
			}
		}
		expect(wrong).toEqual([]);
	});

	it('only the layers whose row says so read node parameters', () => {
		const reading = shippedFiles.filter((file) => /\bget(?:Current)?NodeParameter\s*\(/.test(codeOf(file)));
		// Guards against a scan that finds nothing.
		expect(reading.length).toBeGreaterThan(5);
		expect(reading.filter((file) => !layerOf(file)?.readsParameters).map(rel)).toEqual([]);
	});

	it('only the layers whose row says so read parameters as stored (`getNode().parameters`, a parent node\'s `parameters`)', () => {
		const reading = shippedFiles.filter((file) => RAW_PARAMETER_READ.some((pattern) => pattern.test(codeOf(file))));
		// Guards against a scan that finds nothing: Money Limits, the payee's source, Batch Options, Show Account Name.
		expect(reading.length).toBeGreaterThanOrEqual(3);
		expect(reading.filter((file) => !layerOf(file)?.readsStored).map(rel)).toEqual([]);
		// A layer that reads stored parameters reads parameters.
		expect(layers.filter((layer) => layer.readsStored && !layer.readsParameters).map((layer) => layer.name)).toEqual([]);
	});

	it('the raw read scan sees each way of writing one', () => {
		const seen = (code: string) => RAW_PARAMETER_READ.some((pattern) => pattern.test(code));
		expect(['this.getNode().parameters[NAME]', 'run.node.parameters?.moneyLimits', "node['parameters']", 'const { parameters } = this.getNode();', 'this.getParentNodes(name, { includeNodeParameters: true })'].filter((code) => !seen(code))).toEqual([]);
		expect(["parameters: { resource: 'bankAccount' }", "this.getNodeParameter('amount', i)"].filter(seen)).toEqual([]);
	});

	it('shipped code imports no test, emulator or script code', () => {
		for (const shipped of ['lib', 'credentials', 'nodes']) {
			for (const tool of ['test', 'emulator', 'scripts', 'bench']) expect(importsFrom(shipped, tool)).toEqual([]);
		}
	});

	it('names every file of the node\'s folders, and every file it names exists', () => {
		const doc = fs.readFileSync(DOC, 'utf8');
		const folders = fs.readdirSync(path.join(ROOT, NODE), { withFileTypes: true }).filter((entry) => entry.isDirectory() && !entry.name.startsWith('__'));
		const unnamed = folders.flatMap((folder) =>
			fs
				.readdirSync(path.join(ROOT, NODE, folder.name))
				.filter((name) => name.endsWith('.ts') && name !== 'index.ts')
				.filter((name) => !doc.includes(`\`${name}\``) && !doc.includes(`${folder.name}/${name}\``))
				.map((name) => `${NODE}/${folder.name}/${name}`),
		);
		expect(unnamed).toEqual([]);
		// A name with a folder is a path from the root or from the node's folder; a bare name is a
		// shipped file's.
		const named = [...doc.matchAll(/`((?:[\w.*]+\/)*[\w.]+\.ts)`/g)].map((match) => match[1]).filter((name) => !name.includes('*'));
		expect(named.length).toBeGreaterThan(40);
		const basenames = new Set(shippedFiles.map((file) => path.basename(file)));
		const exists = (name: string) =>
			name.includes('/') ? [ROOT, path.join(ROOT, NODE)].some((base) => fs.existsSync(path.join(base, name))) : basenames.has(name);
		expect(named.filter((name) => !exists(name))).toEqual([]);
	});

	it('every function and API method it names exists (in the package, or n8n-workflow\'s types)', () => {
		const doc = fs.readFileSync(DOC, 'utf8');
		const code = [...doc.matchAll(/```[\s\S]*?```|`[^`\n]+`/g)].map((match) => match[0]).join('\n');
		const names = new Set([...code.matchAll(/\b([a-zA-Z_]\w*)\(|(?<![\w/])api\.(?!ts\b)(\w+)/g)].map((match) => match[1] ?? match[2]));
		expect(names.size).toBeGreaterThan(5);
		const n8nTypes = fs.readFileSync(path.join(path.dirname(require.resolve('n8n-workflow')), 'interfaces.d.ts'), 'utf8');
		const sources = [...shippedFiles.map(codeOf), n8nTypes].join('\n');
		const declared = (name: string) => new RegExp(`(?:function\\s+|\\b)${name}\\s*(?:\\(|:|=|<)`).test(sources);
		expect([...names].filter((name) => !declared(name))).toEqual([]);
	});
});

const nodeFiles = sourceFiles('nodes');

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
		// The shared fields (actions/fields/) describe the marker to the user; they make no create.
		expect(actions.filter((file) => /\bMARKER\b|_paycashless/.test(codeOf(file)) && !file.endsWith('tool.ts') && !file.includes('/actions/fields/')).map(rel)).toEqual([]);
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

describe('a node run is one object', () => {
	/**
	 * What a run keeps between its items lives in its run object (actions/run.ts, with its parts in
	 * transport/run.ts and money/run.ts), not in module state keyed by n8n's context. The module
	 * WeakMaps left are keyed by what outlives a run, each named here with what that is.
	 */
	const OUTLIVING_A_RUN: Record<string, string> = {
		'money/ledger.ts': "the execution's ledger (a ledger object's sums)",
		'money/lookups.ts': "the execution's flow context (lookups under way, shared by its node runs)",
		'money/questions.ts': "this process's payouts in flight (what each was asked)",
		'PaycashlessPollTrigger.node.ts': "an activation's static data (the poll under way)",
	};

	it('keeps no module WeakMap but those keyed by what outlives a run', () => {
		const holding = shippedFiles.filter((file) => /^(?:export\s+)?const\s+\w+\s*=\s*new\s+WeakMap\b/m.test(codeOf(file))).map((file) => rel(file).replace(`${NODE}/`, ''));
		// Guards against a scan that finds nothing.
		expect(holding.length).toBeGreaterThan(0);
		expect(holding.sort()).toEqual(Object.keys(OUTLIVING_A_RUN).sort());
	});

	it('the money step holds its API in a class, not behind a Symbol', () => {
		expect(nodeFiles.filter((file) => /\bSymbol\(/.test(codeOf(file)) && /\b(?:api|Api)\b/.test(codeOf(file))).map(rel)).toEqual([]);
	});

	it('the router makes the run and follows its plan', () => {
		const router = codeOf(path.join(ROOT, NODE, 'actions/router.ts'));
		expect(router).toMatch(/new NodeRun\(this\)/);
		expect(router).toMatch(/planRun\(run, /);
		expect((fs.readFileSync(path.join(ROOT, NODE, 'actions/router.ts'), 'utf8').match(/\n/g) ?? []).length).toBeLessThanOrEqual(150);
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

	it('keeps every shipped file (lib/, credentials/, nodes/) within 300 lines, header or not', () => {
		// Lines as `wc -l` counts them (a file ends with a newline).
		const lines = (file: string) => (fs.readFileSync(file, 'utf8').match(/\n/g) ?? []).length;
		// Guards against a scan that finds nothing: the longest files come close.
		expect(Math.max(...shippedFiles.map(lines))).toBeGreaterThan(250);
		expect(shippedFiles.filter((file) => lines(file) > 300).map((file) => `${rel(file)}: ${lines(file)} lines`)).toEqual([]);
	});

	it('shares the callback check from callbacks/ (which knows none of its users: the layer table)', () => {
		// The trigger, the resume webhook and Callback → Verify all run the one check.
		const users = ['PaycashlessTrigger.node.ts', 'wait/webhook.ts', 'actions/callback/verify.operation.ts'];
		for (const user of users) {
			expect(graph.get(path.join(ROOT, NODE, user))).toContain(path.join(ROOT, NODE, 'callbacks/evaluate.ts'));
		}
	});
});

describe('scripts run without the tests', () => {
	it('scripts/ imports no test code (what a script shares with the tests lives in scripts/harness/ and scripts/n8n/)', () => {
		expect(importsFrom('scripts', 'test')).toEqual([]);
		// Guards against a scan that finds nothing: the docs screenshot starts n8n from scripts/n8n/.
		expect(importsFrom(path.join('scripts', 'browser'), path.join('scripts', 'n8n'))).toEqual(
			expect.arrayContaining([`${path.join('scripts', 'browser', 'screenshot.cts')} → ${path.join('scripts', 'n8n', 'lab.cts')}`]),
		);
	});
});
