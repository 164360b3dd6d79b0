/**
 * n8n's community-package scanner (@n8n/scan-community-package, the gate n8n runs before a
 * package can be verified), offline: its lint gate `analyzePackage()` on both legs it scans,
 * the unpacked `npm pack` tarball and the sources (scripts/n8n/scan-local.mjs).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { LAB, ROOT, SCANNER_DIR, buildAndPack, installN8n } from '../../scripts/n8n/lab.cjs';
import { patience } from '../../scripts/n8n/patience.cjs';
import { SETUP_TIMEOUT_MS } from '../support/e2e/harness.cjs';

interface Leg {
	passed: boolean;
	message: string | null;
	files: string[];
	errors: number;
	warnings: number;
	findings: string[];
}

let report: { tarball: Leg; source: Leg };
let exitCode: number | null;

beforeAll(async () => {
	installN8n({ withScanner: true, quiet: true });
	const tgz = await buildAndPack({ quiet: true });
	const unpacked = path.join(LAB, 'scan', `run-${process.pid}`);
	fs.rmSync(unpacked, { recursive: true, force: true });
	fs.mkdirSync(unpacked, { recursive: true });
	const untar = spawnSync('tar', ['xzf', tgz, '-C', unpacked], { encoding: 'utf8' });
	expect(untar.status).toBe(0);
	const scan = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'n8n', 'scan-local.mjs'), path.join(unpacked, 'package'), ROOT], {
		encoding: 'utf8',
		// Not jest's NODE_ENV=test: eslint-plugin-n8n-nodes-base then pretends every file is "Test.node.ts".
		env: { ...process.env, LAB, PAYCASHLESS_SCANNER_DIR: SCANNER_DIR, NODE_ENV: 'production' },
		maxBuffer: 16 * 1024 * 1024,
	});
	fs.rmSync(unpacked, { recursive: true, force: true });
	const line = scan.stdout.split('\n').find((l) => l.startsWith('{'));
	if (!line) throw new Error(`scan-local.mjs printed no report (exit ${scan.status}):\n${scan.stdout}\n${scan.stderr}`);
	report = JSON.parse(line) as typeof report;
	exitCode = scan.status;
}, SETUP_TIMEOUT_MS);

// Each test reads the report: well under a second alone (scripts/n8n/patience.cts).
jest.setTimeout(patience(6_000));

describe('n8n community-package scanner, offline', () => {
	it('tarball leg: the packed package passes with zero findings', () => {
		expect(report.tarball.files).toEqual(
			expect.arrayContaining([
				'package.json',
				'dist/credentials/PaycashlessApi.credentials.js',
				'dist/nodes/Paycashless/Paycashless.node.js',
				'dist/nodes/Paycashless/PaycashlessTrigger.node.js',
				'dist/nodes/Paycashless/PaycashlessPollTrigger.node.js',
			]),
		);
		expect(report.tarball.findings).toEqual([]);
		expect(report.tarball).toMatchObject({ passed: true, errors: 0, warnings: 0 });
	});

	it('source leg: package.json, nodes/ and credentials/ pass with zero findings', () => {
		expect(report.source.files).toEqual(
			expect.arrayContaining([
				'package.json',
				'credentials/PaycashlessApi.credentials.ts',
				'nodes/Paycashless/Paycashless.node.ts',
				'nodes/Paycashless/PaycashlessTrigger.node.ts',
				'nodes/Paycashless/PaycashlessPollTrigger.node.ts',
			]),
		);
		expect(report.source.findings).toEqual([]);
		expect(report.source).toMatchObject({ passed: true, errors: 0, warnings: 0 });
		expect(exitCode).toBe(0);
	});
});
