/**
 * The checkout's lab folder (`.n8n-lab`) is a link to a folder outside the checkout
 * (scripts/n8n/lab-folder.js), so `n8n-node lint` (ESLint on `.` with n8n's default config, which
 * lints every `.ts` file it finds) never walks the n8n data, unpacked packages and databases the
 * tests leave there: after a full test run, lint took minutes instead of seconds.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { labFolder, labsHome } = require('../../../scripts/n8n/lab-folder.js') as { labFolder(root: string): string; labsHome(): string };

let scratch: string;
const savedState = process.env.XDG_STATE_HOME;

beforeEach(() => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paycashless-lab-folder-'));
	process.env.XDG_STATE_HOME = path.join(scratch, 'state');
});

afterEach(() => {
	if (savedState === undefined) delete process.env.XDG_STATE_HOME;
	else process.env.XDG_STATE_HOME = savedState;
	fs.rmSync(scratch, { recursive: true, force: true });
});

function checkout(name: string): string {
	const root = path.join(scratch, name);
	fs.mkdirSync(root, { recursive: true });
	return root;
}

it('is a link from the checkout to its own folder outside it, made once and then reused', () => {
	const root = checkout('repo');
	const lab = labFolder(root);
	expect(lab).toBe(path.join(root, '.n8n-lab'));
	expect(fs.lstatSync(lab).isSymbolicLink()).toBe(true);
	const target = fs.realpathSync(lab);
	expect(target.startsWith(fs.realpathSync(labsHome()))).toBe(true);
	expect(target.startsWith(fs.realpathSync(root))).toBe(false);
	fs.writeFileSync(path.join(lab, 'kept'), 'data');
	expect(labFolder(root)).toBe(lab);
	expect(fs.readFileSync(path.join(target, 'kept'), 'utf8')).toBe('data');
	// Another checkout gets another folder.
	expect(fs.realpathSync(labFolder(checkout('other')))).not.toBe(target);
});

it('keeps a .n8n-lab that is a real folder as it is', () => {
	const root = checkout('old');
	fs.mkdirSync(path.join(root, '.n8n-lab', 'home'), { recursive: true });
	expect(labFolder(root)).toBe(path.join(root, '.n8n-lab'));
	expect(fs.lstatSync(path.join(root, '.n8n-lab')).isDirectory()).toBe(true);
	expect(fs.existsSync(labsHome())).toBe(false);
});

it('removes the lab of a checkout that is gone, after a minute, and makes a dangling link again', () => {
	const gone = checkout('gone');
	const goneLab = fs.realpathSync(labFolder(gone));
	fs.rmSync(gone, { recursive: true });
	const stale = new Date(Date.now() - 5 * 60_000);
	fs.utimesSync(goneLab, stale, stale);
	const root = checkout('repo');
	const lab = labFolder(root);
	expect(fs.existsSync(goneLab)).toBe(false);
	// Its folder removed under it: the next use makes a new one.
	fs.rmSync(fs.realpathSync(lab), { recursive: true });
	expect(fs.existsSync(labFolder(root))).toBe(true);
	expect(fs.lstatSync(lab).isSymbolicLink()).toBe(true);
});

it('ESLint, as n8n-node lint runs it (`eslint .`), lints a folder but not one behind a link', () => {
	const root = checkout('lint');
	fs.writeFileSync(path.join(root, 'eslint.config.mjs'), "export default [{ files: ['**/*.ts'], rules: { 'no-console': 'error' } }];\n");
	const outside = path.join(scratch, 'outside');
	for (const dir of [path.join(root, 'real'), outside]) {
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, 'file.ts'), 'console.log(1);\n');
	}
	fs.symlinkSync(outside, path.join(root, 'linked'), 'dir');
	// In its own process: ESLint loads configs with import(), which jest's module sandbox refuses.
	const eslint = spawnSync(process.execPath, [path.join(__dirname, '..', '..', '..', 'node_modules', 'eslint', 'bin', 'eslint.js'), '.', '--format', 'json'], { cwd: root, encoding: 'utf8' });
	const results = JSON.parse(eslint.stdout) as Array<{ filePath: string; errorCount: number }>;
	const linted = results.filter((result) => result.filePath.endsWith('.ts'));
	expect(linted.map((result) => [path.relative(root, result.filePath), result.errorCount])).toEqual([[path.join('real', 'file.ts'), 1]]);
});
