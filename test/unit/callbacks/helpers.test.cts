import { deliveryIdFor, parseCallbackBody } from '../../../nodes/Paycashless/callbacks/parse';
import { visibleHeaders } from '../../../nodes/Paycashless/callbacks/headers';
import { candidateCallbackUrls, queryStringOf, swapTestAndProductionUrl } from '../../../nodes/Paycashless/callbacks/urls';
import { parseNameList as parseEventNames } from '../../../nodes/Paycashless/helpers/lists';
import { eventMatcher } from '../../../nodes/Paycashless/trigger/events';

const ID = '0b7c5a2e-1111-4222-8333-944455556666';

describe('swapTestAndProductionUrl', () => {
	it('swaps the endpoint segment before the webhook id, not the node path', () => {
		expect(swapTestAndProductionUrl(`https://h.example/webhook/${ID}/webhook`, ID)).toBe(`https://h.example/webhook-test/${ID}/webhook`);
		expect(swapTestAndProductionUrl(`https://h.example/webhook-test/${ID}/webhook`, ID)).toBe(`https://h.example/webhook/${ID}/webhook`);
	});

	it('keeps a base path and a query string', () => {
		expect(swapTestAndProductionUrl(`https://h.example/n8n/webhook/${ID}/webhook?x=1`, ID)).toBe(
			`https://h.example/n8n/webhook-test/${ID}/webhook?x=1`,
		);
	});

	it('without a webhook id, swaps the last endpoint segment that is not the final one', () => {
		expect(swapTestAndProductionUrl('http://localhost:5678/webhook/wf1/paycashless%20trigger/webhook')).toBe(
			'http://localhost:5678/webhook-test/wf1/paycashless%20trigger/webhook',
		);
		expect(swapTestAndProductionUrl(`http://localhost:5678/webhook/${ID}/webhook`)).toBe(
			`http://localhost:5678/webhook-test/${ID}/webhook`,
		);
	});

	it('gives up on a custom endpoint name', () => {
		expect(swapTestAndProductionUrl(`https://h.example/hooks/${ID}/webhook`, ID)).toBeUndefined();
	});
});

describe('queryStringOf', () => {
	it('returns the query without ? and fragment', () => {
		expect(queryStringOf('/webhook/a/webhook?x=1&Y=b#frag')).toBe('x=1&Y=b');
		expect(queryStringOf('/webhook/a/webhook')).toBe('');
		expect(queryStringOf(undefined)).toBe('');
	});
});

describe('candidateCallbackUrls', () => {
	it('lists override, production and test URLs, with and without the received query, once each', () => {
		const production = `https://h.example/webhook/${ID}/webhook`;
		const urls = candidateCallbackUrls({
			productionUrl: production,
			servedUrl: production.toUpperCase(),
			webhookId: ID,
			overrideUrl: ' https://proxy.example/pc ',
			receivedQuery: 'a=1',
		});
		expect(urls).toEqual([
			'https://proxy.example/pc?a=1',
			'https://proxy.example/pc',
			`${production}?a=1`,
			production,
			`https://h.example/webhook-test/${ID}/webhook?a=1`,
			`https://h.example/webhook-test/${ID}/webhook`,
		]);
	});

	it('does not add the received query to an override that has its own', () => {
		expect(candidateCallbackUrls({ overrideUrl: 'https://p.example/x?t=1', receivedQuery: 't=1' })).toEqual(['https://p.example/x?t=1']);
	});
});

describe('eventMatcher', () => {
	it('matches all with *, with nothing selected, and case-insensitively otherwise', () => {
		expect(eventMatcher(['*'], '')('ANYTHING')).toBe(true);
		expect(eventMatcher([], '')('ANYTHING')).toBe(true);
		const match = eventMatcher(['INVOICE_PAID'], 'payout_succeeded');
		expect(match('invoice_paid')).toBe(true);
		expect(match('PAYOUT_SUCCEEDED')).toBe(true);
		expect(match('INVOICE_PAYMENT_SUCCEEDED')).toBe(false);
	});

	it('splits other names on commas and new lines', () => {
		expect(parseEventNames(' A, b ,,\nC ')).toEqual(['A', 'b', 'C']);
	});
});

describe('callback helpers', () => {
	it('deliveryIdFor ignores key order, not values (the event name is not signed, so not part of it)', () => {
		expect(deliveryIdFor({ a: 1, b: { c: 2, d: 3 } })).toBe(deliveryIdFor({ b: { d: 3, c: 2 }, a: 1 }));
		expect(deliveryIdFor({ a: 1 })).not.toBe(deliveryIdFor({ a: 2 }));
	});

	it('parseCallbackBody keeps the received key order and rejects non-callbacks', () => {
		const parsed = parseCallbackBody(Buffer.from('{"data":{"z":1,"a":2},"event":"X"}'), {});
		expect(parsed.ok && Object.keys(parsed.callback.data as object)).toEqual(['z', 'a']);
		expect(parseCallbackBody(Buffer.from('\uFEFF{"event":"X","data":{}}'), {}).ok).toBe(true);
		expect(parseCallbackBody(Buffer.from('[1]'), {})).toEqual({ ok: false, error: 'invalid_payload' });
		expect(parseCallbackBody(Buffer.from('<xml/>'), {})).toEqual({ ok: false, error: 'invalid_json' });
		expect(parseCallbackBody(undefined, '{"event":"X","data":[]}').ok).toBe(true);
	});

	it('visibleHeaders drops the signature and credential-like headers', () => {
		expect(
			visibleHeaders({ 'request-signature': 's', 'request-timestamp': '1', authorization: 'a', 'proxy-authorization': 'p', cookie: 'c', 'x-a': ['1', '2'] }),
		).toEqual({ 'request-timestamp': '1', 'x-a': ['1', '2'] });
	});
});
