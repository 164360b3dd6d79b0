/** Every endpoint: success code, exact response shape, validation errors, 404 and 409. */
import { startEmulator } from '../../../emulator/index.cjs';
import { call, control, dedicatedAccountBody, invoiceBody, keys, paymentBody, payoutBody } from '../../support/emulatorClient.cjs';
import { useEmulator } from '../../support/emulator.cjs';

const INVOICE_KEYS = [
	'id', 'status', 'customerId', 'description', 'currency', 'reference', 'sendEmail', 'dueDate', 'liveMode', 'number', 'amountDue',
	'amountPaid', 'totalInclusiveTaxAmount', 'totalExclusiveTaxAmount', 'taxRateIds', 'items', 'hostedInvoiceUrl', 'maxInstallments',
].sort();
const TAX_RATE_CREATE_KEYS = ['id', 'name', 'inclusive', 'description', 'active', 'percentage', 'taxType', 'rateType', 'fixedAmount', 'liveMode', 'metadata'].sort();
const PAYMENT_KEYS = [
	'id', 'reference', 'currency', 'status', 'accessToken', 'acceptedAmountPolicy', 'paymentMethod', 'paymentChannel', 'customerId',
	'expectedAmount', 'chargedAmount', 'fee', 'vat', 'emtl', 'callbackUrl', 'returnUrl', 'receiptEmail', 'metadata', 'liveMode', 'createdAt', 'updatedAt',
].sort();
const PAYOUT_KEYS = [
	'id', 'reference', 'amount', 'currency', 'status', 'destinationAccountNumber', 'destinationBankId', 'fee', 'vat', 'networkSessionId',
	'requiresConfirmation', 'confirmationState', 'callbackUrl', 'receiptEmail', 'narration', 'metadata', 'failureCode', 'failureMessage',
	'liveMode', 'initiation', 'approval', 'cancellation', 'createdAt', 'updatedAt',
].sort();
const DEDICATED_ACCOUNT_KEYS = [
	'id', 'accountRequestCode', 'customerId', 'accountNumber', 'accountName', 'bankName', 'bankId', 'currency', 'acceptedAmountPolicy',
	'status', 'type', 'liveMode', 'createdAt', 'updatedAt', 'bank',
].sort();
const BANK_KEYS = ['id', 'name', 'cbnCode', 'nibssCode'].sort();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

describe('emulator endpoints', () => {
	const emulator = useEmulator();

	describe('tax rates', () => {
		it('POST /v1/tax_rates → 201 without timestamps; PUT → 200 with them', async () => {
			const created = await call(emulator, 'POST', '/v1/tax_rates', { body: { name: 'VAT', percentage: 7.5, inclusive: false, description: 'Nigerian VAT', metadata: { k: 'v' } } });
			expect(created.status).toBe(201);
			expect(keys(created.body)).toEqual(TAX_RATE_CREATE_KEYS);
			expect(created.body).toMatchObject({ name: 'VAT', percentage: 7.5, inclusive: false, active: true, taxType: 'vat', rateType: 'percentage', liveMode: false, metadata: { k: 'v' } });
			expect(created.body.id).toMatch(/^txr_/);

			const updated = await call(emulator, 'PUT', `/v1/tax_rates/${created.body.id}`, { body: { name: 'VAT (standard)', active: false } });
			expect(updated.status).toBe(200);
			expect(keys(updated.body)).toEqual([...TAX_RATE_CREATE_KEYS, 'createdAt', 'updatedAt'].sort());
			expect(updated.body).toMatchObject({ id: created.body.id, name: 'VAT (standard)', active: false, percentage: 7.5 });
			expect(updated.body.updatedAt).toMatch(ISO);
		});

		it('validates and 404s', async () => {
			const missing = await call(emulator, 'POST', '/v1/tax_rates', { body: { percentage: 5 } });
			expect(missing.status).toBe(400);
			expect(missing.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_missing', params: ['name'] });
			const tooHigh = await call(emulator, 'POST', '/v1/tax_rates', { body: { name: 'X', percentage: 150 } });
			expect(tooHigh.status).toBe(422);
			expect(tooHigh.body.error.params).toEqual(['percentage']);
			const unknown = await call(emulator, 'PUT', '/v1/tax_rates/txr_nope', { body: { name: 'Y' } });
			expect(unknown.status).toBe(404);
			expect(unknown.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing' });
		});
	});

	describe('invoices', () => {
		it('POST /v1/invoices → 201 draft with amounts computed from items and tax rates', async () => {
			const vat = await call(emulator, 'POST', '/v1/tax_rates', { body: { name: 'VAT', percentage: 7.5, inclusive: false } });
			const included = await call(emulator, 'POST', '/v1/tax_rates', { body: { name: 'Levy', percentage: 10, inclusive: true } });
			const answer = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('inv-1', { taxRateIds: [vat.body.id, included.body.id] }) });
			expect(answer.status).toBe(201);
			expect(keys(answer.body)).toEqual(INVOICE_KEYS);
			const subtotal = 2 * 150000 + 1 * 50000;
			const exclusive = Math.round((subtotal * 7.5) / 100);
			const inclusive = Math.round((subtotal * 10) / 110);
			expect(answer.body).toMatchObject({
				status: 'draft',
				currency: 'NGN',
				reference: 'inv-1',
				amountDue: subtotal + exclusive,
				amountPaid: 0,
				totalExclusiveTaxAmount: exclusive,
				totalInclusiveTaxAmount: inclusive,
				taxRateIds: [vat.body.id, included.body.id],
				maxInstallments: 1,
				liveMode: false,
				sendEmail: false,
			});
			expect(answer.body.id).toMatch(/^inv_/);
			expect(answer.body.customerId).toMatch(/^cus_/);
			expect(answer.body.hostedInvoiceUrl).toBe(`${emulator.baseUrl}/pay/${answer.body.id}`);
			expect(answer.body.items.map((i: any) => keys(i))).toEqual([['id', 'name', 'price', 'quantity'], ['id', 'name', 'price', 'quantity']]);
			expect(Date.parse(answer.body.dueDate) - Date.now()).toBeGreaterThan(13 * 86_400_000);

			const got = await call(emulator, 'GET', `/v1/invoices/${answer.body.id}`);
			expect(got.status).toBe(200);
			expect(keys(got.body)).toEqual([...INVOICE_KEYS, 'taxRates'].sort());
			expect(got.body.taxRates).toEqual([
				{ id: vat.body.id, name: 'VAT', percentage: 7.5 },
				{ id: included.body.id, name: 'Levy', percentage: 10 },
			]);
			const page = await call(emulator, 'GET', '/v1/invoices', { query: { reference: 'inv-1' } });
			expect(page.status).toBe(200);
			expect(page.body.data.map((i: any) => i.id)).toEqual([answer.body.id]);
		});

		it('autoFinalize true → open; cancel → cancelled; cancelling twice → 400', async () => {
			const created = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('inv-open', { autoFinalize: true, acceptPartialPayments: true, maxInstallments: 3 }) });
			expect(created.body).toMatchObject({ status: 'open', maxInstallments: 3 });
			const cancelled = await call(emulator, 'POST', `/v1/invoices/${created.body.id}/cancel`, { body: { cancellationReason: 'Duplicate' } });
			expect(cancelled.status).toBe(200);
			expect(cancelled.body.status).toBe('cancelled');
			const again = await call(emulator, 'POST', `/v1/invoices/${created.body.id}/cancel`, { body: { cancellationReason: 'Duplicate' } });
			expect(again.status).toBe(400);
			expect(again.body.error.code).toBe('invalid_state');
			const noReason = await call(emulator, 'POST', `/v1/invoices/${created.body.id}/cancel`, { body: {} });
			expect(noReason.status).toBe(400);
			expect(noReason.body.error.params).toEqual(['cancellationReason']);
		});

		it.each([
			['reference missing', 400, 'parameter_missing', 'reference', { reference: undefined }],
			['description missing', 400, 'parameter_missing', 'description', { description: undefined }],
			['currency not NGN/USD', 422, 'parameter_invalid', 'currency', { currency: 'EUR' }],
			['customer email invalid', 422, 'parameter_invalid', 'customer.email', { customer: { email: 'not-an-email' } }],
			['daysUntilDue 0', 422, 'parameter_invalid', 'daysUntilDue', { daysUntilDue: 0 }],
			['daysUntilDue 1801', 422, 'parameter_invalid', 'daysUntilDue', { daysUntilDue: 1801 }],
			['maxInstallments missing with partial payments', 400, 'parameter_missing', 'maxInstallments', { acceptPartialPayments: true }],
			['item price not a positive integer', 422, 'parameter_invalid', 'items[0].price', { items: [{ name: 'A', quantity: 1, price: 10.5 }] }],
			['no items', 422, 'parameter_invalid', 'items', { items: [] }],
			['unknown tax rate', 422, 'parameter_invalid', 'taxRateIds[0]', { taxRateIds: ['txr_missing'] }],
		])('%s → %i %s', async (_name, status, code, field, overrides) => {
			const answer = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody(`inv-bad-${field}`, overrides) });
			expect(answer.status).toBe(status);
			expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code, params: [field] });
			expect(answer.body.error.message).toContain(field);
			expect(emulator.list('invoices').some((i) => String(i.reference).startsWith('inv-bad-'))).toBe(false);
		});

		it('409 on a repeated reference; 404 on unknown ids', async () => {
			expect((await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('inv-dup') })).status).toBe(201);
			const dup = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('inv-dup') });
			expect(dup.status).toBe(409);
			expect(dup.body.error).toMatchObject({ type: 'idempotency_error', code: 'duplicate_reference' });
			expect(emulator.list('invoices').filter((i) => i.reference === 'inv-dup')).toHaveLength(1);
			expect((await call(emulator, 'GET', '/v1/invoices/inv_missing')).status).toBe(404);
			expect((await call(emulator, 'POST', '/v1/invoices/inv_missing/cancel', { body: { cancellationReason: 'x' } })).status).toBe(404);
		});
	});

	describe('payments', () => {
		it('POST /v1/payments → 200 with the transfer account; GET by id and verify by reference', async () => {
			const answer = await call(emulator, 'POST', '/v1/payments', { body: paymentBody('pay-1', { metadata: { order: 7 } }) });
			expect(answer.status).toBe(200);
			expect(keys(answer.body)).toEqual(['id', 'reference', 'accountName', 'accountNumber', 'bankName', 'amount', 'customer', 'liveMode', 'expiresAt', 'metadata'].sort());
			expect(answer.body.id).toMatch(/^pi_/);
			expect(answer.body.accountNumber).toMatch(/^\d{10}$/);
			expect(answer.body.amount).toEqual({ value: 250000, currency: 'NGN' });
			expect(keys(answer.body.customer)).toEqual(['id', 'name', 'email', 'phoneNumber', 'address', 'reference', 'isBlacklisted', 'liveMode'].sort());
			expect(Date.parse(answer.body.expiresAt) - Date.now()).toBeGreaterThan(1790_000);

			const byId = await call(emulator, 'GET', `/v1/payments/${answer.body.id}`);
			expect(byId.status).toBe(200);
			expect(keys(byId.body)).toEqual(PAYMENT_KEYS);
			expect(byId.body).toMatchObject({ status: 'initiated', expectedAmount: 250000, chargedAmount: 0, paymentMethod: 'pay_with_transfer', metadata: { order: 7 } });
			const verified = await call(emulator, 'GET', '/v1/payments/pay-1/verify');
			expect(verified.status).toBe(200);
			expect(verified.body).toEqual(byId.body);
		});

		it('POST /v1/payments/checkout → 200 with authorizationUrl', async () => {
			const answer = await call(emulator, 'POST', '/v1/payments/checkout', {
				body: { reference: 'chk-1', amount: { value: 5000, currency: 'USD' }, customer: { email: 'bo@example.com', name: 'Bo' }, returnUrl: 'https://shop.example.com/done', callbackUrl: 'https://hooks.example.com/x' },
			});
			expect(answer.status).toBe(200);
			expect(keys(answer.body)).toEqual(['id', 'reference', 'amount', 'authorizationUrl', 'returnUrl', 'callbackUrl', 'expiresAt', 'metadata'].sort());
			expect(answer.body.authorizationUrl).toBe(`${emulator.baseUrl}/checkout/${answer.body.id}`);
			const page = await fetch(answer.body.authorizationUrl);
			expect(page.status).toBe(200);
			expect(await page.text()).toContain('chk-1');
			const stored = await call(emulator, 'GET', `/v1/payments/${answer.body.id}`);
			expect(stored.body).toMatchObject({ paymentChannel: 'checkout', paymentMethod: null, currency: 'USD', returnUrl: 'https://shop.example.com/done' });
		});

		it.each([
			['expiresIn missing', 400, 'parameter_missing', 'expiresIn', { expiresIn: undefined }],
			['reference missing', 400, 'parameter_missing', 'reference', { reference: undefined }],
			['amount not an integer', 422, 'parameter_invalid', 'amount.value', { amount: { value: 10.5, currency: 'NGN' } }],
			['amount zero', 422, 'parameter_invalid', 'amount.value', { amount: { value: 0, currency: 'NGN' } }],
			['currency not NGN/USD', 422, 'parameter_invalid', 'amount.currency', { amount: { value: 100, currency: 'GHS' } }],
			['email invalid', 422, 'parameter_invalid', 'customer.email', { customer: { email: 'x@' } }],
		])('%s → %i %s', async (_name, status, code, field, overrides) => {
			const answer = await call(emulator, 'POST', '/v1/payments', { body: paymentBody(`pay-bad-${field}`, overrides) });
			expect(answer.status).toBe(status);
			expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code, params: [field] });
		});

		it('409 on a repeated reference across both kinds; 404 on unknown', async () => {
			expect((await call(emulator, 'POST', '/v1/payments', { body: paymentBody('pay-dup') })).status).toBe(200);
			const again = await call(emulator, 'POST', '/v1/payments', { body: paymentBody('pay-dup') });
			expect(again.status).toBe(409);
			expect(again.body.error).toMatchObject({ type: 'idempotency_error', code: 'duplicate_reference' });
			const viaCheckout = await call(emulator, 'POST', '/v1/payments/checkout', { body: { reference: 'pay-dup', amount: { value: 1, currency: 'NGN' }, customer: { email: 'a@b.co' } } });
			expect(viaCheckout.status).toBe(409);
			expect((await call(emulator, 'GET', '/v1/payments/pi_missing')).status).toBe(404);
			expect((await call(emulator, 'GET', '/v1/payments/no-such-ref/verify')).body.error.code).toBe('resource_missing');
		});
	});

	describe('payouts', () => {
		it('POST /v1/payouts → 202 {id, status: pending, reference}; GET by id and verify', async () => {
			const answer = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('po-1', { callbackUrl: 'https://hooks.example.com/p', metadata: { category: 'transfer' } }) });
			expect(answer.status).toBe(202);
			expect(keys(answer.body)).toEqual(['id', 'reference', 'status']);
			expect(answer.body).toMatchObject({ status: 'pending', reference: 'po-1' });
			expect(answer.body.id).toMatch(/^po_/);
			const byId = await call(emulator, 'GET', `/v1/payouts/${answer.body.id}`);
			expect(byId.status).toBe(200);
			expect(keys(byId.body)).toEqual(PAYOUT_KEYS);
			expect(keys(byId.body.initiation)).toEqual(['actor', 'apiKey', 'ip', 'user']);
			expect(byId.body).toMatchObject({ amount: 10000, currency: 'NGN', destinationAccountNumber: '9845648577', narration: 'zapped', networkSessionId: null, failureCode: null, approval: null, cancellation: null });
			const verified = await call(emulator, 'GET', '/v1/payouts/verify/po-1');
			expect(verified.body).toEqual(byId.body);
		});

		it.each([
			['amount negative', { amount: { value: -5 } }, /amount/],
			['amount as a bare number', { amount: 10000 }, /amount/],
			['account number not 10 digits', { destinationAccountNumber: '12345' }, /account/i],
			['account that does not exist', { destinationAccountNumber: '0001234567' }, /account/i],
			['unknown bankId', { bankId: '058' }, /bank/i],
			['reference missing', { reference: undefined }, /reference/],
		])('%s → 400 {status: failed, message}', async (_name, overrides, mentions) => {
			const before = emulator.list('payouts').length;
			const answer = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('po-bad', overrides) });
			expect(answer.status).toBe(400);
			expect(keys(answer.body)).toEqual(['message', 'status']);
			expect(answer.body.status).toBe('failed');
			expect(answer.body.message).toMatch(mentions);
			expect(emulator.list('payouts')).toHaveLength(before);
		});

		it('insufficient balance → 422 in the payout form; nothing stored', async () => {
			await control(emulator, 'PUT', '/__emulator/balance', { NGN: 10_000 });
			try {
				const answer = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('po-poor') });
				expect(answer.status).toBe(422);
				expect(answer.body).toEqual({ status: 'failed', message: expect.stringMatching(/insufficient balance/i) });
				expect(emulator.list('payouts').some((p) => p.reference === 'po-poor')).toBe(false);
				const ok = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('po-poor', { amount: { value: 8_000 } }) });
				expect(ok.status).toBe(202);
				expect((await control(emulator, 'GET', '/__emulator/balance')).body.NGN).toBe(10_000 - 8_000 - 1_000 - 75);
			} finally {
				await control(emulator, 'PUT', '/__emulator/balance', { NGN: 1e15 });
			}
		});

		it('409 on a repeated reference (no second payout); 404 on unknown', async () => {
			expect((await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('po-dup') })).status).toBe(202);
			const again = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('po-dup', { amount: { value: 99 } }) });
			expect(again.status).toBe(409);
			expect(again.body.error).toMatchObject({ type: 'idempotency_error', code: 'duplicate_reference' });
			expect(emulator.list('payouts').filter((p) => p.reference === 'po-dup')).toHaveLength(1);
			expect((await call(emulator, 'GET', '/v1/payouts/po_missing')).status).toBe(404);
			expect((await call(emulator, 'GET', '/v1/payouts/verify/missing-ref')).status).toBe(404);
		});
	});

	describe('dedicated accounts', () => {
		it('POST → 202 awaiting consent; status; activate → active account in list, by id and by bvn', async () => {
			const answer = await call(emulator, 'POST', '/v1/dedicated_accounts', { body: dedicatedAccountBody() });
			expect(answer.status).toBe(202);
			expect(keys(answer.body)).toEqual(['accountRequestCode', 'message', 'status']);
			expect(answer.body.status).toBe('awaiting_customer_consent');
			const code = answer.body.accountRequestCode;
			expect(code).toMatch(/^acc_req_/);

			const pending = await call(emulator, 'GET', `/v1/dedicated_accounts/requests/${code}/status`);
			expect(pending.status).toBe(200);
			expect(pending.body).toEqual({ accountRequestCode: code, status: 'awaiting_customer_consent', liveMode: false, account: null });

			await emulator.activateAccountRequest(code);
			const active = await call(emulator, 'GET', `/v1/dedicated_accounts/requests/${code}/status`);
			expect(active.body.status).toBe('active');
			expect(keys(active.body.account)).toEqual(['accountName', 'accountNumber', 'bankId', 'bankName', 'currency', 'id']);
			expect(active.body.account).toMatchObject({ accountName: 'Ada Obi', bankName: 'Safe Haven Microfinance Bank', currency: 'NGN' });

			const byId = await call(emulator, 'GET', `/v1/dedicated_accounts/${active.body.account.id}`);
			expect(byId.status).toBe(200);
			expect(keys(byId.body)).toEqual(DEDICATED_ACCOUNT_KEYS);
			expect(keys(byId.body.bank)).toEqual(BANK_KEYS);
			expect(byId.body).toMatchObject({ status: 'active', accountRequestCode: code, accountNumber: active.body.account.accountNumber });
			expect(byId.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);

			const list = await call(emulator, 'GET', '/v1/dedicated_accounts', { query: { bvn: '22212345678' } });
			expect(list.body.data.map((a: any) => a.id)).toEqual([byId.body.id]);
			expect((await call(emulator, 'GET', '/v1/dedicated_accounts', { query: { bvn: '22200000000' } })).body.data).toEqual([]);
		});

		it('errors use {error: {type, code, message, params}}; 404s', async () => {
			const noCurrency = await call(emulator, 'POST', '/v1/dedicated_accounts', { body: dedicatedAccountBody({ currency: undefined }) });
			expect(noCurrency.status).toBe(400);
			expect(keys(noCurrency.body.error)).toEqual(['code', 'message', 'params', 'type']);
			expect(noCurrency.body.error.params).toEqual(['currency']);
			const badDate = await call(emulator, 'POST', '/v1/dedicated_accounts', {
				body: dedicatedAccountBody({ kycProfile: { ...(dedicatedAccountBody().kycProfile as object), dateOfBirth: '12/04/1990' } }),
			});
			expect(badDate.status).toBe(422);
			expect(badDate.body.error.params).toEqual(['kycProfile.dateOfBirth']);
			const shortBvn = await call(emulator, 'POST', '/v1/dedicated_accounts', {
				body: dedicatedAccountBody({ kycProfile: { ...(dedicatedAccountBody().kycProfile as object), identities: [{ type: 'bvn', number: '123' }] } }),
			});
			expect(shortBvn.status).toBe(422);
			expect(shortBvn.body.error.params).toEqual(['kycProfile.identities[0].number']);
			expect((await call(emulator, 'GET', '/v1/dedicated_accounts/va_missing')).status).toBe(404);
			expect((await call(emulator, 'GET', '/v1/dedicated_accounts/requests/acc_req_missing/status')).status).toBe(404);
		});
	});

	describe('account lookup', () => {
		it('resolves by CBN or NIBSS code to the same deterministic name', async () => {
			const byCbn = await call(emulator, 'GET', '/v1/banks/account_lookup', { query: { accountNumber: '0123456789', bankCode: '058' } });
			expect(byCbn.status).toBe(200);
			expect(keys(byCbn.body)).toEqual(['accountName', 'accountNumber', 'bank']);
			expect(keys(byCbn.body.bank)).toEqual(BANK_KEYS);
			expect(byCbn.body.bank).toMatchObject({ name: 'Guaranty Trust Bank', cbnCode: '058', nibssCode: '000013' });
			expect(byCbn.body.bank.id).toMatch(/^bank_[0-9a-f]{32}$/);
			const byNibss = await call(emulator, 'GET', '/v1/banks/account_lookup', { query: { accountNumber: '0123456789', bankCode: '000013' } });
			expect(byNibss.body).toEqual(byCbn.body);
			const other = await call(emulator, 'GET', '/v1/banks/account_lookup', { query: { accountNumber: '0123456780', bankCode: '058' } });
			expect(other.body.accountNumber).toBe('0123456780');
		});

		it('unknown bank → 404, bad account number → 400, missing parameter → 400', async () => {
			const unknownBank = await call(emulator, 'GET', '/v1/banks/account_lookup', { query: { accountNumber: '0123456789', bankCode: '999' } });
			expect(unknownBank.status).toBe(404);
			expect(unknownBank.body.error.code).toBe('resource_missing');
			const short = await call(emulator, 'GET', '/v1/banks/account_lookup', { query: { accountNumber: '12345', bankCode: '058' } });
			expect(short.status).toBe(400);
			expect(short.body.error.params).toEqual(['accountNumber']);
			const missing = await call(emulator, 'GET', '/v1/banks/account_lookup', { query: { accountNumber: '0123456789' } });
			expect(missing.status).toBe(400);
			expect(missing.body.error.params).toEqual(['bankCode']);
		});
	});

	describe('echo (an emulator-only endpoint the node does not model)', () => {
		it('answers what it received, after the same key and signature checks', async () => {
			const body = { note: 'Ọjà', nested: { b: 2, a: 1 } };
			const ok = await call(emulator, 'POST', '/v1/emulator/echo', { body, query: { page: 2 } });
			expect(ok.status).toBe(200);
			expect(ok.body).toEqual({ echo: true, method: 'POST', path: '/v1/emulator/echo', query: { page: '2' }, body });
			const get = await call(emulator, 'GET', '/v1/emulator/echo');
			expect(get.body).toMatchObject({ echo: true, method: 'GET', body: null });
			const forged = await call(emulator, 'POST', '/v1/emulator/echo', { body, credentials: { apiSecret: 'sk_wrong' } });
			expect(forged.status).toBe(401);
			expect(forged.body.error.code).toBe('invalid_signature');
		});
	});

	describe('list items', () => {
		it('seeded and created items of every list have exactly the fields of a single GET', async () => {
			const seeded = await startEmulator({ seed: { invoices: 30, payments: 30, payouts: 30, dedicatedAccounts: 30 } });
			try {
				await call(seeded, 'POST', '/v1/payouts', { body: payoutBody('shape-po') });
				await call(seeded, 'POST', '/v1/payments', { body: paymentBody('shape-pi') });
				await call(seeded, 'POST', '/v1/invoices', { body: invoiceBody('shape-inv') });
				const lists: Array<[string, string[]]> = [
					['/v1/payouts', PAYOUT_KEYS],
					['/v1/payments', PAYMENT_KEYS],
					['/v1/invoices', [...INVOICE_KEYS, 'taxRates'].sort()],
					['/v1/dedicated_accounts', DEDICATED_ACCOUNT_KEYS],
				];
				for (const [path, expected] of lists) {
					const page = await call(seeded, 'GET', path, { query: { limit: 100 } });
					expect(page.body.data.length).toBeGreaterThanOrEqual(30);
					for (const item of page.body.data) expect(keys(item)).toEqual(expected);
				}
				const payouts = (await call(seeded, 'GET', '/v1/payouts', { query: { limit: 100 } })).body.data;
				for (const payout of payouts) {
					expect(keys(payout.initiation)).toEqual(['actor', 'apiKey', 'ip', 'user']);
					expect(payout.createdAt).toMatch(ISO);
					expect(payout.amount).toBeGreaterThan(0);
					expect(Number.isInteger(payout.amount)).toBe(true);
				}
			} finally {
				await seeded.close();
			}
		});
	});

	describe('requests in general', () => {
		it('unknown route → 404; bad JSON → 400; missing body → 400', async () => {
			const route = await call(emulator, 'GET', '/v1/customers');
			expect(route.status).toBe(404);
			expect(route.body.error.code).toBe('route_not_found');
			const badJson = await call(emulator, 'POST', '/v1/invoices', { body: 'not json' });
			expect(badJson.status).toBe(400);
			expect(badJson.body.error.code).toBe('invalid_json');
			const noBody = await call(emulator, 'POST', '/v1/tax_rates');
			expect(noBody.status).toBe(400);
		});

		it('records /v1 requests (not control ones) with status and raw body', async () => {
			emulator.clearLogs();
			await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('po-recorded') });
			await control(emulator, 'GET', '/__emulator/health');
			expect(emulator.requests).toHaveLength(1);
			const [recorded] = emulator.requests;
			expect(recorded).toMatchObject({ method: 'POST', path: '/v1/payouts', status: 202, body: payoutBody('po-recorded') });
			expect(recorded.rawBody).toBe(JSON.stringify(JSON.parse(recorded.rawBody)));
			expect(recorded.headers['request-signature']).toMatch(/^[0-9a-f]{128}$/);
		});
	});
});
