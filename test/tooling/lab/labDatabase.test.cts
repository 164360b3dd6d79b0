/**
 * The lab gives a new n8n user folder a database n8n has already migrated (scripts/n8n/lab.cts
 * `seedMigratedDatabase`): made once per n8n install by one n8n command, copied into each new
 * SQLite folder, never over a folder's own database, never for PostgreSQL. A stand-in `n8n` that
 * writes a database names which run made it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { seedMigratedDatabase, type N8nConfig, type N8nInstall } from '../../../scripts/n8n/lab.cjs';

let scratch: string;
let install: N8nInstall;
const runs = () => fs.readFileSync(path.join(scratch, 'runs'), 'utf8').trim().split('\n').filter(Boolean);
const config = (folder: string, env?: Record<string, string>): N8nConfig => ({ n8n: install, userFolder: path.join(scratch, folder), port: 1, brokerPort: 2, env });
const database = (folder: string) => path.join(scratch, folder, '.n8n', 'database.sqlite');

beforeEach(() => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paycashless-lab-db-'));
	fs.writeFileSync(path.join(scratch, 'runs'), '');
	// As n8n's first command in a folder: it migrates (writes the database) and leaves a write-ahead log.
	const bin = path.join(scratch, 'stand-in-n8n');
	fs.writeFileSync(
		bin,
		`#!/bin/sh\necho "$1" >> "${scratch}/runs"\nmkdir -p "$N8N_USER_FOLDER/.n8n"\necho "migrated by run $(wc -l < "${scratch}/runs")" > "$N8N_USER_FOLDER/.n8n/database.sqlite"\necho wal > "$N8N_USER_FOLDER/.n8n/database.sqlite-wal"\n`,
		{ mode: 0o755 },
	);
	install = { version: 'stand-in', nodeBin: path.dirname(process.execPath), hostDir: path.join(scratch, 'host'), bin };
	fs.mkdirSync(install.hostDir);
});

afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

it('new folders get a copy of one migrated database, made by one n8n command per install', () => {
	seedMigratedDatabase(config('a'));
	seedMigratedDatabase(config('b'));
	expect(runs()).toEqual(['list:workflow']);
	expect(fs.readFileSync(database('a'), 'utf8')).toBe('migrated by run 1\n');
	expect(fs.readFileSync(database('b'), 'utf8')).toBe('migrated by run 1\n');
	expect(fs.readFileSync(`${database('b')}-wal`, 'utf8')).toBe('wal\n');
	// What the command left beside the database (n8n's settings file) is not copied.
	fs.writeFileSync(path.join(install.hostDir, 'lab-migrated-database', 'config'), '{}');
	seedMigratedDatabase(config('c'));
	expect(fs.existsSync(path.join(scratch, 'c', '.n8n', 'config'))).toBe(false);
});

it("a folder's own database is kept, and an n8n on PostgreSQL gets nothing", () => {
	fs.mkdirSync(path.join(scratch, 'kept', '.n8n'), { recursive: true });
	fs.writeFileSync(database('kept'), 'the workflows of an earlier start');
	seedMigratedDatabase(config('kept'));
	expect(fs.readFileSync(database('kept'), 'utf8')).toBe('the workflows of an earlier start');
	seedMigratedDatabase(config('queue', { DB_TYPE: 'postgresdb' }));
	expect(fs.existsSync(database('queue'))).toBe(false);
	expect(runs()).toEqual([]);
});

it('when the migrated database cannot be made, the folder is left for n8n to migrate', () => {
	fs.writeFileSync(install.bin, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
	seedMigratedDatabase(config('a'));
	expect(fs.existsSync(database('a'))).toBe(false);
	expect(fs.readdirSync(install.hostDir)).toEqual([]);
});
