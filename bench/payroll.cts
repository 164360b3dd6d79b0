/**
 * Benchmark: a payroll at the speed of the HTTP Request node (`npm run bench:payroll`). One n8n 2.41.1,
 * the emulator in this process at 50 ms per request, every case side by side in one run:
 *
 * 1. **The payroll flow docs/payroll.md recommends**, its nodes read from examples/payroll.json as the
 *    checkout has it (so the bench follows the example as it changes), the approval left out: Webhook
 *    (the rows) → Split Out (as the example's Staff Rows) → Look Up Account → Check Batch → Rows to Pay
 *    → One Item per Salary → Pay Salaries (All or Nothing, Approved Batch Hash from Check Batch), with a
 *    Maximum Total per Period the batch fits in; against n8n's HTTP Request node doing one account
 *    lookup and one create per row, each node sending every item at once (Batching: all items,
 *    interval 0). A node the example adds that the bench does not run stops the bench, with its name.
 * 2. **Create alone with a period total**: Payout → Create with a Maximum Total per Period (and at the
 *    defaults) against HTTP Request's creates, all at once (the variants of bench/creates.cts).
 * 3. **The payroll flow under the reliability suite's faults** (test/reliability/payouts.test.cts's mix:
 *    5xx, 429, connections dropped after the payout was committed, answers later than the node's
 *    timeout), then the same batch again under other faults: the first run pays every row once, the
 *    second pays none.
 * 4. **The callbacks a payroll brings**: signed PAYOUT_SUCCEEDED callbacks through the Paycashless
 *    Trigger against n8n's plain Webhook node (bench/trigger.cts), one at a time and 8 in flight.
 *
 * Every run starts on an empty emulator (so the period holds only the batch) and is checked in the
 * emulator's store: exactly one payout per row, with the row's amount, account and bank, none other,
 * none twice (else the bench stops). Requests are counted from the emulator's log by kind and given per
 * row. Rounds rotate the order of the variants; ratios are taken within a round. The load average is
 * recorded at the start and end of every case: the machine is shared.
 *
 * Usage: npm run bench:payroll -- [--rows 1000,10000] [--runs 1] [--latency 50] [--period-items 10000]
 *        [--fault-rows 1000] [--callbacks 1000] [--callback-runs 1] [--suites payroll,period,faults,callbacks]
 *        [--n8n-env N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true,...] (more environment for n8n) [--out payroll]
 * Writes bench/<out>-latest.md (the run's tables) and bench/<out>-results.json (every sample).
 */
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';

import { accountName } from '../emulator/banks.cjs';
import type { FaultConfig, RecordedRequest } from '../emulator/types.cjs';
import { ROOT } from '../scripts/n8n/lab.cjs';
import type { WorkflowNode } from '../test/support/e2e/harness.cjs';
import { payoutFaultMix } from '../test/support/reliability.cjs';
import { variantNodes } from './creates.cjs';
import { chain, startBenchLab, startNode, uniquePath, type BenchLab } from './lab.cjs';
import { describeMachine } from './machine.cjs';
import { commandFlags, log, n8nEnvFlag, pause, rounds } from './runner.cjs';
import { median } from './stats.cjs';
import { triggerBench, type TriggerCase } from './trigger.cjs';
import { httpRequest, paycashless, splitOut } from './workflows.cjs';

const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';
const ACCESS_BANK_CODE = '044';

const PAYROLL_VARIANTS = ['payroll', 'http'] as const;
export type PayrollVariant = (typeof PAYROLL_VARIANTS)[number];
const PERIOD_VARIANTS = ['node-period', 'node-default', 'http-all'] as const;

/** The reliability suite's mix (test/reliability/payouts.test.cts), at this bench's latency. */
const SLOW_MS = 5000;
const FAULT_MIX: FaultConfig = payoutFaultMix(SLOW_MS);
/** The node's attempts (its default, 10) and a timeout the slow answers outlast, as in that suite. */
const FAULT_REQUEST_OPTIONS = { maxAttempts: 10, timeout: 2500 };

interface Row {
	staffId: string;
	name: string;
	accountNumber: string;
	bankCode: string;
	amountNaira: string;
	reference: string;
}

/** `count` salary rows as a CSV would give them: each its own account at Access Bank, its holder's name. */
export function payrollRows(prefix: string, count: number): Row[] {
	return Array.from({ length: count }, (_, k) => {
		const accountNumber = String(2_000_000_000 + k * 104_729);
		return {
			staffId: `S${k + 1}`,
			name: accountName(accountNumber, ACCESS_BANK),
			accountNumber,
			bankCode: ACCESS_BANK_CODE,
			amountNaira: (50_000 + (k % 1000) * 250 + 0.5).toFixed(2),
			reference: `${prefix}${k + 1}`,
		};
	});
}

/**
 * A period total the batch fits in, as a payroll would set it: its total, rounded up, with room (the
 * example's own is sized for its 7 staff). Every amount is under the example's Maximum Amount.
 */
function periodTotalFor(rows: number): number {
	return Math.ceil((rows * (50_000 + 999 * 250 + 1) * 1.2) / 1_000_000) * 1_000_000;
}

/** examples/payroll.json's nodes that the bench runs as they are, but for the changes `exampleNode` makes. */
const EXAMPLE_FILE = path.join(ROOT, 'examples', 'payroll.json');
/** The example's node that turns the CSV into rows: the bench's Split Out takes its name. */
const ROWS_NODE = 'Staff Rows';

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}

/**
 * The example's node `name` (examples/payroll.json as this checkout has it, so the bench follows the
 * flow docs/payroll.md recommends as it changes), with the bench's credential and period total, and
 * the approval left out: the option naming the approval page is dropped and Approve Without Login
 * (Unsafe) turned on (nothing approves in a bench; the hash is still compared).
 */
function exampleNode(lab: BenchLab, name: string, periodTotal: number, extra: Record<string, unknown>): WorkflowNode {
	const example = (JSON.parse(fs.readFileSync(EXAMPLE_FILE, 'utf8')) as { nodes: ExampleNode[] }).nodes.find((node) => node.name === name);
	if (!example) throw new Error(`${EXAMPLE_FILE} has no node "${name}": update bench/payroll.cts to the example`);
	const parameters = structuredClone(example.parameters);
	const limits = parameters.moneyLimits as Record<string, unknown> | undefined;
	if (limits?.periodTotal !== undefined) limits.periodTotal = periodTotal;
	const batchOptions = parameters.batchOptions as Record<string, unknown> | undefined;
	if (batchOptions) {
		delete batchOptions.approvalPage;
		delete batchOptions.approvers;
		batchOptions.approveWithoutLogin = true;
	}
	return { ...paycashless(name, lab.e2e.good, { ...parameters, ...extra }), typeVersion: example.typeVersion };
}

/** Throws unless every node an expression names (`$('…')`) is in the flow: the example may have grown. */
function checkReferences(nodes: WorkflowNode[]): void {
	const names = new Set(nodes.map((node) => node.name));
	for (const node of nodes) {
		for (const [, referenced] of JSON.stringify(node.parameters).matchAll(/\$\(\\?['"]([^'"\\]+)\\?['"]\)/g)) {
			if (!names.has(referenced)) throw new Error(`the bench's "${node.name}" (from ${EXAMPLE_FILE}) reads node "${referenced}", which the bench does not run: update bench/payroll.cts`);
		}
	}
}

/** The nodes after the Webhook for one payroll variant. */
export function payrollNodes(lab: BenchLab, variant: PayrollVariant, rows: number, requestOptions?: Record<string, unknown>): WorkflowNode[] {
	const { good, emulator } = lab.e2e;
	const options = requestOptions ? { requestOptions } : {};
	const split = splitOut(ROWS_NODE, 'body.rows');
	if (variant === 'http') {
		const all = { batching: { batch: { batchSize: rows, batchInterval: 0 } } };
		return [
			split,
			httpRequest('Look Up', good, {
				url: `${emulator.baseUrl}/v1/banks/account_lookup`,
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'accountNumber', value: '={{ $json.accountNumber }}' }, { name: 'bankCode', value: '={{ $json.bankCode }}' }] },
			}, all),
			httpRequest('Create', good, {
				url: `${emulator.baseUrl}/v1/payouts`,
				method: 'POST',
				sendBody: true,
				specifyBody: 'json',
				jsonBody:
					`={{ JSON.stringify({ reference: $('${ROWS_NODE}').item.json.reference, amount: { value: Math.round(Number($('${ROWS_NODE}').item.json.amountNaira) * 100), currency: 'NGN' }, destinationAccountNumber: $json.accountNumber, bankId: $json.bank.id, narration: 'Salary ' + $('${ROWS_NODE}').item.json.reference }) }}`,
			}, all),
		];
	}
	const periodTotal = periodTotalFor(rows);
	const nodes = [
		split,
		exampleNode(lab, 'Look Up Account', periodTotal, options),
		exampleNode(lab, 'Check Batch', periodTotal, options),
		// The example's "Rows to Pay", reading each node's items once: the example's
		// `$('Staff Rows').all()[i]` inside the map reads all rows once per row (10^8 item reads at 10,000).
		{
			name: 'Rows to Pay',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				mode: 'manual',
				includeOtherFields: false,
				options: {},
				assignments: {
					assignments: [
						{
							id: 'rows',
							name: 'rows',
							type: 'array',
							value: `={{ ((rows, lookups) => lookups.map((lookup, i) => ({ ...rows[i].json, bankId: lookup.json.bank.id })))($('${ROWS_NODE}').all(), $('Look Up Account').all()) }}`,
						},
					],
				},
			},
		},
		splitOut('One Item per Salary', 'rows'),
		exampleNode(lab, 'Pay Salaries', periodTotal, options),
	];
	checkReferences(nodes);
	return nodes;
}

/** Requests by kind, from the emulator's log. */
interface RequestKinds {
	accountLookups: number;
	referenceLookups: number;
	creates: number;
	listPages: number;
	/** GET /v1/payouts/<id>. */
	readsById: number;
	other: number;
	total: number;
}

function requestKinds(requests: readonly RecordedRequest[]): RequestKinds {
	const kinds: RequestKinds = { accountLookups: 0, referenceLookups: 0, creates: 0, listPages: 0, readsById: 0, other: 0, total: 0 };
	for (const { method, path: p } of requests) {
		kinds.total += 1;
		if (method === 'GET' && p === '/v1/banks/account_lookup') kinds.accountLookups += 1;
		else if (method === 'GET' && p.startsWith('/v1/payouts/verify/')) kinds.referenceLookups += 1;
		else if (method === 'POST' && p === '/v1/payouts') kinds.creates += 1;
		else if (method === 'GET' && p === '/v1/payouts') kinds.listPages += 1;
		else if (method === 'GET' && p.startsWith('/v1/payouts/')) kinds.readsById += 1;
		else kinds.other += 1;
	}
	return kinds;
}

/** What the emulator holds against what the rows should have paid: throws unless exactly right. */
function checkPaid(lab: BenchLab, label: string, expected: ReadonlyArray<{ reference: string; kobo: number; accountNumber: string; bankId: string }>): { payouts: number; duplicates: number } {
	const made = lab.e2e.emulator.list('payouts');
	const byReference = new Map<string, Record<string, unknown>[]>();
	for (const payout of made) {
		const list = byReference.get(String(payout.reference)) ?? [];
		list.push(payout);
		byReference.set(String(payout.reference), list);
	}
	const duplicates = made.length - byReference.size;
	const wrong: string[] = [];
	for (const row of expected) {
		const found = byReference.get(row.reference) ?? [];
		if (found.length !== 1) wrong.push(`${row.reference}: ${found.length} payouts`);
		else if (found[0].amount !== row.kobo || found[0].destinationAccountNumber !== row.accountNumber || found[0].destinationBankId !== row.bankId || found[0].currency !== 'NGN') {
			wrong.push(`${row.reference}: ${JSON.stringify({ amount: found[0].amount, account: found[0].destinationAccountNumber, bank: found[0].destinationBankId })}`);
		}
	}
	if (made.length !== expected.length || duplicates !== 0 || wrong.length) {
		throw new Error(`${label}: ${made.length} payouts for ${expected.length} rows, ${duplicates} duplicates; ${wrong.slice(0, 5).join('; ')}`);
	}
	return { payouts: made.length, duplicates };
}

function expectedOf(rows: Row[]): Array<{ reference: string; kobo: number; accountNumber: string; bankId: string }> {
	return rows.map((row) => ({ reference: row.reference, kobo: Math.round(Number(row.amountNaira) * 100), accountNumber: row.accountNumber, bankId: ACCESS_BANK }));
}

/**
 * POSTs JSON to a production webhook and waits for the answer however long the run takes (fetch gives
 * up after 300 s without headers, and a payroll of 1,000 rows took longer than that).
 */
export function postAndWait(lab: BenchLab, webhookPath: string, body: unknown): Promise<{ ms: number; status: number; text: string }> {
	const payload = JSON.stringify(body);
	const url = new URL(`${lab.e2e.n8n.baseUrl}/webhook/${webhookPath}`);
	const started = performance.now();
	return new Promise((resolve, reject) => {
		const request = http.request(
			{ hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
			(response) => {
				let text = '';
				response.setEncoding('utf8');
				response.on('data', (chunk: string) => (text += chunk));
				response.on('end', () => resolve({ ms: performance.now() - started, status: response.statusCode ?? 0, text }));
				response.on('error', reject);
			},
		);
		request.on('error', reject);
		request.end(payload);
	});
}

function loadAverage(): number {
	return Math.round(os.loadavg()[0] * 100) / 100;
}

interface RunSample {
	ms: number;
	requests: RequestKinds;
	payouts: number;
	duplicates: number;
	load: number;
}

interface BatchCase {
	suite: 'payroll' | 'period';
	rows: number;
	latencyMs: number;
	samples: Record<string, RunSample[]>;
	load: { start: number; end: number };
}

interface FaultCase {
	rows: number;
	runs: Array<{ name: string; ms: number; requests: RequestKinds; faults: Record<string, number>; payouts: number; duplicates: number; newPayouts: number }>;
}

function faultsOf(requests: readonly RecordedRequest[]): Record<string, number> {
	const counts: Record<string, number> = { error5xx: 0, rateLimit: 0, dropAfterCommit: 0, slow: 0 };
	for (const request of requests) if (request.fault && request.fault !== 'latency') counts[request.fault] += 1;
	return counts;
}

async function createFlow(lab: BenchLab, name: string, nodes: WorkflowNode[]): Promise<string> {
	const webhookPath = uniquePath(name);
	const all = [startNode(webhookPath, 'firstEntryJson'), ...nodes];
	await lab.createWorkflow(`bench ${name}`, all, chain(all), [webhookPath], false);
	return webhookPath;
}

/** Where the newest failed execution of the bench's n8n stopped: its node and error (for a run answered other than 200). */
async function failedRun(lab: BenchLab): Promise<string> {
	const list = await lab.e2e.session.api<{ data: Array<{ id: string; status: string }> }>('GET', '/executions?status=error&limit=1&includeData=true').catch(() => undefined);
	const execution = list?.data[0] as { id: string; data?: { resultData?: { lastNodeExecuted?: string; error?: { message?: string; description?: string } } } } | undefined;
	const result = execution?.data?.resultData;
	return result ? `; execution ${execution.id} stopped in "${result.lastNodeExecuted}": ${result.error?.message ?? '?'} ${result.error?.description ?? ''}` : '';
}

async function payrollCase(lab: BenchLab, rows: number, latencyMs: number, runs: number): Promise<BatchCase> {
	const { emulator } = lab.e2e;
	const paths = {} as Record<PayrollVariant, string>;
	for (const variant of PAYROLL_VARIANTS) paths[variant] = await createFlow(lab, `payroll-${variant}-${rows}`, payrollNodes(lab, variant, rows));
	const start = loadAverage();
	log(`payroll: ${rows} rows, ${latencyMs} ms per request, ${runs} round(s) of ${PAYROLL_VARIANTS.join(', ')} (load ${start})`);
	const samples = await rounds(PAYROLL_VARIANTS, runs, async (variant, round) => {
		emulator.reset({ payouts: 0 });
		emulator.setFaults({ latencyMs });
		const batch = payrollRows(`pr-${rows}-${variant}-${round}-`, rows);
		const answer = await postAndWait(lab, paths[variant], { rows: batch });
		if (answer.status !== 200) throw new Error(`payroll ${variant} ${rows}: HTTP ${answer.status} ${answer.text.slice(0, 500)}${await failedRun(lab)}`);
		const requests = requestKinds(emulator.requests);
		const { payouts, duplicates } = checkPaid(lab, `payroll ${variant} ${rows}`, expectedOf(batch));
		const load = loadAverage();
		log(`  round ${round + 1} ${variant}: ${(answer.ms / 1000).toFixed(1)} s, ${(requests.total / rows).toFixed(2)} requests per row ${JSON.stringify(requests)}, ${payouts} paid, ${duplicates} duplicates (load ${load})`);
		await pause(rows >= 10_000 ? 4000 : 1000);
		return { ms: answer.ms, requests, payouts, duplicates, load };
	});
	emulator.clearFaults();
	return { suite: 'payroll', rows, latencyMs, samples, load: { start, end: loadAverage() } };
}

async function periodCase(lab: BenchLab, items: number, latencyMs: number, runs: number): Promise<BatchCase> {
	const { emulator } = lab.e2e;
	const paths: Record<string, string> = {};
	for (const variant of PERIOD_VARIANTS) paths[variant] = await createFlow(lab, `period-${variant}-${items}`, [splitOut('Split Out', 'body.payouts', 'payout'), ...variantNodes(lab, variant, items)]);
	const start = loadAverage();
	log(`period: ${items} payouts, ${latencyMs} ms per request, ${runs} round(s) of ${PERIOD_VARIANTS.join(', ')} (load ${start})`);
	const samples = await rounds(PERIOD_VARIANTS, runs, async (variant, round) => {
		emulator.reset({ payouts: 0 });
		emulator.setFaults({ latencyMs });
		const prefix = `pp-${items}-${variant}-${round}-`;
		const payouts = Array.from({ length: items }, (_, k) => ({ reference: `${prefix}${k}`, amount: 1000 + (k % 100) / 100 }));
		const answer = await postAndWait(lab, paths[variant], { payouts });
		if (answer.status !== 200) throw new Error(`period ${variant} ${items}: HTTP ${answer.status} ${answer.text.slice(0, 500)}`);
		const requests = requestKinds(emulator.requests);
		// bench/creates.cts's payouts: account 0123456789 at Access Bank.
		const checked = checkPaid(lab, `period ${variant} ${items}`, payouts.map((p) => ({ reference: p.reference, kobo: Math.round(p.amount * 100), accountNumber: '0123456789', bankId: ACCESS_BANK })));
		const load = loadAverage();
		log(`  round ${round + 1} ${variant}: ${(answer.ms / 1000).toFixed(1)} s, ${(requests.total / items).toFixed(3)} requests per payout ${JSON.stringify(requests)} (load ${load})`);
		await pause(items >= 10_000 ? 4000 : 1000);
		return { ms: answer.ms, requests, ...checked, load };
	});
	emulator.clearFaults();
	return { suite: 'period', rows: items, latencyMs, samples, load: { start, end: loadAverage() } };
}

async function faultCase(lab: BenchLab, rows: number, latencyMs: number): Promise<FaultCase> {
	const { emulator } = lab.e2e;
	const webhookPath = await createFlow(lab, `payroll-faults-${rows}`, payrollNodes(lab, 'payroll', rows, FAULT_REQUEST_OPTIONS));
	const batch = payrollRows(`pf-${rows}-`, rows);
	emulator.reset({ payouts: 0 });
	const result: FaultCase = { rows, runs: [] };
	for (const [name, seed] of [['first run', FAULT_MIX.seed], ['the same batch again', 99]] as const) {
		emulator.clearLogs();
		emulator.setFaults({ ...FAULT_MIX, latencyMs, seed });
		const before = emulator.list('payouts').length;
		log(`faults: payroll of ${rows} rows, ${name} (load ${loadAverage()})`);
		const answer = await postAndWait(lab, webhookPath, { rows: batch });
		if (answer.status !== 200) throw new Error(`payroll under faults, ${name}: HTTP ${answer.status} ${answer.text.slice(0, 500)}`);
		// Answers later than the node's timeout still land: wait for them before counting.
		await pause(SLOW_MS + 1500);
		emulator.clearFaults();
		const requests = requestKinds(emulator.requests);
		const faults = faultsOf(emulator.requests);
		const checked = checkPaid(lab, `payroll under faults, ${name}`, expectedOf(batch));
		const newPayouts = checked.payouts - before;
		log(`  ${name}: ${(answer.ms / 1000).toFixed(1)} s, faults ${JSON.stringify(faults)}, ${checked.payouts} paid in all, ${newPayouts} new, ${checked.duplicates} duplicates`);
		result.runs.push({ name, ms: answer.ms, requests, faults, ...checked, newPayouts });
	}
	if (result.runs[1].newPayouts !== 0) throw new Error(`the same batch again paid ${result.runs[1].newPayouts}`);
	return result;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const perRow = (n: number, rows: number) => (n / rows).toFixed(3);

function batchTable(cases: BatchCase[]): string[] {
	const lines = [
		'| Rows | Variant | Median | Runs | vs HTTP Request (per round) | Requests per row | account lookups | reference lookups | creates | list pages | reads by id | Paid | Duplicates | Load (start–end) |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
	];
	for (const c of cases) {
		const baseline = c.suite === 'payroll' ? 'http' : 'http-all';
		for (const [variant, samples] of Object.entries(c.samples)) {
			const ratios = samples.map((sample, i) => sample.ms / c.samples[baseline][i].ms);
			const mid = [...samples].sort((a, b) => a.requests.total - b.requests.total)[Math.floor((samples.length - 1) / 2)];
			const r = mid.requests;
			const name = c.suite === 'payroll' ? (variant === 'payroll' ? 'payroll flow' : 'HTTP Request: lookup + create') : variant;
			lines.push(
				`| ${c.rows} | ${name} | ${s(median(samples.map((x) => x.ms)))} | ${samples.map((x) => s(x.ms)).join(', ')} | ${median(ratios).toFixed(2)}x | ${perRow(r.total, c.rows)} | ${perRow(r.accountLookups, c.rows)} | ${perRow(r.referenceLookups, c.rows)} | ${perRow(r.creates, c.rows)} | ${perRow(r.listPages, c.rows)} | ${perRow(r.readsById, c.rows)} | ${samples.map((x) => x.payouts).join(', ')} | ${samples.reduce((a, x) => a + x.duplicates, 0)} | ${c.load.start}–${c.load.end} |`,
			);
		}
	}
	return lines;
}

function faultTable(cases: FaultCase[]): string[] {
	const lines = [
		'| Rows | Run | Time | 5xx | 429 | dropped after commit | later than the timeout | Requests per row | Paid in all | New | Duplicates |',
		'|---|---|---|---|---|---|---|---|---|---|---|',
	];
	for (const c of cases) {
		for (const r of c.runs) {
			lines.push(`| ${c.rows} | ${r.name} | ${s(r.ms)} | ${r.faults.error5xx} | ${r.faults.rateLimit} | ${r.faults.dropAfterCommit} | ${r.faults.slow} | ${perRow(r.requests.total, c.rows)} | ${r.payouts} | ${r.newPayouts} | ${r.duplicates} |`);
		}
	}
	return lines;
}

function callbackTable(c: TriggerCase): string[] {
	const lines = [
		`| ${c.callbacks} callbacks | one at a time: median per callback | vs Webhook node | ${c.inFlight} in flight: callbacks/s | vs Webhook node | n8n CPU per callback |`,
		'|---|---|---|---|---|---|',
	];
	const base = c.samples.webhook;
	for (const [variant, samples] of Object.entries(c.samples)) {
		if (!samples.length) continue;
		const seq = median(samples.map((x) => x.sequentialMedianMs));
		const ratio = median(samples.map((x, i) => x.sequentialMedianMs / base[i].sequentialMedianMs));
		const rate = median(samples.map((x) => x.perSecond));
		const rateRatio = median(samples.map((x, i) => base[i].perSecond / x.perSecond));
		const cpu = median(samples.map((x) => x.cpuMsPerCallback ?? Number.NaN));
		lines.push(`| ${variant} | ${seq.toFixed(1)} ms | ${ratio.toFixed(2)}x | ${rate.toFixed(1)} | ${rateRatio.toFixed(2)}x | ${cpu.toFixed(1)} ms |`);
	}
	return lines;
}

function numbers(text: string | undefined, fallback: number[]): number[] {
	return text === undefined ? fallback : text.split(',').filter(Boolean).map(Number);
}

async function main(): Promise<void> {
	const flags = commandFlags();
	const sizes = numbers(flags.rows, [1000, 10_000]);
	const runs = Number(flags.runs ?? 1);
	const latencyMs = Number(flags.latency ?? 50);
	const periodItems = numbers(flags['period-items'], [10_000]);
	const faultRows = numbers(flags['fault-rows'], [1000]);
	const callbacks = Number(flags.callbacks ?? 1000);
	const callbackRuns = Number(flags['callback-runs'] ?? 1);
	const suites = new Set((flags.suites ?? 'payroll,period,faults,callbacks').split(','));
	const started = Date.now();
	const machineAtStart = describeMachine();
	const out = flags.out ?? 'payroll';
	const n8nEnv = n8nEnvFlag(flags['n8n-env']);
	const lab = await startBenchLab({ n8nEnv });
	const batches: BatchCase[] = [];
	const faults: FaultCase[] = [];
	let callbackCase: TriggerCase | undefined;
	const write = () => {
		const lines = [
			'# A payroll at the speed of the HTTP Request node (bench/payroll.cts)',
			'',
			`Run of ${machineAtStart.date.slice(0, 16).replace('T', ' ')} UTC, ${Math.round((Date.now() - started) / 1000)} s in all; n8n ${machineAtStart.n8n} on Node ${machineAtStart.n8nNode}, ${machineAtStart.cores} × ${machineAtStart.cpu}; load average at the start ${machineAtStart.loadAverage.join(', ')}, at the end ${describeMachine().loadAverage.join(', ')}.`,
			`Latency ${latencyMs} ms per request. Requests per row from the emulator's log (the run with the median count).${n8nEnv ? ` n8n's environment adds ${Object.entries(n8nEnv).map(([k, v]) => `${k}=${v}`).join(', ')}.` : ''}`,
			'',
		];
		if (batches.length) lines.push(...batchTable(batches), '');
		if (faults.length) lines.push(`Under the reliability suite's faults (seeds ${FAULT_MIX.seed} and 99; ${latencyMs} ms latency; the node's attempts ${FAULT_REQUEST_OPTIONS.maxAttempts}, timeout ${FAULT_REQUEST_OPTIONS.timeout} ms; slow answers ${SLOW_MS} ms late):`, '', ...faultTable(faults), '');
		if (callbackCase) lines.push('Callbacks (signed PAYOUT_SUCCEEDED, loopback, production URLs):', '', ...callbackTable(callbackCase), '');
		fs.writeFileSync(path.join(ROOT, 'bench', `${out}-latest.md`), `${lines.join('\n')}\n`);
		fs.writeFileSync(path.join(ROOT, 'bench', `${out}-results.json`), `${JSON.stringify({ machine: machineAtStart, n8nEnv, batches, faults, callbacks: callbackCase }, null, '\t')}\n`);
		return lines;
	};
	try {
		// Each case is written as soon as it is done: a long run that stops keeps what it measured.
		for (const rows of suites.has('payroll') ? sizes : []) {
			batches.push(await payrollCase(lab, rows, latencyMs, runs));
			write();
		}
		for (const items of suites.has('period') ? periodItems : []) {
			batches.push(await periodCase(lab, items, latencyMs, runs));
			write();
		}
		for (const rows of suites.has('faults') ? faultRows : []) {
			faults.push(await faultCase(lab, rows, latencyMs));
			write();
		}
		if (suites.has('callbacks') && callbacks > 0) {
			callbackCase = await triggerBench(lab, { runs: callbackRuns, callbacks, inFlight: 8, variants: ['trigger', 'trigger-v1', 'webhook'] });
			write();
		}
	} finally {
		await lab.close();
	}
	log(write().join('\n'));
}

if (require.main === module) {
	main().catch((error: Error) => {
		process.stderr.write(`${error.stack ?? error.message}\n`);
		process.exit(1);
	});
}
