/**
 * The test tree (test/README.md): each folder under test/ is one jest project listed in
 * jest.config.js (test/engine/ two, the same files on two n8n lines), or test/support/, which holds
 * no test file. So a test file put anywhere else, or a new folder, fails here instead of running in
 * no project, or in one by default. Shared suites are functions a test file calls, never a test
 * file another one imports; every project has an npm script and a row in the test map.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TEST = path.join(ROOT, 'test');

interface Project {
	displayName: string;
	roots: string[];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(path.join(ROOT, 'jest.config.js')) as { projects: Project[] };
const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The folder under test/ of each project. */
const folderOf = new Map(
	config.projects.map((project) => {
		expect(project.roots).toHaveLength(1);
		const match = /^<rootDir>\/test\/([^/]+)$/.exec(project.roots[0]);
		if (!match) throw new Error(`project ${project.displayName}: root ${project.roots[0]} is not one folder under test/`);
		return [project.displayName, match[1]];
	}),
);

function filesUnder(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(full) : [path.relative(ROOT, full)];
	});
}

describe('the test tree', () => {
	it('every folder under test/ is a project of jest.config.js or test/support/', () => {
		// Folders with files (git keeps no empty one).
		const folders = fs
			.readdirSync(TEST, { withFileTypes: true })
			.filter((entry) => entry.isDirectory() && filesUnder(path.join(TEST, entry.name)).length > 0)
			.map((entry) => entry.name);
		expect(folders.filter((folder) => folder !== 'support' && ![...folderOf.values()].includes(folder))).toEqual([]);
		expect([...folderOf.values()].filter((folder) => !folders.includes(folder))).toEqual([]);
	});

	it('test files are in a project folder; test/ holds only folders and the test map', () => {
		const loose = fs.readdirSync(TEST, { withFileTypes: true }).filter((entry) => !entry.isDirectory()).map((entry) => entry.name);
		expect(loose).toEqual(['README.md']);
		expect(filesUnder(path.join(TEST, 'support')).filter((file) => /\.test\.[cm]?[jt]s$/.test(file))).toEqual([]);
	});

	it('no file imports a test file: shared suites are functions in test/support/suites/', () => {
		const importsOfTests = filesUnder(TEST)
			.filter((file) => file.endsWith('.cts'))
			.flatMap((file) =>
				[...fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/(?:from|import|require)\s*\(?\s*['"]([^'"]+\.test)\.c?[jt]s['"]/g)].map((match) => `${file} → ${match[1]}`),
			);
		expect(importsOfTests).toEqual([]);
	});

	it('every project has an npm script and a row in test/README.md', () => {
		const map = fs.readFileSync(path.join(TEST, 'README.md'), 'utf8');
		for (const [name, folder] of folderOf) {
			const script = Object.entries(scripts).find(([key, command]) => key.startsWith('test:') && new RegExp(`--selectProjects( [\\w-]+)* ${name}( |$)`).test(command));
			expect({ name, script: script?.[0] }).toEqual({ name, script: expect.any(String) });
			expect({ name, inMap: map.includes(`test/${folder}/`) && map.includes(`npm run ${script![0]}`) }).toEqual({ name, inMap: true });
		}
	});
});
