/**
 * `npm run bench`: every benchmark in one run, inside one real n8n (see bench/README.md).
 *
 *   --quick                 1,000 and 10,000 records, fewer runs (a smoke run, minutes)
 *   --suites a,b            pagination, fanout, trigger, signing (default: all)
 *   --sizes 1000,10000      records for the pagination benchmark (default 1000,10000,100000)
 *   --latencies 0,50        added emulator latency per request, ms (default 0,50)
 *   --runs N                repetitions per case (default 5)
 *   --large-runs N          repetitions at 100,000 records or more (default 2)
 *   --fanout-runs N         repetitions of the fan-out benchmark (default 3)
 *   --concurrency 1,5,10    node concurrency levels for the fan-out benchmark (default 1,5,10,20,50
 *                           and the node's default, read from the built node)
 *   --out bench/RESULTS.md  markdown report (JSON beside it as results.json)
 *   --render                only rewrite the markdown from the results.json beside --out
 *
 * Everything it starts (n8n and its task runner, the emulator, the floor processes) is stopped
 * at the end, also on Ctrl-C; n8n runs under scripts/n8n/supervise.js, which stops it even if
 * this process is killed.
 */
import * as fs from 'fs';
import * as path from 'path';

import { ROOT } from '../scripts/n8n/lab.cjs';
import { FANOUT_ITEMS, fanoutBench, nodeDefaultConcurrency, type FanoutCase } from './fanout.cjs';
import { startBenchLab, type BenchLab } from './lab.cjs';
import { describeMachine } from './machine.cjs';
import { paginationBench, type PaginationCase } from './pagination.cjs';
import { renderReport, type BenchResults } from './report.cjs';
import { log, pause } from './runner.cjs';
import { signingBench, type SigningCase } from './signing.cjs';
import { triggerBench, type TriggerCase } from './trigger.cjs';

const SUITES = ['pagination', 'fanout', 'trigger', 'signing'] as const;
type Suite = (typeof SUITES)[number];

function parseArgs(argv: string[]): Record<string, string> {
	const flags: Record<string, string> = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (!arg.startsWith('--')) throw new Error(`Unexpected argument "${arg}"`);
		const eq = arg.indexOf('=');
		if (eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
		else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[arg.slice(2)] = argv[++i];
		else flags[arg.slice(2)] = 'true';
	}
	return flags;
}

function numbers(text: string | undefined, fallback: number[]): number[] {
	if (!text) return fallback;
	return text.split(',').map((part) => {
		const value = Number(part.trim());
		if (!Number.isFinite(value) || value < 0) throw new Error(`not a number: ${part}`);
		return value;
	});
}

async function main(): Promise<void> {
	const flags = parseArgs(process.argv.slice(2));
	const quick = flags.quick === 'true';
	const suites = (flags.suites ? flags.suites.split(',') : [...SUITES]) as Suite[];
	for (const suite of suites) if (!SUITES.includes(suite)) throw new Error(`unknown suite ${suite} (${SUITES.join(', ')})`);
	const sizes = numbers(flags.sizes, quick ? [1000, 10000] : [1000, 10000, 100000]);
	const latencies = numbers(flags.latencies, [0, 50]);
	const runs = numbers(flags.runs, [quick ? 2 : 5])[0];
	const largeRuns = numbers(flags['large-runs'], [quick ? 1 : 2])[0];
	const fanoutRuns = numbers(flags['fanout-runs'], [quick ? 1 : 3])[0];
	const out = path.resolve(ROOT, flags.out ?? path.join('bench', 'RESULTS.md'));

	if (flags.render === 'true') {
		const saved = JSON.parse(fs.readFileSync(path.join(path.dirname(out), 'results.json'), 'utf8')) as BenchResults;
		fs.writeFileSync(out, renderReport(saved));
		log(`rewrote ${path.relative(ROOT, out)} from results.json`);
		return;
	}

	const started = Date.now();
	const results: BenchResults = {
		machine: describeMachine(),
		settings: { quick, sizes, latencies, runs, largeRuns, fanoutRuns, defaultConcurrency: 1 },
		pagination: [] as PaginationCase[],
		fanout: [] as FanoutCase[],
		trigger: undefined as TriggerCase | undefined,
		signing: [] as SigningCase[],
		durationS: 0,
	};

	if (suites.includes('signing')) {
		log('signing: signPaycashlessRequest vs bare HMAC-SHA512');
		results.signing = await signingBench({ runs: quick ? 3 : 9, targetMsPerRun: quick ? 100 : 300 });
	}

	let lab: BenchLab | undefined;
	const stop = async () => {
		const current = lab;
		lab = undefined;
		await current?.close();
	};
	const onSignal = (signal: NodeJS.Signals) => {
		log(`${signal}: stopping n8n and the emulator`);
		void stop().finally(() => process.exit(130));
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);

	try {
		if (suites.some((s) => s !== 'signing')) {
			log('starting the lab: install check, build + pack, n8n, emulator (a minute or two)');
			lab = await startBenchLab();
			await pause(2000);
			const idle = lab.processes();
			results.idleMemoryMb = Object.fromEntries(
				idle.map((p) => [p.role, Number((/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${p.pid}/status`, 'utf8'))?.[1] ?? 0)) / 1024]),
			);
			log(`n8n at ${lab.e2e.n8n.baseUrl}; processes ${idle.map((p) => `${p.role}:${p.pid}`).join(', ')}`);

			if (suites.includes('pagination')) {
				results.pagination = await paginationBench(lab, { sizes, latencies, runsFor: (records) => (records >= 100_000 ? largeRuns : runs) });
			}
			if (suites.includes('fanout')) {
				// Built by startBenchLab: the node as installed in n8n.
				const nodeDefault = nodeDefaultConcurrency();
				results.settings.defaultConcurrency = nodeDefault ?? 1;
				results.fanoutConcurrencySupported = nodeDefault !== undefined;
				const levels = nodeDefault === undefined ? [1] : numbers(flags.concurrency, [1, 5, 10, 20, 50, nodeDefault]);
				levels.splice(0, levels.length, ...[...new Set(levels)].sort((a, b) => a - b));
				results.fanout = await fanoutBench(lab, { latencies, runs: fanoutRuns, concurrency: levels, httpBatchSizes: [FANOUT_ITEMS] });
			}
			if (suites.includes('trigger')) {
				results.trigger = await triggerBench(lab, { runs: quick ? 2 : 4, callbacks: quick ? 100 : 200, inFlight: 8 });
			}
		}
	} finally {
		await stop();
	}

	results.durationS = Math.round((Date.now() - started) / 1000);
	fs.mkdirSync(path.dirname(out), { recursive: true });
	fs.writeFileSync(out, renderReport(results));
	fs.writeFileSync(path.join(path.dirname(out), 'results.json'), `${JSON.stringify(results, null, '\t')}\n`);
	log(`done in ${results.durationS} s: ${path.relative(ROOT, out)} and results.json`);
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
