/** Request authentication: the emulator checks exactly what the real service checks. */
import { canonicalJson, requestSignature } from '../../../lib/signing';
import { startEmulator } from '../../../emulator/index.cjs';
import { call, payoutBody } from '../../support/emulatorClient.cjs';
import { useEmulator } from '../../support/emulator.cjs';

describe('emulator authentication', () => {
	const emulator = useEmulator({ seed: { payouts: 3 } });

	const expect401 = (answer: { status: number; body: any }, code: string, mentions: RegExp) => {
		expect(answer.status).toBe(401);
		expect(answer.body.error.type).toBe('authentication_error');
		expect(answer.body.error.code).toBe(code);
		expect(answer.body.error.message).toMatch(mentions);
	};

	it('accepts a request signed by the real credential (GET and POST)', async () => {
		expect((await call(emulator, 'GET', '/v1/payouts')).status).toBe(200);
		expect((await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('auth-ok') })).status).toBe(202);
	});

	it('rejects a changed body', async () => {
		const answer = await call(emulator, 'POST', '/v1/payouts', {
			body: payoutBody('auth-body'),
			tamper: (r) => {
				r.body = (r.body as string).replace('"value":10000', '"value":10001');
			},
		});
		expect401(answer, 'invalid_signature', /signature/i);
		expect(emulator.list('payouts').some((p) => p.reference === 'auth-body')).toBe(false);
	});

	it('rejects a changed path', async () => {
		const answer = await call(emulator, 'GET', '/v1/payouts', { tamper: (r) => (r.url = r.url.replace('/v1/payouts', '/v1/payments')) });
		expect401(answer, 'invalid_signature', /signature/i);
	});

	it('rejects a changed timestamp', async () => {
		const answer = await call(emulator, 'GET', '/v1/payouts', {
			tamper: (r) => (r.headers['Request-Timestamp'] = String(Number(r.headers['Request-Timestamp']) - 1)),
		});
		expect401(answer, 'invalid_signature', /signature/i);
	});

	it('rejects a wrong or missing API key', async () => {
		expect401(await call(emulator, 'GET', '/v1/payouts', { credentials: { apiKey: 'pk_test_other' } }), 'invalid_api_key', /API key/);
		expect401(await call(emulator, 'GET', '/v1/payouts', { tamper: (r) => delete r.headers.Authorization }), 'invalid_api_key', /API key/);
	});

	it('takes the account\'s second key with its own secret: one account, the same payouts', async () => {
		const [second] = emulator.otherKeys;
		expect(second.apiKey).not.toBe(emulator.apiKey);
		expect((await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('second-key'), credentials: second })).status).toBe(202);
		expect((await call(emulator, 'GET', '/v1/payouts/verify/second-key')).status).toBe(200);
		// Each key with its own secret: the second key with the first secret is refused.
		expect401(await call(emulator, 'GET', '/v1/payouts', { credentials: { apiKey: second.apiKey } }), 'invalid_signature', /signature/i);
	});

	it('rejects a wrong secret', async () => {
		expect401(await call(emulator, 'GET', '/v1/payouts', { credentials: { apiSecret: 'sk_not_this_one' } }), 'invalid_signature', /signature/i);
	});

	it('rejects a stale or future timestamp, accepts one inside the 300 s window', async () => {
		expect401(await call(emulator, 'GET', '/v1/payouts', { nowMs: Date.now() - 301_000 }), 'expired_timestamp', /timestamp/i);
		expect401(await call(emulator, 'GET', '/v1/payouts', { nowMs: Date.now() + 301_000 }), 'expired_timestamp', /timestamp/i);
		expect((await call(emulator, 'GET', '/v1/payouts', { nowMs: Date.now() - 250_000 })).status).toBe(200);
	});

	it('rejects missing headers and a malformed timestamp', async () => {
		expect401(await call(emulator, 'GET', '/v1/payouts', { tamper: (r) => delete r.headers['Request-Signature'] }), 'missing_signature', /signature/i);
		expect401(await call(emulator, 'GET', '/v1/payouts', { tamper: (r) => delete r.headers['Request-Timestamp'] }), 'invalid_timestamp', /timestamp/i);
		expect401(
			await call(emulator, 'GET', '/v1/payouts', { tamper: (r) => (r.headers['Request-Timestamp'] = r.headers['Request-Timestamp'].slice(1)) }),
			'invalid_timestamp',
			/timestamp/i,
		);
	});

	it('never puts the secret or the expected signature in an answer', async () => {
		let expected = '';
		const answer = await call(emulator, 'GET', '/v1/payouts', {
			tamper: (r) => {
				expected = r.headers['Request-Signature'];
				r.headers['Request-Signature'] = 'a'.repeat(128);
			},
		});
		expect(answer.status).toBe(401);
		const text = JSON.stringify(answer.body);
		expect(text).not.toContain(emulator.apiSecret);
		expect(text).not.toContain(expected);
	});

	it('accepts a body signed as received or as its sorted form', async () => {
		const raw = '{"reference":"auth-raw","narration":"x","amount":{"value":5000,"currency":"NGN"},"destinationAccountNumber":"9845648577","bankId":"bank_538ed2056326432ba8e6853b613997bb"}';
		expect(canonicalJson(JSON.parse(raw))).not.toBe(raw);
		const send = async (signedBody: string, reference: string) => {
			const body = raw.replace('auth-raw', reference);
			const timestamp = String(Math.floor(Date.now() / 1000));
			const signature = requestSignature({ secret: emulator.apiSecret, url: '/v1/payouts', body: signedBody.replace('auth-raw', reference), timestamp });
			return fetch(`${emulator.baseUrl}/v1/payouts`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${emulator.apiKey}`, 'Content-Type': 'application/json', 'Request-Timestamp': timestamp, 'Request-Signature': signature },
				body,
			});
		};
		expect((await send(raw, 'auth-raw-1')).status).toBe(202);
		expect((await send(canonicalJson(JSON.parse(raw)), 'auth-raw-2')).status).toBe(202);
		expect((await send('{"reference":"auth-raw"}', 'auth-raw-3')).status).toBe(401);
	});

	it('signs the lower-cased path but routes with the original case', async () => {
		await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('Ref-MixedCase') });
		const answer = await call(emulator, 'GET', '/v1/payouts/verify/Ref-MixedCase');
		expect(answer.status).toBe(200);
		expect(answer.body.reference).toBe('Ref-MixedCase');
	});
});

describe('bodiless signing forms', () => {
	const both = ['documented', 'emptyObjectHash'] as const;

	it.each(both)('accepts the %s form by default (either)', async (form) => {
		const emulator = await startEmulator();
		try {
			expect((await call(emulator, 'GET', '/v1/payouts', { credentials: { bodilessSigning: form } })).status).toBe(200);
		} finally {
			await emulator.close();
		}
	});

	it.each(both)('with bodilessSigning=%s accepts only that form', async (accepted) => {
		const emulator = await startEmulator({ bodilessSigning: accepted });
		try {
			for (const form of both) {
				const answer = await call(emulator, 'GET', '/v1/payouts', { credentials: { bodilessSigning: form } });
				expect(answer.status).toBe(form === accepted ? 200 : 401);
				if (form !== accepted) expect(answer.body.error.code).toBe('invalid_signature');
			}
		} finally {
			await emulator.close();
		}
	});

	it('with apiKey "" needs no Authorization header, still needs the signature', async () => {
		const emulator = await startEmulator({ apiKey: '', apiSecret: 'sk_custom' });
		try {
			expect(emulator.apiSecret).toBe('sk_custom');
			expect((await call(emulator, 'GET', '/v1/payouts')).status).toBe(200);
			expect((await call(emulator, 'GET', '/v1/payouts', { credentials: { apiSecret: 'other' } })).status).toBe(401);
		} finally {
			await emulator.close();
		}
	});

	it('uses the injected clock for the timestamp window', async () => {
		const fixed = Date.UTC(2030, 0, 1);
		const emulator = await startEmulator({ now: () => fixed, timestampToleranceSeconds: 10 });
		try {
			expect((await call(emulator, 'GET', '/v1/payouts', { nowMs: fixed + 9_000 })).status).toBe(200);
			const late = await call(emulator, 'GET', '/v1/payouts', { nowMs: fixed + 11_000 });
			expect(late.body.error.code).toBe('expired_timestamp');
		} finally {
			await emulator.close();
		}
	});
});
