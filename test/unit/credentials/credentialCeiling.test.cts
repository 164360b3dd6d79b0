/**
 * The payout ceiling of the Paycashless credential (lib/payoutCeiling.ts):
 * which requests it reads, amounts in kobo/cents against a ceiling in main units, bodies it
 * cannot read refused, "payouts off", the error the credential's `authenticate` throws (no
 * secret in it, nothing signed), and Payout → Create refused with no request sent. The HTTP
 * Request node in a real n8n: test/e2e/credentialCeiling.test.cts.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { PaycashlessApi } from '../../../credentials/PaycashlessApi.credentials';
import { isPayoutCreate } from '../../../lib/payoutRequest';
import { CEILING_REFUSAL_CODE, payoutCeilingRefusal, signedHostRefusal, type PayoutCeilingSettings } from '../../../lib/payoutCeiling';
import { useEmulator } from '../../support/emulator.cjs';
import { runNode } from '../../../scripts/harness/executeContext.cjs';
import { credentialsOf, payoutItem } from '../../support/reliability.cjs';

const API = 'https://api.paycashless.com';
const NGN_200K: PayoutCeilingSettings = { maxPayoutNgn: 200000 };
const payoutBody = (value: unknown, currency: unknown = 'NGN') => ({ reference: 'r-1', amount: { value, currency }, destinationAccountNumber: '0123456789', bankId: 'bank_x' });
const check = (settings: PayoutCeilingSettings, body: unknown, extra: Record<string, unknown> = {}) =>
	payoutCeilingRefusal(settings, { method: 'POST', body, ...extra }, `${API}/v1/payouts`);

describe('which requests the ceiling reads', () => {
	it.each([
		['POST', `${API}/v1/payouts`],
		['post', `${API}/V1/Payouts/`],
		['POST', `${API}/v1/payouts?expand=bank`],
		['POST', `${API}/v1//payouts`],
		['POST', `${API}/v1/%70ayouts`],
		['POST', 'https://proxy.example.com/paycashless/v1/payouts'],
		['POST', '/v1/payouts'],
	])('%s %s creates a payout', (method, url) => {
		expect(isPayoutCreate(method, url)).toBe(true);
	});

	it.each([
		['GET', `${API}/v1/payouts`],
		['POST', `${API}/v1/payouts/verify/r-1`],
		['POST', `${API}/v1/payments/checkout`],
		[undefined, `${API}/v1/payouts`],
	])('%s %s does not', (method, url) => {
		expect(isPayoutCreate(method, url)).toBe(false);
	});

	it.each(['PUT', 'PATCH', 'DELETE', 'GET', 'OPTIONS', undefined])('%s with a body to /v1/payouts creates a payout: the signature does not cover the method', (method) => {
		expect(isPayoutCreate(method, `${API}/v1/payouts`, true)).toBe(true);
	});

	it.each([
		`${API}/v1/payouts/../payouts`,
		`${API}/v1/x/../payouts/`,
		`${API}/v1/payouts/.`,
		`${API}/v1/%2570ayouts`,
		`${API}/v1/payouts%2F`,
		`${API}/v1/payouts;x=1`,
		`${API}/v1\\payouts`,
		`${API}/v1/payouts.json`,
		`${API}/v1/payouts%20`,
		'https://proxy.example.com/prefix/v1/./payouts?x=1#y',
	])('the signed path is judged as a server might route it: PUT with a body to %s creates a payout', (url) => {
		expect(isPayoutCreate('PUT', url, true)).toBe(true);
	});

	it('a body to another payouts path (an ID, verify) is no create; the list without a body neither', () => {
		expect(isPayoutCreate('PUT', `${API}/v1/payouts/po_1`, true)).toBe(false);
		expect(isPayoutCreate('POST', `${API}/v1/payouts/verify/r-1`, true)).toBe(false);
		expect(isPayoutCreate('PUT', `${API}/v1/payouts`, false)).toBe(false);
	});
});

describe('any method with a body to /v1/payouts is checked as a payout', () => {
	const over = payoutBody(20_000_001);
	it.each(['PUT', 'PATCH', 'DELETE', 'GET'])('%s over the ceiling is refused, and so is any body with payouts off', (method) => {
		const url = `${API}/v1/payouts`;
		expect(payoutCeilingRefusal(NGN_200K, { method, body: over }, url)?.message).toMatch(
			new RegExp(`^Refused by the Paycashless credential: NGN 200,000\\.01 is above its Maximum Payout \\(NGN\\) \\(a ${method} with a body to /v1/payouts is signed as a payout`),
		);
		expect(payoutCeilingRefusal(NGN_200K, { method, body: JSON.stringify(over) }, `${API}/v1/payouts/`)?.message).toMatch(/above its Maximum Payout/);
		expect(payoutCeilingRefusal({ payouts: 'off' }, { method, body: payoutBody(100) }, url)?.message).toMatch(/^Refused by the Paycashless credential: payouts are switched off/);
		expect(payoutCeilingRefusal({ payouts: 'off' }, { method, body: 'anything' }, url)?.message).toMatch(/payouts are switched off/);
	});

	it('GET and DELETE with an empty object send no body: the list still works with payouts off', () => {
		expect(payoutCeilingRefusal({ payouts: 'off' }, { method: 'GET', body: {} }, `${API}/v1/payouts`)).toBeUndefined();
		expect(payoutCeilingRefusal({ payouts: 'off' }, { method: 'DELETE', body: {} }, `${API}/v1/payouts`)).toBeUndefined();
	});

	it('the body is read as it will be sent: a Buffer with a key twice is refused, a string with one is sent re-serialised and read so', () => {
		const twice = '{"amount":{"value":100,"currency":"NGN"},"amount":{"value":500000000,"currency":"NGN"},"reference":"r","destinationAccountNumber":"0123456789","bankId":"bank_x"}';
		expect(check(NGN_200K, Buffer.from(twice))?.message).toMatch(/cannot be checked against its Maximum Payout \(its JSON names the key "amount" twice in one object\)/);
		// A string is parsed (the last key wins) and sent as that parse: NGN 5,000,000 is what goes out.
		expect(check(NGN_200K, twice)?.message).toMatch(/NGN 5,000,000\.00 is above/);
		const cased = '{"amount":{"value":100,"currency":"NGN"},"Amount":{"value":500000000,"currency":"NGN"},"reference":"r","destinationAccountNumber":"0123456789","bankId":"bank_x"}';
		expect(check(NGN_200K, cased)?.message).toMatch(/the key "amount" twice/i);
	});

	it('a top-level currency that differs from amount.currency is refused', () => {
		expect(check(NGN_200K, { ...payoutBody(100, 'NGN'), currency: 'USD' })?.message).toMatch(/two different currencies/);
	});
});

describe('the credential signs only for its Base URL\'s origin', () => {
	it.each([
		['https://evil.example.com/v1/payouts', 'https://evil.example.com'],
		['https://api.paycashless.com.evil.example.com/v1/payouts', 'https://api.paycashless.com.evil.example.com'],
		['http://api.paycashless.com/v1/payouts', 'http://api.paycashless.com'],
		['https://api.paycashless.com:8443/v1/payouts', 'https://api.paycashless.com:8443'],
		['https://api.paycashless.com@evil.example.com/v1/payouts', 'an address it cannot read for sure'],
		['https://evil.example.com\\@api.paycashless.com/v1/payouts', 'an address it cannot read for sure'],
		['/v1/payouts', 'an address without scheme and host'],
	])('%s is refused (goes to %s)', (url, shown) => {
		expect(signedHostRefusal(API, url)?.message).toBe(`Refused by the Paycashless credential: it signs only requests to ${API}, and this one goes to ${shown}`);
	});

	it.each([`${API}/v1/payouts`, 'HTTPS://API.Paycashless.com:443/v1/banks', `${API}?x=1`, `${API}`])('%s is signed', (url) => {
		expect(signedHostRefusal(`${API}/`, url)).toBeUndefined();
	});

	it('scheme and port count: the emulator at http://127.0.0.1:PORT signs for that port only', () => {
		expect(signedHostRefusal('http://127.0.0.1:4010', 'http://127.0.0.1:4010/v1/payouts')).toBeUndefined();
		expect(signedHostRefusal('http://127.0.0.1:4010', 'http://127.0.0.1:4011/v1/payouts')).toBeDefined();
		expect(signedHostRefusal('http://127.0.0.1:4010', 'https://127.0.0.1:4010/v1/payouts')).toBeDefined();
		expect(signedHostRefusal('https://proxy.example.com/paycashless', 'https://proxy.example.com/paycashless/v1/payouts')).toBeUndefined();
	});
});

describe('the ceiling against a payout body', () => {
	it('no ceiling and payouts allowed: nothing is refused (also an unreadable body)', () => {
		expect(check({}, payoutBody(10 ** 12))).toBeUndefined();
		expect(check({ payouts: 'allowed', maxPayoutNgn: 0, maxPayoutUsd: '' }, 'not json')).toBeUndefined();
	});

	it('amounts are kobo in the body, main units in the ceiling and the message: exactly the ceiling passes, one kobo more is refused', () => {
		expect(check(NGN_200K, payoutBody(20_000_000))).toBeUndefined();
		expect(check(NGN_200K, payoutBody(20_000_001))).toEqual({
			message: 'Refused by the Paycashless credential: NGN 200,000.01 is above its Maximum Payout (NGN)',
			description: expect.stringContaining('Nothing was sent'),
		});
		expect(check({ maxPayoutNgn: 1500.5 }, payoutBody(150_050))).toBeUndefined();
		expect(check({ maxPayoutNgn: 1500.5 }, payoutBody(150_051))?.message).toMatch(/NGN 1,500\.51 is above its Maximum Payout \(NGN\)/);
	});

	it('reads the body as n8n hands it over: an object, JSON text or bytes; the same currency at the top level too', () => {
		const over = payoutBody(30_000_000);
		for (const body of [over, JSON.stringify(over), Buffer.from(JSON.stringify(over)), { ...over, currency: 'NGN' }]) expect(check(NGN_200K, body)?.message).toMatch(/NGN 300,000\.00 is above/);
	});

	it('a ceiling names its currency: a USD payout under an NGN-only ceiling is refused; a USD ceiling holds in cents', () => {
		expect(check(NGN_200K, payoutBody(100, 'USD'))?.message).toBe('Refused by the Paycashless credential: it sets no Maximum Payout for USD');
		const both = { maxPayoutNgn: 200000, maxPayoutUsd: 500 };
		expect(check(both, payoutBody(50_000, 'USD'))).toBeUndefined();
		expect(check(both, payoutBody(50_001, 'USD'))?.message).toMatch(/USD 500\.01 is above its Maximum Payout \(USD\)/);
	});

	it.each([
		['text that is not JSON', 'amount=1'],
		['a JSON array', [payoutBody(1)]],
		['no body', undefined],
		['an amount with a fraction of a kobo', payoutBody(100.5)],
		['an amount as text', payoutBody('100')],
		['a negative amount', payoutBody(-1)],
		['no currency', { reference: 'r', amount: { value: 100 } }],
		['the currency only beside amount.value (the API reads amount.currency)', { reference: 'r', amount: { value: 100 }, currency: 'USD' }],
		['an unknown currency', payoutBody(100, 'EUR')],
		['two different currencies', { ...payoutBody(100, 'NGN'), currency: 'USD' }],
	])('a body it cannot read for sure is refused, not waved through: %s', (_, body) => {
		expect(check(NGN_200K, body)?.message).toMatch(/^Refused by the Paycashless credential: this payout's amount cannot be checked against its Maximum Payout \(.+\)$/);
	});

	it('a form instead of a JSON body is refused', () => {
		expect(check(NGN_200K, undefined, { form: { amount: 1 } })?.message).toMatch(/sent as a form/);
	});

	it('payouts off: every payout is refused, whatever its amount; other requests are not', () => {
		expect(check({ payouts: 'off' }, payoutBody(1))?.message).toBe('Refused by the Paycashless credential: payouts are switched off');
		expect(payoutCeilingRefusal({ payouts: 'off' }, { method: 'GET' }, `${API}/v1/payouts`)).toBeUndefined();
	});
});

describe('where the credential signs (authenticate)', () => {
	const credential = new PaycashlessApi();
	const secrets = { apiKey: 'pk_test_visible_key_123', apiSecret: 'sk_test_secret_value_456' };

	it('throws before signing, with the amount in main units and none of the key or secret', async () => {
		const options: IHttpRequestOptions = { method: 'POST', baseURL: API, url: '/v1/payouts', body: payoutBody(20_000_001) };
		const thrown = await credential.authenticate({ ...secrets, ...NGN_200K } as unknown as ICredentialDataDecryptedObject, options).then(
			() => undefined,
			(error: Error & { paycashlessRefusal?: string }) => error,
		);
		expect(thrown?.paycashlessRefusal).toBe(CEILING_REFUSAL_CODE);
		expect(thrown?.message).toMatch(/^Refused by the Paycashless credential: NGN 200,000\.01 is above its Maximum Payout \(NGN\)\. Nothing was sent/);
		expect(JSON.stringify({ ...thrown, message: thrown?.message })).not.toMatch(/pk_test_visible_key_123|sk_test_secret_value_456/);
		expect(options.headers).toBeUndefined();
	});

	it('signs as before below the ceiling, and the HTTP Request node\'s `uri` form is read too', async () => {
		const signed = await credential.authenticate({ ...secrets, ...NGN_200K } as unknown as ICredentialDataDecryptedObject, { method: 'POST', baseURL: API, url: '/v1/payouts', body: payoutBody(100) });
		expect(signed.headers).toHaveProperty('Request-Signature');
		const viaUri = { method: 'POST', uri: `${API}/v1/payouts`, body: payoutBody(20_000_001) } as unknown as IHttpRequestOptions;
		await expect(credential.authenticate({ ...secrets, ...NGN_200K } as unknown as ICredentialDataDecryptedObject, viaUri)).rejects.toThrow(/above its Maximum Payout/);
	});

	const refusedBy = async (credentials: object, options: Record<string, unknown>) =>
		await credential.authenticate({ ...secrets, ...credentials } as unknown as ICredentialDataDecryptedObject, options as unknown as IHttpRequestOptions).then(
			() => undefined,
			(error: Error & { paycashlessRefusal?: string }) => error,
		);

	it('PUT, PATCH, DELETE and GET with a payout body over the ceiling or with payouts off are refused before signing (also in the `uri` form)', async () => {
		for (const method of ['PUT', 'PATCH', 'DELETE', 'GET']) {
			const options = { method, uri: `${API}/v1/payouts`, body: JSON.stringify(payoutBody(20_000_001)), json: true };
			const over = await refusedBy(NGN_200K, options);
			expect(over?.paycashlessRefusal).toBe(CEILING_REFUSAL_CODE);
			expect(over?.message).toMatch(/NGN 200,000\.01 is above its Maximum Payout/);
			expect(options).not.toHaveProperty('headers');
			const off = await refusedBy({ payouts: 'off' }, { method, baseURL: API, url: '/V1/Payouts/', body: payoutBody(100) });
			expect(off?.message).toMatch(/payouts are switched off/);
		}
	});

	it('another host is refused before signing, with why, whatever the request; the Base URL\'s own host is signed', async () => {
		for (const options of [
			{ method: 'POST', uri: 'https://hooks.example.com/webhook/x', body: payoutBody(100) },
			{ method: 'GET', url: 'https://hooks.example.com/v1/payouts' },
			{ method: 'POST', baseURL: 'http://127.0.0.1:5678', url: '/webhook/v1/payouts', body: payoutBody(100) },
		]) {
			const error = await refusedBy({}, options);
			expect(error?.paycashlessRefusal).toBe(CEILING_REFUSAL_CODE);
			expect(error?.message).toMatch(/^Refused by the Paycashless credential: it signs only requests to https:\/\/api\.paycashless\.com, and this one goes to .+\. Nothing was sent\. A signed request can be replayed to Paycashless/);
			expect(error?.message).not.toMatch(/sk_test_secret_value_456|pk_test_visible_key_123/);
		}
		const signed = await credential.authenticate({ ...secrets, baseUrl: 'http://127.0.0.1:4010/' } as unknown as ICredentialDataDecryptedObject, {
			method: 'GET',
			baseURL: 'http://127.0.0.1:4010',
			url: '/v1/payouts',
		});
		expect(signed.headers).toHaveProperty('Request-Signature');
		expect(await refusedBy({ baseUrl: 'http://127.0.0.1:4010' }, { method: 'GET', url: 'http://127.0.0.1:4011/v1/payouts' })).toBeDefined();
	});

	it('url and uri naming two addresses are refused', async () => {
		expect((await refusedBy({}, { method: 'GET', url: `${API}/v1/banks`, uri: 'https://evil.example.com/v1/banks' }))?.message).toMatch(/two different addresses/);
	});

	it('a Buffer body with a key twice and a currency beside amount.currency that differs are refused under a ceiling', async () => {
		const twice = Buffer.from('{"amount":{"value":100,"currency":"NGN"},"amount":{"value":500000000,"currency":"NGN"},"reference":"r","destinationAccountNumber":"0123456789","bankId":"bank_x"}');
		expect((await refusedBy(NGN_200K, { method: 'POST', uri: `${API}/v1/payouts`, body: twice }))?.message).toMatch(/"amount" twice/);
		expect((await refusedBy(NGN_200K, { method: 'POST', uri: `${API}/v1/payouts`, body: { ...payoutBody(100), currency: 'USD' } }))?.message).toMatch(/two different currencies/);
	});
});

describe('Payout → Create with a credential ceiling (against the emulator)', () => {
	const emulator = useEmulator();
	beforeEach(() => emulator.reset({ payouts: 0 }));
	const run = (reference: string, amount: number) =>
		runNode({ parameters: payoutItem(reference, {}, amount), credentials: { ...credentialsOf(emulator), maxPayoutNgn: 1000 } });

	it('above it: the node\'s error is the credential\'s, no request reaches Paycashless and nothing is tried again or looked up', async () => {
		const error = await run('ceiling-over', 1000.01).then(
			() => undefined,
			(thrown: Error & { description?: string }) => thrown,
		);
		expect(error?.message).toBe('Refused by the Paycashless credential: NGN 1,000.01 is above its Maximum Payout (NGN)');
		expect(error?.description).toMatch(/^Nothing was sent/);
		expect(emulator.requests).toHaveLength(0);
	});

	it('at it: paid', async () => {
		await run('ceiling-at', 1000);
		expect(emulator.list('payouts')).toEqual([expect.objectContaining({ reference: 'ceiling-at', amount: 100_000 })]);
	});
});
