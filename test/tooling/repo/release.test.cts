/**
 * The road to n8n's verified channel (docs/releasing.md): the publish workflow publishes from
 * GitHub Actions with provenance after the checks, a publish started any other way is refused,
 * and a tag that is not the package's version is refused. CI (`.ci/run`) runs the workflow's
 * release step as a dry run on every run.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
}
interface Workflow {
	on: { push: { tags: string[] } };
	permissions: Record<string, string>;
	jobs: Record<string, { permissions: Record<string, string>; steps: Step[] }>;
}

describe('publishing', () => {
	const workflow = parse(read('.github/workflows/publish.yml')) as Workflow;
	const [job] = Object.values(workflow.jobs);
	const runs = job.steps.map((step) => step.run ?? '');
	const indexOf = (pattern: RegExp) => runs.findIndex((run) => pattern.test(run));

	it('publishes on a version tag, from GitHub Actions, with the token that signs provenance', () => {
		expect(workflow.on.push.tags).toEqual(expect.arrayContaining(['*.*.*', 'v*.*.*']));
		expect(workflow.permissions).toEqual({});
		expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
		const pkg = JSON.parse(read('package.json'));
		expect(pkg.publishConfig).toMatchObject({ provenance: true, access: 'public' });
		expect(pkg.scripts.release).toBe('n8n-node release');
	});

	it('installs, checks the tag, runs the checks, then releases, in that order', () => {
		const order = [/^npm ci$/m, /tag-matches-version\.sh/, /scripts\/release\/checks\.sh/, /^\s*npm run release$/m].map(indexOf);
		expect(order.every((index) => index >= 0)).toBe(true);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
		for (const run of runs) {
			for (const script of run.match(/scripts\/[\w/.-]+\.sh/g) ?? []) expect(fs.existsSync(path.join(ROOT, script))).toBe(true);
		}
		const checks = read('scripts/release/checks.sh');
		for (const command of ['npm run typecheck', 'npm run build', 'npm run pack:check', 'npm run test:unit', 'npm run test:tooling']) expect(checks).toContain(command);
	});

	it('CI runs the release step up to a dry-run publish', () => {
		expect(read('.ci/run')).toMatch(/GITHUB_ACTIONS=true npm_config_dry_run=true npm run release/);
	});

	it('refuses a publish not started by `npm run release` (prepublishOnly: n8n-node prerelease)', () => {
		const env = { ...process.env };
		delete env.RELEASE_MODE;
		const publish = spawnSync('npm', ['publish', '--dry-run', '--ignore-scripts=false'], { cwd: ROOT, env, encoding: 'utf8' });
		expect(publish.status).not.toBe(0);
		expect(`${publish.stdout}${publish.stderr}`).toMatch(/npm run release/);
		expect(`${publish.stdout}${publish.stderr}`).not.toMatch(/Publishing to/);
	});

	it('refuses a tag that is not the package version', () => {
		const script = path.join(ROOT, 'scripts', 'release', 'tag-matches-version.sh');
		const { version } = JSON.parse(read('package.json'));
		expect(spawnSync('bash', [script, `v${version}`], { encoding: 'utf8' }).status).toBe(0);
		expect(spawnSync('bash', [script, version], { encoding: 'utf8' }).status).toBe(0);
		const wrong = spawnSync('bash', [script, '99.0.0'], { encoding: 'utf8' });
		expect(wrong.status).toBe(1);
		expect(wrong.stderr).toContain(`not package.json's version ${version}`);
	});
});
