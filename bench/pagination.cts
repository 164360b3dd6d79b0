/**
 * Benchmark 1: Get Many with Return All over N payouts.
 * - node:  Webhook → Paycashless (Payout → Get Many, Return All)
 * - http:  Webhook → HTTP Request (paycashlessApi, cursor pagination, 100 per page) → Split Out (data)
 * - floor: a signed fetch loop in its own process (bench/floor.cts), outside n8n
 * Wall time per run (webhook call to answer, the answer being the first item only), records/s,
 * and the peak resident set of n8n's processes during each n8n run.
 */
import type { BenchLab } from './lab.cjs';
import { chain, startNode, uniquePath } from './lab.cjs';
import { PeakMemory, type MemoryReading } from './procmem.cjs';
import { log, pause, rounds, runChild, setLatency } from './runner.cjs';
import { httpRequestCursorList, PAGE_SIZE, paycashless, splitOut } from './workflows.cjs';

const PAGINATION_VARIANTS = ['node', 'http', 'floor'] as const;
type PaginationVariant = (typeof PAGINATION_VARIANTS)[number];

export interface PaginationSample {
	ms: number;
	/** Peak resident set of n8n's main process during the run (n8n variants), MB. */
	n8nPeakMb?: number;
	/** Its resident set just before the run, MB. */
	n8nBeforeMb?: number;
	/** Peak of the task runner, when one runs as its own process, MB. */
	runnerPeakMb?: number;
}

export interface PaginationCase {
	latencyMs: number;
	records: number;
	/** JSON size of the records (as stored by the emulator), MB. */
	dataMb: number;
	runs: number;
	samples: Record<PaginationVariant, PaginationSample[]>;
}

export interface PaginationOptions {
	sizes: number[];
	latencies: number[];
	runsFor(records: number): number;
}

interface Workflows {
	timed: Record<'node' | 'http', string>;
	check: Record<'node' | 'http', string>;
}

const LIST_PATH = '/v1/payouts';

async function createWorkflows(lab: BenchLab): Promise<Workflows> {
	const { good, emulator } = lab.e2e;
	const build = (variant: 'node' | 'http', responseData: 'firstEntryJson' | 'allEntries') => {
		const webhookPath = uniquePath(`list-${variant}-${responseData}`);
		const nodes =
			variant === 'node'
				? [startNode(webhookPath, responseData), paycashless('Paycashless', good, { resource: 'payout', operation: 'getAll', returnAll: true })]
				: [startNode(webhookPath, responseData), httpRequestCursorList('HTTP Request', good, `${emulator.baseUrl}${LIST_PATH}`), splitOut('Split Out', 'data')];
		return { webhookPath, nodes };
	};
	const workflows: Workflows = { timed: { node: '', http: '' }, check: { node: '', http: '' } };
	for (const variant of ['node', 'http'] as const) {
		for (const [kind, responseData] of [['timed', 'firstEntryJson'], ['check', 'allEntries']] as const) {
			const { webhookPath, nodes } = build(variant, responseData);
			await lab.createWorkflow(`bench list ${variant} ${kind}`, nodes, chain(nodes), [webhookPath], kind === 'check');
			workflows[kind][variant] = webhookPath;
		}
	}
	return workflows;
}

function expectPages(lab: BenchLab, records: number, what: string): void {
	const pages = lab.e2e.emulator.requests.filter((r) => r.method === 'GET' && r.path === LIST_PATH);
	const expected = Math.max(1, Math.ceil(records / PAGE_SIZE));
	const bad = pages.filter((p) => p.status !== 200 || p.query.limit !== String(PAGE_SIZE));
	if (pages.length !== expected || bad.length) {
		throw new Error(`${what}: expected ${expected} pages of ${PAGE_SIZE} with HTTP 200, saw ${pages.length} (${bad.length} other)`);
	}
}

/** Both n8n set-ups return exactly the records of the list, each once. */
async function check(lab: BenchLab, workflows: Workflows): Promise<void> {
	const records = 1000;
	lab.e2e.emulator.reset({ payouts: records });
	const ids = new Set(lab.e2e.emulator.list('payouts').map((p) => String(p.id)));
	for (const variant of ['node', 'http'] as const) {
		lab.e2e.emulator.clearLogs();
		const answer = await lab.post(workflows.check[variant], {});
		if (answer.status !== 200) throw new Error(`check ${variant}: HTTP ${answer.status} ${answer.text.slice(0, 500)}`);
		const items = JSON.parse(answer.text) as Array<{ id: string }>;
		const distinct = new Set(items.map((item) => item.id));
		if (items.length !== records || distinct.size !== records || [...distinct].some((id) => !ids.has(id))) {
			throw new Error(`check ${variant}: ${items.length} items, ${distinct.size} distinct, expected the ${records} payouts`);
		}
		expectPages(lab, records, `check ${variant}`);
		log(`pagination check: ${variant} returned the ${records} payouts, each once, in ${Math.round(answer.ms)} ms`);
	}
}

async function runN8n(lab: BenchLab, webhookPath: string, records: number, what: string): Promise<PaginationSample> {
	const watch = new PeakMemory(lab.processes());
	lab.e2e.emulator.clearLogs();
	watch.start();
	const answer = await lab.post(webhookPath, {});
	const memory = watch.stop();
	if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.text.slice(0, 500)}`);
	expectPages(lab, records, what);
	const main = memory.find((m: MemoryReading) => m.role === 'n8n');
	const runner = memory.find((m: MemoryReading) => m.role === 'task-runner');
	return { ms: answer.ms, n8nPeakMb: main?.peakMb, n8nBeforeMb: main?.beforeMb, runnerPeakMb: runner?.peakMb };
}

async function runFloor(lab: BenchLab, records: number): Promise<PaginationSample> {
	const { emulator } = lab.e2e;
	emulator.clearLogs();
	const result = await runChild<{ ms: number; records: number; distinct: number; pages: number }>('floor.cts', {
		baseUrl: emulator.baseUrl,
		apiKey: emulator.apiKey,
		apiSecret: emulator.apiSecret,
		path: LIST_PATH,
		pageSize: PAGE_SIZE,
	});
	if (result.records !== records || result.distinct !== records) {
		throw new Error(`floor: ${result.records} records (${result.distinct} distinct), expected ${records}`);
	}
	return { ms: result.ms };
}

export async function paginationBench(lab: BenchLab, options: PaginationOptions): Promise<PaginationCase[]> {
	const workflows = await createWorkflows(lab);
	await check(lab, workflows);
	const cases: PaginationCase[] = [];
	for (const latencyMs of options.latencies) {
		for (const records of options.sizes) {
			lab.e2e.emulator.reset({ payouts: records });
			setLatency(lab.e2e.emulator, latencyMs);
			const runs = options.runsFor(records);
			log(`pagination: ${records} records, ${latencyMs} ms latency, ${runs} runs of ${PAGINATION_VARIANTS.join(', ')}`);
			const samples = await rounds(PAGINATION_VARIANTS, runs, async (variant, round) => {
				// Let n8n's heap settle after a large run, so one run's garbage is not the next one's peak.
				if (records >= 10_000) await pause(records >= 100_000 ? 4000 : 1000);
				const sample = variant === 'floor' ? await runFloor(lab, records) : await runN8n(lab, workflows.timed[variant], records, `${variant} ${records}`);
				log(`  round ${round + 1} ${variant}: ${Math.round(sample.ms)} ms${sample.n8nPeakMb ? `, n8n peak ${Math.round(sample.n8nPeakMb)} MB` : ''}`);
				return sample;
			});
			const dataMb = Buffer.byteLength(JSON.stringify(lab.e2e.emulator.list('payouts'))) / 1024 ** 2;
			cases.push({ latencyMs, records, dataMb, runs, samples });
		}
	}
	setLatency(lab.e2e.emulator, 0);
	return cases;
}
