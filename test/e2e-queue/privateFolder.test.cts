/**
 * A checkout in a folder only its owner can enter (mode 700, as root's home or a private home
 * folder is). The queue lab's PostgreSQL runs as another user when the tests run as root (the
 * `postgres` user: PostgreSQL refuses root), and that user cannot enter such a folder: its data
 * must live where it can (scripts/n8n/queue.cts postgresDataRoot). The rest of the queue-mode set
 * runs as the tests' user. `.ci/run` from a clone in a mode-700 folder covers the whole set.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { freePort, stopProcessGroup } from '../../scripts/n8n/lab.cjs';
import { patience } from '../../scripts/n8n/patience.cjs';
import { installQueuePrograms, postgresBin, startPostgres } from '../../scripts/n8n/queue.cjs';

// PostgreSQL made and started: up to 20 s alone (scripts/n8n/patience.cts).
jest.setTimeout(patience(20_000));

let privateDir: string;

beforeAll(() => {
	installQueuePrograms();
	privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paycashless-private-'));
	fs.chmodSync(privateDir, 0o700);
});

afterAll(() => {
	fs.rmSync(privateDir, { recursive: true, force: true });
});

it('PostgreSQL of a queue-mode set in a checkout inside a mode-700 folder starts, stores and answers', async () => {
	expect(fs.statSync(privateDir).mode & 0o777).toBe(0o700);
	const setRoot = path.join(privateDir, 'checkout', '.n8n-lab', 'e2e-queue', 'run-1', 'postgres');
	const port = await freePort();
	const postgres = await startPostgres(setRoot, port);
	let dataDirectory = '';
	try {
		const psql = (sql: string) =>
			spawnSync(path.join(postgresBin(), 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'n8n', '-tAc', sql], { encoding: 'utf8' });
		expect(psql("CREATE TABLE probe (note text); INSERT INTO probe VALUES ('kept')").stderr).toBe('');
		expect(psql('SELECT note FROM probe').stdout.trim()).toBe('kept');
		dataDirectory = psql('SHOW data_directory').stdout.trim();
		const serverPid = Number(fs.readFileSync(path.join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
		const serverUid = fs.statSync(`/proc/${serverPid}`).uid;
		if (process.getuid?.() === 0) {
			// As root: the server runs as another user, its data outside the private folder, where it can enter.
			expect(serverUid).not.toBe(0);
			expect(dataDirectory.startsWith(privateDir)).toBe(false);
			expect(fs.readFileSync(path.join(setRoot, 'data-dir'), 'utf8')).toBe(path.dirname(dataDirectory));
		} else {
			expect(serverUid).toBe(process.getuid?.());
			expect(dataDirectory).toBe(path.join(setRoot, 'data'));
		}
		expect(fs.readFileSync(path.join(setRoot, 'postgres.log'), 'utf8')).toMatch(/ready to accept connections/);
	} finally {
		await stopProcessGroup(postgres.child, 10_000);
		if (dataDirectory && !dataDirectory.startsWith(privateDir)) fs.rmSync(path.dirname(dataDirectory), { recursive: true, force: true });
	}
});
