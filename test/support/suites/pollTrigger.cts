/**
 * The Paycashless Poll Trigger in a real n8n 2.41.1 (test/support/e2e/harness.cts), scheduled by n8n
 * itself: Poll Times with twelve custom cron entries, one per fixed second (0, 5, ..., 55), so
 * n8n polls every 5 seconds. (A single entry must fire at most once a minute: n8n refuses
 * sub-minute cron expressions, `isSubMinuteCron` in n8n-workflow; twelve entries, each at one
 * fixed second, pass that check and run the real trigger-mode path: cron → poll → __emit, static
 * data saved by n8n.)
 *
 * 1,000 payments change status over many polls while the emulator fails a share of list pages;
 * n8n is stopped and started again (same database) in the middle, with payments changing while
 * it is down; for a while every list request fails, so whole polls fail. Every status event
 * must come out of n8n exactly once, and every new payment exactly once.
 */
import * as fs from 'fs';
import * as path from 'path';

import { loadExampleWorkflows } from '../../../scripts/n8n/examples.cjs';
import { LAB, startN8n, type RunningN8n } from '../../../scripts/n8n/lab.cjs';
import { call } from '../emulatorClient.cjs';
import { patience, settle, waitedNote } from '../../../scripts/n8n/patience.cjs';
import { manualRunBody, readExecutions, selectE2eRuntime, SETUP_TIMEOUT_MS, startE2eLab, TEARDOWN_TIMEOUT_MS, type E2eLab, type Execution, type E2eRuntime } from '../e2e/harness.cjs';

/**
 * The Poll Trigger suite against one runtime (an e2e project's), called once by a small test file
 * in each project that runs it (test/README.md). The body keeps its indentation from when it was
 * a test file of its own.
 */
export function describePollTrigger(runtime: Partial<E2eRuntime>): void {
selectE2eRuntime(runtime);

// The run of 1,000 payments takes 2 to 3 minutes alone, 71 s of it paced by the test (scripts/n8n/patience.cts).
jest.setTimeout(patience(120_000));

const NODE_TYPE = 'n8n-nodes-paycashless.paycashlessPollTrigger';
const TRIGGER = 'Paycashless Poll Trigger';
const WATCHED = ['succeeded', 'failed', 'expired'];
const EVERY_5_SECONDS = { item: Array.from({ length: 12 }, (_, i) => ({ mode: 'custom', cronExpression: `${i * 5} * * * * *` })) };
/** Page faults during most of the run: retried inside a poll by the transport. */
const PAGE_FAULTS = { error5xxRate: 0.1, rateLimitRate: 0.05, retryAfterSeconds: 1, dropAfterCommitRate: 0.05, match: '^GET /v1/payments$', seed: 16 };

let lab: E2eLab;
let n8n: RunningN8n;
let counter = 0;

beforeAll(async () => {
	// One process: an n8n of its own, which the run stops and starts. Queue mode: the file's set
	// (test/e2e-queue/shared.test.cts), whose main the run restarts; this suite comes last in that
	// file, so the other suites' tests have run by then (jest runs a file's tests in order).
	lab = await startE2eLab(runtime.mode === 'queue' ? {} : { ownN8n: 'stops and restarts n8n in the middle of the run' });
	n8n = lab.n8n;
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	if (n8n && n8n !== lab?.n8n) await n8n.stop();
	await lab?.close();
}, TEARDOWN_TIMEOUT_MS);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function createPayment(): Promise<string> {
	counter += 1;
	const answer = await call(lab.emulator, 'POST', '/v1/payments', {
		body: {
			reference: `e2e-poll-${counter}`,
			paymentMethod: 'pay_with_transfer',
			amount: { value: 100_000 + counter, currency: 'NGN' },
			customer: { email: `customer${counter % 50}@example.com`, name: 'Customer' },
			expiresIn: 1800,
		},
	});
	if (answer.status !== 200) throw new Error(`create payment: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
	return answer.body.id as string;
}

/**
 * Creates and activates a workflow with the poll trigger, and waits until n8n has run the
 * activation poll (n8n applies an activation shortly after the API answers; the activation poll
 * is the "Start From: Now" baseline and n8n saves its static data right after it).
 */
async function createActivePollWorkflow(name: string, parameters: Record<string, unknown>): Promise<string> {
	const id = await createPollWorkflow(name, parameters);
	// A poll every 5 s: the first within 6 s alone.
	const started = Date.now();
	for (;;) {
		const workflow = await lab.session.api<{ staticData?: Record<string, unknown> | null }>('GET', `/workflows/${id}`);
		if (workflow.staticData && workflow.staticData[`node:${TRIGGER}`]) return id;
		if (Date.now() - started > patience(6_000)) throw new Error(`the activation poll of ${name} did not run (static data: ${JSON.stringify(workflow.staticData ?? null)}), ${waitedNote(started)}`);
		await sleep(250);
	}
}

async function createPollWorkflow(name: string, parameters: Record<string, unknown>): Promise<string> {
	return await lab.createActiveWorkflow(
		name,
		[
			{
				name: TRIGGER,
				type: NODE_TYPE,
				typeVersion: 1,
				parameters: { pollTimes: EVERY_5_SECONDS, ...parameters },
				credentials: { paycashlessApi: lab.good },
			},
		],
		{},
		[],
	);
}

/** Executions n8n's list left out and that were read one by one (harness.cts readExecutions). */
const unlisted = new Set<string>();

/** Every execution of a workflow, with data, including those n8n's list leaves out. */
async function allExecutions(workflowId: string): Promise<Execution[]> {
	return await readExecutions(lab.session, workflowId, unlisted);
}

interface Emitted {
	keys: string[];
	executions: number;
	failed: number;
	/** Executions by n8n status (success, error, crashed, ...), for the report. */
	statuses: Record<string, number>;
}

/**
 * The event keys of one execution's trigger, over all its runs: n8n's recovery of a crashed
 * execution puts an artificial item (`isArtificialRecoveredEventItem`, no event key) in the
 * trigger's first run, and a retry keeps that run and adds the real items as a second one.
 */
function eventKeys(execution: Execution): string[] {
	const runs = execution.data?.resultData.runData[TRIGGER] ?? [];
	return runs.flatMap((run) => (run.data?.main[0] ?? []).flatMap((item) => (typeof item.json.eventKey === 'string' ? [item.json.eventKey] : [])));
}

async function emitted(workflowId: string): Promise<Emitted> {
	const executions = await allExecutions(workflowId);
	const keys: string[] = [];
	let failed = 0;
	const statuses: Record<string, number> = {};
	for (const execution of executions) {
		statuses[execution.status] = (statuses[execution.status] ?? 0) + 1;
		const own = eventKeys(execution);
		if (execution.status === 'error' || own.length === 0) {
			failed += 1;
			continue;
		}
		keys.push(...own);
	}
	return { keys, executions: executions.length, failed, statuses };
}

/**
 * Waits until `workflowId` has emitted `expected` keys (or the time is up: the test's assertions then
 * say what is missing), then returns what it emitted.
 */
async function waitFor(workflowId: string, expected: number, timeoutMs: number): Promise<Emitted> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const result = await emitted(workflowId);
		if (result.keys.length >= expected || Date.now() > deadline) return result;
		await sleep(2000);
	}
}

/**
 * What a person does after n8n stopped while a poll's execution was starting or running: n8n lists
 * that execution as Crashed, with the poll's items still in its stack (n8n saved the trigger's
 * state, or its durable cursor, with the execution), and Retry runs them. Retries every crashed
 * execution whose trigger gave no event (it never ran, or n8n's recovery left only its artificial
 * item), through the editor's Retry (`POST /rest/executions/:id/retry`, "Retry with original
 * workflow", which answers once the retry has ended), and returns their ids. A crashed execution
 * that cannot be retried (no items kept) fails the test: its events would be lost.
 */
async function retryCrashed(workflowId: string): Promise<string[]> {
	const retried: string[] = [];
	const executions = await allExecutions(workflowId);
	const retriedAlready = new Set(executions.map((e) => String(e.retryOf ?? '')));
	for (const execution of executions) {
		if (execution.status !== 'crashed' || eventKeys(execution).length > 0 || retriedAlready.has(String(execution.id))) continue;
		await lab.session.rest('POST', `/rest/executions/${execution.id}/retry`, { loadWorkflow: false });
		retried.push(String(execution.id));
	}
	return retried;
}

const duplicates = (keys: string[]) => keys.filter((key, index) => keys.indexOf(key) !== index);

describe('Paycashless Poll Trigger in a real n8n', () => {
	it('1,000 payments changing status over many polls, page faults, a restart and failed polls: every event exactly once', async () => {
		const emulator = lab.emulator;
		emulator.reset({});
		emulator.clearFaults();
		const open: string[] = [];
		const statusAtActivation = new Map<string, string>();
		/** When the test moved each payment to its final status (for the report of a failure). */
		const completedAt = new Map<string, number>();

		// 200 payments before activation, 50 of them already succeeded: those 50 are history, not events.
		for (let i = 0; i < 200; i++) open.push(await createPayment());
		for (const id of open.splice(0, 50)) {
			await emulator.completePayment(id, 'succeeded');
			statusAtActivation.set(id, 'succeeded');
		}

		const statusWorkflow = await createActivePollWorkflow('poll e2e: payment statuses', {
			resource: 'payment',
			event: 'status',
			statuses: WATCHED,
		});
		const createdWorkflow = await createActivePollWorkflow('poll e2e: new payments', { resource: 'payment', event: 'created' });
		const createdAfterActivation: string[] = [];

		const statuses = ['succeeded', 'succeeded', 'failed', 'expired'];
		let turn = 0;
		/** Creates `count` payments and moves `complete` open ones to a final status. */
		async function round(count: number, complete: number): Promise<void> {
			for (let i = 0; i < count; i++) {
				const id = await createPayment();
				createdAfterActivation.push(id);
				open.push(id);
			}
			// Oldest and newest alike: take every other open payment from the front.
			for (let i = 0; i < complete && open.length > 0; i++) {
				const index = (i * 2) % open.length;
				const [id] = open.splice(index, 1);
				completedAt.set(id, Date.now());
				await emulator.completePayment(id, statuses[turn++ % statuses.length]);
			}
		}

		emulator.setFaults(PAGE_FAULTS);
		for (let i = 0; i < 3; i++) {
			await round(100, 80);
			await sleep(6000);
		}

		// Restart: n8n stops, payments change while it is down, n8n starts on the same database. In
		// queue mode the main process (which runs the polls) restarts; workers and the rest stay up.
		const listRequests = () => emulator.requests.filter((r) => r.path === '/v1/payments' && r.method === 'GET').length;
		let atStop = 0;
		const stopping = Date.now();
		let stopSeconds = 0;
		const whileDown = async () => {
			stopSeconds = (Date.now() - stopping) / 1000;
			await round(100, 120);
			atStop = listRequests();
		};
		if (lab.queue) {
			await lab.queue.restartMain(whileDown);
		} else {
			await n8n.stop();
			await whileDown();
			n8n = await startN8n(lab.n8n.config);
		}
		// n8n's own word on the stop: a stop that had to kill it is a crash (scripts/n8n/lab.cts STOP_GRACE_MS).
		const restartedLog = lab.queue ? lab.queue.asRunningN8n().logFile : n8n.logFile;
		const stopNote = `n8n stopped in ${stopSeconds.toFixed(1)} s, ${/Last session crashed/.test(fs.readFileSync(restartedLog, 'utf8')) ? 'n8n says it crashed' : 'cleanly'}`;
		await sleep(8000);
		const afterStart = listRequests();

		// Every list request is refused for a while with a wait longer than the transport waits
		// (429, Retry-After 120 s > Max Retry Wait 60 s): whole polls fail, the next ones catch up.
		// (A 5xx outage shorter than the transport's retry budget, 2 minutes, is absorbed inside a poll.)
		const beforeOutage = await emitted(statusWorkflow);
		emulator.setFaults({ rateLimitRate: 1, retryAfterSeconds: 120, match: '^GET /v1/payments$' });
		await round(100, 100);
		// Polls fail while it lasts: at least 15 s (three polls), and until n8n has recorded one failed
		// (within 15 s alone). The assertion below says so if none did.
		await sleep(15_000);
		const outageStarted = Date.now();
		let duringOutage = await emitted(statusWorkflow);
		while (duringOutage.failed <= beforeOutage.failed && Date.now() - outageStarted < patience(15_000)) {
			await sleep(2000);
			duringOutage = await emitted(statusWorkflow);
		}
		emulator.setFaults(PAGE_FAULTS);

		for (let i = 0; i < 3; i++) {
			await round(100, 100);
			await sleep(6000);
		}
		// Everything still open ends now.
		await round(0, open.length + 10);
		emulator.clearFaults();

		const payments = emulator.list('payments') as Array<{ id: string; status: string }>;
		const expectedStatusKeys = payments
			.filter((p) => WATCHED.includes(p.status) && statusAtActivation.get(p.id) !== p.status)
			.map((p) => `payment:${p.id}:${p.status}`);
		const expectedCreatedKeys = createdAfterActivation.map((id) => `payment:${id}:created`);

		// The last polls catch up within 15 s and 6 s alone.
		await waitFor(statusWorkflow, expectedStatusKeys.length, patience(15_000));
		await waitFor(createdWorkflow, expectedCreatedKeys.length, patience(6_000));
		await settle(12_000); // two more polls (longer on a busy machine): nothing else may come
		// n8n stopped while a poll's execution was starting (a busy machine, or the stop's grace
		// running out): the person retries it, and its events count once, through the retry.
		const retried = [...(await retryCrashed(statusWorkflow)), ...(await retryCrashed(createdWorkflow))];
		const statusFinal = await emitted(statusWorkflow);
		const createdFinal = await emitted(createdWorkflow);

		const requests = emulator.requests.filter((r) => r.path === '/v1/payments' && r.method === 'GET');
		const faulted = requests.filter((r) => r.fault !== undefined).length;
		// The figures for the report.
		process.stdout.write(
			`\npoll e2e: ${payments.length} payments; status events expected ${expectedStatusKeys.length}, emitted ${statusFinal.keys.length} in ${statusFinal.executions - statusFinal.failed} executions (${statusFinal.failed} failed polls recorded, ${duringOutage.failed - beforeOutage.failed} during the outage); new-payment events expected ${expectedCreatedKeys.length}, emitted ${createdFinal.keys.length} in ${createdFinal.executions - createdFinal.failed} executions (${createdFinal.failed} failed polls); list requests ${requests.length} (${atStop} before the stop, ${afterStart} 8 s after the restart; ${stopNote}), faulted ${faulted}; executions by status: statuses ${JSON.stringify(statusFinal.statuses)}, new payments ${JSON.stringify(createdFinal.statuses)}; crashed executions retried: ${retried.length ? retried.join(', ') : 'none'}; executions missing from n8n's list and read by id: ${unlisted.size ? [...unlisted].join(', ') : 'none'}\n`,
		);

		const missing = (expected: string[], got: string[]) => expected.filter((key) => !got.includes(key));
		for (const [what, lost] of [['status', missing(expectedStatusKeys, statusFinal.keys)], ['new-payment', missing(expectedCreatedKeys, createdFinal.keys)]] as const) {
			if (lost.length === 0) continue;
			// What a failure needs to be read: when each lost record changed, every list request and every execution.
			const dump = path.join(LAB, `poll-e2e-${what}-${process.pid}.json`);
			const workflowId = what === 'status' ? statusWorkflow : createdWorkflow;
			const all = await allExecutions(workflowId);
			fs.writeFileSync(
				dump,
				JSON.stringify(
					{
						lost: lost.map((key) => ({ key, completedAt: completedAt.get(key.split(':')[1]), created: payments.find((p) => p.id === key.split(':')[1]) })),
						requests: requests.map((r) => ({ at: r.receivedAt, query: r.query, status: r.status, fault: r.fault })),
						executions: all.map((e) => ({ id: e.id, status: e.status, startedAt: (e as unknown as { startedAt: string }).startedAt, keys: eventKeys(e) })),
					},
					null,
					1,
				),
			);
			process.stdout.write(`poll e2e: details in ${dump}\n`);
			process.stdout.write(`poll e2e: ${lost.length} ${what} events missing, e.g. ${lost.slice(0, 5).join(', ')} (main's logs: ${lab.queue ? path.dirname(lab.queue.asRunningN8n().logFile) : lab.n8n.logFile})\n`);
		}

		expect(payments).toHaveLength(1000);
		expect(statusFinal.keys.length).toBe(expectedStatusKeys.length);
		expect(duplicates(statusFinal.keys)).toEqual([]);
		expect(new Set(statusFinal.keys)).toEqual(new Set(expectedStatusKeys));
		expect(createdFinal.keys.length).toBe(expectedCreatedKeys.length);
		expect(duplicates(createdFinal.keys)).toEqual([]);
		expect(new Set(createdFinal.keys)).toEqual(new Set(expectedCreatedKeys));
		// The outage did fail polls (n8n records each as a failed execution), and nothing was lost.
		expect(duringOutage.failed).toBeGreaterThan(beforeOutage.failed);
		expect(faulted).toBeGreaterThan(0);
	});

	it('the example workflow: Fetch Test Event (a manual run through the REST API) shows the newest succeeded payment in naira, state untouched', async () => {
		lab.emulator.reset({ payments: 60 });
		lab.emulator.clearFaults();
		const example = loadExampleWorkflows({ n8nBaseUrl: n8n.baseUrl, credential: lab.good }).find(
			(wf) => wf.name === 'Paycashless example: payment succeeded (polling)',
		);
		if (!example) throw new Error('example workflow missing');
		const created = await lab.session.api<{ id: string }>('POST', '/workflows', {
			name: example.name,
			nodes: example.nodes,
			connections: example.connections,
			settings: example.settings,
		});
		const run = await lab.session.rest<{ executionId: string }>(
			'POST',
			`/rest/workflows/${created.id}/run`,
			await manualRunBody(lab, created.id, { triggerToStartFrom: { name: TRIGGER } }),
		);
		// A test poll: a few seconds alone. Not finished by then: the assertion shows what it saw.
		let execution: Execution | undefined;
		const deadline = Date.now() + patience(6_000);
		while (!execution?.finished && Date.now() < deadline) {
			await sleep(500);
			execution = await lab.session.api<Execution>('GET', `/executions/${run.executionId}?includeData=true`).catch(() => undefined);
		}
		expect(execution).toMatchObject({ mode: 'manual', status: 'success' });
		const payments = lab.emulator.list('payments') as Array<{ id: string; status: string; createdAt: string; chargedAmount: number; reference: string }>;
		const newest = payments.filter((p) => p.status === 'succeeded').sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0];
		const [item] = execution!.data!.resultData.runData['Succeeded Payment'][0].data!.main[0];
		expect(item.json).toEqual({
			event: 'PAYMENT_SUCCEEDED',
			paymentId: newest.id,
			reference: newest.reference,
			// Naira or dollars (the currency beside it), named like the node's inMainUnits.
			amountChargedInMainUnits: newest.chargedAmount / 100,
			currency: expect.stringMatching(/^(NGN|USD)$/),
			createdAt: newest.createdAt,
			eventKey: `payment:${newest.id}:succeeded`,
		});
		const workflow = await lab.session.api<{ staticData?: unknown }>('GET', `/workflows/${created.id}`);
		expect(JSON.stringify(workflow.staticData ?? {})).not.toMatch(/seen/);
	});
});
}
