/**
 * No file of the repository names a folder of one particular machine: a user's home (root's, or
 * one under the home or Users folder), a workspace folder at the top of the file system, or the
 * folder this checkout happens to be in. A command or page that needs such a folder says how to
 * find it: the checkout's `.n8n-lab`, `$PAYCASHLESS_TOOLS`, `~/.cache`, `os.tmpdir()`.
 *
 * Reads every file git would commit (tracked, and new files not ignored).
 */
import { spawnSync } from 'child_process';
import { readFileSync } from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..', '..');

/**
 * Absolute folders of one machine, where a path starts (not inside a URL such as
 * `${baseUrl}/home/...`). `/home/node/` is the user of n8n's Docker image, the same everywhere.
 */
const MACHINE_PATH = /(?<![\w.$}\-/])(?:\/(?:root|work)\/|\/home\/(?!node\/)[\w.-]+\/|\/Users\/[\w.-]+\/|[A-Z]:\\Users\\)/g;

function filesGitWouldCommit(): string[] {
	const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
	return listed.stdout.split('\0').filter(Boolean);
}

/** `file:line: text` for each machine path in the repository. */
export function machinePaths(literals: string[]): string[] {
	const found: string[] = [];
	for (const file of filesGitWouldCommit()) {
		let text: string;
		try {
			text = readFileSync(path.join(ROOT, file), 'utf8');
		} catch {
			continue; // listed but deleted in the working tree
		}
		if (text.includes('\0')) continue; // binary (images)
		text.split('\n').forEach((line, index) => {
			if (line.match(MACHINE_PATH) || literals.some((literal) => line.includes(literal))) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 160)}`);
		});
	}
	return found;
}

describe('machine paths', () => {
	it('no file names a folder of one machine (home, workspace, this checkout)', () => {
		// This checkout's own folder and this user's home, whatever they are on the machine running the test.
		const literals = [ROOT, ...(os.homedir().length > 1 ? [`${os.homedir()}/`] : [])];
		expect(machinePaths(literals)).toEqual([]);
	});

	it('the check finds each kind of machine path and leaves URLs and system folders alone', () => {
		const lines = [
			['run LAB=/ro' + 'ot/lab npx jest', true],
			['cd /wo' + 'rk/main && npm test', true],
			['see /ho' + 'me/ada/projects/x', true],
			['"/Us' + 'ers/ada/code"', true],
			['C:\\Us' + 'ers\\ada\\code', true],
			['`${baseUrl}/home/credentials/1`', false],
			['http://127.0.0.1:5678/home/workflows/', false],
			['RUN mkdir -p /home/node/.n8n/nodes', false],
			['/usr/lib/postgresql/15/bin and /tmp/x', false],
		] as const;
		for (const [line, machine] of lines) expect([line, Boolean(line.match(MACHINE_PATH))]).toEqual([line, machine]);
	});
});
