/**
 * Create and Wait's resume webhook and Callback → Verify, without n8n: the real node methods on
 * fake contexts, callbacks signed with lib/signing.ts. The same scenarios in a real n8n:
 * test/e2e/wait.test.cts.
 */
import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { startEmulator, type EmulatorHandle } from '../../../emulator/index.cjs';
import { callbackSignature, canonicalJson, unixTimestamp } from '../../../lib/signing';
import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { waitTillFrom } from '../../../nodes/Paycashless/wait/fields';
import { WAIT_REFERENCE_PARAM, waitCallbackUrl } from '../../../nodes/Paycashless/wait/pause';
import { createExecuteContext, runNode } from '../../../scripts/harness/executeContext.cjs';
import { runWebhook } from '../../../scripts/harness/webhookContext.cjs';

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

	test('a payment towards the invoice (INVOICE_PAYMENT_SUCCEEDED) is acknowledged and does not resume', async () => {
		const data = { id: 'ipay_1', invoiceId: 'inv_1', amountPaid: 100000, paid: true };
		const run = await resume('INVOICE_PAYMENT_SUCCEEDED', data, sign(CALLBACK_URL, data));
		expect(run.answer).toEqual({ status: 200, body: { received: true, resumed: false, reason: 'payment_received' } });
		expect(run.result.workflowData).toBeUndefined();
		// Sent for the payment that pays it in full too: the log does not call it partial.
		const said = run.logs.map((line) => line.message).join('\n');
		expect(said).toContain('INVOICE_PAYMENT_SUCCEEDED received while waiting (a payment towards the invoice; INVOICE_PAID follows when it is paid in full)');
		expect(said).not.toMatch(/partial/);
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

	test('the event name is not signed: a genuine body under another event name does not resume', async () => {
		// A paid invoice relabelled INVOICE_CANCELLED, and an instalment relabelled INVOICE_PAID.
		// The trigger's own event check (trigger/callback.ts) refuses this one with 422; the wait's check is behind it.
		const relabelled = await resume('INVOICE_CANCELLED', PAID_INVOICE, sign(CALLBACK_URL, PAID_INVOICE));
		expect([401, 422]).toContain(relabelled.answer.status);
		expect(relabelled.result.workflowData).toBeUndefined();
		const instalment = { id: 'ipay_1', invoiceId: 'inv_1', amountPaid: 100000, paid: true };
		const promoted = await resume('INVOICE_PAID', instalment, sign(CALLBACK_URL, instalment));
		expect([401, 422]).toContain(promoted.answer.status);
		// Data the trigger's check cannot judge (no id) is refused by the wait's own check.
		const anonymous = { reference: REFERENCE, status: 'open' };
		const unjudged = await resume('INVOICE_PAID', anonymous, sign(CALLBACK_URL, anonymous));
		expect(unjudged.answer).toMatchObject({ status: 401, body: { error: 'event_data_mismatch' } });
		expect(promoted.result.workflowData).toBeUndefined();
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

	async function verify(headers: IDataObject, body: unknown, extra: INodeParameters = {}) {
		return await runNode({
			parameters: { ...base, callbackHeaders: headers, callbackBody: body as INodeParameters, ...extra } as INodeParameters,
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

	test('a body given as text is read like the bytes received (a byte-order mark, the data as sent)', async () => {
		// Pretty-printed: the data's own bytes, not a re-serialisation, are what was signed.
		const dataText = JSON.stringify(PAID_INVOICE, null, 2);
		const timestamp = unixTimestamp(Date.now());
		const headers = {
			'Request-Signature': callbackSignature({ secret: SECRET, callbackUrl: URL_GIVEN, dataJson: dataText, timestamp }),
			'Request-Timestamp': timestamp,
		};
		const { output } = await verify(headers, `\uFEFF{"event":"INVOICE_PAID","data":${dataText}}`);
		expect(output[0].json).toMatchObject({ verified: true, event: 'INVOICE_PAID', data: PAID_INVOICE });
	});

	test('forged: flagged with the status to answer, or an error naming the reason', async () => {
		const forged = sign(URL_GIVEN, PAID_INVOICE, 'not-the-secret');
		const flagged = await verify(forged, { event: 'INVOICE_PAID', data: PAID_INVOICE }, { onInvalid: 'flag' });
		expect(flagged.output[0].json).toMatchObject({ verified: false, reason: 'invalid_signature', httpStatus: 401 });
		const failed = await verify(forged, { event: 'INVOICE_PAID', data: PAID_INVOICE }, { onInvalid: 'error' });
		expect(String(failed.output[0].json.message)).toMatch(/not a genuine Paycashless callback \(invalid_signature\)/);
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

	test('Headers and Parsed Body left empty: taken from the incoming item (as the Webhook node gives them)', async () => {
		const headers = sign(URL_GIVEN, PAID_INVOICE);
		const { output } = await runNode({
			parameters: { ...base, callbackHeaders: '', callbackBody: '' } as INodeParameters,
			items: [{ json: { headers: { 'request-signature': headers['Request-Signature'], 'request-timestamp': headers['Request-Timestamp'] }, body: { event: 'INVOICE_PAID', data: PAID_INVOICE } } }],
			credentials: CREDENTIALS,
		});
		expect(output[0].json).toMatchObject({ verified: true, event: 'INVOICE_PAID' });
	});

	test('a bad Callback URL or Headers value is a clear error naming the field', async () => {
		const badUrl = await verify({}, {}, { expectedCallbackUrl: 'not a url' });
		expect(String(badUrl.output[0].json.message)).toMatch(/Invalid Callback URL/);
		const badHeaders = await verify('[1,2]' as unknown as IDataObject, {});
		expect(String(badHeaders.output[0].json.message)).toMatch(/Invalid Headers/);
	});
});

describe('Create and Wait: the create and the wait (against the emulator)', () => {
	let emulator: EmulatorHandle;
	beforeAll(async () => {
		emulator = await startEmulator({ callbackRetries: 0 });
	});
	afterAll(async () => {
		await emulator.close();
	});

	function parameters(reference: string): INodeParameters {
		return {
			resource: 'invoice',
			operation: 'createAndWait',
			reference,
			invoiceDescription: 'Order',
			currency: 'NGN',
			customerEmail: 'ada@example.com',
			customerName: 'Ada Obi',
			items: { itemValues: [{ name: 'Rice', quantity: 2, price: 1500 }] },
			daysUntilDue: 7,
			waitTimeLimit: 2,
			waitTimeLimitUnit: 'hours',
			additionalFields: { additionalBodyJson: '{"callbackUrl": "https://elsewhere.example.com/x"}' },
		};
	}

	async function run(reference: string) {
		const harness = createExecuteContext({
			parameters: parameters(reference),
			credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl },
		});
		const waits: Date[] = [];
		const executeData = { node: {}, data: { main: [[{ json: { input: true } }]] }, source: null } as unknown as IDataObject;
		Object.assign(harness.context, {
			evaluateExpression: (expression: string) => (expression === '{{ $execution.resumeUrl }}' ? RESUME_URL : undefined),
			putExecutionToWait: async (date: Date) => {
				waits.push(date);
			},
			getExecuteData: () => executeData,
		});
		const before = Date.now();
		const [output] = await new Paycashless().execute.call(harness.context);
		return { output, waits, executeData, before, sent: harness.sent };
	}

	test('creates the invoice with its own callback URL (Additional Body JSON cannot replace it), waits, and leaves the time-limit item', async () => {
		const reference = `wait-unit-${Date.now()}`;
		const { output, waits, executeData, before, sent } = await run(reference);
		const posts = sent.filter((r) => r.method === 'POST');
		expect(posts).toHaveLength(1);
		expect(JSON.parse(posts[0].body ?? '{}').callbackUrl).toBe(waitCallbackUrl(RESUME_URL, reference));
		// And the emulator calls that URL back: pay it and look at the callback attempts.
		await emulator.payInvoice(reference);
		await emulator.callbacksSettled();
		const paidCallback = emulator.callbacks.find((attempt) => attempt.event === 'INVOICE_PAID' && attempt.body.includes(reference));
		expect(paidCallback?.url).toBe(waitCallbackUrl(RESUME_URL, reference));
		expect(waits).toHaveLength(1);
		expect(waits[0].getTime() - before).toBeGreaterThanOrEqual(2 * 3600_000 - 1000);
		expect(waits[0].getTime() - before).toBeLessThan(2 * 3600_000 + 60_000);
		expect(output[0].json).toMatchObject({ reference, status: 'open', paycashlessWait: { outcome: 'waiting', reference } });
		const timedOut = ((executeData.data as IDataObject).main as Array<Array<{ json: IDataObject }>>)[0][0].json;
		expect(timedOut).toMatchObject({ reference, status: 'open', paycashlessWait: { outcome: 'timeLimitReached', reference } });
		expect(timedOut.input).toBeUndefined();
	});

	test('run again with the same reference: no second invoice; already paid means no wait', async () => {
		const reference = `wait-unit-again-${Date.now()}`;
		await run(reference);
		await emulator.payInvoice(reference);
		const again = await run(reference);
		expect(emulator.list('invoices').filter((invoice) => invoice.reference === reference)).toHaveLength(1);
		expect(again.waits).toHaveLength(0);
		expect(again.output[0].json).toMatchObject({ reference, status: 'paid', paycashlessWait: { outcome: 'already_paid' } });
	});
});

describe('Payout → Create and Wait for Final Status', () => {
	const PAYOUT_REF = 'bill-77';
	const PAYOUT_URL = waitCallbackUrl(RESUME_URL, PAYOUT_REF);
	const PAYOUT = { id: 'po_1', reference: PAYOUT_REF, status: 'succeeded', amount: { value: 500000, currency: 'NGN' } };

	async function resumePayout(event: string, data: IDataObject, headers: Record<string, string>) {
		return await runWebhook(new Paycashless(), {
			rawBody: JSON.stringify({ event, data }),
			headers,
			requestUrl: PAYOUT_URL.slice('https://n8n.example.com'.length),
			credentials: CREDENTIALS,
			parameters: { resource: 'payout', operation: 'createAndWait', __paycashlessResumeUrl: RESUME_URL },
		});
	}

	test('PAYOUT_SUCCEEDED and PAYOUT_FAILED resume; PAYOUT_SENT does not; a relabelled body is refused', async () => {
		const succeeded = await resumePayout('PAYOUT_SUCCEEDED', PAYOUT, sign(PAYOUT_URL, PAYOUT));
		expect(succeeded.items[0]).toMatchObject({ status: 'succeeded', paycashlessWait: { outcome: 'succeeded', reference: PAYOUT_REF } });
		const failedData = { ...PAYOUT, status: 'failed', failureCode: 'account_closed' };
		const failed = await resumePayout('PAYOUT_FAILED', failedData, sign(PAYOUT_URL, failedData));
		expect(failed.items[0]).toMatchObject({ status: 'failed', paycashlessWait: { outcome: 'failed' } });
		const sentData = { ...PAYOUT, status: 'sent' };
		const sent = await resumePayout('PAYOUT_SENT', sentData, sign(PAYOUT_URL, sentData));
		expect(sent.answer).toEqual({ status: 200, body: { received: true, resumed: false, reason: 'event_does_not_end_wait' } });
		const relabelled = await resumePayout('PAYOUT_SUCCEEDED', sentData, sign(PAYOUT_URL, sentData));
		expect(relabelled.answer.status).toBe(401);
		expect(relabelled.result.workflowData).toBeUndefined();
	});

	test('against the emulator: sends the payout once with its own callback URL, waits; the same reference again is not sent twice', async () => {
		const emulator = await startEmulator({ callbackRetries: 0, seed: {} });
		try {
			const bankId = 'bank_538ed2056326432ba8e6853b613997bb'; // Access Bank in emulator/banks.cts
			const parameters: INodeParameters = {
				resource: 'payout',
				operation: 'createAndWait',
				reference: PAYOUT_REF,
				amount: 5000,
				currency: 'NGN',
				destinationAccountNumber: '0123456789',
				bankId,
				waitTimeLimit: 30,
				waitTimeLimitUnit: 'minutes',
			};
			const runOnce = async () => {
				const harness = createExecuteContext({ parameters, credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl } });
				const waits: Date[] = [];
				Object.assign(harness.context, {
					evaluateExpression: () => RESUME_URL,
					putExecutionToWait: async (date: Date) => {
						waits.push(date);
					},
					getExecuteData: () => ({ data: { main: [[{ json: {} }]] } }),
				});
				const [output] = await new Paycashless().execute.call(harness.context);
				return { output, waits, sent: harness.sent };
			};
			const first = await runOnce();
			expect(first.waits).toHaveLength(1);
			expect(JSON.parse(first.sent.find((r) => r.method === 'POST')?.body ?? '{}').callbackUrl).toBe(PAYOUT_URL);
			expect(first.output[0].json).toMatchObject({ reference: PAYOUT_REF, paycashlessWait: { outcome: 'waiting' } });
			await emulator.completePayout(PAYOUT_REF, 'succeeded');
			await emulator.callbacksSettled();
			expect(emulator.callbacks.find((c) => c.event === 'PAYOUT_SUCCEEDED')?.url).toBe(PAYOUT_URL);
			const again = await runOnce();
			expect(emulator.list('payouts').filter((p) => p.reference === PAYOUT_REF)).toHaveLength(1);
			expect(again.waits).toHaveLength(0);
			expect(again.output[0].json).toMatchObject({ status: 'succeeded', paycashlessWait: { outcome: 'already_succeeded' } });
		} finally {
			await emulator.close();
		}
	});
});

describe('Payment → Wait for Payment', () => {
	const PAY_REF = 'order-2002';
	const PAYMENT = { id: 'pi_1', reference: PAY_REF, status: 'succeeded', expectedAmount: 750000, currency: 'NGN', callbackUrl: RESUME_URL };

	/** A callback sent to the plain resume URL (no reference in it): the awaited reference comes from the time-limit item. */
	async function resumePayment(event: string, data: IDataObject, headers: Record<string, string>, awaited = PAY_REF) {
		return await runWebhook(new Paycashless(), {
			rawBody: JSON.stringify({ event, data }),
			headers,
			requestUrl: RESUME_URL.slice('https://n8n.example.com'.length),
			credentials: CREDENTIALS,
			parameters: { resource: 'payment', operation: 'waitForPayment', __paycashlessResumeUrl: RESUME_URL, __paycashlessAwaitedReference: awaited },
		});
	}

	test('a callback signed for the plain resume URL resumes on PAYMENT_SUCCEEDED, FAILED or EXPIRED with the payment', async () => {
		for (const status of ['succeeded', 'failed', 'expired']) {
			const data = { ...PAYMENT, status };
			const run = await resumePayment(`PAYMENT_${status.toUpperCase()}`, data, sign(RESUME_URL, data));
			expect(run.answer.status).toBe(200);
			expect(run.items).toHaveLength(1);
			expect(run.items[0]).toMatchObject({ id: 'pi_1', status, paycashlessWait: { outcome: status, reference: PAY_REF, verified: true } });
		}
	});

	test('PAYMENT_CHARGED keeps it waiting; another payment of the same run, forgeries and relabelled bodies never resume it', async () => {
		const charged = { ...PAYMENT, status: 'charged' };
		const chargedRun = await resumePayment('PAYMENT_CHARGED', charged, sign(RESUME_URL, charged));
		expect(chargedRun.answer).toEqual({ status: 200, body: { received: true, resumed: false, reason: 'event_does_not_end_wait' } });
		expect(chargedRun.result.workflowData).toBeUndefined();

		const other = { ...PAYMENT, reference: 'order-9999' };
		const otherRun = await resumePayment('PAYMENT_SUCCEEDED', other, sign(RESUME_URL, other));
		expect(otherRun.answer.body).toMatchObject({ resumed: false, reason: 'other_reference' });
		expect(otherRun.result.workflowData).toBeUndefined();

		const refusals = [
			await resumePayment('PAYMENT_SUCCEEDED', PAYMENT, sign(RESUME_URL, PAYMENT, 'sk_wrong')),
			await resumePayment('PAYMENT_SUCCEEDED', PAYMENT, sign(RESUME_URL, { ...PAYMENT, expectedAmount: 1 })),
			await resumePayment('PAYMENT_SUCCEEDED', PAYMENT, sign(RESUME_URL, PAYMENT, SECRET, Date.now() - 3_600_000)),
			await resumePayment('PAYMENT_SUCCEEDED', PAYMENT, sign(waitCallbackUrl(RESUME_URL, PAY_REF), PAYMENT)),
			await resumePayment('PAYMENT_SUCCEEDED', charged, sign(RESUME_URL, charged)),
		];
		for (const refused of refusals) {
			expect(refused.answer.status).toBe(401);
			expect(refused.result.workflowData).toBeUndefined();
		}
		// Nothing awaited (no time-limit item): a genuine callback cannot resume it either, even one without a reference.
		const unknown = await resumePayment('PAYMENT_SUCCEEDED', PAYMENT, sign(RESUME_URL, PAYMENT), '');
		expect(unknown.answer.body).toMatchObject({ resumed: false, reason: 'no_awaited_reference' });
		expect(unknown.result.workflowData).toBeUndefined();
		const blank = { ...PAYMENT, reference: '' };
		const blankRun = await resumePayment('PAYMENT_COMPLETED', blank, sign(RESUME_URL, blank), '');
		expect(blankRun.result.workflowData).toBeUndefined();
	});

	test('an event name the package does not know: the signed data decides (the awaited payment, settled, resumes; anything else keeps it waiting)', async () => {
		// Paycashless has not published its payment and payout event names.
		const completed = await resumePayment('PAYMENT_COMPLETED', PAYMENT, sign(RESUME_URL, PAYMENT));
		expect(completed.items[0]).toMatchObject({ status: 'succeeded', paycashlessWait: { outcome: 'succeeded', event: 'PAYMENT_COMPLETED', verified: true } });
		const pending = { ...PAYMENT, status: 'awaiting_charge' };
		const update = await resumePayment('PAYMENT_UPDATED', pending, sign(RESUME_URL, pending));
		expect(update.answer).toEqual({ status: 200, body: { received: true, resumed: false, reason: 'event_does_not_end_wait' } });
		expect(update.result.workflowData).toBeUndefined();
		const other = { ...PAYMENT, reference: 'order-9999' };
		const otherRun = await resumePayment('PAYMENT_COMPLETED', other, sign(RESUME_URL, other));
		expect(otherRun.result.workflowData).toBeUndefined();
		const forged = await resumePayment('PAYMENT_COMPLETED', PAYMENT, sign(RESUME_URL, PAYMENT, 'sk_wrong'));
		expect(forged.answer.status).toBe(401);
		expect(forged.result.workflowData).toBeUndefined();
	});

	test('against the emulator: waits for an open payment; returns at once when already paid; refuses a payment whose callbacks go elsewhere', async () => {
		const emulator = await startEmulator({ callbackRetries: 0, seed: {} });
		try {
			const credentials = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl };
			const runNodeOnce = async (parameters: INodeParameters) => {
				const harness = createExecuteContext({ parameters, credentials });
				const waits: Date[] = [];
				const stack = { data: { main: [[{ json: {} }]] } } as { data: { main: Array<Array<{ json: IDataObject }>> } };
				Object.assign(harness.context, {
					evaluateExpression: () => RESUME_URL,
					putExecutionToWait: async (date: Date) => {
						waits.push(date);
					},
					getExecuteData: () => stack,
				});
				const [output] = await new Paycashless().execute.call(harness.context);
				return { output, waits, sent: harness.sent, stack };
			};
			const create = (reference: string, callbackUrl: string) =>
				runNodeOnce({
					resource: 'payment',
					operation: 'createTransfer',
					reference,
					amount: 7500,
					currency: 'NGN',
					customerEmail: 'ada@example.com',
					customerName: 'Ada Obi',
					expiresIn: 1800,
					additionalFields: { callbackUrl },
				});
			const wait = (reference: string) =>
				runNodeOnce({ resource: 'payment', operation: 'waitForPayment', reference, waitTimeLimit: 2, waitTimeLimitUnit: 'hours' });

			await create(PAY_REF, RESUME_URL);
			const before = Date.now();
			const waiting = await wait(PAY_REF);
			expect(waiting.waits).toHaveLength(1);
			expect(waiting.waits[0].getTime() - before).toBeGreaterThanOrEqual(2 * 3_600_000 - 1000);
			expect(waiting.output[0].json).toMatchObject({ reference: PAY_REF, status: 'initiated', paycashlessWait: { outcome: 'waiting', reference: PAY_REF } });
			// What n8n forwards at the time limit: the payment as found, with the reference the resume webhook reads.
			expect(waiting.stack.data.main[0][0].json).toMatchObject({ reference: PAY_REF, paycashlessWait: { outcome: 'timeLimitReached', reference: PAY_REF } });
			expect(waiting.sent.map((r) => r.method)).toEqual(['GET']);

			await emulator.completePayment(PAY_REF, 'succeeded');
			await emulator.callbacksSettled();
			expect(emulator.callbacks.find((c) => c.event === 'PAYMENT_SUCCEEDED')?.url).toBe(RESUME_URL);
			const paid = await wait(PAY_REF);
			expect(paid.waits).toHaveLength(0);
			expect(paid.output[0].json).toMatchObject({ status: 'succeeded', paycashlessWait: { outcome: 'already_succeeded' } });

			await create('order-2003', 'https://elsewhere.example.com/hook');
			await expect(wait('order-2003')).rejects.toThrow(/order-2003.*sends its status updates \(callbacks\) to another address/);
			await expect(wait('')).rejects.toThrow(/Reference/);
		} finally {
			await emulator.close();
		}
	});
});
