/**
 * The same guarantees through a real n8n 2.41.1 (test/support/e2e/harness.cts): n8n's own HTTP client,
 * its timeouts and its error wrapping; n8n's "Retry On Fail" re-running the node; and the
 * failed executions n8n stores, read back through its API and searched for the key and secret.
 */
import { randomUUID } from 'crypto';

import { ACCESS_BANK } from '../support/reliability.cjs';
import { paycashlessNode, SETUP_TIMEOUT_MS, startE2eLab, webhookNode, type E2eLab, type WorkflowNode } from '../support/e2e/harness.cjs';
import { freshFetch } from '../support/e2e/freshFetch.cjs';

jest.setTimeout(120_000);

let lab: E2eLab;

beforeAll(async () => {
	lab = await startE2eLab();
}, SETUP_TIMEOUT_MS);
afterAll(async () => {
	await lab?.close();
}, 60_000);
beforeEach(() => {
	lab.emulator.reset({ payouts: 3 });
	lab.emulator.clearFaults();
});

const FAST = { maxAttempts: 3, retryDelay: 10, maxRetryWait: 2000 };

function payout(reference: string, requestOptions: Record<string, unknown> = FAST): Record<string, unknown> {
	return {
		resource: 'payout',
		operation: 'create',
		reference,
		amount: 1000,
		currency: 'NGN',
		destinationAccountNumber: '0123456789',
		bankId: ACCESS_BANK,
		requestOptions,
	};
}

const stored = (reference: string) => lab.emulator.list('payouts').filter((p) => p.reference === reference);

/** Creates `Webhook → Paycashless` with the given node settings, calls it, returns the HTTP answer and the workflow id. */
async function runWorkflow(node: Omit<WorkflowNode, 'name'> & Record<string, unknown>): Promise<{ status: number; text: string; workflowId: string }> {
	const webhookPath = `rel-${randomUUID().slice(0, 12)}`;
	const workflowId = await lab.createActiveWorkflow(
		`reliability ${webhookPath}`,
		[webhookNode(webhookPath), { ...node, name: 'Paycashless' } as WorkflowNode],
		{ Webhook: { main: [[{ node: 'Paycashless', type: 'main', index: 0 }]] } },
		[webhookPath],
	);
	const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
	return { status: response.status, text: await response.text(), workflowId };
}

describe('reliability in a real n8n', () => {
	it('a payout whose connection drops after commit is found with Verify: one payout, one item, marked', async () => {
		const reference = `rel-drop-${randomUUID().slice(0, 8)}`;
		lab.emulator.setFaults({ dropAfterCommitRate: 1, match: '^POST ', maxFaults: 1 });
		const items = await lab.runNode(paycashlessNode(lab.good, payout(reference)));
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ reference, _paycashless: { reconciled: true, reason: 'uncertainOutcome', via: 'verify' } });
		expect(stored(reference)).toHaveLength(1);
	});

	it("n8n's timeout ends a slow create; the payout is created once", async () => {
		const reference = `rel-slow-${randomUUID().slice(0, 8)}`;
		lab.emulator.setFaults({ latencyMs: 1500, match: '^POST ', maxFaults: 1 });
		const items = await lab.runNode(paycashlessNode(lab.good, payout(reference, { ...FAST, timeout: 300 })));
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ reference });
		expect(items[0].error).toBeUndefined();
		await new Promise((resolve) => setTimeout(resolve, 1700));
		expect(stored(reference)).toHaveLength(1);
		// n8n gave up after 300 ms; Verify found nothing yet; the resend created the payout; the
		// first request, processed at 1.5 s, was refused as a repeat; the payout was read back for the output.
		expect(lab.emulator.requests.map((request) => `${request.method} ${request.status}`)).toEqual(['POST 409', 'GET 404', 'POST 202', 'GET 200']);
	});

	it('a read is retried after a 5xx and a dropped connection', async () => {
		const reference = lab.emulator.list('payouts')[0].reference as string;
		lab.emulator.setFaults({ error5xxRate: 0.5, dropAfterCommitRate: 0.5, maxFaults: 2, seed: 4 });
		const items = await lab.runNode(paycashlessNode(lab.good, { resource: 'payout', operation: 'verify', reference, requestOptions: FAST }));
		expect(items).toEqual([expect.objectContaining({ reference })]);
		expect(lab.emulator.requests).toHaveLength(3);
	});

	it("n8n's Retry On Fail re-runs the node after an unknown outcome and pays once; a re-run returns the same payout", async () => {
		const reference = `rel-retry-${randomUUID().slice(0, 8)}`;
		// Try 1: the create fails (5xx) and so does the check: outcome unknown, the node fails.
		lab.emulator.setFaults({ error5xxRate: 1, maxFaults: 2 });
		const node = {
			...paycashlessNode(lab.good, payout(reference, { ...FAST, maxAttempts: 1 })),
			retryOnFail: true,
			maxTries: 3,
			waitBetweenTries: 100,
		};
		const first = await runWorkflow(node);
		expect(first.status).toBe(200);
		const [created] = JSON.parse(first.text) as Array<Record<string, unknown>>;
		expect(created).toMatchObject({ reference, status: 'pending' });
		expect(lab.emulator.requests.map((request) => `${request.method} ${request.status}`)).toEqual([
			expect.stringMatching(/^POST 50[023]$/),
			expect.stringMatching(/^GET 50[023]$/),
			'POST 202',
			// The payout read back by its reference, so the item has the same shape on every path.
			'GET 200',
		]);
		expect(stored(reference)).toHaveLength(1);

		const again = await runWorkflow(node);
		const [existing] = JSON.parse(again.text) as Array<Record<string, unknown>>;
		expect(existing).toMatchObject({ id: created.id, _paycashless: { reconciled: true, reason: 'repeatedReference' } });
		expect(stored(reference)).toHaveLength(1);
	});

	it.each([
		['an API error after the retries (5xx)', { error5xxRate: 1 }, /HTTP 50[023]/],
		['a network error wrapped by n8n (connection dropped)', { dropAfterCommitRate: 1 }, /Could not reach Paycashless/],
		['an unknown outcome of a payout', { error5xxRate: 1 }, /HTTP 50[023].*outcome is unknown/],
	])('the failed execution n8n stores holds no key or secret: %s', async (name, faults, says) => {
		const parameters = name.includes('payout')
			? payout(`rel-secret-${randomUUID().slice(0, 8)}`)
			: { resource: 'payout', operation: 'verify', reference: 'anything', requestOptions: FAST };
		lab.emulator.setFaults(faults);
		const { status, workflowId } = await runWorkflow({ ...paycashlessNode(lab.good, parameters), onError: 'stopWorkflow' });
		expect(status).toBeGreaterThanOrEqual(400);
		let executions = await lab.executions(workflowId);
		for (let i = 0; i < 40 && !executions.some((execution) => execution.finished || execution.status === 'error'); i++) {
			await new Promise((resolve) => setTimeout(resolve, 250));
			executions = await lab.executions(workflowId);
		}
		const failed = executions.find((execution) => execution.status === 'error');
		expect(failed).toBeDefined();
		const text = JSON.stringify(failed);
		expect(text).toMatch(says);
		expect(text).not.toContain(lab.emulator.apiKey);
		expect(text).not.toContain(lab.emulator.apiSecret);
		expect(text).not.toMatch(/Bearer /i);
	});
});
