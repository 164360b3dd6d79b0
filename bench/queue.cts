/**
 * `npm run bench:queue`: signed Paycashless callbacks through n8n's queue mode (scripts/n8n/queue.cts:
 * PostgreSQL, Redis, main, 2 workers, 1 webhook processor), as in bench/trigger.cts but measured per
 * process: callbacks per second through one webhook processor, CPU seconds per callback in the
 * webhook processor and in the workers (read from /proc for each process group: n8n and its task
 * runner), and whether every accepted callback became exactly one successful execution
 * (accepted / lost). Once with n8n's default expression engine and once with
 * N8N_EXPRESSION_ENGINE=legacy; n8n's plain Webhook node (no verification) beside the trigger.
 * Then work on the workers: Return All over 10,000 payouts and a fan-out of 1,000 verifies.
 *
 *   --callbacks N   callbacks per variant (default 300)
 *   --in-flight N   concurrent requests (default 20)
 *   --engines vm,legacy
 *   --workload-runs N   runs of Return All and fan-out on the workers (default 3; 0 skips)
 *   --records N     payouts for Return All (default 10000)
 *
 * Writes bench/queue-results.json and prints a table. Not a test: nothing fails on a slow machine.
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { callbackSignature, SIGNATURE_HEADER, TIMESTAMP_HEADER, unixTimestamp } from '../lib/signing';
import type { EmulatorHandle } from '../emulator/types.cjs';
import { CREDENTIAL_TYPE, LAB, N8nSession, NODE_TYPE_TRIGGER, ROOT, buildAndPack, installN8n, waitForProductionWebhook } from '../scripts/n8n/lab.cjs';
import { startQueueLab, type QueueLab, type QueueProcess } from '../scripts/n8n/queue.cjs';
import { webhookVerifyNodes } from './workflows.cjs';

function flag(name: string, fallback: string): string {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const CLK_TCK = 100;

/** CPU seconds (user + system) of every process in a process group. */
function groupCpuSeconds(pgid: number): number {
	let ticks = 0;
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			// fields[0] is field 3 (state): pgrp is field 5, utime 14, stime 15.
			if (Number(fields[2]) !== pgid) continue;
			ticks += Number(fields[11]) + Number(fields[12]);
		} catch {
			// gone
		}
	}
	return ticks / CLK_TCK;
}

function cpuOf(processes: QueueProcess[]): number {
	return processes.reduce((sum, p) => sum + groupCpuSeconds(p.child.pid as number), 0);
}

/**
 * The receivers compared: the Paycashless Trigger; n8n's Webhook node answering at once (no
 * verification); and the Webhook node (Raw Body) → Callback: Verify → Respond to Webhook, which
 * answers only after the worker ran the verification.
 */
type Variant = 'trigger' | 'webhook' | 'webhook-verify';

interface VariantResult {
	engine: string;
	variant: Variant;
	callbacks: number;
	inFlight: number;
	accepted: number;
	refused: number;
	executionsSucceeded: number;
	lost: number;
	seconds: number;
	perSecond: number;
	webhookProcessorCpuMsPerCallback: number;
	workersCpuMsPerCallback: number;
	webhookProcessorCallbacksPerCoreSecond: number;
}

async function runVariant(
	queue: QueueLab,
	session: N8nSession,
	emulator: EmulatorHandle,
	engine: string,
	variant: Variant,
	callbacks: number,
	inFlight: number,
): Promise<VariantResult> {
	const webhookId = randomUUID();
	const credential = { id: 'benchQueueCred01', name: 'bench' };
	const webhookPath = variant === 'trigger' ? `${webhookId}/webhook` : webhookId;
	const publicUrl = `${queue.baseUrl}/webhook/${webhookPath}`;
	const verify = webhookVerifyNodes(webhookPath, publicUrl, credential);
	const nodes =
		variant === 'trigger'
			? [{ name: 'Callback', type: NODE_TYPE_TRIGGER, typeVersion: 2, webhookId, parameters: { events: ['*'] }, credentials: { [CREDENTIAL_TYPE]: credential } }]
			: variant === 'webhook'
				? [{ name: 'Callback', type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId, parameters: { httpMethod: 'POST', path: webhookId, responseMode: 'onReceived', options: {} } }]
				: verify.nodes;
	const created = await session.api<{ id: string }>('POST', '/workflows', {
		name: `bench queue ${engine} ${variant}`,
		nodes: nodes.map((node, index) => ({ id: randomUUID(), position: [index * 220, 0], ...node })),
		connections: variant === 'webhook-verify' ? verify.connections : {},
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all' },
	});
	await session.api('POST', `/workflows/${created.id}/activate`);
	await waitForProductionWebhook(queue.baseUrl, webhookPath);
	const processorUrl = `${queue.webhookUrls[0]}/webhook/${webhookPath}`;
	const timestamp = unixTimestamp(Date.now());
	const prepared = Array.from({ length: callbacks }, (_, i) => {
		const dataJson = JSON.stringify({ id: `po_bench_${i}`, reference: `bench-${engine}-${variant}-${i}`, status: 'succeeded', amount: 100000 + i });
		return {
			body: `{"event":"PAYOUT_SUCCEEDED","data":${dataJson}}`,
			headers: {
				'content-type': 'application/json',
				[SIGNATURE_HEADER]: callbackSignature({ secret: emulator.apiSecret, callbackUrl: publicUrl, dataJson, timestamp }),
				[TIMESTAMP_HEADER]: timestamp,
			},
		};
	});
	const webhooks = queue.processes.filter((p) => p.role === 'webhook');
	const workers = queue.processes.filter((p) => p.role === 'worker');
	// Let the previous variant's executions finish before the clock starts.
	await new Promise((resolve) => setTimeout(resolve, 3000));
	const cpuBefore = { webhook: cpuOf(webhooks), workers: cpuOf(workers) };
	const started = Date.now();
	let next = 0;
	let accepted = 0;
	let refused = 0;
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			while (next < prepared.length) {
				const callback = prepared[next++];
				const answer = await fetch(processorUrl, { method: 'POST', headers: callback.headers, body: callback.body }).then(
					async (r) => ({ status: r.status, text: await r.text() }),
					(error: Error) => ({ status: 0, text: error.message }),
				);
				if (answer.status === 200) accepted += 1;
				else refused += 1;
			}
		}),
	);
	const seconds = (Date.now() - started) / 1000;
	const webhookCpu = cpuOf(webhooks) - cpuBefore.webhook;
	// Executions run on the workers after the answer: wait until every accepted callback has one.
	let succeeded = 0;
	const deadline = Date.now() + 180_000;
	for (;;) {
		const page = await session.api<{ data: Array<{ status: string }>; nextCursor?: string }>('GET', `/executions?workflowId=${created.id}&limit=250`);
		let all = page.data;
		let cursor = page.nextCursor;
		while (cursor) {
			const more = await session.api<{ data: Array<{ status: string }>; nextCursor?: string }>('GET', `/executions?workflowId=${created.id}&limit=250&cursor=${cursor}`);
			all = all.concat(more.data);
			cursor = more.nextCursor;
		}
		succeeded = all.filter((e) => e.status === 'success').length;
		const pending = all.filter((e) => e.status === 'running' || e.status === 'new' || e.status === 'waiting').length;
		if ((pending === 0 && all.length >= accepted) || Date.now() > deadline) break;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	const workersCpu = cpuOf(workers) - cpuBefore.workers;
	await session.api('POST', `/workflows/${created.id}/deactivate`);
	return {
		engine,
		variant,
		callbacks,
		inFlight,
		accepted,
		refused,
		executionsSucceeded: succeeded,
		lost: accepted - succeeded,
		seconds,
		perSecond: Math.round((accepted / seconds) * 10) / 10,
		webhookProcessorCpuMsPerCallback: Math.round((webhookCpu / callbacks) * 10000) / 10,
		workersCpuMsPerCallback: Math.round((workersCpu / callbacks) * 10000) / 10,
		webhookProcessorCallbacksPerCoreSecond: Math.round((callbacks / webhookCpu) * 10) / 10,
	};
}

interface WorkloadResult {
	engine: string;
	workload: string;
	runs: number;
	medianSeconds: number;
	workersCpuSecondsMedian: number;
	items: number;
	requestsChecked: number;
}

/**
 * Work done on a worker: Return All over `records` payouts (Get Many, 100 per page), and a fan-out
 * (Split Out → Payout → Verify of 1,000 references, the node's default requests in parallel) with
 * 50 ms added per request. Started through the webhook processor (Respond: When Last Node Finishes,
 * first item only, no execution data saved: measures the nodes, not Postgres); each run checked in
 * the emulator's request log.
 */
async function runWorkloads(queue: QueueLab, session: N8nSession, emulator: EmulatorHandle, engine: string, runs: number, records: number): Promise<WorkloadResult[]> {
	const workers = queue.processes.filter((p) => p.role === 'worker');
	const credentials = { [CREDENTIAL_TYPE]: { id: 'benchQueueCred01', name: 'bench' } };
	const results: WorkloadResult[] = [];
	const cases = [
		{
			workload: `Return All, ${records} payouts`,
			setup: () => {
				emulator.reset({ payouts: records });
				emulator.clearFaults();
			},
			body: () => ({}),
			nodes: [{ name: 'Get Many', type: 'n8n-nodes-paycashless.paycashless', typeVersion: 1, credentials, parameters: { resource: 'payout', operation: 'getAll', returnAll: true } }],
			check: () => {
				const pages = emulator.requests.filter((r) => r.method === 'GET' && r.path === '/v1/payouts');
				if (pages.length !== Math.ceil(records / 100) || pages.some((r) => r.status !== 200)) throw new Error(`Return All: ${pages.length} pages`);
				return pages.length;
			},
			items: records,
		},
		{
			workload: 'Fan-out, verify 1,000 payouts (50 ms per request)',
			setup: () => {
				emulator.reset({ payouts: 1000 });
				emulator.setFaults({ latencyMs: 50 });
			},
			body: () => ({ references: emulator.list('payouts').map((p) => String(p.reference)).map((reference) => ({ reference })) }),
			nodes: [
				{ name: 'Split', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'body.references', include: 'noOtherFields', options: {} } },
				{ name: 'Verify', type: 'n8n-nodes-paycashless.paycashless', typeVersion: 1, credentials, parameters: { resource: 'payout', operation: 'verify', reference: '={{ $json.reference }}' } },
			],
			check: () => {
				const seen = emulator.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/payouts/verify/'));
				if (seen.length !== 1000 || seen.some((r) => r.status !== 200)) throw new Error(`fan-out: ${seen.length} verifies`);
				return seen.length;
			},
			items: 1000,
		},
	];
	for (const c of cases) {
		c.setup();
		const webhookId = randomUUID();
		const nodes = [
			{ name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId, parameters: { httpMethod: 'POST', path: webhookId, responseMode: 'lastNode', responseData: 'firstEntryJson', options: {} } },
			...c.nodes,
		].map((node, index) => ({ id: randomUUID(), position: [index * 200, 0], ...node }));
		const connections: Record<string, unknown> = {};
		for (let i = 0; i + 1 < nodes.length; i++) connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
		const created = await session.api<{ id: string }>('POST', '/workflows', {
			name: `bench queue ${c.workload}`,
			nodes,
			connections,
			settings: { executionOrder: 'v1', saveDataSuccessExecution: 'none', saveDataErrorExecution: 'all' },
		});
		await session.api('POST', `/workflows/${created.id}/activate`);
		await waitForProductionWebhook(queue.baseUrl, webhookId);
		const body = JSON.stringify(c.body());
		const times: number[] = [];
		const cpus: number[] = [];
		let checked = 0;
		for (let run = 0; run < runs; run++) {
			emulator.clearLogs();
			const cpuBefore = cpuOf(workers);
			const started = Date.now();
			const answer = await fetch(`${queue.baseUrl}/webhook/${webhookId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
			const text = await answer.text();
			times.push((Date.now() - started) / 1000);
			cpus.push(cpuOf(workers) - cpuBefore);
			if (answer.status !== 200) throw new Error(`${c.workload}: HTTP ${answer.status} ${text.slice(0, 300)}`);
			checked = c.check();
			process.stdout.write(`[bench:queue] ${engine} ${c.workload} run ${run + 1}: ${times[run].toFixed(2)} s, workers CPU ${cpus[run].toFixed(2)} s\n`);
		}
		emulator.clearFaults();
		await session.api('POST', `/workflows/${created.id}/deactivate`);
		const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
		results.push({ engine, workload: c.workload, runs, medianSeconds: median(times), workersCpuSecondsMedian: Math.round(median(cpus) * 100) / 100, items: c.items, requestsChecked: checked });
	}
	return results;
}

async function main(): Promise<void> {
	const callbacks = Number(flag('callbacks', '300'));
	const inFlight = Number(flag('in-flight', '20'));
	const engines = flag('engines', 'vm,legacy').split(',');
	const workloadRuns = Number(flag('workload-runs', '3'));
	const records = Number(flag('records', '10000'));
	const workloads: WorkloadResult[] = [];
	installN8n({ quiet: true });
	const tgz = await buildAndPack({ quiet: true });
	const { startEmulator } = await import('../emulator/index.cjs');
	const emulator = await startEmulator({ port: 0, seed: { payouts: 10 } });
	const results: VariantResult[] = [];
	const startups: Record<string, number> = {};
	try {
		for (const engine of engines) {
			const root = path.join(LAB, 'bench-queue', `run-${process.pid}-${engine}`);
			fs.rmSync(root, { recursive: true, force: true });
			process.stdout.write(`[bench:queue] starting the queue-mode set (engine ${engine}) ...\n`);
			const queue = await startQueueLab({
				root,
				tgz,
				env: { N8N_EXPRESSION_ENGINE: engine, N8N_LOG_LEVEL: 'warn' },
				beforeN8n: (set) =>
					set.import('credentials', [
						{ id: 'benchQueueCred01', name: 'bench', type: CREDENTIAL_TYPE, data: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl, bodilessSigning: 'documented' } },
					]),
			});
			startups[engine] = queue.startupMs / 1000;
			try {
				const session = new N8nSession(queue.baseUrl);
				await session.ownerSetupAndLogin();
				await session.createApiKey('bench-queue');
				for (const variant of ['trigger', 'webhook', 'webhook-verify'] as const) {
					const result = await runVariant(queue, session, emulator, engine, variant, callbacks, inFlight);
					process.stdout.write(`[bench:queue] ${JSON.stringify(result)}\n`);
					results.push(result);
				}
				if (workloadRuns > 0) workloads.push(...(await runWorkloads(queue, session, emulator, engine, workloadRuns, records)));
			} finally {
				await queue.stop();
				fs.rmSync(root, { recursive: true, force: true });
			}
		}
	} finally {
		await emulator.close();
	}
	const out = { date: new Date().toISOString(), cores: (await import('os')).cpus().length, startupSeconds: startups, results, workloads };
	fs.writeFileSync(path.join(ROOT, 'bench', 'queue-results.json'), `${JSON.stringify(out, null, 2)}\n`);
	const rows = results.map(
		(r) =>
			`| ${r.engine} | ${r.variant} | ${r.accepted}/${r.callbacks} | ${r.lost} | ${r.perSecond} | ${r.webhookProcessorCpuMsPerCallback} | ${r.webhookProcessorCallbacksPerCoreSecond} | ${r.workersCpuMsPerCallback} |`,
	);
	process.stdout.write(
		['', ...workloads.map((w) => `${w.engine}: ${w.workload}: median ${w.medianSeconds.toFixed(2)} s, workers CPU ${w.workersCpuSecondsMedian} s (${w.runs} runs, ${w.requestsChecked} requests checked)`), '', '| engine | start node | accepted | lost | callbacks/s (1 webhook processor) | webhook processor CPU ms/callback | callbacks per core-second | workers CPU ms/callback |', '|---|---|---|---|---|---|---|---|', ...rows, ''].join('\n'),
	);
}

main().then(
	() => process.exit(0),
	(error: Error) => {
		process.stderr.write(`[bench:queue] failed: ${error.stack ?? error.message}\n`);
		process.exit(1);
	},
);
