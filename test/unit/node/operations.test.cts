/**
 * What the run table (scripts/harness/operationRuns.cts, run in these fake contexts by
 * test/unit/node/schemas.test.cts and in n8n by the operations suite) does not look at: the exact
 * request that reaches the API (method, path, query, body, as recorded by the emulator, which also
 * checks the signature), the items returned, and the variants a user can set.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunResult } from '../../../scripts/harness/executeContext.cjs';
import { businessAccountParameters, individualAccountParameters, vatTaxRateParameters } from '../../../scripts/harness/fixtures.cjs';
import { useEmulator } from '../../support/emulator.cjs';

const emulator = useEmulator();
beforeEach(() => {
	emulator.reset({ payouts: 3, payments: 3, invoices: 3, dedicatedAccounts: 3 });
});

async function run(parameters: INodeParameters | INodeParameters[]): Promise<RunResult> {
	return await runNode({
		parameters,
		credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl },
	});
}

/** The only request the emulator received. */
function onlyRequest() {
	expect(emulator.requests).toHaveLength(1);
	return emulator.requests[0];
}

/** A payout create: the POST, then the read of the full payout by its reference for the output. */
function payoutCreateRequest() {
	expect(emulator.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/payouts', `GET /v1/payouts/verify/${String((emulator.requests[0]?.body as { reference?: string })?.reference)}`]);
	return emulator.requests[0];
}

const id = (value: string) => ({ __rl: true, mode: 'id', value });
const fromList = (value: string) => ({ __rl: true, mode: 'list', value });

const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';
const TRIGGER_URL = 'https://n8n.example.com/webhook/paycashless';

describe('Bank Account', () => {
	it('Look Up: GET /v1/banks/account_lookup with accountNumber and bankCode', async () => {
		const { output } = await run({ resource: 'bankAccount', operation: 'lookUp', accountNumber: ' 0123456789 ', bankCode: '044' });
		const request = onlyRequest();
		expect([request.method, request.path, request.query, request.rawBody]).toEqual([
			'GET',
			'/v1/banks/account_lookup',
			{ accountNumber: '0123456789', bankCode: '044' },
			'',
		]);
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({ accountNumber: '0123456789', bank: { id: ACCESS_BANK, cbnCode: '044' } });
		expect(typeof output[0].json.accountName).toBe('string');
		expect(output[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('Payout', () => {
	/** What the test context names (scripts/harness/executeContext.cts), written into each payout's metadata. */
	const RUN_DETAILS = { n8nWorkflowId: 'wfUnitTest000001', n8nWorkflowName: 'Unit test workflow', n8nExecutionId: '1', n8nNode: 'Paycashless' };
	const create: INodeParameters = {
		resource: 'payout',
		operation: 'create',
		reference: 'bill-2024-001',
		amount: 1500.5,
		currency: 'NGN',
		destinationAccountNumber: '0123456789',
		bankId: ACCESS_BANK,
		additionalFields: {
			narration: 'Rent May',
			callbackUrl: TRIGGER_URL,
			metadata: { metadataValues: [{ key: 'category', value: 'rent' }] },
			additionalBodyJson: '{"receiptEmail": "payee@example.com"}',
		},
	};

	it('Create: POST /v1/payouts with the amount in kobo and the documented body', async () => {
		const { output } = await run(create);
		const request = payoutCreateRequest();
		expect([request.method, request.path, request.status]).toEqual(['POST', '/v1/payouts', 202]);
		expect(request.body).toEqual({
			reference: 'bill-2024-001',
			amount: { value: 150050, currency: 'NGN' },
			destinationAccountNumber: '0123456789',
			bankId: ACCESS_BANK,
			narration: 'Rent May',
			callbackUrl: TRIGGER_URL,
			// The user's metadata, and beside it where the payout came from (docs/payroll.md, "Every payout leads back").
			metadata: { category: 'rent', ...RUN_DETAILS },
			receiptEmail: 'payee@example.com',
		});
		const stored = emulator.list('payouts').find((p) => p.reference === 'bill-2024-001');
		// The same shape as a payout found again (Payout → Verify), plus the marker and the money in naira.
		expect(output).toEqual([
			{
				json: { ...stored, inMainUnits: { currency: 'NGN', amount: 1500.5, fee: Number(stored!.fee) / 100, vat: Number(stored!.vat) / 100 }, _paycashless: { reconciled: false, repeated: false } },
				pairedItem: { item: 0 },
			},
		]);
		expect(stored).toMatchObject({ amount: 150050, currency: 'NGN', receiptEmail: 'payee@example.com' });
		// Run again: the existing payout comes back (found by its reference) with the same columns in
		// the same order, so a table or a spreadsheet mapping does not shift between runs.
		const { output: again } = await run(create);
		expect(again[0].json._paycashless).toMatchObject({ repeated: true });
		expect(Object.keys(again[0].json)).toEqual(Object.keys(output[0].json));
	});

	it('Create in the smallest unit, USD, without optional fields (and without run details: Leave Out Run Details)', async () => {
		await run({ ...create, amount: 2599, amountInSmallestUnit: true, currency: 'USD', additionalFields: {} });
		expect(payoutCreateRequest().body).toEqual({
			reference: 'bill-2024-001',
			amount: { value: 2599, currency: 'USD' },
			destinationAccountNumber: '0123456789',
			bankId: ACCESS_BANK,
			metadata: RUN_DETAILS,
		});
		emulator.reset({ payouts: 0 });
		await run({ ...create, amount: 2599, amountInSmallestUnit: true, currency: 'USD', additionalFields: { leaveOutRunDetails: true } });
		expect(payoutCreateRequest().body).toEqual({
			reference: 'bill-2024-001',
			amount: { value: 2599, currency: 'USD' },
			destinationAccountNumber: '0123456789',
			bankId: ACCESS_BANK,
		});
	});

	it('Get by ID (pasted or picked), Verify by reference (encoded in the path)', async () => {
		const created = (await run({ ...create, reference: 'ref/1 a' })).output[0].json;
		emulator.clearLogs();

		const byId = await run({ resource: 'payout', operation: 'get', payoutId: id(created.id as string) });
		const picked = await run({ resource: 'payout', operation: 'get', payoutId: fromList(created.id as string) });
		const verified = await run({ resource: 'payout', operation: 'verify', reference: 'ref/1 a' });

		expect(emulator.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /v1/payouts/${created.id}`,
			`GET /v1/payouts/${created.id}`,
			'GET /v1/payouts/verify/ref%2F1%20a',
		]);
		for (const result of [byId, picked, verified]) {
			expect(result.output).toHaveLength(1);
			expect(result.output[0].json).toMatchObject({ id: created.id, reference: 'ref/1 a', amount: 150050, status: 'pending' });
		}
	});

	it('Get Many: one item per payout, with the filters in the query', async () => {
		await run(create);
		emulator.clearLogs();
		const { output } = await run({
			resource: 'payout',
			operation: 'getAll',
			limit: 5,
			filters: { status: 'pending', destinationAccountNumber: '0123456789', createdOnOrAfter: '2020-01-01T00:00:00Z' },
		});
		const request = onlyRequest();
		expect([request.method, request.path]).toEqual(['GET', '/v1/payouts']);
		expect(request.query).toEqual({
			limit: '5',
			status: 'pending',
			destinationAccountNumber: '0123456789',
			'createdAt.gte': '1577836800',
		});
		expect(output.map((item) => item.json.reference)).toContain('bill-2024-001');
		for (const item of output) {
			expect(item.json).toMatchObject({ status: 'pending', destinationAccountNumber: '0123456789' });
			expect(item.pairedItem).toEqual({ item: 0 });
		}
	});
});

describe('Payment', () => {
	it('Create Transfer Payment: POST /v1/payments, pay_with_transfer, expiresIn 1800 by default', async () => {
		const { output } = await run({
			resource: 'payment',
			operation: 'createTransfer',
			reference: 'order-1001',
			amount: '19.99',
			currency: 'NGN',
			customerEmail: 'ada@example.com',
			customerName: 'Ada Obi',
			additionalFields: { callbackUrl: TRIGGER_URL, metadata: { metadataValues: [{ key: 'order', value: '1001' }] } },
		});
		const request = onlyRequest();
		expect([request.method, request.path]).toEqual(['POST', '/v1/payments']);
		expect(request.body).toEqual({
			reference: 'order-1001',
			paymentMethod: 'pay_with_transfer',
			amount: { value: 1999, currency: 'NGN' },
			customer: { email: 'ada@example.com', name: 'Ada Obi' },
			expiresIn: 1800,
			callbackUrl: TRIGGER_URL,
			metadata: { order: '1001' },
		});
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			id: expect.stringMatching(/^pi_/),
			reference: 'order-1001',
			amount: { value: 1999, currency: 'NGN' },
			accountNumber: expect.stringMatching(/^\d{10}$/),
		});
	});

	it('Create Checkout Link: POST /v1/payments/checkout, returns the authorization URL', async () => {
		const { output } = await run({
			resource: 'payment',
			operation: 'createCheckout',
			reference: 'order-1002',
			amount: 250,
			currency: 'USD',
			customerEmail: 'bola@example.com',
			customerName: 'Bola',
			additionalFields: { returnUrl: 'https://shop.example.com/thanks', callbackUrl: TRIGGER_URL },
		});
		const request = onlyRequest();
		expect([request.method, request.path]).toEqual(['POST', '/v1/payments/checkout']);
		expect(request.body).toEqual({
			reference: 'order-1002',
			amount: { value: 25000, currency: 'USD' },
			customer: { email: 'bola@example.com', name: 'Bola' },
			returnUrl: 'https://shop.example.com/thanks',
			callbackUrl: TRIGGER_URL,
		});
		expect(output[0].json).toMatchObject({
			reference: 'order-1002',
			amount: { value: 25000, currency: 'USD' },
			authorizationUrl: expect.stringMatching(/^https?:\/\//),
			// The one output shape of creates: the marker is there on a first run too.
			_paycashless: { reconciled: false, repeated: false },
		});
	});

	it('Get by ID and Verify by reference', async () => {
		const seeded = emulator.list('payments')[0];
		const got = await run({ resource: 'payment', operation: 'get', paymentId: id(seeded.id as string) });
		const verified = await run({ resource: 'payment', operation: 'verify', reference: seeded.reference as string });
		expect(emulator.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /v1/payments/${seeded.id}`,
			`GET /v1/payments/${seeded.reference}/verify`,
		]);
		expect(got.output[0].json).toMatchObject({ id: seeded.id, reference: seeded.reference });
		expect(verified.output[0].json).toMatchObject({ id: seeded.id, reference: seeded.reference });
	});

	it('Get Many with Return All and creation bounds', async () => {
		const { output } = await run({
			resource: 'payment',
			operation: 'getAll',
			returnAll: true,
			filters: { createdBefore: '2100-01-01T00:00:00Z', createdAfter: '2000-01-01T00:00:00Z' },
		});
		expect(onlyRequest().query).toEqual({ limit: '100', 'createdAt.lt': '4102444800', 'createdAt.gt': '946684800' });
		expect(output.map((item) => item.json.id).sort()).toEqual(emulator.list('payments').map((p) => p.id).sort());
	});
});

describe('Tax Rate and Invoice', () => {
	async function createTaxRate(): Promise<IDataObject> {
		const { output } = await run({ ...vatTaxRateParameters, additionalFields: { description: 'Nigerian VAT', metadata: { metadataValues: [{ key: 'k', value: 'v' }] } } });
		return output[0].json;
	}

	it('Tax Rate Create: POST /v1/tax_rates', async () => {
		const taxRate = await createTaxRate();
		const request = onlyRequest();
		expect([request.method, request.path, request.status]).toEqual(['POST', '/v1/tax_rates', 201]);
		expect(request.body).toEqual({
			name: 'VAT',
			percentage: 7.5,
			taxType: 'vat',
			inclusive: false,
			description: 'Nigerian VAT',
			metadata: { k: 'v' },
		});
		expect(taxRate).toMatchObject({ id: expect.stringMatching(/^txr_/), name: 'VAT', percentage: 7.5, taxType: 'vat' });
	});

	it('Tax Rate Update: PUT /v1/tax_rates/{id} with the chosen fields only', async () => {
		const taxRate = await createTaxRate();
		emulator.clearLogs();
		const { output } = await run({
			resource: 'taxRate',
			operation: 'update',
			taxRateId: taxRate.id as string,
			updateFields: { name: 'VAT 2025', active: false },
		});
		const request = onlyRequest();
		expect([request.method, request.path]).toEqual(['PUT', `/v1/tax_rates/${taxRate.id}`]);
		expect(request.body).toEqual({ name: 'VAT 2025', active: false });
		expect(output[0].json).toMatchObject({ id: taxRate.id, name: 'VAT 2025', active: false, updatedAt: expect.any(String) });
	});

	it('Invoice Create: items in kobo, tax rates, instalments, draft; then Get, Cancel and Get Many', async () => {
		const taxRate = await createTaxRate();
		emulator.clearLogs();
		const created = await run({
			resource: 'invoice',
			operation: 'create',
			reference: 'inv-ref-1',
			invoiceDescription: 'May services',
			currency: 'NGN',
			customerEmail: 'client@example.com',
			customerName: 'Client Ltd',
			items: {
				itemValues: [
					{ name: 'Design', description: 'Logo', quantity: 2, price: 1500.5 },
					{ name: 'Hosting', quantity: 1, price: '19.99' },
				],
			},
			daysUntilDue: 14,
			acceptPartialPayments: true,
			maxInstallments: 3,
			autoFinalize: false,
			additionalFields: {
				sendEmail: false,
				callbackUrl: TRIGGER_URL,
				returnUrl: 'https://shop.example.com/paid',
				taxRateIds: `${taxRate.id}`,
				customerAddress: '1 Marina, Lagos',
				metadata: { metadataValues: [{ key: 'project', value: 'p1' }] },
			},
		});
		const request = onlyRequest();
		expect([request.method, request.path, request.status]).toEqual(['POST', '/v1/invoices', 201]);
		expect(request.body).toEqual({
			reference: 'inv-ref-1',
			description: 'May services',
			currency: 'NGN',
			customer: { email: 'client@example.com', name: 'Client Ltd', address: '1 Marina, Lagos' },
			items: [
				{ name: 'Design', description: 'Logo', quantity: 2, price: 150050 },
				{ name: 'Hosting', quantity: 1, price: 1999 },
			],
			daysUntilDue: 14,
			acceptPartialPayments: true,
			maxInstallments: 3,
			autoFinalize: false,
			sendEmail: false,
			callbackUrl: TRIGGER_URL,
			returnUrl: 'https://shop.example.com/paid',
			taxRateIds: [taxRate.id],
			metadata: { project: 'p1' },
		});
		const invoice = created.output[0].json;
		expect(invoice).toMatchObject({
			id: expect.stringMatching(/^inv_/),
			status: 'draft',
			currency: 'NGN',
			maxInstallments: 3,
			taxRateIds: [taxRate.id],
			hostedInvoiceUrl: expect.any(String),
		});

		emulator.clearLogs();
		const got = await run({ resource: 'invoice', operation: 'get', invoiceId: id(invoice.id as string) });
		const cancelled = await run({
			resource: 'invoice',
			operation: 'cancel',
			invoiceId: fromList(invoice.id as string),
			cancellationReason: 'Order withdrawn',
		});
		const listed = await run({
			resource: 'invoice',
			operation: 'getAll',
			limit: 10,
			filters: { status: 'cancelled', currency: 'NGN', reference: 'inv-ref-1' },
		});
		expect(emulator.requests.map((r) => [r.method, r.path, r.query, r.body])).toEqual([
			['GET', `/v1/invoices/${invoice.id}`, {}, undefined],
			['POST', `/v1/invoices/${invoice.id}/cancel`, {}, { cancellationReason: 'Order withdrawn' }],
			// The reference is sent and checked again on what comes back, so pages of 100 (issue 51).
			['GET', '/v1/invoices', { limit: '100', status: 'cancelled', currency: 'NGN', reference: 'inv-ref-1' }, undefined],
		]);
		expect(got.output[0].json).toMatchObject({ id: invoice.id, reference: 'inv-ref-1' });
		expect(cancelled.output[0].json).toMatchObject({ id: invoice.id, status: 'cancelled' });
		expect(listed.output.map((item) => item.json.id)).toEqual([invoice.id]);
	});
});

describe('Dedicated Account', () => {
	const individual: INodeParameters = {
		...individualAccountParameters,
		kycFields: { otherName: 'Ade', gender: 'male', countryOfOrigin: 'ng' },
		additionalFields: { callbackUrl: TRIGGER_URL },
	};

	it('Create (individual), Get Request Status, then Get the account and find it by BVN', async () => {
		const created = await run(individual);
		const request = onlyRequest();
		expect([request.method, request.path, request.status]).toEqual(['POST', '/v1/dedicated_accounts', 202]);
		expect(request.body).toEqual({
			accountType: 'individual',
			currency: 'NGN',
			preferredBank: 'safehaven_mfb',
			callbackUrl: TRIGGER_URL,
			email: 'tunde@example.com',
			kycProfile: {
				firstName: 'Tunde',
				lastName: 'Bello',
				otherName: 'Ade',
				phoneNumber: '+2348012345678',
				dateOfBirth: '1990-04-25',
				gender: 'male',
				countryOfOrigin: 'NG',
				identities: [{ type: 'bvn', number: '22212345678' }],
			},
		});
		const code = created.output[0].json.accountRequestCode as string;
		expect(created.output[0].json).toMatchObject({ status: 'awaiting_customer_consent', accountRequestCode: expect.stringMatching(/^acc_req_/) });

		await emulator.activateAccountRequest(code);
		emulator.clearLogs();
		const status = await run({ resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode: code });
		const account = status.output[0].json.account as IDataObject;
		expect(status.output[0].json).toMatchObject({ accountRequestCode: code, account: { id: expect.stringMatching(/^va_/) } });

		const got = await run({ resource: 'dedicatedAccount', operation: 'get', dedicatedAccountId: id(account.id as string) });
		const listed = await run({
			resource: 'dedicatedAccount',
			operation: 'getAll',
			returnAll: true,
			filters: { bvn: '22212345678', status: 'active' },
		});
		expect(emulator.requests.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', `/v1/dedicated_accounts/requests/${code}/status`, {}],
			['GET', `/v1/dedicated_accounts/${account.id}`, {}],
			['GET', '/v1/dedicated_accounts', { limit: '100', bvn: '22212345678', status: 'active' }],
		]);
		expect(got.output[0].json).toMatchObject({ id: account.id, accountNumber: account.accountNumber });
		expect(listed.output.map((item) => item.json.id)).toEqual([account.id]);
	});

	it('Create (business) sends the JSON details with accountType business', async () => {
		const { output } = await run(businessAccountParameters);
		expect(onlyRequest().body).toEqual({
			accountType: 'business',
			currency: 'USD',
			preferredBank: 'safehaven_mfb',
			accountName: 'Acme Ltd',
			email: 'finance@acme.example',
			rcNumber: 'RC123',
		});
		expect(output[0].json).toMatchObject({ status: 'awaiting_customer_consent' });
	});
});

describe('several items', () => {
	it('runs each item with its own parameters and pairs every output item with its input', async () => {
		const seeded = emulator.list('payouts');
		const { output } = await run([
			{ resource: 'payout', operation: 'get', payoutId: id(seeded[0].id as string) },
			{ resource: 'payout', operation: 'getAll', limit: 2 },
			{ resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: '000013' },
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json.id).toBe(seeded[0].id);
		expect(output[3].json).toMatchObject({ bank: { nibssCode: '000013' } });
	});
});
