/**
 * Callback → Verify with Headers and Parsed Body as a user leaves them: their default `{}` (not an
 * empty text, which n8n's JSON editor marks "Unexpected end of JSON input": the browser test in
 * test/browser/editor.test.cts) means "take them from the incoming item", as an empty text does.
 */
import type { INodeParameters } from 'n8n-workflow';

import { callbackSignature, canonicalJson, unixTimestamp } from '../../../lib/signing';
import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { runNode } from '../../../scripts/harness/executeContext.cjs';

const SECRET = 'sk_test_verify_defaults';
const CREDENTIALS = { apiKey: 'pk_test', apiSecret: SECRET, baseUrl: 'http://127.0.0.1:9', bodilessSigning: 'documented' as const };
const URL_GIVEN = 'https://n8n.example.com/webhook/paycashless-in';
const DATA = { id: 'inv_1', reference: 'order-1', status: 'paid', amountPaid: 300000, currency: 'NGN' };

function incoming() {
	const timestamp = unixTimestamp(Date.now());
	const signature = callbackSignature({ secret: SECRET, callbackUrl: URL_GIVEN, dataJson: canonicalJson(DATA), timestamp });
	return { json: { headers: { 'request-signature': signature, 'request-timestamp': timestamp }, body: { event: 'INVOICE_PAID', data: DATA } } };
}

async function verify(parameters: INodeParameters) {
	const { output } = await runNode({
		parameters: { resource: 'callback', operation: 'verify', expectedCallbackUrl: URL_GIVEN, rawBodyBinaryProperty: '', onInvalid: 'flag', ...parameters },
		items: [incoming()],
		credentials: CREDENTIALS,
	});
	return output[0].json;
}

describe('Callback → Verify: Headers and Parsed Body left as they are', () => {
	const fields = Object.fromEntries(
		new Paycashless().description.properties.filter((p) => ['callbackHeaders', 'callbackBody'].includes(p.name)).map((p) => [p.name, { type: p.type, default: p.default }]),
	);

	it('default to {} in the JSON editor, not to an empty text', () => {
		expect(fields).toEqual({ callbackHeaders: { type: 'json', default: '{}' }, callbackBody: { type: 'json', default: '{}' } });
	});

	it('at their defaults, the incoming item\'s headers and body are verified', async () => {
		await expect(verify({})).resolves.toMatchObject({ verified: true, event: 'INVOICE_PAID', data: DATA });
	});

	it('{} with spaces or as an object, and an empty text, mean the same', async () => {
		for (const value of ['{ }', ' {}\n', {}, '']) {
			await expect(verify({ callbackHeaders: value, callbackBody: value } as INodeParameters)).resolves.toMatchObject({ verified: true });
		}
	});

	it('headers given in the field are still used instead of the item\'s (wrong ones are refused)', async () => {
		await expect(verify({ callbackHeaders: '{"request-signature": "forged", "request-timestamp": "1"}' })).resolves.toMatchObject({ verified: false });
		await expect(verify({ callbackBody: '{"event": "INVOICE_PAID", "data": {"id": "inv_1", "amountPaid": 1}}' })).resolves.toMatchObject({ verified: false });
	});
});
