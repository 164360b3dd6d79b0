/**
 * End to end through a real n8n 2.41.1 (see test/support/e2e/harness.cts): the packed package installed as
 * a community package, the emulator as the Paycashless API, one n8n server for the whole file.
 */
import { randomUUID } from 'crypto';

import { PaycashlessApi } from '../../../credentials/PaycashlessApi.credentials';
import { accountName, BANKS } from '../../../emulator/banks.cjs';
import { canonicalJson } from '../../../lib/signing';
import { loadExampleWorkflows, type WorkflowJson } from '../../../scripts/n8n/examples.cjs';
import { NODE_TYPE_TRIGGER } from '../../../scripts/n8n/lab.cjs';
import { hasEnded, patience, settle } from '../../../scripts/n8n/patience.cjs';
import { createTransferPayment, e2eRuntime, executionById, executionIds, manualRunBody, paymentTotalsSince, selectE2eRuntime, SETUP_TIMEOUT_MS, startE2eLab, TEARDOWN_TIMEOUT_MS, waitFor, webhookNode, type E2eLab, type Execution, type E2eRuntime } from '../e2e/harness.cjs';
import { describeOperations, realN8nOperations } from './operations.cjs';
import { freshFetch } from '../e2e/freshFetch.cjs';

/**
 * The end-to-end suite against one runtime (an e2e project's), called once by a small test file
 * in each project that runs it (test/README.md). The body keeps its indentation from when it was
 * a test file of its own.
 */
export function describeN8n(runtime: Partial<E2eRuntime>): void {
selectE2eRuntime(runtime);

// A test takes up to 20 s alone (scripts/n8n/patience.cts).
jest.setTimeout(patience(20_000));

let lab: E2eLab;

beforeAll(async () => {
	lab = await startE2eLab();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await lab?.close();
}, TEARDOWN_TIMEOUT_MS);

const GTB = BANKS.find((bank) => bank.cbnCode === '058')!;

function unique(prefix: string): string {
	return `${prefix}-${randomUUID().slice(0, 12)}`;
}

/** The credential's Test message for an answer whose `key` (e.g. `error.code`) is `value`. */
function testMessage(key: string, value: unknown): string {
	const rule = new PaycashlessApi().test.rules?.find((r) => r.type === 'responseSuccessBody' && r.properties.key === key && r.properties.value === value);
	if (!rule) throw new Error(`the credential has no Test rule for ${key} = ${String(value)}`);
	return rule.properties.message;
}

/** The items a node produced in an execution read back from n8n. */
function outputOf(execution: Execution, nodeName: string): Array<Record<string, unknown>> {
	return execution.data?.resultData.runData[nodeName]?.[0]?.data?.main[0].map((item) => item.json) ?? [];
}


describe('credential Test button (POST /rest/credentials/test, as the editor calls it)', () => {
	async function testCredential(id: string): Promise<{ status: string; message: string }> {
		// The editor sends the form data it loaded, secrets redacted; n8n fills in the stored values.
		const stored = await lab.session.rest<{ id: string; name: string; type: string; data: Record<string, unknown> }>(
			'GET',
			`/rest/credentials/${id}?includeData=true`,
		);
		expect(JSON.stringify(stored.data)).not.toContain(lab.emulator.apiSecret);
		return lab.session.rest('POST', '/rest/credentials/test', {
			credentials: { id: stored.id, name: stored.name, type: stored.type, data: stored.data },
		});
	}

	it('passes with the right key and secret, and the emulator accepted the signed request', async () => {
		lab.emulator.clearLogs();
		const result = await testCredential(lab.good.id);
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		const seen = lab.emulator.requests.filter((r) => r.path === '/v1/payouts');
		expect(seen).toHaveLength(1);
		expect(seen[0].status).toBe(200);
		expect(seen[0].query.limit).toBe('1');
	});

	it.each([
		['a wrong secret', () => lab.bad, 'invalid_signature', 401],
		['a wrong key', () => lab.badKey, 'invalid_api_key', 401],
	])('fails with %s, saying which one is wrong, and no secret in the message', async (_what, credential, code, status) => {
		lab.emulator.clearLogs();
		const result = await testCredential(credential().id);
		expect(result).toEqual({ status: 'Error', message: testMessage('error.code', code) });
		expect(result.message).not.toContain(lab.emulator.apiSecret);
		expect(lab.emulator.requests.map((r) => r.status)).toEqual([status]);
	});

	it('fails when the Base URL is not the Paycashless API, saying so', async () => {
		lab.emulator.clearLogs();
		const result = await testCredential(lab.badBaseUrl.id);
		// The emulator answers 404 route_not_found there (and logs only its API's routes).
		expect(result).toEqual({ status: 'Error', message: testMessage('hasMore', undefined) });
		expect(lab.emulator.requests.filter((r) => r.status === 200)).toEqual([]);
	});

	it('fails when a payout setting cannot be read (Maximum Payout "abc", as an import may store it), naming the field; nothing is sent', async () => {
		lab.emulator.clearLogs();
		const { apiKey, apiSecret, baseUrl } = lab.emulator;
		// n8n's public API checks the fields' types; the editor's REST endpoint stores what it is given.
		const created = await lab.session.rest<{ id: string }>('POST', '/rest/credentials', {
			name: `Paycashless unreadable ceiling ${Date.now()}`,
			type: 'paycashlessApi',
			data: { apiKey, apiSecret, baseUrl, bodilessSigning: 'documented', payouts: 'allowed', maxPayoutNgn: 'abc' },
		});
		const result = await testCredential(created.id);
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^Refused by the Paycashless credential: its Maximum Payout \(NGN\) is set but is not an amount in naira, so it refuses every payout\./) });
		expect(lab.emulator.requests).toEqual([]);
	});
});

describe('n8n HTTP Request node with the predefined credential type paycashlessApi', () => {
	function httpRequest(parameters: Record<string, unknown>) {
		return {
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: { authentication: 'predefinedCredentialType', nodeCredentialType: 'paycashlessApi', options: {}, ...parameters },
			credentials: { paycashlessApi: lab.good },
		};
	}

	it('GET /v1/banks/account_lookup is signed and answered', async () => {
		lab.emulator.clearLogs();
		const items = await lab.runNode(
			httpRequest({
				method: 'GET',
				url: `${lab.emulator.baseUrl}/v1/banks/account_lookup`,
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'accountNumber', value: '0123456789' }, { name: 'bankCode', value: GTB.cbnCode }] },
			}),
		);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({
			accountNumber: '0123456789',
			accountName: accountName('0123456789', GTB.id),
			bank: { id: GTB.id, cbnCode: '058' },
		});
		const [request] = lab.emulator.requests;
		expect(lab.emulator.requests).toHaveLength(1);
		expect(request).toMatchObject({ method: 'GET', path: '/v1/banks/account_lookup', status: 200 });
		expect(request.headers['request-signature']).toMatch(/^[0-9a-f]{128}$/);
		expect(request.headers.authorization).toBe(`Bearer ${lab.emulator.apiKey}`);
	});

	it('reaches an endpoint the Paycashless node does not model (the emulator\'s echo), signed and accepted', async () => {
		lab.emulator.clearLogs();
		const body = { note: unique('unmodelled'), amount: { value: 150050, currency: 'NGN' } };
		const items = await lab.runNode(
			httpRequest({
				method: 'POST',
				url: `${lab.emulator.baseUrl}/v1/emulator/echo`,
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'page', value: '2' }] },
				sendBody: true,
				specifyBody: 'json',
				jsonBody: JSON.stringify(body),
			}),
		);
		expect(items).toEqual([{ echo: true, method: 'POST', path: '/v1/emulator/echo', query: { page: '2' }, body }]);
		expect(lab.emulator.requests).toHaveLength(1);
		expect(lab.emulator.requests[0]).toMatchObject({ method: 'POST', path: '/v1/emulator/echo', status: 200, rawBody: canonicalJson(body) });
	});

	it('POST /v1/tax_rates with a JSON body is signed over the exact bytes sent', async () => {
		lab.emulator.clearLogs();
		const name = unique('VAT e2e');
		const items = await lab.runNode(
			httpRequest({
				method: 'POST',
				url: `${lab.emulator.baseUrl}/v1/tax_rates`,
				sendBody: true,
				specifyBody: 'json',
				jsonBody: JSON.stringify({ percentage: 7.5, name, inclusive: false, taxType: 'vat', active: true }),
			}),
		);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ name, percentage: 7.5, inclusive: false, active: true });
		expect(String(items[0].id)).toMatch(/^txr_/);
		expect(lab.emulator.requests).toHaveLength(1);
		const [request] = lab.emulator.requests;
		expect(request).toMatchObject({ method: 'POST', path: '/v1/tax_rates', status: 201 });
		expect(request.rawBody).toBe(canonicalJson({ percentage: 7.5, name, inclusive: false, taxType: 'vat', active: true }));
		expect(lab.emulator.list('taxRates').map((t) => t.id)).toContain(items[0].id);
	});
});

// The operations suite: test/support/suites/operations.cts, the run table's entries marked inN8n on this
// n8n unless the runtime is 1.123; n8n's engine runs every entry on both lines (test/engine/operations.test.cts).
if (e2eRuntime().n8nLine === '2') describeOperations('in n8n against the emulator', 'inN8n', () => realN8nOperations(lab));

// On Error: Continue (regular output) and (using error output): in n8n's engine, test/engine/onError.test.cts.

describe('Paycashless Trigger in n8n, with callbacks the emulator signs and sends', () => {
	const webhookId = randomUUID();
	let workflowId: string;
	let productionUrl: string;

	beforeAll(async () => {
		const triggerName = 'Paycashless Trigger';
		workflowId = await lab.createActiveWorkflow(
			'e2e trigger',
			[{ name: triggerName, type: NODE_TYPE_TRIGGER, typeVersion: 1, webhookId, parameters: { events: ['*'] }, credentials: { paycashlessApi: lab.good } }],
			{},
			[`${webhookId}/webhook`],
		);
		productionUrl = `${lab.n8n.baseUrl}/webhook/${webhookId}/webhook`;
	});

	function createPayment(callbackUrl: string): Promise<string> {
		return createTransferPayment(lab, callbackUrl);
	}

	it('production URL: a completed payment starts exactly one execution with its event and data', async () => {
		const before = (await lab.executions(workflowId)).length;
		const reference = await createPayment(productionUrl);
		lab.emulator.clearLogs();
		await lab.emulator.completePayment(reference);
		await lab.emulator.callbacksSettled();
		expect(lab.emulator.callbacks).toHaveLength(1);
		const [callback] = lab.emulator.callbacks;
		expect(callback).toMatchObject({ url: productionUrl, event: 'PAYMENT_SUCCEEDED', status: 200, attempt: 1 });

		// In queue mode an execution waits as "new" until a worker takes it.
		const executions = await waitFor('the trigger execution', async (saw) => {
			const all = await lab.executions(workflowId);
			saw(all.slice(0, 3).map((e) => `${e.id} ${e.status}`));
			return all.length > before && all.every((e) => e.finished || (e.status !== 'running' && e.status !== 'new')) ? all : undefined;
		});
		expect(executions).toHaveLength(before + 1);
		const [execution] = executions;
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('webhook');
		const [item, ...rest] = outputOf(execution, 'Paycashless Trigger');
		expect(rest).toHaveLength(0);
		expect(item).toMatchObject({ event: 'PAYMENT_SUCCEEDED', verified: true, data: { reference, status: 'succeeded', expectedAmount: 15000 } });
		expect(item.data).toEqual(JSON.parse(callback.body).data);
	});

	it('a forged callback gets 401 and starts nothing', async () => {
		const before = (await lab.executions(workflowId)).length;
		const body = JSON.stringify({ event: 'PAYMENT_SUCCEEDED', data: { id: 'pi_forged', reference: 'forged', status: 'succeeded' } });
		const response = await freshFetch(productionUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'Request-Signature': 'ab'.repeat(64), 'Request-Timestamp': String(Math.floor(Date.now() / 1000)) },
			body,
		});
		expect(response.status).toBe(401);
		await settle(1_500);
		expect(await lab.executions(workflowId)).toHaveLength(before);
	});

	it('test URL: "Listen for test event" receives one callback for the test URL', async () => {
		const body = await manualRunBody(lab, workflowId, { triggerToStartFrom: { name: 'Paycashless Trigger' } });
		const listen = await lab.session.request('POST', `/rest/workflows/${workflowId}/run`, body);
		expect(listen.status).toBe(200);
		const testUrl = `${lab.n8n.baseUrl}/webhook-test/${webhookId}/webhook`;
		const before = (await executionIds(lab, workflowId)).length;
		const reference = await createPayment(testUrl);
		lab.emulator.clearLogs();
		await lab.emulator.completePayment(reference);
		await lab.emulator.callbacksSettled();
		expect(lab.emulator.callbacks).toMatchObject([{ url: testUrl, event: 'PAYMENT_SUCCEEDED', status: 200 }]);
		// n8n's public list leaves out executions its main process still counts as running; in queue
		// mode that registry can lag the database by minutes: the ids come from the editor's list too.
		const ids = await waitFor(
			'the test execution',
			async (saw) => {
				const all = await executionIds(lab, workflowId);
				const newest = all.length > before ? await executionById(lab, all[0]) : undefined;
				saw(`${all.length} executions; newest ${all[0]} ${newest?.status ?? ''}`);
				return hasEnded(newest) ? all : undefined;
			},
			// Within the test's own timeout, patience(20 s).
			patience(lab.queue ? 15_000 : 5_000),
		);
		expect(ids).toHaveLength(before + 1);
		const execution = (await executionById(lab, ids[0]))!;
		expect(execution.mode).toBe('manual');
		expect(outputOf(execution, 'Paycashless Trigger')[0]).toMatchObject({ event: 'PAYMENT_SUCCEEDED', verified: true, data: { reference } });
	});
});

describe('example workflows (examples/*.json) run in n8n against the emulator', () => {
	let examples: WorkflowJson[];

	beforeAll(() => {
		examples = loadExampleWorkflows({ n8nBaseUrl: lab.n8n.baseUrl, credential: lab.good });
	});

	function example(name: string): WorkflowJson {
		const found = examples.find((wf) => wf.name === name);
		if (!found) throw new Error(`no example named ${name}`);
		return found;
	}

	/** Runs an example whose first node is a manual or schedule trigger: that node becomes a Webhook of the same name. */
	async function runExample(name: string): Promise<Array<Record<string, unknown>>> {
		const wf = example(name);
		const start = wf.nodes.find((node) => /manualTrigger|scheduleTrigger/.test(node.type));
		if (!start) throw new Error(`${name} has no manual or schedule trigger`);
		const webhookPath = `e2e-example-${randomUUID().slice(0, 8)}`;
		const nodes = wf.nodes.map((node) => (node === start ? { ...webhookNode(webhookPath), name: start.name } : node));
		await lab.createActiveWorkflow(`e2e ${name}`, nodes, wf.connections, [webhookPath]);
		const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		const text = await response.text();
		expect(response.status).toBe(200);
		return JSON.parse(text) as Array<Record<string, unknown>>;
	}

	it('invoice pipeline returns the hostedInvoiceUrl; paying it runs the active "invoice paid" workflow once', async () => {
		const paid = example('Paycashless example: invoice paid');
		const trigger = paid.nodes.find((node) => node.type === NODE_TYPE_TRIGGER)!;
		const paidWorkflowId = await lab.createActiveWorkflow(`e2e ${paid.name}`, paid.nodes, paid.connections, [`${trigger.webhookId}/webhook`]);

		const [link, ...rest] = await runExample('Paycashless example: invoice pipeline');
		expect(rest).toHaveLength(0);
		const invoice = lab.emulator.list('invoices').find((inv) => inv.id === link.invoiceId)!;
		expect(invoice).toBeDefined();
		// 1 x 150000.50 + 4 x 25000 naira, before tax, in kobo.
		expect((invoice.items as Array<{ price: number; quantity: number }>).map((i) => i.price * i.quantity)).toEqual([15000050, 10000000]);
		expect(link).toMatchObject({ hostedInvoiceUrl: invoice.hostedInvoiceUrl, number: invoice.number, amountDueNaira: (invoice.amountDue as number) / 100 });
		expect(String(link.hostedInvoiceUrl)).toMatch(/^http/);

		lab.emulator.clearLogs();
		await lab.emulator.payInvoice(String(link.invoiceId));
		await lab.emulator.callbacksSettled();
		expect(lab.emulator.callbacks.map((c) => [c.event, c.status])).toEqual([
			['INVOICE_PAYMENT_SUCCEEDED', 200],
			['INVOICE_PAID', 200],
		]);
		const executions = await waitFor('the invoice-paid execution', async (saw) => {
			const all = await lab.executions(paidWorkflowId);
			saw(all.slice(0, 3).map((e) => `${e.id} ${e.status}`));
			return all.length > 0 && all[0].status === 'success' ? all : undefined;
		});
		expect(executions).toHaveLength(1);
		expect(outputOf(executions[0], 'Paid Invoice')).toEqual([
			expect.objectContaining({ event: 'INVOICE_PAID', invoiceId: link.invoiceId, number: invoice.number, amountPaidNaira: (invoice.amountDue as number) / 100, currency: 'NGN' }),
		]);
	});

	it('payout pipeline looks up the account, pays once with a reference from the order id and verifies it', async () => {
		const before = lab.emulator.list('payouts').length;
		const [verified] = await runExample('Paycashless example: payout pipeline');
		expect(String(verified.reference)).toMatch(/^payout-ORDER-\d+$/);
		expect(verified).toMatchObject({ amount: 100000, currency: 'NGN', destinationAccountNumber: '0123456789', destinationBankId: GTB.id });
		expect(lab.emulator.list('payouts')).toHaveLength(before + 1);
	});

	it('daily reconciliation sums all payments created since yesterday, per currency and status', async () => {
		lab.emulator.clearLogs();
		const summary = await runExample('Paycashless example: daily reconciliation');
		const pages = lab.emulator.requests.filter((r) => r.path === '/v1/payments');
		expect(pages.length).toBeGreaterThan(0);
		const since = Number(pages[0].query['createdAt.gte']);
		const nowSeconds = Date.now() / 1000;
		expect(since).toBeGreaterThan(nowSeconds - 3 * 86400);
		expect(since).toBeLessThan(nowSeconds - 86400);
		const expected = paymentTotalsSince(lab.emulator.list('payments'), since);
		expect(summary.length).toBe(expected.size);
		for (const row of summary) {
			// Totals in naira (dollars): the smallest unit / 100.
			expect(expected.get(`${row.currency}/${row.status}`)).toEqual({ count: row.payments, total: Math.round(Number(row.expectedTotal) * 100) });
		}
	});
});
}
