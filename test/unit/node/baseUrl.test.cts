/**
 * A Base URL copied wrong (no https://, /v1 at the end) gets a message saying what to change in
 * node runs, before any request. The credential's Test button in a real n8n: test/browser.
 */
import { NodeOperationError } from 'n8n-workflow';

import { PaycashlessApi } from '../../../credentials/PaycashlessApi.credentials';
import { checkBaseUrl } from '../../../nodes/Paycashless/transport/baseUrl';
import { runNode } from '../../../scripts/harness/executeContext.cjs';

const verify = { resource: 'payout', operation: 'verify', reference: 'ref-1' };

describe('Base URL', () => {
	it.each([
		['api.paycashless.com', /^The Base URL "api.paycashless.com" must start with https:\/\//],
		['https://api.paycashless.com/v1', /^The Base URL "https:\/\/api.paycashless.com\/v1" ends with \/v1: remove \/v1/],
		['https://api.paycashless.com/v1/', /ends with \/v1: remove \/v1/],
		['https://api.pay cashless.com', /is not a web address/],
	])('%s: says what to change', (value, message) => {
		const checked = checkBaseUrl(value);
		expect('problem' in checked && checked.problem).toMatch(message);
	});

	it.each([
		[undefined, 'https://api.paycashless.com'],
		['', 'https://api.paycashless.com'],
		[' https://proxy.example/paycashless/ ', 'https://proxy.example/paycashless'],
		['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
	])('%s is accepted as %s', (value, url) => {
		expect(checkBaseUrl(value)).toEqual({ url });
	});

	it('a node run stops before any request with that message', async () => {
		for (const [baseUrl, message] of [
			['api.paycashless.com', /must start with https:\/\//],
			['https://api.paycashless.com/v1', /ends with \/v1/],
		] as const) {
			const result = runNode({ parameters: verify, credentials: { apiKey: 'pk_test_x', apiSecret: 'sk_test_x', baseUrl } });
			await expect(result).rejects.toBeInstanceOf(NodeOperationError);
			await expect(result).rejects.toThrow(message);
		}
	});

	it('the credential asks for the API Key and shows the Base URL form', () => {
		const byName = Object.fromEntries(new PaycashlessApi().properties.map((p) => [p.name, p]));
		expect(byName.apiKey.required).toBe(true);
		expect(byName.baseUrl.description).toMatch(/without \/v1/);
		const lastRule = (new PaycashlessApi().test.rules ?? []).at(-1) as { properties: { message: string } };
		expect(lastRule.properties.message).toMatch(/without \/v1 at the end/);
	});
});
