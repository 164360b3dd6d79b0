/**
 * Create and Wait's resume webhook and Callback → Verify, without n8n: the real node methods on
 * fake contexts, callbacks signed with lib/signing.ts. The same scenarios in a real n8n:
 * test/e2e/wait.test.ts.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callbackSignature, canonicalJson, unixTimestamp } from '../../lib/signing';
import { Paycashless } from '../../nodes/Paycashless/Paycashless.node';
import { WAIT_REFERENCE_PARAM, waitCallbackUrl, waitTillFrom } from '../../nodes/Paycashless/wait/resume';
import { createExecuteContext, runNode } from '../helpers/executeContext';
import { runWebhook } from '../helpers/webhookContext';

const SECRET = 'sk_test_wait_secret';
const CREDENTIALS = { apiKey: 'pk_test', apiSecret: SECRET, baseUrl: 'http://127.0.0.1:9', bodilessSigning: 'documented' as const };
const RESUME_URL = 'https://n8n.example.com/webhook-waiting/42?signature=0123abcd';
const REFERENCE = 'order-1001';
const CALLBACK_URL = waitCallbackUrl(RESUME_URL, REFERENCE);
const PAID_INVOICE = { id: 'inv_1', reference: REFERENCE, status: 'paid', amountDue: 300000, amountPaid: 300000, currency: 'NGN' };

function sign(url: string, data: IDataObject, secret = SECRET, nowMs = Date.now()) {
	const timestamp = unixTimestamp(nowMs);
	return {
		'Request-Signature': callbackSignature({ secret, callbackUrl: url, dataJson: canonicalJson(data), timestamp }),
		'Request-Timestamp': timestamp,
	};
}

async function resume(event: string, data: IDataObject, headers: Record<string, string>, parameters: IDataObject = {}) {
	const path = CALLBACK_URL.slice('https://n8n.example.com'.length);
	return await runWebhook(new Paycashless(), {
		rawBody: JSON.stringify({ event, data }),
		headers,
		requestUrl: path,
		credentials: CREDENTIALS,
		parameters: { resource: 'invoice', operation: 'createAndWait', __paycashlessResumeUrl: RESUME_URL, ...parameters },
	});
}

describe('Create and Wait: the resume webhook', () => {
	test('the callback URL is the resume URL plus the reference', () => {
		const url = new URL(CALLBACK_URL);
		expect(url.searchParams.get('signature')).toBe('0123abcd');
		expect(url.searchParams.get(WAIT_REFERENCE_PARAM)).toBe(REFERENCE);
	});

	test('a genuine INVOICE_PAID resumes with the paid invoice', async () => {
		const run = await resume('INVOICE_PAID', PAID_INVOICE, sign(CALLBACK_URL, PAID_INVOICE));
		expect(run.answer.status).toBe(200);
		expect(run.items).toHaveLength(1);
		expect(run.items[0]).toMatchObject({ id: 'inv_1', status: 'paid', paycashlessWait: { outcome: 'paid', event: 'INVOICE_PAID', reference: REFERENCE, verified: true } });
	});

	test('INVOICE_CANCELLED resumes with outcome cancelled', async () => {
		const data = { ...PAID_INVOICE, status: 'cancelled', amountPaid: 0 };
		const run = await resume('INVOICE_CANCELLED', data, sign(CALLBACK_URL, data));
		expect(run.items[0]).toMatchObject({ status: 'cancelled', paycashlessWait: { outcome: 'cancelled' } });
	});

	test('an instalment (INVOICE_PAYMENT_SUCCEEDED) is acknowledged and does not resume', async () => {
		const data = { id: 'ipay_1', invoiceId: 'inv_1', amountPaid: 100000, paid: true };
		const run = await resume('INVOICE_PAYMENT_SUCCEEDED', data, sign(CALLBACK_URL, data));
		expect(run.answer).toEqual({ status: 200, body: { received: true, resumed: false, reason: 'partial_payment' } });
		expect(run.result.workflowData).toBeUndefined();
	});

	test.each([
		['wrong secret', () => sign(CALLBACK_URL, PAID_INVOICE, `${SECRET}x`), PAID_INVOICE, 401],
		['altered amount', () => sign(CALLBACK_URL, PAID_INVOICE), { ...PAID_INVOICE, amountPaid: 1 }, 401],
		['stale timestamp', () => sign(CALLBACK_URL, PAID_INVOICE, SECRET, Date.now() - 3600_000), PAID_INVOICE, 401],
		['signed for another URL', () => sign(waitCallbackUrl(RESUME_URL, 'other'), PAID_INVOICE), PAID_INVOICE, 401],
		['no signature', () => ({ 'Request-Timestamp': unixTimestamp(Date.now()) }), PAID_INVOICE, 401],
	])('%s: refused, nothing resumes', async (_name, headers, data, status) => {
		const run = await resume('INVOICE_PAID', data as IDataObject, headers());
		expect(run.answer.status).toBe(status);
		expect(run.result.noWebhookResponse).toBe(true);
		expect(run.result.workflowData).toBeUndefined();
	});

	test('a genuine callback about another reference (a late one of an earlier loop round) does not resume', async () => {
		const data = { ...PAID_INVOICE, reference: 'order-0999' };
		const run = await resume('INVOICE_PAID', data, sign(CALLBACK_URL, data));
		expect(run.answer).toEqual({ status: 200, body: { received: true, resumed: false, reason: 'other_reference' } });
		expect(run.result.workflowData).toBeUndefined();
	});

	test('a node not waiting answers 404 and resumes nothing', async () => {
		const run = await resume('INVOICE_PAID', PAID_INVOICE, sign(CALLBACK_URL, PAID_INVOICE), { operation: 'create' });
		expect(run.answer.status).toBe(404);
		expect(run.result.workflowData).toBeUndefined();
	});
});

describe('Create and Wait: time limit', () => {
	test('minutes, hours and days; bad values name the field', () => {
		expect(waitTillFrom(90, 'minutes', 0).getTime()).toBe(90 * 60_000);
		expect(waitTillFrom(2, 'days', 0).getTime()).toBe(2 * 86_400_000);
		expect(() => waitTillFrom(0, 'hours', 0)).toThrow(/Time Limit/);
		expect(() => waitTillFrom('abc', 'hours', 0)).toThrow(/Time Limit/);
		expect(() => waitTillFrom(400, 'days', 0)).toThrow(/366 days/);
		expect(() => waitTillFrom(1, 'weeks', 0)).toThrow(/Time Limit Unit/);
	});

	test('two input items are refused before anything is sent', async () => {
		const parameters = { resource: 'invoice', operation: 'createAndWait', waitTimeLimit: 1, waitTimeLimitUnit: 'hours' };
		const harness = createExecuteContext({ parameters: [parameters, parameters], credentials: CREDENTIALS });
		const node = new Paycashless();
		await expect(node.execute.call(harness.context as IExecuteFunctions)).rejects.toThrow(/one invoice per run and got 2 items/);
		expect(harness.sent).toHaveLength(0);
	});
});

describe('Callback → Verify', () => {
	const URL_GIVEN = 'https://n8n.example.com/webhook/paycashless-in';
	const base = { resource: 'callback', operation: 'verify', expectedCallbackUrl: URL_GIVEN, rawBodyBinaryProperty: '' };

	async function verify(headers: IDataObject, body: unknown, extra: IDataObject = {}) {
		return await runNode({
			parameters: { ...base, callbackHeaders: headers, callbackBody: body, ...extra },
			credentials: CREDENTIALS,
			continueOnFail: true,
		});
	}

	test('a genuine callback is verified (header names in any case)', async () => {
		const headers = sign(URL_GIVEN, PAID_INVOICE);
		const { output } = await verify({ 'request-signature': headers['Request-Signature'], 'REQUEST-TIMESTAMP': headers['Request-Timestamp'] }, { event: 'INVOICE_PAID', data: PAID_INVOICE });
		expect(output[0].json).toMatchObject({ verified: true, event: 'INVOICE_PAID', data: PAID_INVOICE });
	});

	test('sent to the Webhook node\'s Test URL: verified too', async () => {
		const testUrl = URL_GIVEN.replace('/webhook/', '/webhook-test/');
		const { output } = await verify(sign(testUrl, PAID_INVOICE), { event: 'INVOICE_PAID', data: PAID_INVOICE });
		expect(output[0].json.verified).toBe(true);
	});

	test('forged: flagged with the status to answer, or an error naming the reason', async () => {
		const forged = sign(URL_GIVEN, PAID_INVOICE, 'not-the-secret');
		const flagged = await verify(forged, { event: 'INVOICE_PAID', data: PAID_INVOICE }, { onInvalid: 'flag' });
		expect(flagged.output[0].json).toMatchObject({ verified: false, reason: 'invalid_signature', httpStatus: 401 });
		const failed = await verify(forged, { event: 'INVOICE_PAID', data: PAID_INVOICE }, { onInvalid: 'error' });
		expect(String(failed.output[0].json.error)).toMatch(/not a genuine Paycashless callback \(invalid_signature\)/);
		const stale = await verify(sign(URL_GIVEN, PAID_INVOICE, SECRET, Date.now() - 600_000), { event: 'INVOICE_PAID', data: PAID_INVOICE }, { onInvalid: 'flag' });
		expect(stale.output[0].json).toMatchObject({ verified: false, reason: 'stale_timestamp', httpStatus: 401 });
		const altered = await verify(sign(URL_GIVEN, PAID_INVOICE), { event: 'INVOICE_PAID', data: { ...PAID_INVOICE, amountPaid: 5 } }, { onInvalid: 'flag' });
		expect(altered.output[0].json).toMatchObject({ verified: false, reason: 'invalid_signature' });
	});

	test('the raw body (Webhook node "Raw Body") is used when present', async () => {
		const rawText = JSON.stringify({ event: 'INVOICE_PAID', data: PAID_INVOICE });
		const harness = createExecuteContext({
			parameters: { ...base, rawBodyBinaryProperty: 'data', callbackHeaders: sign(URL_GIVEN, PAID_INVOICE), callbackBody: {} },
			items: [{ json: {}, binary: { data: { data: Buffer.from(rawText).toString('base64'), mimeType: 'application/json' } } }],
			credentials: CREDENTIALS,
		});
		(harness.context.helpers as unknown as { getBinaryDataBuffer: unknown }).getBinaryDataBuffer = async () => Buffer.from(rawText);
		const [output] = await new Paycashless().execute.call(harness.context);
		expect(output[0].json).toMatchObject({ verified: true, event: 'INVOICE_PAID' });
	});

	test('a bad Callback URL or Headers value is a clear error naming the field', async () => {
		const badUrl = await verify({}, {}, { expectedCallbackUrl: 'not a url' });
		expect(String(badUrl.output[0].json.error)).toMatch(/Invalid Callback URL/);
		const badHeaders = await verify('[1,2]' as unknown as IDataObject, {});
		expect(String(badHeaders.output[0].json.error)).toMatch(/Invalid Headers/);
	});
});
