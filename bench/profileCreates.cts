/**
 * A CPU profile of n8n's main process during one payout batch (Webhook → Split Out → Payout →
 * Create at the node's defaults), to find where the time per payout goes. The inspector is opened
 * in the running n8n with SIGUSR1 (as for the credential finding in bench/README.md), the profile is
 * taken over the Chrome DevTools Protocol and summarised: self time by function and by file
 * (the package's own files apart from n8n's), written to bench/profile-creates.json (the summary)
 * and the raw profile to /tmp.
 *
 * Usage: npm run bench:profile-creates -- [--items 3000] [--latency 50] [--warmup 300] [--period]
 *   --period: with a Maximum Total per Period (the period-limit variant of bench/creates.cts).
 */
import * as fs from 'fs';
import * as path from 'path';

import { ROOT } from '../scripts/n8n/lab.cjs';
import { chain, startBenchLab, startNode, uniquePath } from './lab.cjs';
import { log, setLatency } from './runner.cjs';
import { splitOut } from './workflows.cjs';
import { variantNodes } from './creates.cjs';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	hitCount?: number;
	children?: number[];
}

interface Profile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples?: number[];
	timeDeltas?: number[];
}

/** One DevTools Protocol session over the inspector's WebSocket. */
async function devtools(port: number): Promise<{ send(method: string, params?: object): Promise<unknown>; close(): void }> {
	interface Socket {
		once(event: 'open' | 'error', listener: (value?: unknown) => void): void;
		on(event: 'message', listener: (data: unknown) => void): void;
		send(data: string): void;
		close(): void;
	}
	// `ws` comes with n8n's tooling (no types installed); Node 20 has no WebSocket of its own.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const WebSocket = require('ws') as new (url: string) => Socket;
	const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
	const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
	await new Promise((resolve, reject) => {
		socket.once('open', resolve);
		socket.once('error', reject);
	});
	let nextId = 1;
	const waiting = new Map<number, (value: unknown) => void>();
	socket.on('message', (data) => {
		const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
		if (message.id !== undefined) waiting.get(message.id)?.(message.result);
	});
	return {
		send: (method, params = {}) =>
			new Promise((resolve) => {
				const id = nextId++;
				waiting.set(id, resolve);
				socket.send(JSON.stringify({ id, method, params }));
			}),
		close: () => socket.close(),
	};
}

async function waitForInspector(port: number): Promise<void> {
	for (let i = 0; i < 50; i++) {
		try {
			await fetch(`http://127.0.0.1:${port}/json/version`);
			return;
		} catch {
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}
	throw new Error(`no inspector on port ${port}`);
}

/** Self time (ms) by function and by file; `package` = the Paycashless package's own files. */
function summarise(profile: Profile): { totalMs: number; byFunction: Array<[string, number]>; byFile: Array<[string, number]> } {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const selfMs = new Map<number, number>();
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	for (let i = 0; i < samples.length; i++) selfMs.set(samples[i], (selfMs.get(samples[i]) ?? 0) + (deltas[i] ?? 0) / 1000);
	const byFunction = new Map<string, number>();
	const byFile = new Map<string, number>();
	for (const [id, ms] of selfMs) {
		const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
		const file = url.replace(/^.*node_modules\//, '').replace(/^file:\/\//, '') || '(native)';
		byFunction.set(`${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`, (byFunction.get(`${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`) ?? 0) + ms);
		const pkg = /n8n-nodes-paycashless/.test(url) ? `package: ${file.replace(/^.*n8n-nodes-paycashless\//, '')}` : file.split('/').slice(0, 2).join('/');
		byFile.set(pkg, (byFile.get(pkg) ?? 0) + ms);
	}
	const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => [k, Math.round(v)] as [string, number]);
	return { totalMs: Math.round((profile.endTime - profile.startTime) / 1000), byFunction: top(byFunction, 40), byFile: top(byFile, 30) };
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const flags: Record<string, string> = {};
	for (let i = 0; i < argv.length; i++) {
		const name = argv[i].replace(/^--/, '');
		if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) flags[name] = argv[++i];
		else flags[name] = 'true';
	}
	const items = Number(flags.items ?? 3000);
	const latencyMs = Number(flags.latency ?? 50);
	const warmup = Number(flags.warmup ?? 300);
	const variant = flags.period === 'true' ? 'node-period' : 'node-default';
	const port = Number(flags.port ?? 9229);
	const lab = await startBenchLab();
	try {
		const { emulator } = lab.e2e;
		const webhookPath = uniquePath(`profile-${variant}`);
		const nodes = [startNode(webhookPath, 'firstEntryJson'), splitOut('Split Out', 'body.payouts', 'payout'), ...variantNodes(lab, variant, items)];
		await lab.createWorkflow(`bench profile ${variant}`, nodes, chain(nodes), [webhookPath], false);
		setLatency(emulator, latencyMs);
		const batch = (prefix: string, count: number) => ({ payouts: Array.from({ length: count }, (_, k) => ({ reference: `${prefix}${k}`, amount: 1000 + (k % 100) / 100 })) });
		await lab.post(webhookPath, batch('p-warm-', warmup));
		const main = lab.processes().find((p) => p.role === 'n8n');
		if (!main) throw new Error('no n8n main process');
		// The inspector of a running process listens on the port given by process.debugPort (default
		// 9229); n8n is started with --inspect-port through NODE_OPTIONS by the lab only when asked, so
		// use the default unless told otherwise.
		process.kill(main.pid, 'SIGUSR1');
		await waitForInspector(port);
		const session = await devtools(port);
		await session.send('Profiler.enable');
		await session.send('Profiler.setSamplingInterval', { interval: 500 });
		await session.send('Profiler.start');
		emulator.clearLogs();
		const answer = await lab.post(webhookPath, batch('p-run-', items));
		const { profile } = (await session.send('Profiler.stop')) as { profile: Profile };
		session.close();
		const requests = emulator.requests.filter((r) => r.path.startsWith('/v1/payouts'));
		const raw = path.join('/tmp', `paycashless-${variant}-${items}-${Date.now()}.cpuprofile`);
		fs.writeFileSync(raw, JSON.stringify(profile));
		const summary = { variant, items, latencyMs, wallMs: Math.round(answer.ms), status: answer.status, requests: requests.length, raw, ...summarise(profile) };
		fs.writeFileSync(path.join(ROOT, 'bench', 'profile-creates.json'), `${JSON.stringify(summary, null, '\t')}\n`);
		log(JSON.stringify(summary, null, 2));
	} finally {
		await lab.close();
	}
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
