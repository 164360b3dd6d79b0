/**
 * The n8n lines the package is tested on: 2.41 (lab default, scripts/n8n/host/) and the maintained
 * 1.x line, n8n 1.123.81 (scripts/n8n/host-1x/, installed beside it by `install.sh --n8n-1x`).
 * Both run on the lab's Node 24 (isolated-vm 6.2 in n8n 1.123 ships a Node 24 prebuild).
 */
import { spawnSync } from 'child_process';
import * as path from 'path';

import { LAB, NODE24_BIN, ROOT, TOOLS, n8nHostDir, type N8nInstall } from './lab.cjs';

const HOST_1X = n8nHostDir('1.123.81', 'host-1x');

export const N8N_1X: N8nInstall = {
	version: '1.123.81',
	nodeBin: NODE24_BIN,
	hostDir: HOST_1X,
	bin: path.join(HOST_1X, 'node_modules', '.bin', 'n8n'),
};

/** Runs `scripts/n8n/install.sh --n8n-1x` (idempotent; cold about 3 minutes, 1.8 GB). */
export function installN8n1x(options: { quiet?: boolean } = {}): void {
	const result = spawnSync('bash', [path.join(ROOT, 'scripts', 'n8n', 'install.sh'), '--n8n-1x'], {
		env: { ...process.env, LAB, PAYCASHLESS_TOOLS: TOOLS },
		encoding: 'utf8',
		stdio: options.quiet ? 'pipe' : 'inherit',
	});
	if (result.status !== 0) throw new Error(`install.sh --n8n-1x failed:\n${result.stdout ?? ''}\n${result.stderr ?? ''}`);
}
