/**
 * The payout ceiling of the Paycashless credential (lib/payoutCeiling.ts):
 * which requests it reads, amounts in kobo/cents against a ceiling in main units, bodies it
 * cannot read refused, "payouts off", the error the credential's `authenticate` throws (no
 * secret in it, nothing signed), and Payout → Create refused with no request sent. The HTTP
 * Request node in a real n8n: test/e2e/credentialCeiling.test.cts.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { PaycashlessApi } from '../../../credentials/PaycashlessApi.credentials';
import { CEILING_REFUSAL_CODE, isPayoutCreate, payoutCeilingRefusal, type PayoutCeilingSettings } from '../../../lib/payoutCeiling';
import { useEmulator } from '../../support/emulator.cjs';
import { runNode } from '../../support/executeContext.cjs';
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
});

describe('the ceiling against a payout body', () => {
	it('no ceiling and payouts allowed: nothing is refused (also an unreadable body)', () => {
		expect(check({}, payoutBody(10 ** 12))).toBeUndefined();
		expect(check({ payouts: 'allowed', maxPayoutNgn: 0, maxPayoutUsd: '' }, 'not json')).toBeUndefined();
	});

	it('amounts are kobo in the body, main units in the ceiling and the message: exactly the ceiling passes, one kobo more is refused', () => {
		expect(check(NGN_200K, payoutBody(20_000_000))).toBeUndefined();
		expect(check(NGN_200K, payoutBody(20_000_001))).toEqual({
			message: 'Refused by the Paycashless credential: NGN 200,000.01 is above its Maximum Payout of NGN 200,000.00',
			description: expect.stringContaining('Nothing was sent'),
		});
		expect(check({ maxPayoutNgn: 1500.5 }, payoutBody(150_050))).toBeUndefined();
		expect(check({ maxPayoutNgn: 1500.5 }, payoutBody(150_051))?.message).toMatch(/NGN 1,500\.51 is above its Maximum Payout of NGN 1,500\.50/);
	});

	it('reads the body as n8n hands it over: an object, JSON text or bytes; the currency at the top level too', () => {
		const over = payoutBody(30_000_000);
		for (const body of [over, JSON.stringify(over), Buffer.from(JSON.stringify(over))]) expect(check(NGN_200K, body)?.message).toMatch(/NGN 300,000\.00 is above/);
		expect(check(NGN_200K, { reference: 'r', amount: 30_000_000, currency: 'ngn' })?.message).toMatch(/NGN 300,000\.00 is above/);
	});

	it('a ceiling names its currency: a USD payout under an NGN-only ceiling is refused; a USD ceiling holds in cents', () => {
		expect(check(NGN_200K, payoutBody(100, 'USD'))?.message).toBe('Refused by the Paycashless credential: it sets no Maximum Payout for USD');
		const both = { maxPayoutNgn: 200000, maxPayoutUsd: 500 };
		expect(check(both, payoutBody(50_000, 'USD'))).toBeUndefined();
		expect(check(both, payoutBody(50_001, 'USD'))?.message).toMatch(/USD 500\.01 is above its Maximum Payout of USD 500\.00/);
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
			(error: Error & { code?: string }) => error,
		);
		expect(thrown?.code).toBe(CEILING_REFUSAL_CODE);
		expect(thrown?.message).toMatch(/^Refused by the Paycashless credential: NGN 200,000\.01 is above its Maximum Payout of NGN 200,000\.00\. Nothing was sent/);
		expect(JSON.stringify({ ...thrown, message: thrown?.message })).not.toMatch(/pk_test_visible_key_123|sk_test_secret_value_456/);
		expect(options.headers).toBeUndefined();
	});

	it('signs as before below the ceiling, and the HTTP Request node\'s `uri` form is read too', async () => {
		const signed = await credential.authenticate({ ...secrets, ...NGN_200K } as unknown as ICredentialDataDecryptedObject, { method: 'POST', baseURL: API, url: '/v1/payouts', body: payoutBody(100) });
		expect(signed.headers).toHaveProperty('Request-Signature');
		const viaUri = { method: 'POST', uri: `${API}/v1/payouts`, body: payoutBody(20_000_001) } as unknown as IHttpRequestOptions;
		await expect(credential.authenticate({ ...secrets, ...NGN_200K } as unknown as ICredentialDataDecryptedObject, viaUri)).rejects.toThrow(/above its Maximum Payout/);
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
		expect(error?.message).toBe('Refused by the Paycashless credential: NGN 1,000.01 is above its Maximum Payout of NGN 1,000.00');
		expect(error?.description).toMatch(/^Nothing was sent/);
		expect(emulator.requests).toHaveLength(0);
	});

	it('at it: paid', async () => {
		await run('ceiling-at', 1000);
		expect(emulator.list('payouts')).toEqual([expect.objectContaining({ reference: 'ceiling-at', amount: 100_000 })]);
	});
});
