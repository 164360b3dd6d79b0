/**
 * emulator/README.md's lists, checked against the emulator itself: the Endpoints table against the
 * `/v1` routes it registers, the Control API table against its `/__emulator` routes (both ways: a
 * route without a row, a row without a route), the Faults table against `FaultConfig`, the flags
 * against what the command line accepts, the banks against `emulator/banks.cts`, and the source
 * files it names.
 */
import * as fs from 'fs';
import * as path from 'path';

import { BANKS } from '../../../emulator/banks.cjs';
import { parseArgs } from '../../../emulator/cli.cjs';
import { Router } from '../../../emulator/router.cjs';
import { Emulator } from '../../../emulator/server.cjs';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const readme = fs.readFileSync(path.join(ROOT, 'emulator/README.md'), 'utf8');

/** A table row's cells, without backticks (`\|` is a pipe inside a cell). */
const cellsOf = (row: string) =>
	row
		.split(/(?<!\\)\|/)
		.slice(1, -1)
		.map((text) => text.trim().replace(/`/g, '').replace(/\\\|/g, '|'));

/** The first cells of the table under `## <heading>`. */
function firstCells(heading: string): string[] {
	const section = readme.split(`\n## ${heading}\n`)[1].split('\n## ')[0];
	return section
		.split('\n')
		.filter((line) => line.startsWith('|'))
		.slice(2)
		.map((line) => cellsOf(line)[0]);
}

/** `METHOD /path` with every parameter as `{}` and no query: `GET /v1/payouts/{}`. */
const normal = (method: string, route: string) => `${method} ${route.split('?')[0].replace(/\{[^}]+\}|:\w+/g, '{}')}`;

/** A row's routes: `GET, POST /v1/emulator/echo` and `GET / PUT /__emulator/balance` name two. */
function rowRoutes(cell: string): string[] {
	const match = /^((?:[A-Z]+\s*(?:[,/]\s*)?)+?)\s+(\/\S*)$/.exec(cell);
	if (!match) return [`(not a route: ${cell})`];
	return match[1]
		.split(/[,/]/)
		.map((method) => method.trim())
		.filter(Boolean)
		.map((method) => normal(method, match[2]));
}

/** Every route the emulator registers, as it registers them (the constructor adds them; nothing listens). */
function registered(): string[] {
	const add = jest.spyOn(Router.prototype, 'add');
	try {
		new Emulator({});
		return add.mock.calls.map(([method, route]) => normal(method, route));
	} finally {
		add.mockRestore();
	}
}

describe('emulator/README.md', () => {
	const routes = registered();

	it('the Endpoints table lists every /v1 route, and each row is one', () => {
		const api = routes.filter((route) => route.includes(' /v1/')).sort();
		// Guards against a scan that finds nothing: 20 endpoints and the echo route.
		expect(api.length).toBeGreaterThanOrEqual(21);
		expect(firstCells('Endpoints').flatMap(rowRoutes).sort()).toEqual(api);
		// "answers the 20 endpoints": Paycashless's, without the emulator's own echo.
		expect(Number(/answers the (\d+) endpoints/.exec(readme)?.[1])).toBe(api.filter((route) => !route.includes('/v1/emulator/')).length);
	});

	it('the Control API table lists every /__emulator route, and each row is one', () => {
		const control = routes.filter((route) => route.includes(' /__emulator/')).sort();
		expect(control.length).toBeGreaterThan(10);
		expect(firstCells('Control API (`/__emulator`, not signed, not recorded)').flatMap(rowRoutes).sort()).toEqual(control);
	});

	it('the Faults table lists every field of FaultConfig (emulator/types.cts)', () => {
		const types = fs.readFileSync(path.join(ROOT, 'emulator/types.cts'), 'utf8');
		const config = types.split('export interface FaultConfig {')[1].split('\n}')[0];
		const fields = [...config.matchAll(/^\t(\w+)\?:/gm)].map((match) => match[1]).sort();
		expect(fields.length).toBeGreaterThan(5);
		expect(firstCells('Faults').sort()).toEqual(fields);
	});

	it('every flag and variable of the flags table is one the command line reads', () => {
		const rows = readme.split('\n').filter((line) => /^\| `--/.test(line));
		expect(rows.length).toBeGreaterThanOrEqual(10);
		expect(() => parseArgs(['--no-such-flag', '1'], {})).toThrow(/Unknown option/);
		const read: string[] = [];
		for (const row of rows) {
			const [flag, variable] = cellsOf(row).slice(0, 2);
			const [name, example = ''] = flag.split(' ');
			// A value the flag takes: the table's example, or one for its placeholder (<n>, <addr>, <a|b>).
			const value = !example.startsWith('<') ? example : example === '<addr>' ? '127.0.0.2' : /^<\w+\|/.test(example) ? example.slice(1).split('|')[0] : '7';
			const byFlag = parseArgs([name, value], {});
			const byVariable = parseArgs([], { [variable]: value });
			expect(byVariable).toEqual(byFlag);
			if (JSON.stringify(byFlag) !== JSON.stringify(parseArgs([], {}))) read.push(name);
		}
		// Each one changes what the emulator starts with (the guard: a flag read and ignored would not).
		expect(read).toEqual(rows.map((row) => cellsOf(row)[0].split(' ')[0]));
	});

	it('names only source files that exist (a bare name is one of emulator/)', () => {
		const named = [...readme.matchAll(/`((?:[\w.]+\/)*[\w.]+\.c?ts)`/g)].map((match) => match[1]);
		expect(named.length).toBeGreaterThan(2);
		expect(named.filter((name) => !fs.existsSync(path.join(ROOT, name.includes('/') ? name : `emulator/${name}`)))).toEqual([]);
	});

	it('names every test bank with both its codes', () => {
		const banks = readme.split('\n**Banks**')[1].split('\n\n')[0].replace(/\s+/g, ' ');
		for (const bank of BANKS) expect({ bank: bank.name, listed: banks.includes(`(${bank.cbnCode} / ${bank.nibssCode}`) }).toEqual({ bank: bank.name, listed: true });
	});
});
