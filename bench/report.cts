/** Turns the measurements into bench/RESULTS.md: tables, ratios and the targets. */
import type { FanoutCase } from './fanout.cjs';
import type { Machine } from './machine.cjs';
import type { PaginationCase, PaginationSample } from './pagination.cjs';
import type { SigningCase } from './signing.cjs';
import { formatSummary, median, pairedRatio, summarize, type Summary } from './stats.cjs';
import { TRIGGER_VARIANTS, type TriggerCase, type TriggerVariant } from './trigger.cjs';

export interface BenchResults {
	machine: Machine;
	settings: {
		quick: boolean;
		sizes: number[];
		latencies: number[];
		runs: number;
		largeRuns: number;
		fanoutRuns: number;
		defaultConcurrency: number;
	};
	/** Resident set of n8n's processes when idle, after start-up, MB. */
	idleMemoryMb?: Record<string, number>;
	pagination: PaginationCase[];
	fanout: FanoutCase[];
	fanoutConcurrencySupported?: boolean;
	trigger?: TriggerCase;
	signing: SigningCase[];
	durationS: number;
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ms = (s: Summary) => formatSummary({ ...s, median: s.median / 1000, min: s.min / 1000, max: s.max / 1000 }, 2, ' s');
const ratio = (s: Summary) => formatSummary(s, 2, 'x');
const verdict = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? '**met**' : '**missed**');

function table(header: string[], rows: string[][]): string {
	return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function times(samples: PaginationSample[]): number[] {
	return samples.map((s) => s.ms);
}

function peak(samples: PaginationSample[]): number {
	return median(samples.map((s) => s.n8nPeakMb ?? Number.NaN).filter(Number.isFinite));
}

/** Median growth of n8n's resident set during a run (peak minus just before), MB. */
function growth(samples: PaginationSample[]): number {
	return median(samples.map((s) => (s.n8nPeakMb ?? Number.NaN) - (s.n8nBeforeMb ?? Number.NaN)).filter(Number.isFinite));
}

interface Targets {
	paginationVsFloor?: { ratio: Summary; ok: boolean };
	paginationVsHttp?: { ratio: Summary; ok: boolean };
	paginationLinearTime?: { perRecord: Record<number, number>; ok: boolean };
	paginationMemory?: { records: number; growthMb: number; dataMb: number; ok: boolean };
	fanoutVsOneAtATime?: { ratio: Summary; ok: boolean };
	fanoutVsHttp?: { ratio: Summary; ok: boolean };
	triggerOverhead?: { ratio: Summary; ok: boolean };
	verifyVsTrigger?: { ratio: Summary; ok: boolean };
	signing?: Array<{ name: string; ratio: Summary; ok: boolean }>;
}

function evaluateTargets(results: BenchResults): Targets {
	const targets: Targets = {};
	const at = (records: number, latency: number) => results.pagination.find((c) => c.records === records && c.latencyMs === latency);
	const target = at(10_000, 50);
	if (target) {
		const vsFloor = pairedRatio(times(target.samples.node), times(target.samples.floor));
		const vsHttp = pairedRatio(times(target.samples.node), times(target.samples.http));
		targets.paginationVsFloor = { ratio: vsFloor, ok: vsFloor.median <= 1.15 };
		targets.paginationVsHttp = { ratio: vsHttp, ok: vsHttp.median <= 1.0 };
	}
	const latency = Math.max(...results.settings.latencies);
	const bySize = results.pagination.filter((c) => c.latencyMs === latency && c.records >= 10_000).sort((a, b) => a.records - b.records);
	if (bySize.length >= 2) {
		const perRecord = Object.fromEntries(bySize.map((c) => [c.records, median(times(c.samples.node)) / c.records]));
		const values = Object.values(perRecord);
		targets.paginationLinearTime = { perRecord, ok: values[values.length - 1] <= values[0] * 1.25 };
		// RSS below ~10,000 records stays inside V8's heap headroom (growth is noise, even
		// negative), so linearity is checked as a bound: growth at the largest size against the
		// size of the data (a constant factor of at most 2).
		const largest = bySize[bySize.length - 1];
		targets.paginationMemory = { records: largest.records, growthMb: growth(largest.samples.node), dataMb: largest.dataMb, ok: growth(largest.samples.node) <= 2 * largest.dataMb };
	}
	const fan = results.fanout.find((c) => c.latencyMs === 50);
	const chosen = `node-c${results.settings.defaultConcurrency}`;
	if (fan && fan.samples[chosen] && fan.samples['node-c1']) {
		const speedUp = pairedRatio(fan.samples['node-c1'], fan.samples[chosen]);
		targets.fanoutVsOneAtATime = { ratio: speedUp, ok: speedUp.median >= 4 };
		const http = Object.keys(fan.samples).filter((k) => k.startsWith('http-'));
		const best = http.sort((a, b) => median(fan.samples[a]) - median(fan.samples[b]))[0];
		if (best) {
			const vsHttp = pairedRatio(fan.samples[best], fan.samples[chosen]);
			targets.fanoutVsHttp = { ratio: vsHttp, ok: vsHttp.median > 1 };
		}
	}
	if (results.trigger) {
		const overhead = pairedRatio(
			results.trigger.samples.trigger.map((s) => s.sequentialMedianMs),
			results.trigger.samples.webhook.map((s) => s.sequentialMedianMs),
		);
		targets.triggerOverhead = { ratio: overhead, ok: overhead.median < 1.1 };
		const verify = results.trigger.samples['webhook-verify'];
		if (verify?.length) {
			const vs = pairedRatio(verify.map((s) => s.perSecond), results.trigger.samples.trigger.map((s) => s.perSecond));
			targets.verifyVsTrigger = { ratio: vs, ok: vs.median >= 3 };
		}
	}
	if (results.signing.length) {
		targets.signing = results.signing.map((c) => {
			const r = pairedRatio(c.samples.sign, c.samples.bare);
			return { name: c.name, ratio: r, ok: r.median < 2 };
		});
	}
	return targets;
}

function machineSection(results: BenchResults): string {
	const m = results.machine;
	const s = results.settings;
	return [
		`Measured ${m.date.slice(0, 16).replace('T', ' ')} UTC on ${m.cores} × ${m.cpu}, ${m.memoryGb} GB RAM, ${m.os}; load average at start ${m.loadAverage.join(' / ')}.`,
		`n8n ${m.n8n} on Node ${m.n8nNode}; bench, emulator and the fetch floor's parent on Node ${m.benchNode} (the floor itself runs on the Node n8n uses).`,
		`Runs: ${s.runs} per case (${s.largeRuns} at 100,000 records), fan-out ${s.fanoutRuns}; ${s.quick ? '**quick mode** (smoke run, not for the README); ' : ''}whole bench ${Math.round(results.durationS / 60)} min.`,
		'Each figure: median (min–max) over the runs. Ratios are taken per round (the variants of a round run back to back, in rotating order) and then summarised the same way.',
	].join('\n');
}

function paginationSection(results: BenchResults): string {
	if (!results.pagination.length) return '';
	const idle = results.idleMemoryMb?.n8n;
	const rows = results.pagination.map((c) => {
		const node = summarize(times(c.samples.node));
		const http = summarize(times(c.samples.http));
		const floor = summarize(times(c.samples.floor));
		return [
			`${int(c.records)}`,
			`${c.latencyMs} ms`,
			ms(node),
			ms(http),
			ms(floor),
			int(c.records / (node.median / 1000)),
			ratio(pairedRatio(times(c.samples.node), times(c.samples.floor))),
			ratio(pairedRatio(times(c.samples.node), times(c.samples.http))),
			`${int(peak(c.samples.node))} / ${int(peak(c.samples.http))}`,
			`${int(growth(c.samples.node))} / ${int(growth(c.samples.http))}`,
			c.dataMb.toFixed(1),
		];
	});
	return [
		'## 1. Pagination: Get Many, Return All (payouts, 100 per page)',
		'',
		'node = Paycashless node; http = HTTP Request (paycashlessApi, cursor pagination) + Split Out; floor = signed `fetch` loop outside n8n.',
		`Peak RSS: n8n's main process during the run${idle ? ` (idle after start-up: ${int(idle)} MB)` : ''}; growth: peak minus the RSS just before the run; data: JSON size of the records. The task runner is not used by these workflows.`,
		'',
		table(['Records', 'Latency', 'node', 'http', 'floor', 'node records/s', 'node ÷ floor', 'node ÷ http', 'peak RSS MB node / http', 'RSS growth MB node / http', 'data MB'], rows),
	].join('\n');
}

function fanoutSection(results: BenchResults): string {
	if (!results.fanout.length) return '';
	const parts = ['## 2. Fan-out: Verify 1,000 payouts by reference (1,000 input items)', ''];
	parts.push(
		'node-cN = Paycashless node, Payout → Verify, N requests in flight; http-b1000 = HTTP Request, Batching 1000 items per batch, interval 0 (n8n then sends every request at once: its fastest setting).',
	);
	if (results.fanoutConcurrencySupported === false) parts.push('', '_The node had no concurrency option when this ran: only one request at a time is measured._');
	for (const c of results.fanout) {
		const variants = Object.keys(c.samples);
		const http = variants.filter((v) => v.startsWith('http-')).sort((a, b) => median(c.samples[a]) - median(c.samples[b]))[0];
		const rows = variants.map((v) => [
			v,
			ms(summarize(c.samples[v])),
			int(c.items / (median(c.samples[v]) / 1000)),
			c.samples['node-c1'] ? ratio(pairedRatio(c.samples['node-c1'], c.samples[v])) : 'n/a',
			http ? ratio(pairedRatio(c.samples[http], c.samples[v])) : 'n/a',
		]);
		parts.push('', `**${c.latencyMs} ms latency**`, '', table(['Variant', 'Wall time', 'items/s', 'speed-up vs node-c1', `speed-up vs ${http ?? 'http'}`], rows));
	}
	return parts.join('\n');
}

function triggerSection(results: BenchResults): string {
	const t = results.trigger;
	if (!t) return '';
	const labels: Record<TriggerVariant, string> = {
		trigger: 'Paycashless Trigger (verifies the signature)',
		'trigger-v1': 'Paycashless Trigger, version 1',
		webhook: 'Webhook node (no verification)',
		'webhook-auth': 'Webhook node with Header Auth (n8n loads a credential)',
		'webhook-verify': 'Webhook node (Raw Body) → Callback: Verify → Respond to Webhook (200 / 401)',
	};
	const variants = TRIGGER_VARIANTS.filter((v) => t.samples[v]?.length);
	const per = (v: TriggerVariant) => summarize(t.samples[v].map((s) => s.sequentialMedianMs));
	const rate = (v: TriggerVariant) => summarize(t.samples[v].map((s) => s.perSecond));
	const cpu = (v: TriggerVariant) => {
		const values = t.samples[v].map((s) => s.cpuMsPerCallback).filter((x): x is number => typeof x === 'number');
		return values.length ? formatSummary(summarize(values), 1, ' ms') : '—';
	};
	const rows = variants.map((v) => [labels[v], formatSummary(per(v), 2, ' ms'), formatSummary(rate(v), 0, '/s'), cpu(v)]);
	const time = (v: TriggerVariant) => t.samples[v].map((s) => s.sequentialMedianMs);
	const overhead = pairedRatio(time('trigger'), time('webhook'));
	const throughput = pairedRatio(t.samples.webhook.map((s) => s.perSecond), t.samples.trigger.map((s) => s.perSecond));
	const vsAuth = t.samples['webhook-auth']?.length ? pairedRatio(time('trigger'), time('webhook-auth')) : undefined;
	return [
		'## 3. Trigger: signed callbacks through the production webhook',
		'',
		`${t.callbacks} callbacks per loop and variant, ${t.runs} rounds; the same signed bodies to both; answers on receipt.`,
		'',
		table(['Receiver', `Time per callback (one at a time)`, `Callbacks/s (${t.inFlight} in flight)`, 'n8n CPU per callback (in flight)'], rows),
		'',
		`Verification cost: trigger ÷ webhook time per callback ${ratio(overhead)}; webhook ÷ trigger throughput ${ratio(throughput)}` +
			(vsAuth ? `; trigger ÷ Header-Auth webhook time per callback ${ratio(vsAuth)}.` : '.'),
	].join('\n');
}

function signingSection(results: BenchResults): string {
	if (!results.signing.length) return '';
	const rows = results.signing.map((c) => [
		c.name,
		String(c.bodyBytes),
		String(c.hmacs),
		formatSummary(summarize(c.samples.sign), 1, ' µs'),
		formatSummary(summarize(c.samples.bare), 1, ' µs'),
		ratio(pairedRatio(c.samples.sign, c.samples.bare)),
	]);
	return [
		'## 4. Signing one request',
		'',
		'sign = `signPaycashlessRequest` (body object → sorted canonical JSON, signing path, two HMAC-SHA512, headers); bare = the HMAC-SHA512 computations alone over the same, precomputed bytes.',
		'',
		table(['Request', 'Body bytes', 'HMACs', 'sign', 'bare', 'sign ÷ bare'], rows),
	].join('\n');
}

function targetsSection(results: BenchResults): string {
	const t = evaluateTargets(results);
	const rows: string[][] = [];
	if (t.paginationVsFloor) rows.push(['Pagination ≤ 1.15x the floor (10,000 records, 50 ms)', ratio(t.paginationVsFloor.ratio), verdict(t.paginationVsFloor.ok)]);
	if (t.paginationVsHttp) rows.push(['Pagination at least as fast as HTTP Request + Split Out (10,000, 50 ms)', ratio(t.paginationVsHttp.ratio), verdict(t.paginationVsHttp.ok)]);
	if (t.paginationLinearTime) {
		const text = Object.entries(t.paginationLinearTime.perRecord).map(([n, v]) => `${int(Number(n))}: ${(v * 1000).toFixed(1)} µs`).join(', ');
		rows.push(['Pagination time linear (time per record, largest size ≤ 1.25x of 10,000)', text, verdict(t.paginationLinearTime.ok)]);
	}
	if (t.paginationMemory) {
		const m = t.paginationMemory;
		rows.push([`Pagination memory bounded by the data (n8n RSS growth ≤ 2x the records' JSON at ${int(m.records)})`, `${int(m.growthMb)} MB for ${m.dataMb.toFixed(1)} MB of records`, verdict(m.ok)]);
	}
	if (t.fanoutVsOneAtATime) rows.push([`Fan-out ≥ 4x one at a time (50 ms, default ${results.settings.defaultConcurrency})`, ratio(t.fanoutVsOneAtATime.ratio), verdict(t.fanoutVsOneAtATime.ok)]);
	else if (results.fanout.length) rows.push(['Fan-out ≥ 4x one at a time (50 ms)', 'node has no concurrency option yet', verdict(false)]);
	if (t.fanoutVsHttp) rows.push(['Fan-out faster than HTTP Request best batching (50 ms)', ratio(t.fanoutVsHttp.ratio), verdict(t.fanoutVsHttp.ok)]);
	if (t.triggerOverhead) rows.push(['Trigger verification adds < 10% (time per callback)', ratio(t.triggerOverhead.ratio), verdict(t.triggerOverhead.ok)]);
	if (t.verifyVsTrigger) rows.push(['Webhook + Verify ≥ 3x the Trigger\'s callbacks/s', ratio(t.verifyVsTrigger.ratio), verdict(t.verifyVsTrigger.ok)]);
	for (const s of t.signing ?? []) rows.push([`Signing < 2x bare HMAC: ${s.name}`, ratio(s.ratio), verdict(s.ok)]);
	return ['## Targets', '', table(['Target', 'Measured', 'Result'], rows)].join('\n');
}

export function renderReport(results: BenchResults): string {
	return [
		'# Benchmark results',
		'',
		'Written by `npm run bench` (bench/run.cts); how it measures: bench/README.md. Raw samples: bench/results.json.',
		'',
		machineSection(results),
		'',
		targetsSection(results),
		'',
		paginationSection(results),
		'',
		fanoutSection(results),
		'',
		triggerSection(results),
		'',
		signingSection(results),
		'',
	]
		.filter((part, i, all) => part !== '' || all[i - 1] !== '')
		.join('\n');
}
