/** The pure pieces of the trigger hardening: body scan, URL forms, event check, header check. */
import { decodeTypedUrl, encodeLikeWhatwg, signedUrlForms } from '../../../nodes/Paycashless/callbacks/urls';
import { checkEventAgainstData, kindOfData } from '../../../nodes/Paycashless/callbacks/consistency';
import { depthOf, scanJson } from '../../../nodes/Paycashless/callbacks/rawJson';
import { checkSignatureHeaders, verifySignedCallback } from '../../../nodes/Paycashless/callbacks/signature';

describe('scanJson', () => {
	it('finds the exact text of each top-level member, whatever the spacing, strings and nesting', () => {
		const text = ' {\n "event" : "A,}",\t"data":{"x":[1,{"y":"]\\"}"}],"z":null} ,"n":-1.50e2, "s":"q" }';
		const scan = scanJson(text);
		if (!scan.ok) throw new Error('scan failed');
		const slice = (name: string) => text.slice(scan.members[name].start, scan.members[name].end);
		expect(slice('event')).toBe('"A,}"');
		expect(slice('data')).toBe('{"x":[1,{"y":"]\\"}"}],"z":null}');
		expect(slice('n')).toBe('-1.50e2');
		expect(slice('s')).toBe('"q"');
		expect(scan.depth).toBe(4);
	});

	it('keeps the last of a repeated member, as JSON.parse does', () => {
		const text = '{"data":{"a":1},"data":{"a":2}}';
		const scan = scanJson(text);
		expect(scan.ok && text.slice(scan.members.data.start, scan.members.data.end)).toBe('{"a":2}');
		expect(JSON.parse(text).data).toEqual({ a: 2 });
	});

	it('stops at the depth limit without recursion, and spots unbalanced text', () => {
		expect(scanJson(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toEqual({ ok: false, reason: 'too_deep' });
		expect(scanJson('{"a":[1,2]', 64)).toEqual({ ok: false, reason: 'unbalanced' });
		expect(scanJson('{"a":"unterminated}')).toEqual({ ok: false, reason: 'unbalanced' });
		expect(scanJson('[{"data":1}]')).toEqual({ ok: true, depth: 2, members: {} });
	});

	it('depthOf measures a parsed value without recursion', () => {
		let nested: unknown = 1;
		for (let i = 0; i < 10_000; i++) nested = [nested];
		expect(depthOf(nested, 64)).toBe(65);
		expect(depthOf({ a: { b: [1, { c: 2 }] } })).toBe(4);
	});

	it('verifySignedCallback (callbacks/signature.ts) keeps its promise never to throw, even on data 10,000 deep', () => {
		let nested: unknown = 1;
		for (let i = 0; i < 10_000; i++) nested = { a: nested };
		expect(() => JSON.stringify(nested)).toThrow(RangeError);
		const result = verifySignedCallback({
			secret: 's',
			urlTexts: signedUrlForms('https://h.example/webhook/x/webhook'),
			data: nested,
			signature: 'ab'.repeat(64),
			timestamp: String(Math.floor(Date.now() / 1000)),
		});
		expect(result).toEqual({ valid: false });
	});
});

describe('callback URL byte forms', () => {
	const typed = 'https://n8n.example.com/webhook/AB/webhook?tenant=Ünïcode&x=1&q=a%26b&name=Jo Ade';
	const wire = new URL(typed).href;

	it('the WHATWG wire form decodes back to what was typed; typed escapes like %26 stay', () => {
		expect(wire).toBe('https://n8n.example.com/webhook/AB/webhook?tenant=%C3%9Cn%C3%AFcode&x=1&q=a%26b&name=Jo%20Ade');
		expect(decodeTypedUrl(wire)).toBe(typed);
		expect(encodeLikeWhatwg(typed)).toBe(wire);
	});

	it('leaves broken or partial UTF-8 escapes as they are', () => {
		expect(decodeTypedUrl('https://h/?a=%C3&b=%FF%41%e2%82%ac')).toBe('https://h/?a=%C3&b=%FF%41€');
	});

	it('gives six distinct forms for a non-ASCII URL and one for plain ASCII', () => {
		expect(signedUrlForms(wire)).toEqual([
			'https://n8n.example.com/webhook/ab/webhook?tenant=%c3%9cn%c3%afcode&x=1&q=a%26b&name=jo%20ade',
			'https://n8n.example.com/webhook/ab/webhook?tenant=ünïcode&x=1&q=a%26b&name=jo ade',
			'https://n8n.example.com/webhook/ab/webhook?tenant=%C3%BCn%C3%AFcode&x=1&q=a%26b&name=jo%20ade',
			'https://n8n.example.com/webhook/ab/webhook?tenant=%c3%bcn%c3%afcode&x=1&q=a%26b&name=jo%20ade',
			'https://n8n.example.com/webhook/ab/webhook?tenant=%C3%9Cn%C3%AFcode&x=1&q=a%26b&name=jo%20ade',
			'https://n8n.example.com/webhook/ab/webhook?tenant=Ünïcode&x=1&q=a%26b&name=jo ade',
		]);
		expect(signedUrlForms('https://H.example/webhook/x/webhook?A=1')).toEqual(['https://h.example/webhook/x/webhook?a=1']);
	});
});

describe('event name against data', () => {
	it('reads the kind from the id prefix, and an invoice payment from its invoiceId whatever its id', () => {
		expect(kindOfData({ id: 'acc_req_1' })).toBe('accountRequest');
		expect(kindOfData({ code: 'acc_req_1', status: 'awaiting_consent' })).toBe('accountRequest');
		expect(kindOfData({ id: 'inv_pay_1', invoiceId: 'inv_1', amountPaid: 5 })).toBe('invoicePayment');
		expect(kindOfData({ id: 'txr_1' })).toBeUndefined();
		expect(kindOfData([{ id: 'pi_1' }])).toBeUndefined();
	});

	it.each([
		['PAYOUT_SUCCEEDED', { id: 'inv_1', status: 'paid' }, 'inconsistent'],
		['INVOICE_PAID', { id: 'ipay_1', invoiceId: 'inv_1', amountPaid: 5, paid: true }, 'inconsistent'],
		['PAYMENT_SUCCEEDED', { id: 'pi_1', status: 'expired' }, 'inconsistent'],
		['PAYOUT_FAILED', { id: 'po_1', status: 'succeeded' }, 'inconsistent'],
		['INVOICE_PAYMENT_SUCCEEDED', { id: 'ipay_1', invoiceId: 'inv_1', amountPaid: 5, paid: false }, 'inconsistent'],
		// Not judged: refund/reversal events may carry the original object, still "succeeded".
		['PAYMENT_REFUNDED', { id: 'pi_1', status: 'succeeded' }, 'consistent'],
		['PAYOUT_REVERSED', { id: 'po_1', status: 'succeeded' }, 'consistent'],
		['PAYOUT_FAILED', { id: 'po_1', status: 'reversed' }, 'consistent'],
		['INVOICE_PAYMENT_REVERSED', { id: 'ipay_1', invoiceId: 'inv_1', amountPaid: 5, paid: true }, 'consistent'],
		['PAYMENT_SUCCEEDED', { id: 'pi_1', status: 'some_new_status' }, 'consistent'],
		['NEW_EVENT', { id: 'pi_1', status: 'failed' }, 'not_checkable'],
		['PAYMENT_CHARGED', { reference: 'r' }, 'not_checkable'],
	])('%s with %j is %s', (event, data, result) => {
		expect(checkEventAgainstData(event, data).result).toBe(result);
	});
});

describe('signature headers, checked before the body', () => {
	const now = Date.UTC(2026, 10, 23, 12, 0, 0);
	const ts = String(Math.floor(now / 1000));
	it.each([
		[undefined, ts, 'missing_signature'],
		['ab'.repeat(64), undefined, 'missing_timestamp'],
		['ab'.repeat(63), ts, 'invalid_signature'],
		['zz'.repeat(64), ts, 'invalid_signature'],
		['AB'.repeat(64), String(now), 'stale_timestamp'],
		['ab'.repeat(64), String(Math.floor(now / 1000) - 301), 'stale_timestamp'],
		['ab'.repeat(64), ts, undefined],
	])('signature %s, timestamp %s → %s', (signature, timestamp, problem) => {
		expect(checkSignatureHeaders(signature, timestamp, now, 300)).toBe(problem);
	});
});
