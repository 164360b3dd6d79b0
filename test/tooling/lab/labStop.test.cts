/**
 * How the lab stops a process it started (scripts/n8n/lab.cts stopProcessGroup, under
 * scripts/n8n/supervise.js). Seen in a CI run: the stop sent SIGTERM to the whole process group, so
 * n8n got it twice (from the group and from its supervisor); n8n handles SIGTERM once
 * (`process.once`), so the second one ended it mid-shutdown, a crash. The Poll Trigger's restart in
 * queue mode lost one poll's events that way. The stand-in here counts the SIGTERMs it gets.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { spawnDetached, stopProcessGroup } from '../../../scripts/n8n/lab.cjs';
import { patience } from '../../../scripts/n8n/patience.cjs';

let scratch: string;
beforeAll(() => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paycashless-lab-stop-'));
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/**
 * A process like n8n under the lab's supervisor: it writes `ready` once its handler is set, appends
 * `TERM` for each SIGTERM, and ends by itself (`exit`) `exitAfterMs` after the first (never, when null).
 */
function standIn(name: string, exitAfterMs: number | null): { child: ReturnType<typeof spawnDetached>; record: string } {
	const record = path.join(scratch, `${name}.txt`);
	const script = [
		`const fs = require('fs');`,
		`process.on('SIGTERM', () => {`,
		`  fs.appendFileSync(${JSON.stringify(record)}, 'TERM\\n');`,
		exitAfterMs === null ? '' : `  setTimeout(() => { fs.appendFileSync(${JSON.stringify(record)}, 'exit\\n'); process.exit(0); }, ${exitAfterMs});`,
		`});`,
		`fs.appendFileSync(${JSON.stringify(record)}, 'ready\\n');`,
		`setInterval(() => undefined, 1000);`,
	].join('\n');
	const child = spawnDetached(process.execPath, ['-e', script], process.env, path.join(scratch, `${name}.log`), scratch);
	return { child, record };
}

async function ready(record: string): Promise<void> {
	const started = Date.now();
	while (!(fs.existsSync(record) && fs.readFileSync(record, 'utf8').includes('ready'))) {
		if (Date.now() - started > patience(2_000)) throw new Error(`the stand-in did not start: ${record}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

const terms = (record: string) => fs.readFileSync(record, 'utf8').split('\n').filter((line) => line === 'TERM').length;

it('a stop gives the process one SIGTERM and waits for it to end by itself', async () => {
	const { child, record } = standIn('graceful', 1_000);
	await ready(record);
	const started = Date.now();
	const grace = patience(2_000);
	await stopProcessGroup(child, grace);
	// It ended by itself, after its second of shutdown and before the grace ran out, with exactly
	// one SIGTERM. (Its supervisor then takes the group down: SIGKILL, by design.)
	const took = Date.now() - started;
	expect(took).toBeGreaterThanOrEqual(900);
	expect(took).toBeLessThan(grace);
	expect(terms(record)).toBe(1);
	expect(fs.readFileSync(record, 'utf8')).toContain('exit');
});

it('a process that does not end within the grace is killed, with its group', async () => {
	const { child, record } = standIn('stuck', null);
	await ready(record);
	const started = Date.now();
	await stopProcessGroup(child, 1_500);
	expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
	expect(terms(record)).toBe(1);
	expect(child.signalCode).toBe('SIGKILL');
});
