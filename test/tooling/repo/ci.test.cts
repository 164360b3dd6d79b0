/**
 * The pull-request workflow (.github/workflows/checks.yml) runs the checks that need no n8n server
 * on every pull request: lint, type check, the unit and tooling tests and the engine tier, each through the
 * package.json script a contributor runs locally, after `npm ci`.
 */
import * as fs from 'fs';
import * as path from 'path';

import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Workflow {
	on: { pull_request?: unknown; push?: { branches?: string[] } };
	permissions: Record<string, string>;
	jobs: Record<string, { 'runs-on': string; steps: Array<{ uses?: string; run?: string; with?: Record<string, unknown> }> }>;
}

describe('pull-request checks', () => {
	const workflow = parse(read('.github/workflows/checks.yml')) as Workflow;
	const [job] = Object.values(workflow.jobs);
	const runs = job.steps.map((step) => step.run ?? '').filter(Boolean);
	const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

	it('runs on every pull request and push to main, reading the repository only', () => {
		expect(workflow.on).toHaveProperty('pull_request');
		expect(workflow.on.push?.branches).toEqual(['main']);
		expect(workflow.permissions).toEqual({ contents: 'read' });
	});

	it('installs with npm ci on Node 20, then lint, type check, unit and tooling tests and the engine tier, in that order', () => {
		const setupNode = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
		expect(setupNode?.with?.['node-version']).toBe(20);
		expect(runs).toEqual(['npm ci', 'npm run lint', 'npm run typecheck', 'npm run test:unit', 'npm run test:tooling', 'npm run test:engine']);
	});

	it('each step is the package.json script a contributor runs (the engine tier: both engine projects)', () => {
		for (const run of runs.filter((command) => command.startsWith('npm run '))) expect(scripts).toHaveProperty(run.slice('npm run '.length));
		expect(scripts['test:unit']).toBe('jest --selectProjects unit');
		expect(scripts['test:tooling']).toBe('jest --selectProjects tooling');
		expect(scripts['test:engine']).toBe('jest --selectProjects engine engine-1x');
		expect(scripts.lint).toMatch(/^n8n-node lint && /);
	});
});
