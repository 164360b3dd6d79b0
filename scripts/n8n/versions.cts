/**
 * The n8n lines the package is tested on: 2.41 (lab default, scripts/n8n/host/) and the maintained
 * 1.x line, n8n 1.123.81 (scripts/n8n/host-1x/, installed beside it by `install.sh --n8n-1x`).
 * Both run on the lab's Node 24 (isolated-vm 6.2 in n8n 1.123 ships a Node 24 prebuild).
 */
import * as path from 'path';

import { NODE24_BIN, install, n8nHostDir, type N8nInstall } from './lab.cjs';

const HOST_1X = n8nHostDir('1.123.81', 'host-1x');

export const N8N_1X: N8nInstall = {
	version: '1.123.81',
	nodeBin: NODE24_BIN,
	hostDir: HOST_1X,
	bin: path.join(HOST_1X, 'node_modules', '.bin', 'n8n'),
};

/** Installs the n8n of a line ('2': 2.41.1, '1': 1.123.81) with the Node 24 it runs on (lab.install; idempotent). */
export function installN8nLine(line: '1' | '2', options: { quiet?: boolean } = {}): void {
	install(line === '1' ? 'n8n-1' : 'n8n-2', options);
}
