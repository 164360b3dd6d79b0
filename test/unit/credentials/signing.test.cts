/**
 * The signing rules, checked against values computed here independently with Node's crypto
 * (never with the module's own helpers), and against the sorted-body vector published in the
 * Paycashless docs.
 */
import { createHmac } from 'crypto';

import {
	callbackSignature,
	canonicalJson,
	joinUrl,
	requestSignature,
	signaturesMatch,
	signingPath,
	timestampWithinTolerance,
} from '../../../lib/signing';
import { checkSignatureHeaders, verifySignedCallback } from '../../../nodes/Paycashless/callbacks/signature';
import { signedUrlForms } from '../../../nodes/Paycashless/callbacks/urls';

const SECRET = 'sk_test_3f9a1c0e5b7d4e2a9c8b6a5d4e3f2a1b';
const hmac = (data: string) => createHmac('sha512', SECRET).update(data, 'utf8').digest('hex');

// The payout body from the Paycashless docs, written with its keys out of order on purpose.
const DOCS_BODY = {
	reference: 'trx_fWQ7b31pbs5mmT3k3qfb46',
	narration: 'zapped',
	metadata: { category: 'transfer' },
	destinationAccountNumber: '9845648577',
	callbackUrl: 'https://webhook.site/99a59e8a-bd0b-485d-8249-fccb5eb62e27',
	bankId: 'bank_538ed2056326432ba8e6853b613997bb',
	amount: { value: 10000, currency: 'NGN' },
};
const DOCS_SORTED =
	'{"amount":{"currency":"NGN","value":10000},"bankId":"bank_538ed2056326432ba8e6853b613997bb","callbackUrl":"https://webhook.site/99a59e8a-bd0b-485d-8249-fccb5eb62e27","destinationAccountNumber":"9845648577","metadata":{"category":"transfer"},"narration":"zapped","reference":"trx_fWQ7b31pbs5mmT3k3qfb46"}';

describe('canonicalJson', () => {
	it('reproduces the sorted body string published in the Paycashless docs', () => {
		expect(canonicalJson(DOCS_BODY)).toBe(DOCS_SORTED);
	});

	it('sorts nested objects, including objects inside arrays, and keeps array order', () => {
		const body = { z: 1, items: [{ price: 5, name: 'b' }, { quantity: 2, name: 'a' }], a: { y: [3, 1, 2], b: null } };
		expect(canonicalJson(body)).toBe(
			'{"a":{"b":null,"y":[3,1,2]},"items":[{"name":"b","price":5},{"name":"a","quantity":2}],"z":1}',
		);
	});

	it('uses JavaScript default string order (upper case before lower case) and drops undefined members', () => {
		expect(canonicalJson({ b: 1, B: 2, a: undefined, _x: 3 })).toBe('{"B":2,"_x":3,"b":1}');
	});

	it('is stable: sorting a sorted string again changes nothing', () => {
		expect(canonicalJson(JSON.parse(DOCS_SORTED))).toBe(DOCS_SORTED);
	});

	it('keeps unicode as JSON.stringify writes it', () => {
		expect(canonicalJson({ name: 'Adébáyọ̀ ₦' })).toBe('{"name":"Adébáyọ̀ ₦"}');
	});
});

describe('signingPath', () => {
	it.each([
		['https://api.paycashless.com/v1/payouts', '/v1/payouts'],
		['https://api.paycashless.com/v1/Payouts/Verify/REF-1?x=1#frag', '/v1/payouts/verify/ref-1'],
		['http://127.0.0.1:4010/proxy/prefix/v1/payments/pi_1/verify', '/v1/payments/pi_1/verify'],
		['/v1/banks/account_lookup?accountNumber=1', '/v1/banks/account_lookup'],
		['v1/invoices', '/v1/invoices'],
		['https://example.com/v10/other', '/v10/other'],
		['https://example.com/api/v1', '/v1'],
	])('%s signs as %s', (url, expected) => {
		expect(signingPath(url)).toBe(expected);
	});
});

describe('joinUrl', () => {
	it.each([
		['https://api.paycashless.com', '/v1/payouts', 'https://api.paycashless.com/v1/payouts'],
		['https://api.paycashless.com/', 'v1/payouts', 'https://api.paycashless.com/v1/payouts'],
		['https://proxy.example/pc/', '/v1/payouts', 'https://proxy.example/pc/v1/payouts'],
		[undefined, 'https://api.paycashless.com/v1/x', 'https://api.paycashless.com/v1/x'],
		['https://ignored.example', 'http://127.0.0.1:1/v1/x', 'http://127.0.0.1:1/v1/x'],
	])('%s + %s', (base, url, expected) => {
		expect(joinUrl(base, url)).toBe(expected);
	});
});

describe('requestSignature', () => {
	const timestamp = '1763800000';

	it('with a body: HMAC(path + HMAC(body) + timestamp)', () => {
		const expected = hmac('/v1/payouts' + hmac(DOCS_SORTED) + timestamp);
		const actual = requestSignature({ secret: SECRET, url: 'https://api.paycashless.com/v1/payouts', body: DOCS_SORTED, timestamp });
		expect(actual).toBe(expected);
		expect(actual).toMatch(/^[0-9a-f]{128}$/);
	});

	it('without a body, documented form: HMAC(path + timestamp)', () => {
		const expected = hmac('/v1/payouts/verify/ref-9' + timestamp);
		expect(
			requestSignature({ secret: SECRET, url: 'https://api.paycashless.com/v1/payouts/verify/REF-9?limit=1', timestamp }),
		).toBe(expected);
		expect(
			requestSignature({ secret: SECRET, url: '/v1/payouts/verify/ref-9', timestamp, bodilessSigning: 'documented' }),
		).toBe(expected);
	});

	it('without a body, empty-object form: HMAC(path + HMAC("{}") + timestamp)', () => {
		const expected = hmac('/v1/payouts' + hmac('{}') + timestamp);
		expect(requestSignature({ secret: SECRET, url: '/v1/payouts', timestamp, bodilessSigning: 'emptyObjectHash' })).toBe(
			expected,
		);
	});

	it('changes with every input', () => {
		const base = { secret: SECRET, url: '/v1/payouts', body: DOCS_SORTED, timestamp };
		const reference = requestSignature(base);
		expect(requestSignature({ ...base, secret: SECRET + 'x' })).not.toBe(reference);
		expect(requestSignature({ ...base, url: '/v1/payments' })).not.toBe(reference);
		expect(requestSignature({ ...base, body: DOCS_SORTED.replace('10000', '10001') })).not.toBe(reference);
		expect(requestSignature({ ...base, timestamp: '1763800001' })).not.toBe(reference);
	});
});

describe('callbacks', () => {
	const url = 'https://n8n.example.com/webhook/3F2a-Paycashless/webhook?Source=PC';
	const data = { id: 'inv_1', status: 'paid', amountPaid: 150050, currency: 'NGN' };
	const timestamp = '1763800000';
	const nowMs = Number(timestamp) * 1000 + 20_000;
	const independent = (dataJson: string, callbackUrl = url) => hmac(callbackUrl.toLowerCase() + hmac(dataJson) + timestamp);

	it('callbackSignature = HMAC(lower(url) + HMAC(JSON(data)) + timestamp)', () => {
		expect(callbackSignature({ secret: SECRET, callbackUrl: url, dataJson: JSON.stringify(data), timestamp })).toBe(
			independent(JSON.stringify(data)),
		);
	});

	// The one callback verifier (callbacks/signature.ts): the headers first, then the signature.
	const verify = (overrides: { secret?: string; urls?: string[]; data?: unknown; signature?: string; nowMs?: number; toleranceSeconds?: number } = {}) => {
		const { secret = SECRET, urls = [url], data: signedData = data, signature = independent(JSON.stringify(data)), toleranceSeconds = 300 } = overrides;
		const problem = checkSignatureHeaders(signature, timestamp, overrides.nowMs ?? nowMs, toleranceSeconds);
		if (problem) return { valid: false, problem };
		return verifySignedCallback({ secret, urlTexts: urls.flatMap((candidate) => signedUrlForms(candidate)), data: signedData, signature, timestamp });
	};

	it('verifies data signed in received key order and in sorted order', () => {
		for (const [dataForm, dataJson] of [['received', JSON.stringify(data)], ['sorted', canonicalJson(data)]]) {
			const result = verify({ urls: ['https://other.example/webhook', url], signature: independent(dataJson) });
			expect(result).toEqual({ valid: true, urlText: url.toLowerCase(), dataForm });
		}
	});

	it('accepts an upper-case signature header value', () => {
		expect(verify({ signature: independent(JSON.stringify(data)).toUpperCase() }).valid).toBe(true);
	});

	it('refuses tampered data, a wrong URL, a wrong secret, missing headers and stale timestamps', () => {
		expect(verify({ data: { ...data, amountPaid: 150051 } })).toEqual({ valid: false });
		expect(verify({ urls: ['https://n8n.example.com/webhook/other'] })).toEqual({ valid: false });
		expect(verify({ secret: 'sk_other' })).toEqual({ valid: false });
		const signature = independent(JSON.stringify(data));
		expect(checkSignatureHeaders(undefined, timestamp, nowMs, 300)).toBe('missing_signature');
		expect(checkSignatureHeaders(signature, '', nowMs, 300)).toBe('missing_timestamp');
		expect(verify({ nowMs: nowMs + 301_000 })).toEqual({ valid: false, problem: 'stale_timestamp' });
		expect(verify({ nowMs: nowMs - 340_000 })).toEqual({ valid: false, problem: 'stale_timestamp' });
		expect(verify({ nowMs: nowMs + 3_600_000, toleranceSeconds: 0 }).valid).toBe(true);
	});
});

describe('signaturesMatch and timestampWithinTolerance', () => {
	it('compares only well-formed hex of the same length', () => {
		const expected = hmac('x');
		expect(signaturesMatch(expected, expected)).toBe(true);
		expect(signaturesMatch(expected, ` ${expected} `)).toBe(true);
		expect(signaturesMatch(expected, expected.slice(0, -1))).toBe(false);
		expect(signaturesMatch(expected, expected.slice(0, -1) + 'g')).toBe(false);
		expect(signaturesMatch(expected, null)).toBe(false);
	});

	it('takes 10-digit timestamps within the window either side', () => {
		const now = 1_763_800_000_000;
		expect(timestampWithinTolerance('1763800000', now)).toBe(true);
		expect(timestampWithinTolerance('1763800300', now)).toBe(true);
		expect(timestampWithinTolerance('1763800301', now)).toBe(false);
		expect(timestampWithinTolerance('1763799699', now)).toBe(false);
		expect(timestampWithinTolerance('176380000', now)).toBe(false);
		expect(timestampWithinTolerance('1763800000000', now)).toBe(false);
		expect(timestampWithinTolerance(undefined, now)).toBe(false);
	});
});
