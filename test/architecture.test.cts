/**
 * The layering the package promises, checked on the source: no import cycles anywhere (type-only
 * imports count: they tie modules together just the same), nothing imports from a layer above it,
 * and nothing below the operations names node parameters.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');
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
		for (const upper of ['actions', 'descriptions', 'methods', 'trigger']) {
			expect(importsFrom(transport, `nodes/Paycashless/${upper}`)).toEqual([]);
		}
		const readsParameters = sourceFiles(transport).filter((file) => /getNodeParameter\s*\(/.test(fs.readFileSync(file, 'utf8')));
		expect(readsParameters.map(rel)).toEqual([]);
	});
});
