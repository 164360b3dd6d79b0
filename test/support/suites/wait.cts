/**
 * Invoice → Create and Wait for Payment in a real n8n (2.41.1, one process): the execution waits,
 * forged resume calls are refused while it keeps waiting, the emulator's signed callbacks resume
 * it (instalments do not), and a lost callback ends at the time limit, where a lookup by
 * reference tells paid from unpaid. Run: npx jest test/e2e/wait.test.cts
 */
import { randomUUID } from 'crypto';

import { callbackSignature, canonicalJson, unixTimestamp } from '../../../lib/signing';
import { loadExampleWorkflows } from '../../../scripts/n8n/examples.cjs';
import { NODE_TYPE_ACTION } from '../../../scripts/n8n/lab.cjs';
import { patience, waitedNote } from '../../../scripts/n8n/patience.cjs';
import { executionById, executionIds, selectE2eRuntime, SETUP_TIMEOUT_MS, startE2eLab, type E2eLab, type Execution, type WorkflowNode, type E2eRuntime } from '../e2e/harness.cjs';
import { freshFetch } from '../e2e/freshFetch.cjs';

/**
 * The Create and Wait suite against one runtime (an e2e project's), called once by a small test file
 * in each project that runs it (test/README.md). The body keeps its indentation from when it was
 * a test file of its own.
 */
export function describeWait(runtime: Partial<E2eRuntime>): void {
selectE2eRuntime(runtime);

jest.setTimeout(SETUP_TIMEOUT_MS);

let lab: E2eLab;

beforeAll(async () => {
	lab = await startE2eLab();
});

afterAll(async () => {
	await lab?.close();
});

type Json = Record<string, unknown>;

function waitWorkflow(webhookPath: string, withLookup: boolean): { nodes: WorkflowNode[]; connections: Json } {
	const nodes: WorkflowNode[] = [
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
		},
		{
			name: 'Create and Wait',
			type: NODE_TYPE_ACTION,
			typeVersion: 1,
			credentials: { paycashlessApi: lab.good },
			parameters: {
				resource: 'invoice',
				operation: 'createAndWait',
				reference: '={{ $json.body.reference }}',
				invoiceDescription: 'Order for the wait test',
				currency: 'NGN',
				customerEmail: 'ada@example.com',
				customerName: 'Ada Obi',
				items: { itemValues: [{ name: 'Rice', quantity: 2, price: 1500 }] },
				daysUntilDue: 7,
				acceptPartialPayments: '={{ $json.body.partial === true }}',
				maxInstallments: 3,
				waitTimeLimit: '={{ $json.body.minutes }}',
				waitTimeLimitUnit: 'minutes',
			},
		},
	];
	const connections: Json = { Webhook: { main: [[{ node: 'Create and Wait', type: 'main', index: 0 }]] } };
	if (withLookup) {
		nodes.push({
			name: 'Look Up',
			type: NODE_TYPE_ACTION,
			typeVersion: 1,
			credentials: { paycashlessApi: lab.good },
			parameters: {
				resource: 'invoice',
				operation: 'getAll',
				returnAll: false,
				limit: 1,
				filters: { reference: '={{ $json.paycashlessWait.reference }}' },
			},
		});
		connections['Create and Wait'] = { main: [[{ node: 'Look Up', type: 'main', index: 0 }]] };
	}
	return { nodes, connections };
}

async function startRun(withLookup: boolean, body: Json): Promise<{ workflowId: string }> {
	const webhookPath = `wait-${randomUUID().slice(0, 8)}`;
	const { nodes, connections } = waitWorkflow(webhookPath, withLookup);
	const workflowId = await lab.createActiveWorkflow(`wait ${webhookPath}`, nodes, connections, [webhookPath]);
	const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(response.status).toBe(200);
	return { workflowId };
}

/**
 * The workflow's newest execution, with its data. n8n 1.x's public list leaves out executions it
 * still counts as active (a waiting one among them), so the ids come from the editor's list too
 * and the newest is read by id.
 */
async function latestExecution(workflowId: string): Promise<Execution | undefined> {
	const [newest] = await executionIds(lab, workflowId);
	return newest === undefined ? undefined : await executionById(lab, newest);
}

/** Deadlines (scripts/n8n/patience.cts): a run to start waiting or to resume takes a few seconds alone. */
const START_MS = patience(6_000);
const RESUME_MS = patience(5_000);

async function waitForStatus(workflowId: string, statuses: string[], timeoutMs: number): Promise<Execution> {
	const started = Date.now();
	let last: Execution | undefined;
	while (Date.now() - started < timeoutMs) {
		last = await latestExecution(workflowId);
		if (last && statuses.includes(last.status)) return last;
		if (last && last.status === 'error') {
			throw new Error(`execution ${last.id} failed: ${JSON.stringify(last.data?.resultData.error).slice(0, 1500)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`execution of ${workflowId} did not reach ${statuses.join('/')} (last seen: ${last ? `${last.id} ${last.status}` : 'none'}), ${waitedNote(started)}`);
}

/** POSTs an order to an example's Webhook node; n8n answers at once. */
async function sendOrder(webhookPath: string, order: Json): Promise<void> {
	const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order) });
	await response.text();
	expect(response.status).toBe(200);
}

/** The first successful execution of the workflow newer than `afterId`. */
async function waitForNewer(workflowId: string, afterId: string | number, timeoutMs = START_MS): Promise<Execution> {
	const started = Date.now();
	let latest: Execution | undefined;
	while (Date.now() - started < timeoutMs) {
		latest = await latestExecution(workflowId);
		if (latest && Number(latest.id) > Number(afterId) && latest.status === 'success') return latest;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`no execution of ${workflowId} after ${afterId} finished (last seen: ${latest ? `${latest.id} ${latest.status}` : 'none'}), ${waitedNote(started)}`);
}

function outputOf(execution: Execution, node: string): Json[] {
	const runs = execution.data?.resultData.runData[node] ?? [];
	const last = runs[runs.length - 1];
	return (last?.data?.main[0] ?? []).map((item) => item.json);
}

/** A callback body + headers signed for `url` with `secret` (as Paycashless would send it). */
function signed(url: string, secret: string, event: string, data: Json, nowMs = Date.now()) {
	const timestamp = unixTimestamp(nowMs);
	const signature = callbackSignature({ secret, callbackUrl: url, dataJson: canonicalJson(data), timestamp });
	return { body: JSON.stringify({ event, data }), headers: { 'Request-Signature': signature, 'Request-Timestamp': timestamp } };
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
	const response = await freshFetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
	await response.text();
	return response.status;
}

/** An example workflow from examples/*.json, active in this n8n (without its sticky notes). */
async function activateExample(name: string, webhookPath: string): Promise<{ workflowId: string; webhookPath: string }> {
	const [example] = loadExampleWorkflows({ n8nBaseUrl: lab.n8n.baseUrl, credential: lab.good }).filter((wf) => wf.name === name);
	if (!example) throw new Error(`no example named ${name}`);
	const nodes = example.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote') as unknown as WorkflowNode[];
	const workflowId = await lab.createActiveWorkflow(example.name, nodes, example.connections, [webhookPath]);
	return { workflowId, webhookPath };
}

describe('Invoice → Create and Wait for Payment in real n8n', () => {
	test('waits; 26 forged resumes are refused and it keeps waiting; an instalment does not resume it; INVOICE_PAID does, with the paid invoice', async () => {
		const reference = `wait-e2e-${randomUUID().slice(0, 8)}`;
		const { workflowId } = await startRun(false, { reference, partial: true, minutes: 60 });
		const waiting = await waitForStatus(workflowId, ['waiting'], START_MS);
		const [created] = outputOf(waiting, 'Create and Wait');
		const meta = created.paycashlessWait as Json;
		expect(meta.outcome).toBe('waiting');
		const callbackUrl = String(meta.callbackUrl);
		expect(callbackUrl).toContain(`/webhook-waiting/${waiting.id}`);
		expect(callbackUrl).toContain(`paycashlessReference=${reference}`);
		const [stored] = lab.emulator.list('invoices').filter((invoice) => invoice.reference === reference);
		expect(stored).toBeDefined();

		// Forgeries. Each must be refused (4xx) and leave the execution waiting.
		const secret = lab.emulator.apiSecret;
		const paidData: Json = { ...created, status: 'paid', amountPaid: created.amountDue };
		delete paidData.paycashlessWait;
		const forgeries: Array<{ name: string; url: string; body: string; headers: Record<string, string> }> = [];
		const genuine = signed(callbackUrl, secret, 'INVOICE_PAID', paidData);
		forgeries.push({ name: 'no signature', url: callbackUrl, body: genuine.body, headers: { 'Request-Timestamp': genuine.headers['Request-Timestamp'] } });
		forgeries.push({ name: 'no timestamp', url: callbackUrl, body: genuine.body, headers: { 'Request-Signature': genuine.headers['Request-Signature'] } });
		for (let i = 0; i < 6; i++) {
			forgeries.push({ name: `random signature ${i}`, url: callbackUrl, body: genuine.body, headers: { ...genuine.headers, 'Request-Signature': randomUUID().replace(/-/g, '').repeat(4) } });
		}
		for (let i = 0; i < 4; i++) {
			const wrong = signed(callbackUrl, `${secret}-wrong-${i}`, 'INVOICE_PAID', paidData);
			forgeries.push({ name: `wrong secret ${i}`, url: callbackUrl, ...wrong });
		}
		for (const [i, change] of [{ amountPaid: 1 }, { status: 'open' }, { reference: `${reference}-x` }, { currency: 'USD' }].entries()) {
			const altered = JSON.stringify({ event: 'INVOICE_PAID', data: { ...paidData, ...change } });
			forgeries.push({ name: `altered data ${i}`, url: callbackUrl, body: altered, headers: genuine.headers });
		}
		const instalmentData: Json = { id: 'ipay_x', invoiceId: created.id, amountPaid: 100, paid: true };
		forgeries.push({ name: 'a genuine instalment relabelled INVOICE_PAID', url: callbackUrl, ...signed(callbackUrl, secret, 'INVOICE_PAID', instalmentData) });
		forgeries.push({ name: 'altered event', url: callbackUrl, body: JSON.stringify({ event: 'INVOICE_CANCELLED', data: paidData }), headers: genuine.headers });
		for (const [i, ageS] of [400, 3600, -400].entries()) {
			const stale = signed(callbackUrl, secret, 'INVOICE_PAID', paidData, Date.now() - ageS * 1000);
			forgeries.push({ name: `stale ${i}`, url: callbackUrl, ...stale });
		}
		const otherRefUrl = callbackUrl.replace(`paycashlessReference=${reference}`, `paycashlessReference=${reference}-other`);
		forgeries.push({ name: 'signed for its own URL with another reference', url: otherRefUrl, ...signed(otherRefUrl, `${secret}-x`, 'INVOICE_PAID', paidData) });
		forgeries.push({ name: 'genuine signature, other reference in URL', url: otherRefUrl, ...genuine });
		forgeries.push({ name: 'not JSON', url: callbackUrl, body: '{"event":', headers: genuine.headers });
		// n8n 2.x puts a resume token in the URL and checks it first; 1.x has none (the signature is then the only guard).
		if (/[?&]signature=/.test(callbackUrl)) {
			forgeries.push({ name: 'wrong n8n token', url: callbackUrl.replace(/signature=[^&]+/, 'signature=deadbeef'), ...genuine });
		}
		expect(forgeries.length).toBeGreaterThanOrEqual(20);

		let resumed = 0;
		for (const forgery of forgeries) {
			const status = await post(forgery.url, forgery.body, forgery.headers);
			expect({ name: forgery.name, refused: status >= 400 && status < 500 }).toEqual({ name: forgery.name, refused: true });
			const now = await latestExecution(workflowId);
			if (now?.status !== 'waiting') resumed += 1;
		}
		expect(resumed).toBe(0);

		// One instalment (half): acknowledged, still waiting.
		const amountDue = Number(created.amountDue);
		await lab.emulator.payInvoice(reference, Math.floor(amountDue / 2));
		await lab.emulator.callbacksSettled();
		const instalment = lab.emulator.callbacks.filter((attempt) => attempt.event === 'INVOICE_PAYMENT_SUCCEEDED');
		expect(instalment.length).toBeGreaterThan(0);
		expect(instalment[instalment.length - 1].status).toBe(200);
		expect((await latestExecution(workflowId))?.status).toBe('waiting');

		// The rest: INVOICE_PAID resumes this very execution with the paid invoice.
		await lab.emulator.payInvoice(reference);
		const done = await waitForStatus(workflowId, ['success', 'error'], RESUME_MS);
		expect(done.id).toBe(waiting.id);
		expect(done.status).toBe('success');
		const [paid] = outputOf(done, 'Create and Wait');
		expect(paid.status).toBe('paid');
		expect(paid.reference).toBe(reference);
		expect(paid.amountPaid).toBe(amountDue);
		expect((paid.paycashlessWait as Json).outcome).toBe('paid');
		expect((paid.paycashlessWait as Json).verified).toBe(true);
	});

	test('a lost callback ends at the time limit; looking the invoice up by reference finds one paid and one unpaid', async () => {
		const paidRef = `wait-e2e-paid-${randomUUID().slice(0, 8)}`;
		const unpaidRef = `wait-e2e-unpaid-${randomUUID().slice(0, 8)}`;
		// Half a minute: time enough to start both runs and pay one on a busy machine. n8n resumes a
		// wait at its time once its once-a-minute check has seen it, so the runs end 30-60 s later.
		const paidRun = await startRun(true, { reference: paidRef, minutes: 0.5 });
		const unpaidRun = await startRun(true, { reference: unpaidRef, minutes: 0.5 });
		await waitForStatus(paidRun.workflowId, ['waiting'], START_MS);
		await waitForStatus(unpaidRun.workflowId, ['waiting'], START_MS);
		await lab.emulator.payInvoice(paidRef, undefined, { loseCallbacks: true });
		expect((await latestExecution(paidRun.workflowId))?.status).toBe('waiting');

		// n8n looks for due waits once a minute: up to about a minute and a half by n8n's clock, which
		// a busy machine does not slow, then the run's resumption.
		const [paidDone, unpaidDone] = await Promise.all([
			waitForStatus(paidRun.workflowId, ['success', 'error'], 90_000 + RESUME_MS),
			waitForStatus(unpaidRun.workflowId, ['success', 'error'], 90_000 + RESUME_MS),
		]);
		for (const [done, reference, status] of [
			[paidDone, paidRef, 'paid'],
			[unpaidDone, unpaidRef, 'open'],
		] as const) {
			expect(done.status).toBe('success');
			const [timedOut] = outputOf(done, 'Create and Wait');
			expect((timedOut.paycashlessWait as Json).outcome).toBe('timeLimitReached');
			expect(timedOut.reference).toBe(reference);
			// The item is the invoice as created: never claims a payment it has not seen.
			expect(timedOut.status).toBe('open');
			const [found] = outputOf(done, 'Look Up');
			expect(found.reference).toBe(reference);
			expect(found.status).toBe(status);
		}
	});
});

describe('Payout → Create and Wait for Final Status in real n8n', () => {
	test('waits; PAYOUT_SENT does not resume it; PAYOUT_SUCCEEDED resumes the same execution with the payout', async () => {
		const webhookPath = `wait-payout-${randomUUID().slice(0, 8)}`;
		const reference = `payout-wait-e2e-${randomUUID().slice(0, 8)}`;
		const workflowId = await lab.createActiveWorkflow(
			`wait ${webhookPath}`,
			[
				{
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: randomUUID(),
					parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
				},
				{
					name: 'Pay and Wait',
					type: NODE_TYPE_ACTION,
					typeVersion: 1,
					credentials: { paycashlessApi: lab.good },
					parameters: {
						resource: 'payout',
						operation: 'createAndWait',
						reference: '={{ $json.body.reference }}',
						amount: 2500,
						currency: 'NGN',
						destinationAccountNumber: '0123456789',
						bankId: 'bank_538ed2056326432ba8e6853b613997bb',
						waitTimeLimit: 1,
						waitTimeLimitUnit: 'hours',
					},
				},
			],
			{ Webhook: { main: [[{ node: 'Pay and Wait', type: 'main', index: 0 }]] } },
			[webhookPath],
		);
		const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ reference }),
		});
		expect(response.status).toBe(200);
		const waiting = await waitForStatus(workflowId, ['waiting'], START_MS);
		await lab.emulator.completePayout(reference, 'sent');
		await lab.emulator.callbacksSettled();
		expect((await latestExecution(workflowId))?.status).toBe('waiting');
		await lab.emulator.completePayout(reference, 'succeeded');
		const done = await waitForStatus(workflowId, ['success'], RESUME_MS);
		expect(done.id).toBe(waiting.id);
		const [payout] = outputOf(done, 'Pay and Wait');
		expect(payout).toMatchObject({ reference, status: 'succeeded', paycashlessWait: { outcome: 'succeeded', verified: true } });
		expect(lab.emulator.list('payouts').filter((p) => p.reference === reference)).toHaveLength(1);
	});
});

describe('examples/invoice-wait-for-payment.json in real n8n', () => {
	test('an order → Create and Wait for Payment waits; the emulator\'s payment resumes it; the order is paid in naira; the same order again makes no second invoice', async () => {
		const { workflowId, webhookPath } = await activateExample('Paycashless example: invoice, wait for payment', 'paycashless-example-order');
		const orderId = `A-${randomUUID().slice(0, 8)}`;
		const reference = `order-${orderId}`;
		const order = { orderId, email: 'ada@example.com', name: 'Ada Obi', amount: 1500.5 };
		await sendOrder(webhookPath, order);
		const waiting = await waitForStatus(workflowId, ['waiting'], START_MS);
		await lab.emulator.payInvoice(reference);
		const done = await waitForStatus(workflowId, ['success'], RESUME_MS);
		expect(done.id).toBe(waiting.id);
		expect(outputOf(done, 'Order Paid')).toEqual([{ orderReference: reference, invoiceNumber: expect.any(String), amountPaidNaira: 1500.5, howWeKnow: 'paid' }]);

		// Sent again (a retried webhook): the invoice is found by its reference, already paid, so no wait.
		await sendOrder(webhookPath, order);
		const again = await waitForNewer(workflowId, done.id);
		expect(outputOf(again, 'Order Paid')).toEqual([{ orderReference: reference, invoiceNumber: expect.any(String), amountPaidNaira: 1500.5, howWeKnow: 'already_paid' }]);
		expect(lab.emulator.list('invoices').filter((invoice) => invoice.reference === reference)).toHaveLength(1);
	});
});

describe('Payment → Wait for Payment: examples/payment-transfer-wait.json in real n8n', () => {
	test('Create Transfer Payment with $execution.resumeUrl → instructions → Wait for Payment: forgeries, another payment and PAYMENT_CHARGED leave it waiting; PAYMENT_SUCCEEDED resumes it; the order is paid in naira', async () => {
		const { workflowId, webhookPath } = await activateExample('Paycashless example: transfer payment, wait for the money', 'paycashless-example-transfer');
		const orderId = `T-${randomUUID().slice(0, 8)}`;
		const reference = `transfer-${orderId}`;
		const order = { orderId, email: 'ada@example.com', name: 'Ada Obi', amount: 7500.5 };
		await sendOrder(webhookPath, order);
		const waiting = await waitForStatus(workflowId, ['waiting'], START_MS);
		const payments = lab.emulator.list('payments').filter((p) => p.reference === reference);
		expect(payments).toHaveLength(1);
		const resumeUrl = String(payments[0].callbackUrl);
		expect(resumeUrl).toContain(`/webhook-waiting/${waiting.id}`);

		const secret = lab.emulator.apiSecret;
		const paid: Json = { ...payments[0], status: 'succeeded' };
		const tries = [
			signed(resumeUrl, 'sk_wrong_secret', 'PAYMENT_SUCCEEDED', paid),
			{ ...signed(resumeUrl, secret, 'PAYMENT_SUCCEEDED', paid), body: JSON.stringify({ event: 'PAYMENT_SUCCEEDED', data: { ...paid, expectedAmount: 1 } }) },
			signed(resumeUrl, secret, 'PAYMENT_SUCCEEDED', paid, Date.now() - 3_600_000),
			signed(resumeUrl, secret, 'PAYMENT_SUCCEEDED', { ...paid, status: 'charged' }),
			signed(resumeUrl, secret, 'PAYMENT_SUCCEEDED', { ...paid, reference: 'someone-elses-payment' }),
			signed(resumeUrl, secret, 'PAYMENT_CHARGED', { ...paid, status: 'charged' }),
		];
		const answers: number[] = [];
		for (const call of tries) {
			answers.push(await post(resumeUrl, call.body, call.headers));
			expect((await latestExecution(workflowId))?.status).toBe('waiting');
		}
		expect(answers).toEqual([401, 401, 401, 401, 200, 200]);

		await lab.emulator.completePayment(reference, 'succeeded');
		const done = await waitForStatus(workflowId, ['success'], RESUME_MS);
		expect(done.id).toBe(waiting.id);
		const [instructions] = outputOf(done, 'Payment Instructions');
		expect(instructions).toMatchObject({ reference, amountNaira: 7500.5, payIntoAccountNumber: expect.stringMatching(/^\d{10}$/) });
		const [payment] = outputOf(done, 'Wait for Payment');
		expect(payment).toMatchObject({ reference, status: 'succeeded', paycashlessWait: { outcome: 'succeeded', reference, verified: true } });
		expect(outputOf(done, 'Order Paid')).toEqual([{ orderReference: reference, amountPaidNaira: 7500.5, feeNaira: expect.any(Number), howWeKnow: 'succeeded' }]);

		// The same order again (a retried webhook): the first payment is found by its reference, already paid: no wait, no second payment.
		await sendOrder(webhookPath, order);
		const second = await waitForNewer(workflowId, done.id);
		expect(outputOf(second, 'Order Paid')).toEqual([{ orderReference: reference, amountPaidNaira: 7500.5, feeNaira: expect.any(Number), howWeKnow: 'already_succeeded' }]);
		expect(lab.emulator.list('payments').filter((p) => p.reference === reference)).toHaveLength(1);
	});
});

describe('Callback → Verify: examples/verify-callback-webhook.json in real n8n', () => {
	test('Webhook (Raw Body) → Callback: Verify → Respond to Webhook: genuine 200, 20 forgeries 401 and none reaches the success branch', async () => {
		const { webhookPath, workflowId } = await activateExample('Paycashless example: verify callbacks on a Webhook node', 'paycashless-example-callbacks');
		const url = `${lab.n8n.baseUrl}/webhook/${webhookPath}`;
		const secret = lab.emulator.apiSecret;
		const data: Json = { id: 'inv_1', reference: 'order-1', status: 'paid', amountPaid: 150050 };

		const genuine = signed(url, secret, 'INVOICE_PAID', data);
		const ok = await freshFetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...genuine.headers }, body: genuine.body });
		expect(ok.status).toBe(200);
		expect(await ok.json()).toMatchObject({ received: true });

		let accepted = 0;
		for (let i = 0; i < 20; i++) {
			const kind = i % 4;
			let attempt = signed(url, `${secret}-forged-${i}`, 'INVOICE_PAID', data);
			if (kind === 1) attempt = { body: JSON.stringify({ event: 'INVOICE_PAID', data: { ...data, amountPaid: i } }), headers: genuine.headers };
			if (kind === 2) attempt = signed(url, secret, 'INVOICE_PAID', data, Date.now() - 3600_000 - i * 1000);
			if (kind === 3) attempt = signed(`${url}-other`, secret, 'INVOICE_PAID', data);
			const response = await freshFetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...attempt.headers }, body: attempt.body });
			const answer = (await response.json()) as Json;
			if (response.status !== 401) accepted += 1;
			expect(String(answer.error)).toMatch(/invalid_signature|stale_timestamp/);
		}
		expect(accepted).toBe(0);
		// Only the genuine call ran the "Callback" node.
		const executions = await lab.executions(workflowId);
		const reachedCallback = executions.filter((execution) => outputOf(execution, 'Callback').length > 0);
		expect(reachedCallback).toHaveLength(1);
		expect(outputOf(reachedCallback[0], 'Callback')[0]).toMatchObject({ event: 'INVOICE_PAID', reference: 'order-1' });
	});
});
}
