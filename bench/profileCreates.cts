/**
 * A CPU profile of n8n's main process during one payout batch (Webhook → Split Out → Payout →
 * Create at the node's defaults), to find where the time per payout goes. The inspector is opened
 * in the running n8n with SIGUSR1 (as for the credential finding in bench/README.md), the profile is
 * taken over the Chrome DevTools Protocol and summarised: self time by function and by file
 * (the package's own files apart from n8n's), written to bench/profile-creates.json (the summary)
 * and the raw profile to /tmp.
 *
 * Usage: npm run bench:profile-creates -- [--items 3000] [--latency 50] [--warmup 300] [--period | --payroll]
 *   --period: with a Maximum Total per Period (the period-limit variant of bench/creates.cts);
 *   --payroll: the payroll flow of bench/payroll.cts (Look Up → Check Batch → Create, All or Nothing),
 *   `--items` rows; the summary then also gives the package's functions with their inclusive time.
 */
import * as fs from 'fs';
import * as path from 'path';

import { chain, startBenchLab, startNode, uniquePath, type BenchLab } from './lab.cjs';
import { commandFlags, runMain, setLatency, writeSummary } from './runner.cjs';
import { splitOut } from './workflows.cjs';
import { variantNodes } from './creates.cjs';
import { inclusive, openProfiler, PACKAGE_FILE, summarise } from './cpuprofile.cjs';
import { payrollNodes, payrollRows, postAndWait } from './payroll.cjs';

/** Each node's start (ms after the first node started) and run time, from the newest saved execution. */
async function nodeTimesOf(lab: BenchLab, workflowId: string): Promise<Record<string, { startMs: number; ms: number }>> {
	const [execution] = await lab.e2e.executions(workflowId);
	const runData = (execution?.data?.resultData.runData ?? {}) as Record<string, Array<{ startTime?: number; executionTime?: number }>>;
	const first = Math.min(...Object.values(runData).map((runs) => runs[0]?.startTime ?? Infinity));
	return Object.fromEntries(Object.entries(runData).map(([node, runs]) => [node, { startMs: (runs[0]?.startTime ?? first) - first, ms: runs.reduce((sum, run) => sum + (run.executionTime ?? 0), 0) }]));
}

/** Per kind of request: how many, and when the first and the last came (ms after the run's first request). */
function requestPhases(requests: ReadonlyArray<{ method: string; path: string; receivedAt: number }>): Record<string, { count: number; firstMs: number; lastMs: number }> {
	const phases: Record<string, { count: number; firstMs: number; lastMs: number }> = {};
	const start = requests[0]?.receivedAt ?? 0;
	for (const request of requests) {
		const kind = `${request.method} ${request.path.replace(/^\/v1\/payouts\/(verify\/)?[^/]+$/, (_, verify?: string) => (verify ? '/v1/payouts/verify/*' : '/v1/payouts/*'))}`;
		const phase = (phases[kind] ??= { count: 0, firstMs: request.receivedAt - start, lastMs: 0 });
		phase.count += 1;
		phase.lastMs = request.receivedAt - start;
	}
	return phases;
}

async function main(): Promise<void> {
	const flags = commandFlags();
	const items = Number(flags.items ?? 3000);
	const latencyMs = Number(flags.latency ?? 50);
	const warmup = Number(flags.warmup ?? 300);
	const payroll = flags.payroll === 'true';
	const variant = payroll ? 'payroll' : flags.period === 'true' ? 'node-period' : 'node-default';
	const port = Number(flags.port ?? 9229);
	const lab = await startBenchLab();
	try {
		const { emulator } = lab.e2e;
		const webhookPath = uniquePath(`profile-${variant}`);
		const after = payroll ? payrollNodes(lab, 'payroll', items) : [splitOut('Split Out', 'body.payouts', 'payout'), ...variantNodes(lab, variant, items)];
		const nodes = [startNode(webhookPath, 'firstEntryJson'), ...after];
		// The payroll flow's execution is saved: each node's time is read from it.
		const workflowId = await lab.createWorkflow(`bench profile ${variant}`, nodes, chain(nodes), [webhookPath], payroll);
		setLatency(emulator, latencyMs);
		const batch = (prefix: string, count: number) =>
			payroll ? { rows: payrollRows(prefix, count) } : { payouts: Array.from({ length: count }, (_, k) => ({ reference: `${prefix}${k}`, amount: 1000 + (k % 100) / 100 })) };
		if (warmup > 0) await postAndWait(lab, webhookPath, batch('p-warm-', warmup));
		emulator.reset({ payouts: 0 });
		const main = lab.processes().find((p) => p.role === 'n8n');
		if (!main) throw new Error('no n8n main process');
		const profiler = await openProfiler(main.pid, port);
		emulator.clearLogs();
		const { profile, result: answer } = await profiler.profile(() => postAndWait(lab, webhookPath, batch('p-run-', items)));
		profiler.close();
		const requests = emulator.requests.filter((r) => r.path.startsWith('/v1/payouts') || r.path.startsWith('/v1/banks/'));
		const raw = path.join('/tmp', `paycashless-${variant}-${items}-${Date.now()}.cpuprofile`);
		fs.writeFileSync(raw, JSON.stringify(profile));
		const nodeTimes = payroll ? await nodeTimesOf(lab, workflowId) : undefined;
		const phases = payroll ? requestPhases(emulator.requests) : undefined;
		const summary = { variant, items, latencyMs, wallMs: Math.round(answer.ms), status: answer.status, requests: requests.length, nodeTimes, phases, raw, ...summarise(profile), packageInclusive: inclusive(profile, PACKAGE_FILE, 40) };
		writeSummary('profile-creates.json', summary);
	} finally {
		await lab.close();
	}
}

runMain(main);
