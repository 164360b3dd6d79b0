/**
 * End to end through a real n8n 2.41.1 (see test/e2e/harness.cts): the packed package installed as
 * a community package, the emulator as the Paycashless API, one n8n server for the whole file.
 */
import { randomUUID } from 'crypto';

import { PaycashlessApi } from '../../credentials/PaycashlessApi.credentials';
import { accountName, BANKS } from '../../emulator/banks.cjs';
import { canonicalJson } from '../../lib/signing';
import { loadExampleWorkflows, type WorkflowJson } from '../../scripts/n8n/examples.cjs';
import { NODE_TYPE_TRIGGER } from '../../scripts/n8n/lab.cjs';
import { createTransferPayment, manualRunBody, paycashlessNode, paymentTotalsSince, SETUP_TIMEOUT_MS, startE2eLab, waitFor, webhookNode, type E2eLab, type Execution } from './harness.cjs';

jest.setTimeout(120_000);

let lab: E2eLab;

beforeAll(async () => {
	lab = await startE2eLab();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await lab?.close();
}, 60_000);

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

describe('Paycashless action node: all twenty operations in n8n against the emulator', () => {
	const run = (parameters: Record<string, unknown>) => lab.runNode(paycashlessNode(lab.good, parameters));
	const byId = (value: string) => ({ __rl: true, mode: 'id', value });
	const state: Record<string, string> = {};

	beforeAll(() => {
		lab.emulator.reset({ invoices: 12, payments: 12, payouts: 12, dedicatedAccounts: 12 });
	});

	it('Tax Rate → Create', async () => {
		const name = unique('VAT');
		const [item, ...rest] = await run({ resource: 'taxRate', operation: 'create', name, percentage: 7.5, taxType: 'vat', inclusive: false });
		expect(rest).toHaveLength(0);
		expect(item).toMatchObject({ name, percentage: 7.5, taxType: 'vat', inclusive: false });
		expect(String(item.id)).toMatch(/^txr_/);
		state.taxRateId = String(item.id);
	});

	it('Tax Rate → Update', async () => {
		const name = unique('VAT renamed');
		const [item] = await run({ resource: 'taxRate', operation: 'update', taxRateId: state.taxRateId, updateFields: { name, description: 'e2e update' } });
		expect(item).toMatchObject({ id: state.taxRateId, name, description: 'e2e update', percentage: 7.5 });
		expect(lab.emulator.list('taxRates').find((t) => t.id === state.taxRateId)).toMatchObject({ name });
	});

	it('Invoice → Create (line items in naira, a tax rate) returns hostedInvoiceUrl', async () => {
		const reference = unique('inv');
		const [item] = await run({
			resource: 'invoice',
			operation: 'create',
			reference,
			invoiceDescription: 'E2E consulting',
			currency: 'NGN',
			customerEmail: 'ada@example.com',
			customerName: 'Ada Obi',
			items: { itemValues: [{ name: 'Consulting', description: 'Two hours', quantity: 2, price: 1500.5 }, { name: 'Travel', description: '', quantity: 1, price: 250 }] },
			daysUntilDue: 14,
			additionalFields: { taxRateIds: state.taxRateId },
		});
		expect(item).toMatchObject({ reference, currency: 'NGN', taxRateIds: [state.taxRateId] });
		expect(item.items).toEqual([
			expect.objectContaining({ name: 'Consulting', quantity: 2, price: 150050 }),
			expect.objectContaining({ name: 'Travel', quantity: 1, price: 25000 }),
		]);
		expect(String(item.hostedInvoiceUrl)).toMatch(/^https?:\/\//);
		expect(String(item.id)).toMatch(/^inv_/);
		const stored = lab.emulator.list('invoices').find((invoice) => invoice.id === item.id);
		expect(stored).toMatchObject({ reference, amountDue: item.amountDue });
		state.invoiceId = String(item.id);
		state.invoiceReference = reference;
	});

	it('Invoice → Get', async () => {
		const [item] = await run({ resource: 'invoice', operation: 'get', invoiceId: byId(state.invoiceId) });
		expect(item).toMatchObject({ id: state.invoiceId, reference: state.invoiceReference });
	});

	it('Invoice → Get Many (limit, and a reference filter)', async () => {
		const limited = await run({ resource: 'invoice', operation: 'getAll', returnAll: false, limit: 5 });
		expect(limited).toHaveLength(5);
		expect(limited.every((invoice) => String(invoice.id).startsWith('inv_'))).toBe(true);
		const filtered = await run({ resource: 'invoice', operation: 'getAll', returnAll: true, filters: { reference: state.invoiceReference } });
		expect(filtered.map((invoice) => invoice.id)).toEqual([state.invoiceId]);
	});

	it('Invoice → Cancel', async () => {
		const [item] = await run({ resource: 'invoice', operation: 'cancel', invoiceId: byId(state.invoiceId), cancellationReason: 'E2E: raised in error' });
		expect(item).toMatchObject({ id: state.invoiceId, status: 'cancelled' });
		expect(lab.emulator.list('invoices').find((invoice) => invoice.id === state.invoiceId)).toMatchObject({ status: 'cancelled' });
	});

	it('Payment → Create Pay-by-Transfer', async () => {
		const reference = unique('pay');
		const [item] = await run({
			resource: 'payment',
			operation: 'createTransfer',
			reference,
			amount: 2500.75,
			currency: 'NGN',
			customerEmail: 'bola@example.com',
			customerName: 'Bola Ade',
			expiresIn: 1800,
		});
		expect(item).toMatchObject({ reference, amount: { value: 250075, currency: 'NGN' } });
		expect(String(item.accountNumber)).toMatch(/^\d{10}$/);
		expect(String(item.id)).toMatch(/^pi_/);
		state.paymentId = String(item.id);
		state.paymentReference = reference;
	});

	it('Payment → Create Checkout Link', async () => {
		const reference = unique('chk');
		const [item] = await run({
			resource: 'payment',
			operation: 'createCheckout',
			reference,
			amount: 99.99,
			currency: 'USD',
			customerEmail: 'chi@example.com',
			customerName: 'Chi Eze',
			additionalFields: { returnUrl: 'https://shop.example.com/thanks' },
		});
		expect(item).toMatchObject({ reference, amount: { value: 9999, currency: 'USD' }, returnUrl: 'https://shop.example.com/thanks' });
		expect(String(item.authorizationUrl)).toMatch(/^https?:\/\//);
	});

	it('Payment → Get', async () => {
		const [item] = await run({ resource: 'payment', operation: 'get', paymentId: byId(state.paymentId) });
		expect(item).toMatchObject({ id: state.paymentId, reference: state.paymentReference, expectedAmount: 250075, currency: 'NGN' });
	});

	it('Payment → Verify (by reference)', async () => {
		const [item] = await run({ resource: 'payment', operation: 'verify', reference: state.paymentReference });
		expect(item).toMatchObject({ id: state.paymentId, reference: state.paymentReference });
	});

	it('Payment → Get Many', async () => {
		const items = await run({ resource: 'payment', operation: 'getAll', returnAll: false, limit: 7 });
		expect(items).toHaveLength(7);
		expect(new Set(items.map((payment) => payment.id)).size).toBe(7);
	});

	it('Bank Account → Look Up', async () => {
		const [item] = await run({ resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: GTB.nibssCode });
		expect(item).toMatchObject({ accountNumber: '0123456789', accountName: accountName('0123456789', GTB.id), bank: { id: GTB.id } });
	});

	it('Payout → Create', async () => {
		const reference = unique('po');
		const [item] = await run({
			resource: 'payout',
			operation: 'create',
			reference,
			amount: 1000,
			currency: 'NGN',
			destinationAccountNumber: '0123456789',
			bankId: GTB.id,
			additionalFields: { narration: 'E2E payout' },
		});
		expect(item).toMatchObject({ reference, status: 'pending' });
		expect(String(item.id)).toMatch(/^po_/);
		expect(lab.emulator.list('payouts').find((payout) => payout.reference === reference)).toMatchObject({ amount: 100000, destinationAccountNumber: '0123456789' });
		state.payoutId = String(item.id);
		state.payoutReference = reference;
	});

	it('Payout → Verify (by reference)', async () => {
		const [item] = await run({ resource: 'payout', operation: 'verify', reference: state.payoutReference });
		expect(item).toMatchObject({ id: state.payoutId, reference: state.payoutReference, amount: 100000, currency: 'NGN', destinationAccountNumber: '0123456789', narration: 'E2E payout' });
	});

	it('Payout → Get', async () => {
		const [item] = await run({ resource: 'payout', operation: 'get', payoutId: byId(state.payoutId) });
		expect(item).toMatchObject({ id: state.payoutId, reference: state.payoutReference, amount: 100000 });
	});

	it('Payout → Get Many (filtered by destination account)', async () => {
		const items = await run({ resource: 'payout', operation: 'getAll', returnAll: true, filters: { destinationAccountNumber: '0123456789' } });
		const expected = lab.emulator.list('payouts').filter((payout) => payout.destinationAccountNumber === '0123456789');
		expect(items.map((payout) => payout.id).sort()).toEqual(expected.map((payout) => payout.id).sort());
		expect(items.map((payout) => payout.id)).toContain(state.payoutId);
	});

	it('Dedicated Account → Create (individual)', async () => {
		const [item] = await run({
			resource: 'dedicatedAccount',
			operation: 'create',
			accountType: 'individual',
			currency: 'NGN',
			preferredBank: 'safehaven_mfb',
			email: 'dayo@example.com',
			firstName: 'Dayo',
			lastName: 'Bello',
			phoneNumber: '+2348012345678',
			dateOfBirth: '1990-04-25',
			bvn: '22212345678',
		});
		expect(item).toMatchObject({ status: 'awaiting_customer_consent' });
		expect(String(item.accountRequestCode)).toMatch(/^acc_req_/);
		state.accountRequestCode = String(item.accountRequestCode);
	});

	it('Dedicated Account → Get Request Status', async () => {
		const [pending] = await run({ resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode: state.accountRequestCode });
		expect(pending).toMatchObject({ accountRequestCode: state.accountRequestCode, status: 'awaiting_customer_consent' });
		await lab.emulator.activateAccountRequest(state.accountRequestCode);
		const [active] = await run({ resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode: state.accountRequestCode });
		expect(active).toMatchObject({ accountRequestCode: state.accountRequestCode, account: { currency: 'NGN' } });
		expect(String((active.account as Record<string, unknown>).id)).toMatch(/^va_/);
		state.dedicatedAccountId = String((active.account as Record<string, unknown>).id);
	});

	it('Dedicated Account → Get', async () => {
		const [item] = await run({ resource: 'dedicatedAccount', operation: 'get', dedicatedAccountId: byId(state.dedicatedAccountId) });
		expect(item).toMatchObject({ id: state.dedicatedAccountId, accountRequestCode: state.accountRequestCode });
	});

	it('Dedicated Account → Get Many', async () => {
		const items = await run({ resource: 'dedicatedAccount', operation: 'getAll', returnAll: true });
		expect(items).toHaveLength(lab.emulator.list('dedicatedAccounts').length);
		expect(items.map((account) => account.id)).toContain(state.dedicatedAccountId);
	});

	it('Get Many with Return All over 1,000 records returns exactly 1,000 items, 100 per page', async () => {
		lab.emulator.reset({ payouts: 1000 });
		const items = await run({ resource: 'payout', operation: 'getAll', returnAll: true });
		expect(items).toHaveLength(1000);
		expect(new Set(items.map((payout) => payout.id)).size).toBe(1000);
		const pages = lab.emulator.requests.filter((r) => r.method === 'GET' && r.path === '/v1/payouts');
		expect(pages).toHaveLength(10);
		expect(pages.every((page) => page.query.limit === '100' && page.status === 200)).toBe(true);
	});
});

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
		const executions = await waitFor('the trigger execution', async () => {
			const all = await lab.executions(workflowId);
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
		const response = await fetch(productionUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'Request-Signature': 'ab'.repeat(64), 'Request-Timestamp': String(Math.floor(Date.now() / 1000)) },
			body,
		});
		expect(response.status).toBe(401);
		await new Promise((resolve) => setTimeout(resolve, 1500));
		expect(await lab.executions(workflowId)).toHaveLength(before);
	});

	it('test URL: "Listen for test event" receives one callback for the test URL', async () => {
		const body = await manualRunBody(lab, workflowId, { triggerToStartFrom: { name: 'Paycashless Trigger' } });
		const listen = await lab.session.request('POST', `/rest/workflows/${workflowId}/run`, body);
		expect(listen.status).toBe(200);
		const testUrl = `${lab.n8n.baseUrl}/webhook-test/${webhookId}/webhook`;
		const before = (await lab.executions(workflowId)).length;
		const reference = await createPayment(testUrl);
		lab.emulator.clearLogs();
		await lab.emulator.completePayment(reference);
		await lab.emulator.callbacksSettled();
		expect(lab.emulator.callbacks).toMatchObject([{ url: testUrl, event: 'PAYMENT_SUCCEEDED', status: 200 }]);
		// n8n's public API leaves out executions its main process still counts as running; in queue
		// mode that registry can lag the database by many seconds (seen: 2 of 7 runs over 20 s).
		const executions = await waitFor(
			'the test execution',
			async () => {
				const all = await lab.executions(workflowId);
				return all.length > before && all[0].status !== 'running' && all[0].status !== 'new' ? all : undefined;
			},
			lab.queue ? 90_000 : 20_000,
		);
		expect(executions).toHaveLength(before + 1);
		expect(executions[0].mode).toBe('manual');
		expect(outputOf(executions[0], 'Paycashless Trigger')[0]).toMatchObject({ event: 'PAYMENT_SUCCEEDED', verified: true, data: { reference } });
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
		const response = await fetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
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
		const executions = await waitFor('the invoice-paid execution', async () => {
			const all = await lab.executions(paidWorkflowId);
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
