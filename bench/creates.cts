/**
 * Benchmark: payout batches. Webhook (the payouts in its body) → Split Out (one item per
 * payout) → one of:
 * - node-c<N>:  Paycashless Payout → Create with N items in flight (a create plus the read-back of
 *               the whole payout by its reference, per payout);
 * - node-default: the same at the node's default "Requests in Parallel" (read from dist/);
 * - http-b<N>:  HTTP Request (paycashlessApi credential) POST /v1/payouts, Batching N items, interval 0
 *               (b = the item count: every request at once, n8n's fastest setting);
 * - node-period: node-default with a period limit set (Money Limits: Maximum Amount and Maximum Total
 *               per Period, high enough to pass every payout), so the period's payouts are read too;
 * - node-aon:   node-period with Batch Options → All or Nothing (the whole batch checked and reserved,
 *               then paid; its log line says when the first create went and over how long the creates went);
 * - http-readback: http-all, then a second HTTP Request reading each payout back by its reference, all
 *               at once (the node's two requests per payout, without the node: the read-back's cost).
 * Every run makes new payouts (references unique per run) and is checked: exactly one payout per
 * reference, none twice. Each run starts on an empty emulator (no payouts yet that day, so a
 * period limit's first read is one page). Its requests to /v1/payouts are counted from the emulator's request log,
 * by kind (creates, list pages, reads by reference), and given per payout. Same method as the other
 * suites: rounds interleave the variants.
 *
 * Usage: npm run bench:creates -- [--items 1000,10000] [--latencies 0,50] [--runs 2]
 *        [--concurrency 1,10,20] [--small-variants ...] [--large-variants node-default,http-b20,http-all]
 * Writes bench/creates-latest.md (the run's table; bench/CREATES.md keeps the runs by hand) and
 * bench/creates-results.json.
 */
import * as fs from 'fs';
import * as path from 'path';

import { nodeDefaultConcurrency } from './fanout.cjs';
import { chain, startBenchLab, startNode, uniquePath, type BenchLab } from './lab.cjs';
import { ROOT } from '../scripts/n8n/lab.cjs';
import { log, rounds, setLatency } from './runner.cjs';
import { median } from './stats.cjs';
import type { WorkflowNode } from '../test/support/e2e/harness.cjs';
import { httpRequest, paycashless, splitOut } from './workflows.cjs';

const ACCOUNT = '0123456789';
const BANK = 'bank_538ed2056326432ba8e6853b613997bb';

/** The nodes after Split Out for one variant. */
export function variantNodes(lab: BenchLab, variant: string, items: number): WorkflowNode[] {
	const { good, emulator } = lab.e2e;
	if (variant === 'http-readback') {
		// What the node does per payout, in HTTP Request nodes: the create, then the read-back by reference.
		return [
			...variantNodes(lab, 'http-all', items),
			httpRequest('Read Back', good, { url: `={{ '${emulator.baseUrl}/v1/payouts/verify/' + $json.reference }}` }, { batching: { batch: { batchSize: items, batchInterval: 0 } } }),
		];
	}
	const node = /^node-(c(\d+)|default|period|aon)$/.exec(variant);
	if (node) {
		// A period limit no batch reaches: every payout is checked against the period's payouts.
		const limited = node[1] === 'period' || node[1] === 'aon';
		const limits = limited ? { moneyLimits: { maxAmount: 1_000_000, periodTotal: 1_000_000_000_000 } } : {};
		const batch = node[1] === 'aon' ? { batchOptions: { allOrNothing: true } } : {};
		return [paycashless('Paycashless', good, {
			resource: 'payout',
			operation: 'create',
			reference: '={{ $json.payout.reference }}',
			amount: '={{ $json.payout.amount }}',
			currency: 'NGN',
			destinationAccountNumber: ACCOUNT,
			bankId: BANK,
			...(node[2] ? { concurrency: Number(node[2]) } : {}),
			...limits,
			...batch,
		})];
	}
	const http = /^http-(b(\d+)|all)$/.exec(variant);
	if (!http) throw new Error(`unknown variant ${variant}`);
	return [httpRequest(
		'HTTP Request',
		good,
		{
			url: `${emulator.baseUrl}/v1/payouts`,
			method: 'POST',
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ reference: $json.payout.reference, amount: { value: Math.round($json.payout.amount * 100), currency: 'NGN' }, destinationAccountNumber: '${ACCOUNT}', bankId: '${BANK}' }) }}`,
		},
		{ batching: { batch: { batchSize: http[2] ? Number(http[2]) : items, batchInterval: 0 } } },
	)];
}

interface CreatesCase {
	items: number;
	latencyMs: number;
	runs: number;
	samples: Record<string, number[]>;
	/** Per variant and run: requests to /v1/payouts by kind, from the emulator's log. */
	requests: Record<string, RequestCounts[]>;
	/** Per variant and run: references with more than one payout (always 0, or the run throws). */
	duplicates: Record<string, number[]>;
}

interface RequestCounts {
	creates: number;
	lists: number;
	reads: number;
	other: number;
	total: number;
	/** From the run's start to its first create, and from its first create to the last create's arrival (ms). */
	beforeFirstCreate?: number;
	sending?: number;
}

/** The run's requests to /v1/payouts, by kind; with `startedAt`, when its creates went. */
function countRequests(requests: ReadonlyArray<{ method: string; path: string; receivedAt: number }>, startedAt?: number): RequestCounts {
	const counts: RequestCounts = { creates: 0, lists: 0, reads: 0, other: 0, total: 0 };
	let first: number | undefined;
	let last: number | undefined;
	for (const { method, path: p, receivedAt } of requests) {
		if (!p.startsWith('/v1/payouts')) continue;
		counts.total += 1;
		if (method === 'POST' && p === '/v1/payouts') {
			counts.creates += 1;
			first = Math.min(first ?? receivedAt, receivedAt);
			last = Math.max(last ?? receivedAt, receivedAt);
		} else if (method === 'GET' && p === '/v1/payouts') counts.lists += 1;
		else if (method === 'GET') counts.reads += 1;
		else counts.other += 1;
	}
	if (startedAt !== undefined && first !== undefined && last !== undefined) Object.assign(counts, { beforeFirstCreate: first - startedAt, sending: last - first });
	return counts;
}

function numbers(text: string | undefined, fallback: number[]): number[] {
	return text ? text.split(',').map(Number) : fallback;
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const flags: Record<string, string> = {};
	for (let i = 0; i < argv.length; i += 2) flags[argv[i].replace(/^--/, '')] = argv[i + 1];
	const itemCounts = numbers(flags.items, [1000]);
	const latencies = numbers(flags.latencies, [0, 50]);
	const runs = Number(flags.runs ?? 2);
	const levels = numbers(flags.concurrency, [1, 10, 20]);
	const largeVariants = (flags['large-variants'] ?? 'node-default,http-b20,http-all').split(',');
	const smallVariants = flags['small-variants']?.split(',');
	const started = Date.now();
	const lab = await startBenchLab();
	const defaultConcurrency = nodeDefaultConcurrency('create') ?? 1;
	const cases: CreatesCase[] = [];
	try {
		const { emulator } = lab.e2e;
		for (const items of itemCounts) {
			const variants = items > 1000 ? largeVariants : (smallVariants ?? [...levels.map((c) => `node-c${c}`), 'node-default', 'http-b20', 'http-all', 'http-readback']);
			const paths: Record<string, string> = {};
			for (const variant of variants) {
				const webhookPath = uniquePath(`creates-${variant}-${items}`);
				const nodes = [startNode(webhookPath, 'firstEntryJson'), splitOut('Split Out', 'body.payouts', 'payout'), ...variantNodes(lab, variant, items)];
				await lab.createWorkflow(`bench creates ${variant} ${items}`, nodes, chain(nodes), [webhookPath], false);
				paths[variant] = webhookPath;
			}
			for (const latencyMs of latencies) {
				setLatency(emulator, latencyMs);
				log(`creates: ${items} payouts, ${latencyMs} ms latency, ${runs} runs of ${variants.join(', ')} (node default: ${defaultConcurrency})`);
				const requests: Record<string, RequestCounts[]> = {};
				const duplicates: Record<string, number[]> = {};
				const samples = await rounds(variants, runs, async (variant, round) => {
					const prefix = `b-${items}-${latencyMs}-${variant}-${round}-`;
					const payouts = Array.from({ length: items }, (_, k) => ({ reference: `${prefix}${k}`, amount: 1000 + (k % 100) / 100 }));
					// Each run on an empty account: a period limit's first read (one request per 100 payouts
					// already in the period) would otherwise grow with the runs before it.
					emulator.reset({ payouts: 0 });
					const startedAt = Date.now();
					const answer = await lab.post(paths[variant], { payouts });
					if (answer.status !== 200) throw new Error(`${variant}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
					const made = emulator.list('payouts').filter((p) => String(p.reference).startsWith(prefix));
					const distinct = new Set(made.map((p) => p.reference)).size;
					if (made.length !== items || distinct !== items) throw new Error(`${variant}: ${made.length} payouts for ${items} references (${distinct} distinct)`);
					const counts = countRequests(emulator.requests, startedAt);
					(requests[variant] ??= []).push(counts);
					(duplicates[variant] ??= []).push(made.length - distinct);
					log(`  round ${round + 1} ${variant}: ${Math.round(answer.ms)} ms, ${counts.total} requests (${counts.creates} creates, ${counts.lists} list pages, ${counts.reads} reads; ${(counts.total / items).toFixed(3)} per payout; first create after ${counts.beforeFirstCreate ?? '?'} ms, creates sent over ${counts.sending ?? '?'} ms), ${items} payouts, 0 duplicates`);
					return answer.ms;
				});
				cases.push({ items, latencyMs, runs, samples, requests, duplicates });
			}
			setLatency(emulator, 0);
		}
	} finally {
		await lab.close();
	}
	const lines = [
		'# Payout batches: Payout → Create vs HTTP Request (bench/creates.cts)',
		'',
		`Measured ${new Date().toISOString().slice(0, 10)} on this 2-core machine, real n8n 2.41.1 and the emulator, ${Math.round((Date.now() - started) / 1000)} s in all.`,
		`Node default "Requests in Parallel" for creates: ${defaultConcurrency}. Median wall time per run; ratio to the fastest HTTP Request variant of the same case.`,
		'',
		'Requests: to /v1/payouts in the emulator\'s log, per payout (median run), as creates + list pages + reads by reference.',
		'',
		'| Payouts | Latency | Variant | Median | Runs (ms) | vs best HTTP Request | Requests per payout | creates + lists + reads | Duplicates |',
		'|---|---|---|---|---|---|---|---|---|',
	];
	for (const c of cases) {
		const httpBest = Math.min(...Object.entries(c.samples).filter(([v]) => v.startsWith('http')).map(([, s]) => median(s)));
		for (const [variant, samples] of Object.entries(c.samples)) {
			const m = median(samples);
			const counts = [...(c.requests[variant] ?? [])].sort((a, b) => a.total - b.total);
			const mid = counts[Math.floor((counts.length - 1) / 2)];
			const perPayout = mid ? (mid.total / c.items).toFixed(3) : '';
			const split = mid ? `${mid.creates} + ${mid.lists} + ${mid.reads}${mid.other ? ` + ${mid.other} other` : ''}` : '';
			const name = variant === 'node-default' ? `node default (${defaultConcurrency})` : variant === 'node-period' ? `node default, period limit` : variant === 'node-aon' ? 'node default, period limit, All or Nothing' : variant;
			lines.push(`| ${c.items} | ${c.latencyMs} ms | ${name} | ${(m / 1000).toFixed(1)} s | ${samples.map(Math.round).join(', ')} | ${(m / httpBest).toFixed(2)}x | ${perPayout} | ${split} | ${(c.duplicates[variant] ?? []).reduce((a, b) => a + b, 0)} |`);
		}
	}
	fs.writeFileSync(path.join(ROOT, 'bench', 'creates-latest.md'), `${lines.join('\n')}\n`);
	fs.writeFileSync(path.join(ROOT, 'bench', 'creates-results.json'), `${JSON.stringify({ defaultConcurrency, cases }, null, '\t')}\n`);
	log(lines.join('\n'));
}

if (require.main === module) {
	main().catch((error: Error) => {
		process.stderr.write(`${error.stack ?? error.message}\n`);
		process.exit(1);
	});
}
