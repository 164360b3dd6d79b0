/**
 * The end-to-end suite in n8n's queue mode (scripts/n8n/queue.cts): PostgreSQL, Redis, an n8n main
 * process, two workers and a webhook processor behind a front proxy that sends /webhook/ to the
 * webhook processor, as a real deployment's load balancer does.
 *
 * First the whole single-process suite (test/support/suites/n8n.cts: the credential Test, n8n's HTTP
 * Request node with the credential, the operations suite, the trigger, the examples), unchanged,
 * against this set; then what only queue mode has: executions run on workers, the trigger on the
 * webhook processor, a worker killed in the middle of a payout batch, the package through main's
 * community-package installer (update and uninstall reaching every process, a process left on an
 * older version caught by the startup check), and processes without the package found by that check.
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { currentE2eLab, webhookNode, type E2eLab, type Execution, type WorkflowNode, waitFor } from '../support/e2e/harness.cjs';
import { describeN8n } from '../support/suites/n8n.cjs';
import { LAB, NODE_TYPE_ACTION, NODE_TYPE_TRIGGER, PACKAGE_NAME } from '../../scripts/n8n/lab.cjs';
import { patience, settle } from '../../scripts/n8n/patience.cjs';
import { checkPackageInEveryProcess, probeWebhookProcessor, type QueueLab, type QueueProcess } from '../../scripts/n8n/queue.cjs';
import { communityPackages, nextPatch } from '../../scripts/n8n/registry.cjs';
import { accountName, BANKS } from '../../emulator/banks.cjs';
import { ACCESS_BANK } from '../support/reliability.cjs';
import { signCallback, unixSeconds } from '../support/independentSigning.cjs';
import { freshFetch } from '../support/e2e/freshFetch.cjs';

// Its own set: it kills a worker, adds processes with and without the package, and updates and
// uninstalls the package in every process.
describeN8n({ mode: 'queue', ownN8n: 'kills a worker, adds processes and updates the package' });

/** What this run measured (startup, executions per worker, installer times), written to .n8n-lab/e2e-queue/figures.json. */
const figures: Record<string, unknown> = {};

let lab: E2eLab;
let queue: QueueLab;

function setUp(): void {
	lab = currentE2eLab();
	if (!lab.queue) throw new Error('the e2e lab is not in queue mode');
	queue = lab.queue;
	figures.startupSeconds = Math.round(queue.startupMs / 100) / 10;
	figures.n8n = lab.n8nVersion;
}

afterAll(() => {
	fs.mkdirSync(path.join(LAB, 'e2e-queue'), { recursive: true });
	fs.writeFileSync(path.join(LAB, 'e2e-queue', `figures-${lab?.n8nVersion ?? 'n8n'}.json`), `${JSON.stringify(figures, null, 2)}\n`);
});

async function allExecutions(): Promise<Execution[]> {
	const page = await lab.session.api<{ data: Execution[] }>('GET', '/executions?limit=250');
	return page.data;
}

describe('queue mode: where executions run', () => {
	beforeAll(setUp);

	it('every execution of the suite above ran on a worker (the workers\' logs name each one)', async () => {
		const executions = await allExecutions();
		// Guards against a list that finds nothing: the suite above runs 20 (single process, measured).
		expect(executions.length).toBeGreaterThan(15);
		const byWorker = queue.executionsByWorker();
		const notOnAWorker = executions.filter((execution) => !byWorker.has(String(execution.id))).map((e) => `${e.id} ${e.mode} ${e.status}`);
		expect(notOnAWorker).toEqual([]);
		const perWorker: Record<string, number> = {};
		for (const execution of executions) {
			const worker = byWorker.get(String(execution.id))!;
			perWorker[worker] = (perWorker[worker] ?? 0) + 1;
		}
		figures.executionsPerWorker = perWorker;
		// Main and the webhook processor run none.
		for (const proc of queue.processes.filter((p) => p.role !== 'worker')) {
			expect(fs.readFileSync(proc.logFile, 'utf8')).not.toMatch(/Worker started execution/);
		}
	});
});

describe('queue mode: the Paycashless Trigger on the webhook processor', () => {
	const webhookId = randomUUID();
	let workflowId: string;
	let publicUrl: string;
	let processorUrl: string;

	beforeAll(async () => {
		setUp();
		workflowId = await lab.createActiveWorkflow(
			'queue trigger',
			[{ name: 'Paycashless Trigger', type: NODE_TYPE_TRIGGER, typeVersion: 1, webhookId, parameters: { events: ['*'] }, credentials: { paycashlessApi: lab.good } }],
			{},
			[`${webhookId}/webhook`],
		);
		// Signed for the public address (N8N_WEBHOOK_URL), delivered straight to the webhook processor's own port.
		publicUrl = `${queue.baseUrl}/webhook/${webhookId}/webhook`;
		processorUrl = `${queue.webhookUrls[0]}/webhook/${webhookId}/webhook`;
	});

	function post(data: unknown, timestamp: string, signature: string): Promise<Response> {
		return freshFetch(processorUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'Request-Signature': signature, 'Request-Timestamp': timestamp },
			body: JSON.stringify({ event: 'PAYOUT_SUCCEEDED', data }),
		});
	}

	it('accepts a valid callback: 200, one execution, run on a worker, with the callback\'s data', async () => {
		const data = { id: `po_${randomUUID().slice(0, 8)}`, reference: `queue-cb-${randomUUID().slice(0, 8)}`, status: 'succeeded', amount: 100000 };
		const timestamp = unixSeconds();
		const response = await post(data, timestamp, signCallback(lab.emulator.apiSecret, publicUrl, JSON.stringify(data), timestamp));
		expect(response.status).toBe(200);
		const [execution] = await waitFor('the execution', async (saw) => {
			const list = await lab.executions(workflowId);
			saw(list.map((e) => `${e.id} ${e.status}`));
			return list.length > 0 && list[0].status === 'success' ? list : undefined;
		});
		expect(await lab.executions(workflowId)).toHaveLength(1);
		const item = execution.data?.resultData.runData['Paycashless Trigger'][0].data?.main[0][0].json;
		expect(item).toMatchObject({ event: 'PAYOUT_SUCCEEDED', verified: true, data });
		expect(queue.executionsByWorker().get(String(execution.id))).toMatch(/^worker\d$/);
	});

	it.each([
		['forged (signed with another secret)', () => ({ timestamp: unixSeconds(), secret: `${lab.emulator.apiSecret}-forged` })],
		['stale (right signature, timestamp an hour old)', () => ({ timestamp: unixSeconds(Date.now() - 3_600_000), secret: lab.emulator.apiSecret })],
	])('refuses a %s callback with 401 and starts nothing', async (_what, make) => {
		const before = (await lab.executions(workflowId)).length;
		const { timestamp, secret } = make();
		const data = { id: 'po_forged', reference: 'forged', status: 'succeeded', amount: 100000000 };
		const response = await post(data, timestamp, signCallback(secret, publicUrl, JSON.stringify(data), timestamp));
		expect(response.status).toBe(401);
		await settle(1_500);
		expect(await lab.executions(workflowId)).toHaveLength(before);
	});
});

describe('queue mode: a worker killed (SIGKILL) in the middle of a payout batch', () => {
	const COUNT = 200;
	const tag = `qkill-${randomUUID().slice(0, 8)}`;
	const payouts = Array.from({ length: COUNT }, (_, i) => ({ reference: `${tag}-${String(i).padStart(3, '0')}`, amount: 100 + i }));
	const webhookPath = `queue-batch-${randomUUID().slice(0, 8)}`;
	let workflowId: string;

	beforeAll(async () => {
		setUp();
		const nodes: WorkflowNode[] = [
			{ ...webhookNode(webhookPath), parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} } },
			{ name: 'One Item per Payout', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'body.payouts', include: 'noOtherFields', options: {} } },
			{
				name: 'Pay Out',
				type: NODE_TYPE_ACTION,
				typeVersion: 1,
				credentials: { paycashlessApi: lab.good },
				parameters: {
					resource: 'payout',
					operation: 'create',
					reference: '={{ $json.reference }}',
					amount: '={{ $json.amount }}',
					currency: 'NGN',
					destinationAccountNumber: '0123456789',
					bankId: ACCESS_BANK,
					additionalFields: { narration: 'queue-mode kill test' },
				},
			},
		];
		workflowId = await lab.createActiveWorkflow('queue payout batch', nodes, {
			Webhook: { main: [[{ node: 'One Item per Payout', type: 'main', index: 0 }]] },
			'One Item per Payout': { main: [[{ node: 'Pay Out', type: 'main', index: 0 }]] },
		}, [webhookPath]);
	});

	const created = () => lab.emulator.list('payouts').filter((p) => String(p.reference).startsWith(`${tag}-`));

	async function start(): Promise<void> {
		const response = await freshFetch(`${queue.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ payouts }) });
		expect(response.status).toBe(200);
	}

	it('re-running the same input pays every payout exactly once', async () => {
		lab.emulator.clearLogs();
		// Slow enough that the batch is surely in flight when the worker dies.
		lab.emulator.setFaults({ latencyMs: 100, match: '^POST /v1/payouts' });
		const known = new Set(queue.executionsByWorker().keys());
		await start();
		const [executionId, workerName] = await waitFor('a worker to take the batch', () => [...queue.executionsByWorker()].find(([id]) => !known.has(id)));
		// 30 payouts 100 ms apart: 3 s alone (scripts/n8n/patience.cts).
		await waitFor(
			'the first 30 payouts',
			(saw) => {
				saw(`${created().length} payouts`);
				return created().length >= 30 ? true : undefined;
			},
			patience(6_000),
		);
		const worker = queue.processes.find((p) => p.name === workerName)!;
		await worker.kill();
		// The killed worker's last requests land.
		await settle(1_000);
		const beforeRerun = created().length;
		expect(beforeRerun).toBeGreaterThanOrEqual(30);
		expect(beforeRerun).toBeLessThan(COUNT);
		// The killed execution is not finished (n8n marks it failed only after its stalled-job check).
		const killed = (await lab.executions(workflowId)).find((e) => String(e.id) === executionId);
		expect(killed?.status).not.toBe('success');

		lab.emulator.clearFaults();
		await start();
		// 200 payouts looked up or paid: up to 20 s alone.
		const rerun = await waitFor(
			'the re-run to finish',
			async (saw) => {
				const all = await lab.executions(workflowId);
				saw(all.slice(0, 3).map((e) => `${e.id} ${e.status}`));
				return all.find((e) => String(e.id) !== executionId && e.status !== 'running' && e.status !== 'new');
			},
			patience(20_000),
		);
		expect(rerun.status).toBe('success');
		expect(queue.executionsByWorker().get(String(rerun.id))).not.toBe(workerName);

		const all = created();
		const distinct = new Set(all.map((p) => p.reference));
		const items = rerun.data?.resultData.runData['Pay Out'][0].data?.main[0].map((i) => i.json) ?? [];
		const reconciled = items.filter((i) => (i._paycashless as { reconciled?: boolean } | undefined)?.reconciled).length;
		figures.killAndRerun = {
			expected: COUNT,
			createdBeforeKill: beforeRerun,
			created: distinct.size,
			duplicates: all.length - distinct.size,
			rerunItems: items.length,
			rerunFoundExisting: reconciled,
			killedExecutionStatusAtRerun: killed?.status,
		};
		expect(distinct.size).toBe(COUNT);
		expect(all).toHaveLength(COUNT);
		expect(items).toHaveLength(COUNT);
		expect(items.map((i) => i.reference).sort()).toEqual(payouts.map((p) => p.reference));
		// What the first run had already paid is found again by its reference, not paid a second time.
		expect(reconciled).toBeGreaterThanOrEqual(beforeRerun);
	}, patience(40_000));
});

/** The version of the package in a process's nodes folder (null: not there). */
function versionIn(proc: QueueProcess): string | null {
	const file = path.join(proc.config.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json');
	return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version : null;
}

const running = () => queue.processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null);

/** Waits until every running process's nodes folder holds `version` (null: no package); returns the seconds. */
async function reachesEveryProcess(version: string | null, since: number): Promise<number> {
	// An install in each process: up to 10 s alone (scripts/n8n/patience.cts).
	await waitFor(
		`${version ?? 'no package'} in every process`,
		(saw) => {
			saw(Object.fromEntries(running().map((p) => [p.name, versionIn(p)])));
			return running().every((p) => versionIn(p) === version) ? true : undefined;
		},
		patience(10_000),
	);
	return Math.round((Date.now() - since) / 100) / 10;
}

describe('queue mode: the package through main\'s community-package installer', () => {
	const GTB = BANKS.find((bank) => bank.cbnCode === '058')!;
	let firstVersion: string;
	let newerVersion: string;
	let triggerPath: string;

	beforeAll(async () => {
		setUp();
		firstVersion = queue.packageVersion;
		newerVersion = nextPatch(firstVersion);
		figures.installer = { installOnMainSeconds: queue.installSeconds };
		const webhookId = randomUUID();
		triggerPath = `${webhookId}/webhook`;
		await lab.createActiveWorkflow(
			'queue installer probe',
			[{ name: 'Paycashless Trigger', type: NODE_TYPE_TRIGGER, typeVersion: 1, webhookId, parameters: { events: ['*'] }, credentials: { paycashlessApi: lab.good } }],
			{},
			[triggerPath],
		);
	});

	it('the lab installed it through main (Settings → Community Nodes) and every process installed the recorded version itself', async () => {
		const listed = await communityPackages.list(lab.session);
		expect(listed).toHaveLength(1);
		expect(listed[0]).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: firstVersion });
		// 2.41 says whether the nodes loaded (1.123 has no such field).
		expect(listed[0].failedLoading ?? false).toBe(false);
		for (const proc of running()) {
			expect([proc.name, versionIn(proc)]).toEqual([proc.name, firstVersion]);
			// n8n's own ledger in each process's nodes folder, written by its installer.
			const ledger = JSON.parse(fs.readFileSync(path.join(proc.config.userFolder, '.n8n', 'nodes', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
			expect(ledger.dependencies[PACKAGE_NAME]).toBe(firstVersion);
		}
		expect(running().filter((p) => p.role !== 'main').every((p) => /Community package installed: n8n-nodes-paycashless/.test(fs.readFileSync(p.logFile, 'utf8')))).toBe(true);
	});

	it('an update on main (PATCH) reaches both workers and the webhook processor; executions and callbacks keep working', async () => {
		queue.registry.publish(queue.tgz, newerVersion);
		const [before] = await communityPackages.list(lab.session);
		expect(before).toMatchObject({ installedVersion: firstVersion, updateAvailable: newerVersion });
		const started = Date.now();
		await communityPackages.update(lab.session, newerVersion);
		const updateOnMain = Math.round((Date.now() - started) / 100) / 10;
		const everywhere = await reachesEveryProcess(newerVersion, started);
		figures.installer = { ...(figures.installer as object), updateOnMainSeconds: updateOnMain, updateInEveryProcessSeconds: everywhere };
		expect(fs.readFileSync(queue.processes.find((p) => p.role === 'webhook')!.logFile, 'utf8')).toMatch(/Community package installed: n8n-nodes-paycashless/);
		const [item] = await lab.runNode({ type: NODE_TYPE_ACTION, typeVersion: 1, credentials: { paycashlessApi: lab.good }, parameters: { resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: GTB.nibssCode } });
		expect(item).toMatchObject({ accountNumber: '0123456789', accountName: accountName('0123456789', GTB.id) });
		expect(await probeWebhookProcessor(queue.webhookUrls[0], triggerPath)).toMatchObject({ status: 401, loadsTrigger: true });
	}, patience(30_000));

	it('uninstall on main (DELETE) reaches every process (the webhook processor no longer knows the trigger); installing again reaches them too', async () => {
		let started = Date.now();
		await communityPackages.uninstall(lab.session);
		const uninstallEverywhere = await reachesEveryProcess(null, started);
		expect(await communityPackages.list(lab.session)).toEqual([]);
		// The nodes folder changes before the process has unloaded the node types it holds in memory:
		// on a busy machine the webhook processor still answers with the trigger for a moment.
		const without = await waitFor('the webhook processor without the trigger', async (saw) => {
			const probe = await probeWebhookProcessor(queue.webhookUrls[0], triggerPath);
			saw(probe);
			return /Unrecognized node type/.test(probe.text) ? probe : undefined;
		});
		expect(without.loadsTrigger).toBe(false);

		started = Date.now();
		await communityPackages.install(lab.session, newerVersion);
		const installEverywhere = await reachesEveryProcess(newerVersion, started);
		figures.installer = { ...(figures.installer as object), uninstallInEveryProcessSeconds: uninstallEverywhere, installInEveryProcessSeconds: installEverywhere };
		await waitFor('the trigger on the webhook processor again', async (saw) => {
			const probe = await probeWebhookProcessor(queue.webhookUrls[0], triggerPath);
			saw(probe);
			return probe.loadsTrigger ? true : undefined;
		});
	}, patience(40_000));
});

describe('queue mode: a process started without the package, or on another version than main', () => {
	beforeAll(setUp);

	it('the startup check names the worker and the webhook processor that lack it, and a worker left on an older version than main, and says what to do', async () => {
		// Started side by side: without the package (and without N8N_REINSTALL_MISSING_PACKAGES), and a
		// worker that missed the update above (the older version in its nodes folder).
		const [worker, webhook, stale] = await Promise.all([
			queue.addProcess('worker', { withPackage: false }),
			queue.addProcess('webhook', { withPackage: false }),
			queue.addProcess('worker', { version: queue.packageVersion }),
		]);
		// Main's version: the update in the describe above made it newer than the start's.
		const mainVersion = (await communityPackages.list(lab.session))[0]?.installedVersion;
		expect(mainVersion).toBe(nextPatch(queue.packageVersion));
		try {
			const started = Date.now();
			const checks = await checkPackageInEveryProcess(queue.processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null));
			figures.packageCheckSeconds = (Date.now() - started) / 1000;
			const problems = checks.filter((c) => c.problem);
			expect(problems.map((c) => c.process).sort()).toEqual([webhook.name, worker.name, stale.name].sort());

			// N8N_REINSTALL_MISSING_PACKAGES reinstalls only a missing package: the stale worker kept its version.
			expect(versionIn(stale)).toBe(queue.packageVersion);
			const drift = problems.find((c) => c.process === stale.name)!;
			expect(drift).toMatchObject({ role: 'worker', installedVersion: queue.packageVersion, loadsNodes: true });
			expect(drift.problem).toContain(`${stale.name} (worker) loads ${PACKAGE_NAME} ${queue.packageVersion}, main has ${mainVersion}`);
			expect(drift.problem).toMatch(/not running when the package was updated/);
			expect(drift.problem).toMatch(/N8N_REINSTALL_MISSING_PACKAGES=true it installs/);
			figures.driftReport = drift.problem;
			await stale.stop();

			for (const check of problems.filter((c) => c !== drift)) {
				expect(check).toMatchObject({ installedVersion: null, loadsNodes: false });
				expect(check.problem).toMatch(/does not load n8n-nodes-paycashless/);
				expect(check.problem).toMatch(/Install the same version/);
			}
			expect(problems.find((c) => c.role === 'worker')?.problem).toMatch(/callback .* lost/);
			expect(problems.find((c) => c.role === 'webhook')?.problem).toMatch(/400/);
			expect(checks.filter((c) => !c.problem).every((c) => c.loadsNodes && c.installedVersion === mainVersion)).toBe(true);

			// What the check prevents: that webhook processor really refuses callbacks (400), the good one verifies them (401 unsigned).
			const probeId = randomUUID();
			const triggerPath = `${probeId}/webhook`;
			const probeWorkflowId = await lab.createActiveWorkflow(
				'queue probe',
				[{ name: 'Paycashless Trigger', type: NODE_TYPE_TRIGGER, typeVersion: 1, webhookId: probeId, parameters: { events: ['*'] }, credentials: { paycashlessApi: lab.good } }],
				{},
				[triggerPath],
			);
			const without = await probeWebhookProcessor(`http://127.0.0.1:${webhook.port}`, triggerPath);
			// n8n 2.41 answers 400, n8n 1.123 500; both name the missing node type.
			expect(without.status).toBe(lab.n8nVersion.startsWith('1.') ? 500 : 400);
			expect(without.text).toMatch(/Unrecognized node type/);
			const withIt = await probeWebhookProcessor(queue.webhookUrls[0], triggerPath);
			expect(withIt).toMatchObject({ status: 401, loadsTrigger: true });

			// And for a worker: with only the package-less worker left, a valid callback is answered 200
			// by the webhook processor (so Paycashless would not send it again) and its execution fails.
			for (const other of queue.processes.filter((p) => p.role === 'worker' && p !== worker)) await other.stop();
			const data = { id: 'po_lost', reference: `queue-lost-${randomUUID().slice(0, 8)}`, status: 'succeeded', amount: 100000 };
			const timestamp = unixSeconds();
			const signature = signCallback(lab.emulator.apiSecret, `${queue.baseUrl}/webhook/${triggerPath}`, JSON.stringify(data), timestamp);
			const answer = await freshFetch(`${queue.webhookUrls[0]}/webhook/${triggerPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'Request-Signature': signature, 'Request-Timestamp': timestamp },
				body: JSON.stringify({ event: 'PAYOUT_SUCCEEDED', data }),
			});
			expect(answer.status).toBe(200);
			const failed = await waitFor('the execution on the package-less worker', async (saw) => {
				const list = await lab.executions(probeWorkflowId);
				saw(list.map((e) => `${e.id} ${e.status}`));
				return list.find((e) => e.status !== 'running' && e.status !== 'new');
			}, patience(6_000));
			expect(failed.status).not.toBe('success');
			expect(queue.executionsByWorker().get(String(failed.id))).toBe(worker.name);
			figures.workerWithoutPackage = { webhookProcessorAnswered: answer.status, executionStatus: failed.status };
		} finally {
			await Promise.all([worker.stop(), webhook.stop(), stale.stop()]);
		}
		// Three n8n processes started side by side: up to 90 s alone.
	}, patience(90_000));
});
