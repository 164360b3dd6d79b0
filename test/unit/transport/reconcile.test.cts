/**
 * What each kind of write does after a failure, request by request, against the emulator:
 * payouts, payments (transfer and checkout) and invoices are reconciled by reference; a
 * repeated reference returns the existing object (or an error, by option); a reference reused
 * for different details is an error; creates without a reference are never resent after an
 * uncertain failure (a PUT too: its declaration, not its method, says it writes); reads are
 * simply retried; every request has the timeout.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { FAST, payoutItem, run, runAndCatch } from '../../support/reliability.cjs';
import { individualAccountParameters, vatTaxRateParameters } from '../../../scripts/harness/fixtures.cjs';
import { useEmulator } from '../../support/emulator.cjs';

const emulator = useEmulator();
beforeEach(() => {
	emulator.reset();
	emulator.clearFaults();
});

/** `METHOD path status fault` of every request the emulator received. */
function trail(): string[] {
	return emulator.requests.map((request) => `${request.method} ${request.path} ${request.status}${request.fault ? ` ${request.fault}` : ''}`.trim());
}

const count = (collection: 'payouts' | 'payments' | 'invoices', reference: string) =>
	emulator.list(collection).filter((object) => object.reference === reference).length;

const transferItem = (reference: string, amount = 19.99): INodeParameters => ({
	resource: 'payment',
	operation: 'createTransfer',
	reference,
	amount,
	currency: 'NGN',
	customerEmail: 'ada@example.com',
	customerName: 'Ada Obi',
	requestOptions: FAST,
});
const checkoutItem = (reference: string): INodeParameters => ({
	resource: 'payment',
	operation: 'createCheckout',
	reference,
	amount: 250,
	currency: 'USD',
	customerEmail: 'bola@example.com',
	customerName: 'Bola',
	requestOptions: FAST,
});
const invoiceItem = (reference: string, invoiceDescription = 'May services'): INodeParameters => ({
	resource: 'invoice',
	operation: 'create',
	reference,
	invoiceDescription,
	currency: 'NGN',
	customerEmail: 'client@example.com',
	customerName: 'Client Ltd',
	items: { itemValues: [{ name: 'Design', quantity: 1, price: 1500 }] },
	daysUntilDue: 14,
	requestOptions: FAST,
});
const taxRateItem: INodeParameters = { ...vatTaxRateParameters, requestOptions: FAST };
const dedicatedAccountItem: INodeParameters = { ...individualAccountParameters, requestOptions: FAST };

describe('creates with a reference after an uncertain failure', () => {
	it('payout, connection dropped after commit: found with Verify and returned, marked; one payout', async () => {
		emulator.setFaults({ dropAfterCommitRate: 1, maxFaults: 1 });
		const { output } = await run(emulator, payoutItem('drop-1'));
		expect(trail()).toEqual(['POST /v1/payouts 0 dropAfterCommit', 'GET /v1/payouts/verify/drop-1 200']);
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			id: expect.stringMatching(/^po_/),
			reference: 'drop-1',
			amount: 250000,
			status: 'pending',
			_paycashless: { reconciled: true, reason: 'uncertainOutcome', via: 'verify' },
		});
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(count('payouts', 'drop-1')).toBe(1);
	});

	it('payout, 5xx before anything happened: Verify finds none (404), the create is sent once more', async () => {
		emulator.setFaults({ error5xxRate: 1, maxFaults: 1 });
		const { output } = await run(emulator, payoutItem('5xx-1'));
		expect(trail()).toEqual([
			expect.stringMatching(/^POST \/v1\/payouts 50[023] error5xx$/),
			'GET /v1/payouts/verify/5xx-1 404',
			'POST /v1/payouts 202',
			// The full payout for the output (the create answers with id, status and reference only).
			'GET /v1/payouts/verify/5xx-1 200',
		]);
		expect(output[0].json).toMatchObject({
			id: expect.stringMatching(/^po_/),
			status: 'pending',
			reference: '5xx-1',
			amount: expect.any(Number),
			_paycashless: { reconciled: false, repeated: false },
		});
		expect(count('payouts', '5xx-1')).toBe(1);
	});

	it('payout, the check itself failing: the error says the outcome is unknown and how to check', async () => {
		emulator.setFaults({ error5xxRate: 1 });
		const error = (await runAndCatch(emulator, payoutItem('unknown-1', { ...FAST, maxAttempts: 2 }))) as NodeApiError;
		expect(trail().map((line) => line.replace(/ 50[023] /, ' 5xx '))).toEqual([
			'POST /v1/payouts 5xx error5xx',
			'GET /v1/payouts/verify/unknown-1 5xx error5xx',
			'GET /v1/payouts/verify/unknown-1 5xx error5xx',
		]);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(/HTTP 50[023]\)$/);
		expect(error.description).toContain('the outcome is unknown');
		expect(error.description).toContain('Payout → Verify and the reference "unknown-1"');
		expect(error.context.paycashless).toMatchObject({ outcome: 'unknown' });
		expect(error.context.itemIndex).toBe(0);
	});

	it('payout, no clear answer in Max Attempts and none found: "nothing was created"', async () => {
		emulator.setFaults({ error5xxRate: 1, match: '^POST ' });
		const error = (await runAndCatch(emulator, payoutItem('never-1', { ...FAST, maxAttempts: 2 }))) as NodeApiError;
		expect(trail().map((line) => line.replace(/ 50[023] /, ' 5xx '))).toEqual([
			'POST /v1/payouts 5xx error5xx',
			'GET /v1/payouts/verify/never-1 404',
			'POST /v1/payouts 5xx error5xx',
			'GET /v1/payouts/verify/never-1 404',
		]);
		expect(error.description).toContain('nothing was created');
		expect(error.context.paycashless).toMatchObject({ outcome: 'notCreated', attempts: 2 });
		expect(count('payouts', 'never-1')).toBe(0);
	});

	it('payout, timeout: Verify finds none yet, the resend creates it, the late first request is refused as a repeat', async () => {
		// Wide margins, so a busy machine keeps the order: the node gives up at 500 ms, finds nothing
		// and resends at once; the first request is processed at 1,500 ms.
		emulator.setFaults({ latencyMs: 1500, match: '^POST ', maxFaults: 1 });
		const { output, sent } = await run(emulator, payoutItem('slow-1', { ...FAST, timeout: 500 }));
		expect(sent.every((request) => request.timeout === 500)).toBe(true);
		expect(output).toEqual([
			{
				json: expect.objectContaining({ id: expect.stringMatching(/^po_/), status: 'pending', reference: 'slow-1', _paycashless: { reconciled: false, repeated: false } }),
				pairedItem: { item: 0 },
			},
		]);
		// Let the first request, which the node gave up on, reach the API.
		await new Promise((resolve) => setTimeout(resolve, 1750));
		expect(trail()).toEqual([
			'POST /v1/payouts 409 latency',
			'GET /v1/payouts/verify/slow-1 404',
			'POST /v1/payouts 202',
			'GET /v1/payouts/verify/slow-1 200',
		]);
		expect(count('payouts', 'slow-1')).toBe(1);
	});

	it('payout, timeout, the late request arriving first: the resend gets a 409 and the payout is returned', async () => {
		// The first POST commits at 900 ms; the node gives up at 300 ms, finds nothing, and resends
		// after a backoff of 1,000 to 2,000 ms, so the resend arrives after the commit (margins of
		// 400 ms and more, for a busy machine).
		emulator.setFaults({ latencyMs: 900, match: '^POST ', maxFaults: 1 });
		const { output } = await run(emulator, payoutItem('slow-2', { ...FAST, timeout: 300, retryDelay: 2000 }));
		expect(trail()).toEqual([
			'POST /v1/payouts 202 latency',
			'GET /v1/payouts/verify/slow-2 404',
			'POST /v1/payouts 409',
			'GET /v1/payouts/verify/slow-2 200',
		]);
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			reference: 'slow-2',
			_paycashless: { reconciled: true, reason: 'uncertainOutcome', via: 'verify' },
		});
		expect(emulator.requests.filter((request) => request.method === 'POST' && request.status === 202)).toHaveLength(1);
		expect(count('payouts', 'slow-2')).toBe(1);
	});

	it.each([
		['transfer', transferItem('pay-drop-1'), '/v1/payments', 'GET /v1/payments/pay-drop-1/verify 200'],
		['checkout', checkoutItem('pay-drop-1'), '/v1/payments/checkout', 'GET /v1/payments/pay-drop-1/verify 200'],
	])('payment (%s), connection dropped after commit: found with Payment → Verify, one payment', async (_kind, item, path, check) => {
		emulator.setFaults({ dropAfterCommitRate: 1, maxFaults: 1 });
		const { output } = await run(emulator, item);
		expect(trail()).toEqual([`POST ${path} 0 dropAfterCommit`, check]);
		expect(output[0].json).toMatchObject({
			id: expect.stringMatching(/^pi_/),
			reference: 'pay-drop-1',
			_paycashless: { reconciled: true, reason: 'uncertainOutcome', via: 'verify' },
		});
		expect(count('payments', 'pay-drop-1')).toBe(1);
		// A checkout link found again has no link in it: the marker says so instead of leaving it silently out.
		const note = (output[0].json._paycashless as { note?: string }).note;
		if (path === '/v1/payments/checkout') expect(note).toMatch(/only when it is created/);
		else expect(note).toBeUndefined();
	});

	it('invoice, connection dropped after commit: found in the invoice list filtered by reference', async () => {
		emulator.setFaults({ dropAfterCommitRate: 1, maxFaults: 1 });
		const { output } = await run(emulator, invoiceItem('inv-drop-1'));
		expect(trail()).toEqual(['POST /v1/invoices 0 dropAfterCommit', 'GET /v1/invoices 200']);
		expect(emulator.requests[1].query).toEqual({ reference: 'inv-drop-1', limit: '100' });
		expect(output[0].json).toMatchObject({
			id: expect.stringMatching(/^inv_/),
			reference: 'inv-drop-1',
			_paycashless: { reconciled: true, reason: 'uncertainOutcome', via: 'invoiceList' },
		});
		expect(count('invoices', 'inv-drop-1')).toBe(1);
	});
});

describe('a repeated reference (409)', () => {
	it('by default returns the existing payout, marked, without creating one', async () => {
		const first = await run(emulator, payoutItem('again-1'));
		emulator.clearLogs();
		const second = await run(emulator, payoutItem('again-1'));
		expect(trail()).toEqual(['POST /v1/payouts 409', 'GET /v1/payouts/verify/again-1 200']);
		expect(second.output).toHaveLength(1);
		expect(second.output[0].json).toMatchObject({
			id: first.output[0].json.id,
			_paycashless: { reconciled: true, reason: 'repeatedReference', via: 'verify' },
		});
		expect(count('payouts', 'again-1')).toBe(1);
	});

	it('with On Repeated Reference = Error: a 409 error, as before', async () => {
		await run(emulator, payoutItem('again-2'));
		emulator.clearLogs();
		const error = (await runAndCatch(emulator, payoutItem('again-2', { ...FAST, onRepeatedReference: 'error' }))) as NodeApiError;
		expect(trail()).toEqual(['POST /v1/payouts 409']);
		expect(error.httpCode).toBe('409');
		expect(error.description).toContain('That reference was used before');
	});

	it('returns the existing payment and invoice too', async () => {
		await run(emulator, [transferItem('again-3'), invoiceItem('again-4')]);
		const { output } = await run(emulator, [transferItem('again-3'), invoiceItem('again-4')]);
		expect(output.map((item) => [item.json.reference, (item.json._paycashless as { reason: string }).reason])).toEqual([
			['again-3', 'repeatedReference'],
			['again-4', 'repeatedReference'],
		]);
		for (const item of output) expect(item.json._paycashless).toMatchObject({ reconciled: true, repeated: true });
		expect([count('payments', 'again-3'), count('invoices', 'again-4')]).toEqual([1, 1]);
	});

	it('a reference reused with a different amount is an error naming the field, never the other payout\'s values', async () => {
		await run(emulator, payoutItem('reused-1', FAST, 2500));
		emulator.clearLogs();
		const error = (await runAndCatch(emulator, payoutItem('reused-1', FAST, 3000))) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/already belongs to another payout with a different amount$/);
		expect(error.message).not.toMatch(/250000|300000|po_/);
		expect(error.description).toContain('Use a new, unique reference');
		expect(error.context.itemIndex).toBe(0);
		expect(count('payouts', 'reused-1')).toBe(1);
	});

	it('the mismatch with Continue On Fail: an error item for that input, the others go on', async () => {
		await run(emulator, transferItem('reused-2', 10));
		const { output } = await run(emulator, [transferItem('reused-2', 20), transferItem('fresh-2', 20)], { continueOnFail: true });
		expect(output).toHaveLength(2);
		// Only `message` and `error` in the JSON: n8n's "Continue (using error output)" routes by them and keeps the details.
		expect(output[0]).toEqual({
			json: { message: expect.stringMatching(/with a different amount$/), error: expect.objectContaining({ code: 'REFERENCE_MISMATCH' }) },
			pairedItem: { item: 0 },
		});
		expect(output[1].json).toMatchObject({ reference: 'fresh-2', _paycashless: { reconciled: false, repeated: false } });
	});

	it('an invoice reference reused for another description is an error', async () => {
		await run(emulator, invoiceItem('reused-3', 'May services'));
		const error = await runAndCatch(emulator, invoiceItem('reused-3', 'June services'));
		expect(error.message).toMatch(/with a different description$/);
		expect(error.message).not.toMatch(/May services/);
	});
});

describe('writes without a reference, and repeatable requests', () => {
	it('tax rate create after a 5xx: not sent again; the outcome is unknown and the dashboard is where to check', async () => {
		emulator.setFaults({ error5xxRate: 1 });
		const error = (await runAndCatch(emulator, taxRateItem)) as NodeApiError;
		expect(emulator.requests).toHaveLength(1);
		expect(error.description).toContain('The outcome is unknown');
		expect(error.description).toContain('Paycashless dashboard');
	});

	it('dedicated account create after a dropped connection: not sent again, says how to check', async () => {
		emulator.setFaults({ dropAfterCommitRate: 1 });
		const error = (await runAndCatch(emulator, dedicatedAccountItem)) as NodeApiError;
		expect(emulator.requests).toHaveLength(1);
		expect(error.description).toContain('may or may not have reached Paycashless');
		expect(error.description).toContain('Dedicated Account → Get Many');
		expect(error.description).toContain('The outcome is unknown');
	});

	it('tax rate create after a 429: sent again after Retry-After (nothing had happened)', async () => {
		emulator.setFaults({ rateLimitRate: 1, retryAfterSeconds: 0.01, maxFaults: 1 });
		const { output } = await run(emulator, taxRateItem);
		expect(trail()).toEqual(['POST /v1/tax_rates 429 rateLimit', 'POST /v1/tax_rates 201']);
		expect(output[0].json.id).toMatch(/^txr_/);
		expect(emulator.list('taxRates')).toHaveLength(1);
	});

	describe('tax rate update (a PUT): a write as its declaration says, the method only checks it', () => {
		const update = (taxRateId: string): INodeParameters => ({ resource: 'taxRate', operation: 'update', taxRateId, updateFields: { name: 'VAT 2025' }, requestOptions: FAST });

		it('after a 5xx: not sent again; the outcome is unknown, and the error says how to check in its declared words', async () => {
			const created = (await run(emulator, taxRateItem)).output[0].json;
			emulator.clearLogs();
			emulator.setFaults({ error5xxRate: 1, maxFaults: 1 });
			const error = (await runAndCatch(emulator, update(created.id as string))) as NodeApiError;
			expect(emulator.requests.map((request) => request.method)).toEqual(['PUT']);
			expect(error.description).toContain('The outcome is unknown');
			expect(error.description).toContain('Before retrying, check in the Paycashless dashboard whether the tax rate has its new values, so it does not happen twice.');
		});

		it('after a 429 (nothing happened): sent again, and done', async () => {
			const created = (await run(emulator, taxRateItem)).output[0].json;
			emulator.clearLogs();
			emulator.setFaults({ rateLimitRate: 1, retryAfterSeconds: 0.01, maxFaults: 1 });
			const { output } = await run(emulator, update(created.id as string));
			expect(trail()).toEqual([`PUT /v1/tax_rates/${created.id} 429 rateLimit`, `PUT /v1/tax_rates/${created.id} 200`]);
			expect(output[0].json).toMatchObject({ id: created.id, name: 'VAT 2025' });
		});
	});

	it('a read over a dropped connection is sent again and succeeds', async () => {
		const created = (await run(emulator, payoutItem('read-1'))).output[0].json;
		emulator.clearLogs();
		emulator.setFaults({ dropAfterCommitRate: 1, maxFaults: 2 });
		const { output } = await run(emulator, {
			resource: 'payout',
			operation: 'get',
			payoutId: { __rl: true, mode: 'id', value: created.id as string },
			requestOptions: FAST,
		});
		expect(trail()).toEqual([
			`GET /v1/payouts/${created.id} 0 dropAfterCommit`,
			`GET /v1/payouts/${created.id} 0 dropAfterCommit`,
			`GET /v1/payouts/${created.id} 200`,
		]);
		expect(output[0].json.id).toBe(created.id);
	});

	it('Max Attempts 1: a read is sent once', async () => {
		emulator.setFaults({ error5xxRate: 1 });
		const error = (await runAndCatch(emulator, {
			resource: 'payout',
			operation: 'verify',
			reference: 'x',
			requestOptions: { ...FAST, maxAttempts: 1 },
		})) as NodeApiError;
		expect(emulator.requests).toHaveLength(1);
		expect(error.context.paycashless).toMatchObject({ attempts: 1 });
	});
});

describe('Request Options', () => {
	it('every request carries the timeout: 30 s by default, or the one set', async () => {
		const byDefault = await run(emulator, { resource: 'payout', operation: 'getAll', limit: 5 });
		const set = await run(emulator, { resource: 'payout', operation: 'getAll', limit: 5, requestOptions: { timeout: 1234 } });
		expect(byDefault.sent.map((request) => request.timeout)).toEqual([30000]);
		expect(set.sent.map((request) => request.timeout)).toEqual([1234]);
	});

	it('a bad value is refused before any request, naming the option', async () => {
		const error = await runAndCatch(emulator, payoutItem('bad-options', { maxAttempts: 0 }));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toContain('Request Options → Max Attempts');
		const mode = await runAndCatch(emulator, payoutItem('bad-options', { onRepeatedReference: 'ignore' }));
		expect(mode.message).toContain('Request Options → On Repeated Reference');
		expect(emulator.requests).toHaveLength(0);
	});
});
