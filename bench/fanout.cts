/**
 * Benchmark 2: Verify 1,000 payouts by reference, one input item each.
 * Webhook (the references in its body) → Split Out (one item `{ reference }` each) → one of:
 * - node-c<N>: Paycashless (Payout → Verify) with N requests in flight (`concurrency`);
 * - http:      HTTP Request (paycashlessApi) on /v1/payouts/verify/{reference}, Options →
 *              Batching with the interval 0: n8n then starts every item's request at once,
 *              its fastest setting (HttpRequestV3 awaits all requests together at the end).
 */
import * as fs from 'fs';
import * as path from 'path';

import type { INodeType } from 'n8n-workflow';

import type { BenchLab } from './lab.cjs';
import { chain, startNode, uniquePath } from './lab.cjs';
import { ROOT } from '../scripts/n8n/lab.cjs';
import { log, rounds, setLatency } from './runner.cjs';
import { httpRequest, paycashless, splitOut } from './workflows.cjs';

export const FANOUT_ITEMS = 1000;

export interface FanoutCase {
	latencyMs: number;
	items: number;
	runs: number;
	/** Variant → wall times (ms), in round order. */
	samples: Record<string, number[]>;
}

export interface FanoutOptions {
	latencies: number[];
	runs: number;
	/** Concurrency levels of the node to measure (1 = one request at a time). */
	concurrency: number[];
	/** HTTP Request batch sizes to measure (interval 0). */
	httpBatchSizes: number[];
}

/**
 * The default of "Requests in Parallel" of Payout → `operation` (Verify by default) in the built
 * node (dist/), or undefined when the node has no such field (then only one request at a time is measured).
 */
export function nodeDefaultConcurrency(operation = 'verify'): number | undefined {
	const file = path.join(ROOT, 'dist', 'nodes', 'Paycashless', 'Paycashless.node.js');
	if (!fs.existsSync(file)) return undefined;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Paycashless } = require(file) as { Paycashless: new () => INodeType };
	const field = new Paycashless().description.properties.find(
		(p) => p.name === 'concurrency' && p.displayOptions?.show?.resource?.includes('payout') && p.displayOptions.show.operation?.includes(operation),
	);
	return typeof field?.default === 'number' ? field.default : undefined;
}

function variantNodes(lab: BenchLab, variant: string) {
	const { good, emulator } = lab.e2e;
	const node = /^node-c(\d+)$/.exec(variant);
	if (node) {
		return paycashless('Paycashless', good, { resource: 'payout', operation: 'verify', reference: '={{ $json.reference }}', concurrency: Number(node[1]) });
	}
	const http = /^http-b(\d+)$/.exec(variant);
	if (!http) throw new Error(`unknown fan-out variant ${variant}`);
	return httpRequest(
		'HTTP Request',
		good,
		{ url: `=${emulator.baseUrl}/v1/payouts/verify/{{ encodeURIComponent($json.reference) }}` },
		{ batching: { batch: { batchSize: Number(http[1]), batchInterval: 0 } } },
	);
}

async function createWorkflow(lab: BenchLab, variant: string, responseData: 'firstEntryJson' | 'allEntries'): Promise<string> {
	const webhookPath = uniquePath(`fan-${variant}-${responseData}`);
	const nodes = [startNode(webhookPath, responseData), splitOut('Split Out', 'body.references', 'reference'), variantNodes(lab, variant)];
	await lab.createWorkflow(`bench fan-out ${variant} ${responseData}`, nodes, chain(nodes), [webhookPath], responseData === 'allEntries');
	return webhookPath;
}

function expectVerifies(lab: BenchLab, references: string[], what: string): void {
	const seen = lab.e2e.emulator.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/payouts/verify/'));
	const ok = seen.filter((r) => r.status === 200);
	if (seen.length !== references.length || ok.length !== references.length) {
		throw new Error(`${what}: expected ${references.length} verify requests answered 200, saw ${seen.length} (${ok.length} with 200)`);
	}
}

export async function fanoutBench(lab: BenchLab, options: FanoutOptions): Promise<FanoutCase[]> {
	const { emulator } = lab.e2e;
	emulator.reset({ payouts: FANOUT_ITEMS });
	const references = emulator.list('payouts').map((p) => String(p.reference));
	const body = { references };
	const variants = [...options.concurrency.map((c) => `node-c${c}`), ...options.httpBatchSizes.map((b) => `http-b${b}`)];

	// Every variant answers each item with its own payout, in input order.
	const timed: Record<string, string> = {};
	setLatency(emulator, 0);
	for (const variant of variants) {
		const checkPath = await createWorkflow(lab, variant, 'allEntries');
		emulator.clearLogs();
		const answer = await lab.post(checkPath, body);
		if (answer.status !== 200) throw new Error(`check ${variant}: HTTP ${answer.status} ${answer.text.slice(0, 500)}`);
		const items = JSON.parse(answer.text) as Array<{ reference?: string }>;
		const misplaced = items.filter((item, i) => item.reference !== references[i]).length;
		if (items.length !== references.length || misplaced) {
			throw new Error(`check ${variant}: ${items.length} items, ${misplaced} not in input order`);
		}
		expectVerifies(lab, references, `check ${variant}`);
		log(`fan-out check: ${variant} verified ${references.length} payouts, output in input order`);
		timed[variant] = await createWorkflow(lab, variant, 'firstEntryJson');
	}

	const cases: FanoutCase[] = [];
	for (const latencyMs of options.latencies) {
		setLatency(emulator, latencyMs);
		log(`fan-out: ${FANOUT_ITEMS} items, ${latencyMs} ms latency, ${options.runs} runs of ${variants.join(', ')}`);
		const samples = await rounds(variants, options.runs, async (variant, round) => {
			emulator.clearLogs();
			const answer = await lab.post(timed[variant], body);
			if (answer.status !== 200) throw new Error(`${variant}: HTTP ${answer.status} ${answer.text.slice(0, 500)}`);
			expectVerifies(lab, references, variant);
			log(`  round ${round + 1} ${variant}: ${Math.round(answer.ms)} ms`);
			return answer.ms;
		});
		cases.push({ latencyMs, items: FANOUT_ITEMS, runs: options.runs, samples });
	}
	setLatency(emulator, 0);
	return cases;
}
