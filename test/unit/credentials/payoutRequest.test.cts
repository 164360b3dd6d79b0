/**
 * What the credential holds as a payout, judged by what a request would do (lib/payoutBody.ts
 * `readPayoutRequest`), and payout settings that fail closed (lib/payoutCeiling.ts
 * `readPayoutSettings`):
 * - a body carrying a destination account and an amount is a payout wherever it goes on the Base
 *   URL's origin, in every shape (nested, a list, JSON inside text, not JSON, a form, a query
 *   string, any method): checked against the ceiling (each payout of a list), or refused;
 * - what carries no payout (lookups, lists, payments, invoices, dedicated accounts, tax rates) is
 *   signed as before, also with payouts off;
 * - a Payouts setting or Maximum Payout that is set but cannot be read refuses every payout, and
 *   the credential's Test says why (authenticate, with the Test's own request).
 * The path and body variants of the ceiling: ./credentialCeiling.test.cts.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INodeParameters } from 'n8n-workflow';

import { PaycashlessApi } from '../../../credentials/PaycashlessApi.credentials';
import { readPayoutRequest } from '../../../lib/payoutRequest';
import { payoutCeilingRefusal, readPayoutSettings, type PayoutCeilingSettings } from '../../../lib/payoutCeiling';
import { bodyToSign } from '../../../lib/signing';
import { runNode } from '../../../scripts/harness/executeContext.cjs';
import { businessAccountParameters, individualAccountParameters, vatTaxRateParameters } from '../../../scripts/harness/fixtures.cjs';
import { useEmulator } from '../../support/emulator.cjs';
import { credentialsOf } from '../../support/reliability.cjs';

const API = 'https://api.paycashless.com';
const payout = (kobo: number, reference = 'r-1', currency = 'NGN') => ({ reference, amount: { value: kobo, currency }, destinationAccountNumber: '0123456789', bankId: 'bank_x' });
const NGN_1000: PayoutCeilingSettings = { maxPayoutNgn: 1000 };
const refusal = (settings: PayoutCeilingSettings, method: string, path: string, body?: unknown, extra: Record<string, unknown> = {}) =>
	payoutCeilingRefusal(settings, { method, body, ...extra }, path.startsWith('http') ? path : `${API}${path}`)?.message;

describe('a body that carries a destination account and an amount is a payout wherever it goes', () => {
	const elsewhere = ['/v1/transfers', '/v1/payouts/po_1', '/v1/payouts/verify/r-1', '/v2/payouts', '/v1/payouts/bulk', '/v1/payments/transfer', '/webhook'];

	it.each(elsewhere)('POST %s: above the ceiling refused, with payouts off refused, at the ceiling signed', (path) => {
		expect(refusal(NGN_1000, 'POST', path, payout(100_001))).toBe(
			'Refused by the Paycashless credential: NGN 1,000.01 is above its Maximum Payout (NGN) (its body carries a destination account and an amount: a payout, wherever it is sent)',
		);
		expect(refusal({ payouts: 'off' }, 'POST', path, payout(1))).toMatch(/^Refused by the Paycashless credential: payouts are switched off \(its body carries/);
		expect(refusal(NGN_1000, 'POST', path, payout(100_000))).toBeUndefined();
		expect(refusal({}, 'POST', path, payout(10 ** 12))).toBeUndefined();
	});

	it.each(['PUT', 'PATCH', 'DELETE', 'GET', 'OPTIONS'])('%s with a payout body to another path is read the same', (method) => {
		expect(refusal(NGN_1000, method, '/v1/transfers', payout(100_001))).toMatch(/NGN 1,000\.01 is above its Maximum Payout/);
		expect(refusal(NGN_1000, method, '/v1/transfers', JSON.stringify(payout(100_001)))).toMatch(/NGN 1,000\.01 is above/);
	});

	it('a key twice in JSON text: the text is sent as parsed (the last key), and that is what is checked', () => {
		const twice = '{"data":{"amount":{"value":1,"currency":"NGN"},"amount":{"value":500000000,"currency":"NGN"},"reference":"r","destinationAccountNumber":"0123456789","bankId":"b"}}';
		expect(refusal(NGN_1000, 'POST', '/v1/transfers', twice)).toMatch(/NGN 5,000,000\.00 is above its Maximum Payout/);
	});

	it('nested under another key, in a list, in a list under a key: each payout is checked', () => {
		expect(refusal(NGN_1000, 'POST', '/v1/transfers', { data: payout(100_001) })).toMatch(/NGN 1,000\.01 is above/);
		expect(refusal(NGN_1000, 'POST', '/v1/payouts/bulk', [payout(100, 'a'), payout(200_000, 'b')])).toBe(
			'Refused by the Paycashless credential: NGN 2,000.00 is above its Maximum Payout (NGN) (payout 2 of 2 in the body) (its body carries a destination account and an amount: a payout, wherever it is sent)',
		);
		expect(refusal(NGN_1000, 'POST', '/v1/payouts/bulk', { payouts: [payout(100, 'a'), payout(100, 'b', 'USD')] })).toMatch(/sets no Maximum Payout for USD \(payout 2 of 2/);
		expect(refusal(NGN_1000, 'POST', '/v1/payouts/bulk', { payouts: [payout(100, 'a'), payout(99_999, 'b')] })).toBeUndefined();
		expect(readPayoutRequest({ method: 'POST', url: `${API}/v1/payouts/bulk`, body: bodyToSign('POST', [payout(1, 'a'), payout(2, 'b')]) })).toMatchObject({
			kind: 'payouts',
			create: false,
			payouts: [expect.objectContaining({ reference: 'a', minor: 1 }), expect.objectContaining({ reference: 'b', minor: 2 })],
		});
	});

	it.each<[string, unknown]>([
		['the account number under another spelling', { reference: 'r', amount: { value: 1, currency: 'NGN' }, destination_account_number: '0123456789', bankId: 'b' }],
		['another account key', { reference: 'r', amount: { value: 1, currency: 'NGN' }, accountNumber: '0123456789', bank: 'b' }],
		['a bare amount', { reference: 'r', amount: 1, destinationAccountNumber: '0123456789', bankId: 'b' }],
		['an amount in kobo under another key', { reference: 'r', amountInKobo: 1, beneficiaryAccount: '0123456789' }],
		['the account and the amount in different objects', { destination: { accountNumber: '0123456789' }, money: { amount: { value: 1, currency: 'NGN' } } }],
		['an amount beside a payout', { payout: payout(1), amount: { value: 500_000_000, currency: 'NGN' } }],
		['a payout written as JSON inside a text value', { payload: JSON.stringify(payout(1)) }],
		['a key twice (bytes, sent as they are)', Buffer.from(`{"data":{"amount":{"value":1,"currency":"NGN"},"amount":{"value":500000000,"currency":"NGN"},"reference":"r","destinationAccountNumber":"0123456789","bankId":"b"}}`)],
		['text that is not JSON', 'destinationAccountNumber=0123456789&amount=500000000'],
		['JSON with a byte-order mark', `\uFEFF${JSON.stringify(payout(500_000_000))}`],
		['UTF-16 bytes', Buffer.from(`\uFEFF${JSON.stringify(payout(500_000_000))}`, 'utf16le')],
		['nested past 32 levels', JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) as unknown],
	])('%s: unreadable, so refused under a ceiling and with payouts off, signed without either', (_, body) => {
		expect(refusal(NGN_1000, 'POST', '/v1/transfers', body)).toMatch(/^Refused by the Paycashless credential: this payout's amount cannot be checked against its Maximum Payout \(.+\) \(its body carries/);
		expect(refusal({ payouts: 'off' }, 'POST', '/v1/transfers', body)).toMatch(/payouts are switched off/);
		expect(refusal({}, 'POST', '/v1/transfers', body)).toBeUndefined();
	});

	it('a form or a query string that names an account number and an amount is refused; at /v1/payouts any payout field in the query', () => {
		expect(refusal(NGN_1000, 'POST', '/v1/transfers', undefined, { form: { destinationAccountNumber: '0123456789', amount: 1 } })).toMatch(/a form that names an account number and an amount/);
		expect(refusal(NGN_1000, 'POST', '/v1/transfers?destinationAccountNumber=0123456789&amount=500000000')).toMatch(/its query string names an account number and an amount/);
		expect(refusal(NGN_1000, 'POST', '/v1/transfers', undefined, { qs: { accountNumber: '0123456789', 'amount[value]': 5 } })).toMatch(/query string/);
		expect(refusal({ payouts: 'off' }, 'GET', '/v1/transfers', undefined, { qs: { beneficiary_account: '0123456789', amount: 5 } })).toMatch(/payouts are switched off/);
		expect(refusal(NGN_1000, 'POST', '/v1/payouts?amount=500000000', payout(1))).toMatch(/its query string names payout fields/);
	});

	it('what carries no payout is signed, also with payouts off: lists with filters, lookups, payments, invoices, dedicated accounts, tax rates', () => {
		const off: PayoutCeilingSettings = { payouts: 'off' };
		expect(refusal(off, 'GET', '/v1/payouts', undefined, { qs: { destinationAccountNumber: '0123456789', status: 'pending', limit: 100 } })).toBeUndefined();
		expect(refusal(off, 'GET', '/v1/banks/account_lookup', undefined, { qs: { accountNumber: '0123456789', bankCode: '044' } })).toBeUndefined();
		expect(refusal(off, 'POST', '/v1/payments/transfer', { reference: 'p', amount: { value: 100, currency: 'NGN' }, customer: { email: 'a@b.c' }, acceptedAmountPolicy: 'exact' })).toBeUndefined();
		expect(refusal(off, 'POST', '/v1/dedicated-accounts', { accountType: 'individual', acceptedAmountPolicy: 'any', kycProfile: { bankAccountNumber: '0123456789', bankId: 'bank_x' } })).toBeUndefined();
		expect(refusal(off, 'POST', '/v1/invoices', { reference: 'i', items: [{ name: 'amount due', price: 100 }], description: 'account number 0123456789, amount 5000' })).toBeUndefined();
	});
});

describe('every operation of the node that moves no payout, with payouts off and a ceiling of NGN 1 (against the emulator)', () => {
	const emulator = useEmulator();
	beforeEach(() => emulator.reset({ payouts: 2, payments: 2, invoices: 2, dedicatedAccounts: 2 }));
	const writes: Array<[string, INodeParameters]> = [
		['Dedicated Account → Create (individual, with a bank account in the KYC profile)', { ...individualAccountParameters, kycFields: { bankAccountNumber: '0123456789' } }],
		['Dedicated Account → Create (business)', businessAccountParameters],
		['Payment → Create Transfer', { resource: 'payment', operation: 'createTransfer', reference: 'pay-off-1', amount: 2500, currency: 'NGN', customerEmail: 'bola@example.com', customerName: 'Bola Ade' }],
		['Payment → Create Checkout', { resource: 'payment', operation: 'createCheckout', reference: 'chk-off-1', amount: 99.99, currency: 'USD', customerEmail: 'chi@example.com', customerName: 'Chi Eze', additionalFields: { returnUrl: 'https://shop.example.com/thanks' } }],
		['Invoice → Create', { resource: 'invoice', operation: 'create', reference: 'inv-off-1', invoiceDescription: 'May', currency: 'NGN', customerEmail: 'c@example.com', customerName: 'Client Ltd', items: { itemValues: [{ name: 'Consulting', quantity: 1, price: 1500 }] }, daysUntilDue: 14 }],
		['Tax Rate → Create', vatTaxRateParameters],
		['Bank Account → Look Up', { resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: '044' }],
	];
	it.each(writes)('%s is signed and sent', async (_, parameters) => {
		for (const settings of [{ payouts: 'off' }, { maxPayoutNgn: 1, maxPayoutUsd: 1 }]) {
			emulator.clearLogs();
			const { output } = await runNode({ parameters, credentials: { ...credentialsOf(emulator), ...settings } });
			expect(output).toHaveLength(1);
			expect(emulator.requests.length).toBeGreaterThan(0);
		}
	});

	it('Payout → Create is refused with payouts off: nothing reaches Paycashless', async () => {
		const error = await runNode({
			parameters: { resource: 'payout', operation: 'create', reference: 'po-off-1', amount: 10, currency: 'NGN', destinationAccountNumber: '0123456789', bankId: 'bank_538ed2056326432ba8e6853b613997bb' },
			credentials: { ...credentialsOf(emulator), payouts: 'off' },
		}).then(
			() => undefined,
			(thrown: Error) => thrown,
		);
		expect(error?.message).toBe('Refused by the Paycashless credential: payouts are switched off');
		expect(emulator.requests).toHaveLength(0);
	});
});

describe('payout settings fail closed', () => {
	it.each<[string, PayoutCeilingSettings, RegExp]>([
		['a Maximum Payout as text that is not a number', { maxPayoutNgn: 'abc' }, /its Maximum Payout \(NGN\) is set but is not an amount in naira/],
		['a negative Maximum Payout', { maxPayoutNgn: -1 }, /Maximum Payout \(NGN\) is set but/],
		['a Maximum Payout with a thousands separator', { maxPayoutNgn: '1,000' }, /Maximum Payout \(NGN\)/],
		['a Maximum Payout in exponent form', { maxPayoutNgn: '1e3' }, /Maximum Payout \(NGN\)/],
		['a Maximum Payout with a fraction of a kobo', { maxPayoutNgn: 1000.005 }, /Maximum Payout \(NGN\)/],
		['a Maximum Payout that is not a finite number', { maxPayoutNgn: Number.POSITIVE_INFINITY }, /Maximum Payout \(NGN\)/],
		['a Maximum Payout that is an object', { maxPayoutNgn: { value: 1 } }, /Maximum Payout \(NGN\)/],
		['a Maximum Payout that is true', { maxPayoutNgn: true }, /Maximum Payout \(NGN\)/],
		['an expression left unresolved', { maxPayoutUsd: '={{ $json.ceiling }}' }, /Maximum Payout \(USD\) is set but is not an amount in dollars/],
		['Payouts in another case', { payouts: 'Off' }, /its Payouts setting is neither Allowed nor Off/],
		['Payouts Allowed in capitals', { payouts: 'ALLOWED', maxPayoutNgn: 1000 }, /Payouts setting is neither/],
		['Payouts as a boolean', { payouts: false }, /Payouts setting is neither/],
	])('%s refuses every payout (NGN 1 too, any path), saying why; other requests are signed', (_, settings, why) => {
		for (const [path, body] of [
			['/v1/payouts', payout(100)],
			['/v1/payouts', payout(100, 'r', 'USD')],
			['/v1/transfers', { data: payout(1) }],
		] as const) {
			const message = refusal(settings, 'POST', path, body);
			expect(message).toMatch(/^Refused by the Paycashless credential: .+, so it refuses every payout/);
			expect(message).toMatch(why);
		}
		expect(refusal(settings, 'GET', '/v1/payouts')).toBeUndefined();
		expect(refusal(settings, 'GET', '/v1/banks/account_lookup')).toBeUndefined();
	});

	it.each<[string, PayoutCeilingSettings, unknown]>([
		['nothing set', {}, { off: false, ceilings: {} }],
		['empty and 0 (no ceiling)', { payouts: '', maxPayoutNgn: '', maxPayoutUsd: 0 }, { off: false, ceilings: {} }],
		['null and "0"', { payouts: null, maxPayoutNgn: null, maxPayoutUsd: '0' }, { off: false, ceilings: {} }],
		['numbers and plain numeric text', { payouts: 'allowed', maxPayoutNgn: 1500.5, maxPayoutUsd: ' 250.25 ' }, { off: false, ceilings: { NGN: 1500.5, USD: 250.25 } }],
		['off', { payouts: 'off' }, { off: true, ceilings: {} }],
	])('readable: %s', (_, settings, read) => {
		expect(readPayoutSettings(settings)).toEqual(read);
	});
});

describe('the credential Test says why the payout settings cannot be read', () => {
	const credential = new PaycashlessApi();
	const secrets = { apiKey: 'pk_test_visible_key_123', apiSecret: 'sk_test_secret_value_456' };
	const testRequest = credential.test.request as IHttpRequestOptions;
	const asTested = (settings: PayoutCeilingSettings) =>
		credential
			.authenticate({ ...secrets, ...settings } as unknown as ICredentialDataDecryptedObject, {
				...testRequest,
				baseURL: API,
				headers: { ...(testRequest.headers ?? {}) },
			})
			.then(
				(signed) => ({ signed }),
				(error: Error) => ({ error }),
			);

	it('a malformed setting fails the Test before anything is signed, naming the field and what is allowed', async () => {
		const outcome = await asTested({ maxPayoutNgn: 'abc' });
		expect('error' in outcome && outcome.error.message).toMatch(
			/^Refused by the Paycashless credential: its Maximum Payout \(NGN\) is set but is not an amount in naira, so it refuses every payout\. Nothing was sent\..*Set Payouts to Allowed or Off, and each Maximum Payout to a number of naira or dollars \(0: no ceiling\)/,
		);
		expect(JSON.stringify(outcome)).not.toMatch(/sk_test_secret_value_456/);
		expect(await asTested({ payouts: 'OFF' })).toEqual({ error: expect.objectContaining({ message: expect.stringMatching(/its Payouts setting is neither Allowed nor Off/) }) });
	});

	it('readable settings: the Test request is signed, without its mark; the same request without the mark is signed whatever the settings', async () => {
		for (const settings of [{}, { payouts: 'off' }, { maxPayoutNgn: 1000, maxPayoutUsd: 0 }]) {
			const outcome = await asTested(settings);
			expect('signed' in outcome).toBe(true);
			const headers = 'signed' in outcome ? Object.keys(outcome.signed.headers ?? {}) : [];
			expect(headers).toContain('Request-Signature');
			expect(headers.map((name) => name.toLowerCase())).not.toContain('x-paycashless-credential-test');
		}
		const read = await credential.authenticate({ ...secrets, maxPayoutNgn: 'abc' } as unknown as ICredentialDataDecryptedObject, { method: 'GET', baseURL: API, url: '/v1/payouts', qs: { limit: 1 } });
		expect(read.headers).toHaveProperty('Request-Signature');
	});
});
