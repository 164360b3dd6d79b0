/**
 * A real n8n 2.41.1 killed in the middle of a payout batch, then the same workflow run again
 * (found in the hardening review): 300 payouts, 10 in parallel, every request to the emulator failing with
 * 10% 5xx and 10% dropped-after-commit. The first run is killed (SIGKILL to n8n's process group)
 * once about 100 payouts exist; the re-run, at the node's default Request Options, must finish:
 * 300 payouts in all, none twice, 300 output items.
 *
 * The workflow runs with `n8n execute` (the n8n process that sends the payouts is the one
 * killed), in a user folder of its own, with the package installed from its tarball.
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import type { ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import type { EmulatorHandle } from '../../emulator/types.cjs';
import { startEmulator } from '../../emulator/index.cjs';
import {
	buildAndPack,
	CREDENTIAL_TYPE,
	delay,
	freePort,
	importIntoN8n,
	installN8n,
	installPackageIntoN8n,
	LAB,
	N8N_BIN,
	n8nEnv,
	NODE_TYPE_ACTION,
	spawnDetached,
	stopProcessGroup,
	type N8nConfig,
} from '../../scripts/n8n/lab.cjs';
import { SETUP_TIMEOUT_MS } from '../support/e2e/harness.cjs';
import { ACCESS_BANK } from '../support/reliability.cjs';

// At the node's default Requests in Parallel (100 in flight), 1,000 payouts at 50 ms take a few
// seconds: enough to kill n8n part-way.
const PAYOUTS = 1000;
const KILL_AT = 200;
const WORKFLOW_ID = 'crashRerunBatch1';

let emulator: EmulatorHandle;
let config: N8nConfig;
let folder: string;

beforeAll(async () => {
	installN8n({ quiet: true });
	const tgz = await buildAndPack({ quiet: true });
	// `run-<pid>`: the e2e harness's clean-up keeps the folders of live processes.
	folder = path.join(LAB, 'e2e', `run-${process.pid}`);
	fs.rmSync(folder, { recursive: true, force: true });
	installPackageIntoN8n(tgz, folder);
	emulator = await startEmulator({ port: 0, callbackRetries: 0 });
	config = { userFolder: folder, port: await freePort(), brokerPort: await freePort() };
	const credential = { id: 'crashCredential01', name: 'Paycashless (emulator)' };
	importIntoN8n(config, 'credentials', [
		{
			...credential,
			type: CREDENTIAL_TYPE,
			data: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl },
		},
	]);
	importIntoN8n(config, 'workflow', [
		{
			id: WORKFLOW_ID,
			name: 'Crash and re-run: 300 payouts',
			active: false,
			settings: { executionOrder: 'v1' },
			connections: {
				Start: { main: [[{ node: 'Approved claims', type: 'main', index: 0 }]] },
				'Approved claims': { main: [[{ node: 'Pay out', type: 'main', index: 0 }]] },
			},
			nodes: [
				{ id: 'a1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: 'a2',
					name: 'Approved claims',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					position: [220, 0],
					parameters: {
						jsCode: `return Array.from({ length: ${PAYOUTS} }, (_, i) => ({ json: { claim: 'claim-' + String(i + 1).padStart(4, '0'), naira: 1000 + i } }));`,
					},
				},
				{
					id: 'a3',
					name: 'Pay out',
					type: NODE_TYPE_ACTION,
					typeVersion: 1,
					position: [440, 0],
					credentials: { [CREDENTIAL_TYPE]: credential },
					parameters: {
						resource: 'payout',
						operation: 'create',
						reference: '={{ $json.claim }}',
						amount: '={{ $json.naira }}',
						currency: 'NGN',
						destinationAccountNumber: '0123456789',
						bankId: ACCESS_BANK,
					},
				},
			],
		},
	]);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await emulator?.close();
	if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

interface Run {
	child: ChildProcess;
	exited: Promise<number | null>;
	logFile: string;
}

function execute(name: string): Run {
	const logFile = path.join(folder, `${name}.log`);
	const child = spawnDetached(N8N_BIN, ['execute', `--id=${WORKFLOW_ID}`, '--rawOutput'], n8nEnv(config), logFile, LAB);
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	return { child, exited, logFile };
}

/** The run's JSON: from the first line that is exactly `{` to the last that is exactly `}`. */
function output(logFile: string): { data: { resultData: { runData: Record<string, Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>> } } } {
	const lines = fs.readFileSync(logFile, 'utf8').split('\n');
	const start = lines.indexOf('{');
	const end = lines.lastIndexOf('}');
	if (start < 0 || end < start) throw new Error(`no JSON output in ${logFile}:\n${lines.slice(-30).join('\n')}`);
	return JSON.parse(lines.slice(start, end + 1).join('\n'));
}

const references = () => emulator.list('payouts').map((payout) => String(payout.reference)).filter((reference) => reference.startsWith('claim-'));

it(`n8n killed at ~${KILL_AT} of ${PAYOUTS} payouts under 10% 5xx and 10% dropped answers: the first re-run pays the rest, none twice`, async () => {
	emulator.reset({ payouts: 0 });
	emulator.setFaults({ error5xxRate: 0.1, dropAfterCommitRate: 0.1, latencyMs: 50, seed: 17 });

	const first = execute('first');
	const deadline = Date.now() + 240_000;
	while (references().length < KILL_AT && Date.now() < deadline) {
		const code = await Promise.race([first.exited, delay(50).then(() => 'running' as const)]);
		if (code !== 'running') throw new Error(`the first run ended (${code}) before it was killed:\n${fs.readFileSync(first.logFile, 'utf8').slice(-3000)}`);
	}
	// SIGKILL to the whole process group: n8n and its task runner die at once, as in a crash.
	process.kill(-(first.child.pid as number), 'SIGKILL');
	await first.exited;
	await stopProcessGroup(first.child, 0);
	const paidBeforeCrash = new Set(references()).size;
	expect(paidBeforeCrash).toBeGreaterThanOrEqual(KILL_AT);
	expect(paidBeforeCrash).toBeLessThan(PAYOUTS);

	const second = execute('rerun');
	const code = await second.exited;
	const log = fs.readFileSync(second.logFile, 'utf8');
	expect({ code, tail: code === 0 ? '' : log.slice(-3000) }).toEqual({ code: 0, tail: '' });
	const items = output(second.logFile).data.resultData.runData['Pay out'][0].data.main[0].map((item) => item.json);

	const all = references();
	const faults = emulator.requests.filter((request) => request.fault !== undefined && request.fault !== 'latency').length;
	 
	console.log(
		`Crash and re-run: ${paidBeforeCrash} payouts when n8n was killed; after the re-run ${new Set(all).size} distinct of ${PAYOUTS} expected, ${all.length - new Set(all).size} duplicates, ${items.length} items; ${faults} faulted requests of ${emulator.requests.length}`,
	);
	expect(new Set(all).size).toBe(PAYOUTS);
	expect(all).toHaveLength(PAYOUTS);
	expect(items).toHaveLength(PAYOUTS);
	expect(items.map((item) => item.reference)).toEqual(Array.from({ length: PAYOUTS }, (_, i) => `claim-${String(i + 1).padStart(4, '0')}`));
}, 600_000);
