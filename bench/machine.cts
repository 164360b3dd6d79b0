/** What the figures were measured on. */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { N8N_HOST_DIR, NODE24_BIN } from '../scripts/n8n/lab.cjs';

export interface Machine {
	cpu: string;
	cores: number;
	memoryGb: number;
	os: string;
	/** Node running the bench, the emulator and the signed-fetch floor. */
	benchNode: string;
	/** Node running n8n. */
	n8nNode: string;
	n8n: string;
	loadAverage: number[];
	date: string;
}

function versionOf(packageDir: string): string {
	try {
		return (JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
	} catch {
		return 'unknown';
	}
}

export function describeMachine(): Machine {
	const cpus = os.cpus();
	const node24 = spawnSync(path.join(NODE24_BIN, 'node'), ['-v'], { encoding: 'utf8' });
	return {
		cpu: cpus[0]?.model ?? 'unknown',
		cores: cpus.length,
		memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
		os: `${os.type()} ${os.release()} ${os.arch()}`,
		benchNode: process.version,
		n8nNode: node24.status === 0 ? node24.stdout.trim() : 'unknown',
		n8n: versionOf(path.join(N8N_HOST_DIR, 'node_modules', 'n8n')),
		loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
		date: new Date().toISOString(),
	};
}
