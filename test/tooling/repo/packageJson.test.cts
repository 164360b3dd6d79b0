/**
 * package.json as npm and n8n read it: no key twice (JSON.parse keeps the last one silently: the
 * `docs` script was written twice, the first never ran), and no `main` naming a file the package
 * does not ship (n8n loads the files of the `n8n` section, not `main`; n8n-node-cli's own template
 * has none).
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const text = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');
const pkg = JSON.parse(text) as { main?: string; files: string[]; n8n: { nodes: string[]; credentials: string[] }; scripts: Record<string, string> };

/** Every key written twice in one object of a JSON text, as `outer.key` (a small scan: strings, braces, brackets). */
function repeatedKeys(json: string): string[] {
	const repeated: string[] = [];
	const stack: Array<{ keys: Set<string>; name: string } | null> = [];
	let lastString: string | undefined;
	let pending = 'package';
	for (let i = 0; i < json.length; i++) {
		const char = json[i];
		if (char === '"') {
			let end = i + 1;
			while (json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
			lastString = JSON.parse(json.slice(i, end + 1)) as string;
			i = end;
		} else if (char === ':') {
			const frame = stack[stack.length - 1];
			if (frame && lastString !== undefined) {
				if (frame.keys.has(lastString)) repeated.push(`${frame.name}.${lastString}`);
				frame.keys.add(lastString);
				pending = `${frame.name}.${lastString}`;
			}
		} else if (char === '{') stack.push({ keys: new Set(), name: pending });
		else if (char === '[') stack.push(null);
		else if (char === '}' || char === ']') stack.pop();
	}
	return repeated;
}

describe('package.json', () => {
	it('writes no key twice', () => {
		expect(repeatedKeys(text)).toEqual([]);
		// Guards against a scan that sees nothing.
		expect(repeatedKeys('{"scripts":{"docs":"a:{\\"b","docs":"c"},"n8n":{"nodes":["x"],"docs":1}}')).toEqual(['package.scripts.docs']);
	});

	it('has no `main`: n8n loads the files its `n8n` section names (n8n-node-cli\'s template has no `main` either), and they exist', () => {
		expect(pkg.main).toBeUndefined();
		const shipped = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
		expect(shipped.length).toBe(4);
		expect(shipped.filter((file) => !fs.existsSync(path.join(ROOT, file.replace(/^dist\//, '').replace(/\.js$/, '.ts'))))).toEqual([]);
	});
});
