/**
 * The credential's `authenticate` on every request shape n8n hands it. Expected signatures are
 * computed here with Node's crypto, independently of the signing module.
 */
import { createHmac } from 'crypto';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { PaycashlessApi, signPaycashlessRequest } from '../../../credentials/PaycashlessApi.credentials';
import { call } from '../../support/emulatorClient.cjs';
import { useEmulator } from '../../support/emulator.cjs';

const SECRET = 'sk_test_credential_secret_0123456789';
const KEY = 'pk_test_credential_key';
const NOW = 1_763_800_123_456;
const TS = '1763800123';
const hmac = (data: string) => createHmac('sha512', SECRET).update(data, 'utf8').digest('hex');
const creds = { apiKey: KEY, apiSecret: SECRET, baseUrl: 'https://api.paycashless.com' };

const header = (options: IHttpRequestOptions, name: string) => {
	const entries = Object.entries(options.headers ?? {}).filter(([k]) => k.toLowerCase() === name.toLowerCase());
	expect(entries.length).toBeLessThanOrEqual(1);
	return entries[0]?.[1];
};

describe('signPaycashlessRequest', () => {
	it('signs a POST with an object body: sorted compact JSON is both signed and sent', () => {
		const signed = signPaycashlessRequest(
			creds,
			{
				method: 'POST',
				url: 'https://api.paycashless.com/v1/payouts',
				body: { reference: 'r-1', amount: { value: 10000, currency: 'NGN' }, bankId: 'bank_1' },
			},
			NOW,
		);
		const sent = '{"amount":{"currency":"NGN","value":10000},"bankId":"bank_1","reference":"r-1"}';
		expect(signed.body).toBe(sent);
		expect(header(signed, 'Request-Timestamp')).toBe(TS);
		expect(header(signed, 'Request-Signature')).toBe(hmac('/v1/payouts' + hmac(sent) + TS));
		expect(header(signed, 'Authorization')).toBe(`Bearer ${KEY}`);
		expect(header(signed, 'Content-Type')).toBe('application/json');
	});

	it('signs baseURL + relative url (declarative nodes, the credential test) on the API path only', () => {
		const signed = signPaycashlessRequest(
			{ ...creds, baseUrl: 'https://proxy.example/paycashless/' },
			{ method: 'GET', baseURL: 'https://proxy.example/paycashless/', url: '/v1/Payouts', qs: { limit: 1 } },
			NOW,
		);
		expect(header(signed, 'Request-Signature')).toBe(hmac('/v1/payouts' + TS));
		expect(signed.body).toBeUndefined();
		expect(header(signed, 'Content-Type')).toBeUndefined();
		expect(signed.qs).toEqual({ limit: 1 });
	});

	it("signs the request-library form n8n's HTTP Request node uses (address in `uri`)", () => {
		const options = {
			method: 'POST',
			uri: 'https://api.paycashless.com/v1/Tax_Rates?x=1',
			body: { name: 'VAT', percentage: 7.5 },
			json: true,
		} as unknown as IHttpRequestOptions;
		const signed = signPaycashlessRequest(creds, options, NOW);
		const sent = '{"name":"VAT","percentage":7.5}';
		expect(signed.body).toBe(sent);
		expect((signed as unknown as { uri: string }).uri).toBe('https://api.paycashless.com/v1/Tax_Rates?x=1');
		expect(header(signed, 'Request-Signature')).toBe(hmac('/v1/tax_rates' + hmac(sent) + TS));
	});

	it('drops undefined query values and never signs the query string', () => {
		const signed = signPaycashlessRequest(
			creds,
			{
				method: 'GET',
				url: 'https://api.paycashless.com/v1/payments?status=succeeded',
				qs: { limit: 100, cursor: undefined, 'createdAt.gte': 1763000000 },
			},
			NOW,
		);
		expect(signed.qs).toEqual({ limit: 100, 'createdAt.gte': 1763000000 });
		expect(header(signed, 'Request-Signature')).toBe(hmac('/v1/payments' + TS));
	});

	it('signs a GET with the {}-hash form when the credential asks for it', () => {
		const signed = signPaycashlessRequest(
			{ ...creds, bodilessSigning: 'emptyObjectHash' },
			{ method: 'GET', url: 'https://api.paycashless.com/v1/payouts/verify/ref-1' },
			NOW,
		);
		expect(header(signed, 'Request-Signature')).toBe(hmac('/v1/payouts/verify/ref-1' + hmac('{}') + TS));
	});

	it('treats an empty object body on a GET as no body (n8n strips empty GET bodies too)', () => {
		const signed = signPaycashlessRequest(creds, { method: 'GET', url: 'https://api.paycashless.com/v1/payouts', body: {} }, NOW);
		expect(signed.body).toBeUndefined();
		expect(header(signed, 'Request-Signature')).toBe(hmac('/v1/payouts' + TS));
	});

	it('re-serialises a JSON string body sorted, and sends a non-JSON string as it is', () => {
		const fromString = signPaycashlessRequest(
			creds,
			{ method: 'POST', url: 'https://api.paycashless.com/v1/tax_rates', body: '{ "name": "VAT", "active": true }' },
			NOW,
		);
		expect(fromString.body).toBe('{"active":true,"name":"VAT"}');
		expect(header(fromString, 'Request-Signature')).toBe(hmac('/v1/tax_rates' + hmac('{"active":true,"name":"VAT"}') + TS));

		const raw = signPaycashlessRequest(creds, { method: 'POST', url: 'https://api.paycashless.com/v1/x', body: 'not json' }, NOW);
		expect(raw.body).toBe('not json');
		expect(header(raw, 'Request-Signature')).toBe(hmac('/v1/x' + hmac('not json') + TS));
	});

	it('is idempotent: re-running on its own output (n8n does after a 401) gives the same body and a fresh signature', () => {
		const first = signPaycashlessRequest(
			creds,
			{ method: 'POST', url: 'https://api.paycashless.com/v1/payments', body: { b: 2, a: 1 }, headers: { 'X-Trace': 't1' } },
			NOW,
		);
		const again = signPaycashlessRequest(creds, first, NOW + 5000);
		expect(again.body).toBe(first.body);
		expect(header(again, 'Request-Timestamp')).toBe('1763800128');
		expect(header(again, 'Request-Signature')).toBe(hmac('/v1/payments' + hmac('{"a":1,"b":2}') + '1763800128'));
		expect(header(again, 'X-Trace')).toBe('t1');
		expect(Object.keys(again.headers ?? {})).toHaveLength(Object.keys(first.headers ?? {}).length);
	});

	it('replaces headers it owns whatever their letter case, and keeps the others', () => {
		const signed = signPaycashlessRequest(
			creds,
			{
				method: 'POST',
				url: 'https://api.paycashless.com/v1/payouts',
				body: { a: 1 },
				headers: { 'request-signature': 'forged', authorization: 'Bearer other', 'content-type': 'text/plain', Accept: 'application/json' },
			},
			NOW,
		);
		expect(header(signed, 'Request-Signature')).toBe(hmac('/v1/payouts' + hmac('{"a":1}') + TS));
		expect(header(signed, 'Authorization')).toBe(`Bearer ${KEY}`);
		expect(header(signed, 'Content-Type')).toBe('application/json');
		expect(header(signed, 'Accept')).toBe('application/json');
	});

	it('sends no Authorization header when no API key is set', () => {
		const signed = signPaycashlessRequest({ apiSecret: SECRET }, { method: 'GET', url: 'https://api.paycashless.com/v1/payouts' }, NOW);
		expect(header(signed, 'Authorization')).toBeUndefined();
		expect(header(signed, 'Request-Signature')).toBe(hmac('/v1/payouts' + TS));
	});

	it('never puts the API secret in the request', () => {
		const signed = signPaycashlessRequest(
			creds,
			{ method: 'POST', url: 'https://api.paycashless.com/v1/payouts', body: { reference: 'r' } },
			NOW,
		);
		expect(JSON.stringify(signed)).not.toContain(SECRET);
	});

	it('does not change the options object it was given', () => {
		const options: IHttpRequestOptions = { method: 'POST', url: '/v1/payouts', body: { b: 1, a: 2 }, headers: { X: '1' } };
		const copy = JSON.parse(JSON.stringify(options));
		signPaycashlessRequest(creds, options, NOW);
		expect(options).toEqual(copy);
	});
});

describe('PaycashlessApi credential type', () => {
	const credential = new PaycashlessApi();

	it('authenticate() signs with the current time', async () => {
		const before = Math.floor(Date.now() / 1000);
		const signed = await credential.authenticate(
			{ apiKey: KEY, apiSecret: SECRET, baseUrl: 'https://api.paycashless.com' },
			{ method: 'GET', url: 'https://api.paycashless.com/v1/payouts' },
		);
		const ts = Number(header(signed, 'Request-Timestamp'));
		expect(ts).toBeGreaterThanOrEqual(before);
		expect(ts).toBeLessThanOrEqual(before + 2);
		expect(header(signed, 'Request-Signature')).toBe(hmac('/v1/payouts' + String(ts)));
	});

	it('keeps authenticate through the copy n8n makes of community credential types', () => {
		// n8n 2.41 (n8n-core DirectoryLoader + LoadNodesAndCredentials.postProcessLoaders) gives each
		// loaded credential an own `toJSON` that turns a function `authenticate` into `{}`, then copies
		// it with `{ ...credential }` and writes the copy to /types/credentials.json. The editor offers a
		// type under HTTP Request > Predefined Credential Type only when that JSON has `authenticate`.
		const loaded = new PaycashlessApi() as unknown as Record<string, unknown>;
		Object.assign(loaded, {
			toJSON(this: Record<string, unknown>) {
				return { ...this, authenticate: typeof this.authenticate === 'function' ? {} : this.authenticate };
			},
		});
		const copy = { ...loaded };
		expect(typeof copy.authenticate).toBe('function');
		expect(JSON.parse(JSON.stringify(copy))).toHaveProperty('authenticate', {});
	});

	it('keeps key and secret as password fields, and the documented signing form as default', () => {
		const byName = Object.fromEntries(credential.properties.map((p) => [p.name, p]));
		expect(byName.apiKey.typeOptions?.password).toBe(true);
		expect(byName.apiSecret.typeOptions?.password).toBe(true);
		expect(byName.baseUrl.default).toBe('https://api.paycashless.com');
		expect(byName.bodilessSigning.default).toBe('documented');
	});

	it('tests with a cheap signed GET on the API path that keeps every answer for the rules to read', () => {
		expect(credential.test.request).toMatchObject({ method: 'GET', url: '/v1/payouts', qs: { limit: 1 }, ignoreHttpStatusErrors: true });
		expect((credential.test.rules ?? []).every((rule) => rule.type === 'responseSuccessBody')).toBe(true);
	});
});

/**
 * The Test button against the emulator: the request is signed by the credential and sent; its
 * answer goes through the rules the way n8n 2.41's CredentialsTester applies them (the first
 * `responseSuccessBody` rule whose `key` in the body equals `value` fails the test with its
 * message; none matching: "Connection successful!"). The same in a real n8n: test/e2e.
 */
describe('credential Test button outcome, against the emulator', () => {
	const credential = new PaycashlessApi();
	const emulator = useEmulator({ apiKey: KEY, apiSecret: SECRET });

	const pathValue = (body: unknown, key: string): unknown =>
		key.split('.').reduce<unknown>((value, part) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined), body);

	/** Sends the credential's test request, signed by the credential, and applies its rules. */
	async function testButton(options: { apiKey?: string; apiSecret?: string; pathPrefix?: string; nowMs?: number } = {}) {
		const { request } = credential.test;
		const answer = await call(emulator, String(request.method), `${options.pathPrefix ?? ''}${String(request.url)}`, {
			query: request.qs as Record<string, number>,
			credentials: { apiKey: options.apiKey ?? KEY, apiSecret: options.apiSecret ?? SECRET, bodilessSigning: 'documented' },
			nowMs: options.nowMs,
		});
		const rule = (credential.test.rules ?? []).find(
			(r) => r.type === 'responseSuccessBody' && pathValue(answer.body, r.properties.key) === r.properties.value,
		);
		return { status: answer.status, message: rule?.properties.message ?? 'Connection successful!' };
	}

	it('passes with the right key and secret', async () => {
		expect(await testButton()).toEqual({ status: 200, message: 'Connection successful!' });
	});

	it('names the API Key when the key is wrong or missing', async () => {
		for (const apiKey of [`${KEY}x`, '']) {
			const result = await testButton({ apiKey });
			expect(result.status).toBe(401);
			expect(result.message).toMatch(/^Paycashless rejected the API Key\./);
		}
	});

	it('names the API Secret when the signature is wrong', async () => {
		const result = await testButton({ apiSecret: `${SECRET}x` });
		expect(result.status).toBe(401);
		expect(result.message).toMatch(/the API Secret is wrong/);
		expect(result.message).not.toContain(SECRET);
	});

	it('names the clock when the timestamp is outside the 5 minutes', async () => {
		const result = await testButton({ nowMs: Date.now() + 301_000 });
		expect(result.status).toBe(401);
		expect(result.message).toMatch(/clock of the machine running n8n/);
	});

	it('says the Base URL is not the Paycashless API when something else answers there', async () => {
		for (const pathPrefix of ['/not-paycashless', '/__emulator']) {
			const result = await testButton({ pathPrefix });
			expect(result.status).not.toBe(200);
			expect(result.message).toMatch(/^The Base URL did not answer like the Paycashless API/);
		}
	});
});
