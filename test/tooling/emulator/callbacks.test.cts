/** State changes, signed callbacks with retries, and the control API. */
import { canonicalJson } from '../../../lib/signing';
import { checkSignatureHeaders, verifySignedCallback } from '../../../nodes/Paycashless/callbacks/signature';
import { startEmulator, type EmulatorHandle } from '../../../emulator/index.cjs';
import { BANKS } from '../../../emulator/banks.cjs';
import { call, control, dedicatedAccountBody, invoiceBody, keys, paymentBody, payoutBody, startReceiver } from '../../support/emulatorClient.cjs';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The node's callback verifier, over the URL as the emulator must sign it (lower-cased) and `data` re-serialised. */
function verify(emulator: EmulatorHandle, url: string, received: { headers: Record<string, unknown>; rawBody: string }, nowMs = Date.now(), secret = emulator.apiSecret) {
	const signature = received.headers['request-signature'] as string;
	const timestamp = received.headers['request-timestamp'] as string;
	const problem = checkSignatureHeaders(signature, timestamp, nowMs, 300);
	if (problem) return { valid: false, problem };
	return verifySignedCallback({ secret, urlTexts: [url.toLowerCase()], data: JSON.parse(received.rawBody).data, signature, timestamp });
}

describe('callbacks', () => {
	let emulator: EmulatorHandle;
	let receiver: Receiver;
	beforeEach(async () => {
		emulator = await startEmulator({ callbackRetryDelayMs: 20 });
		receiver = await startReceiver();
	});
	afterEach(async () => {
		await emulator.close();
		await receiver.close();
	});

	it('payout succeeded: signed over the callback URL (query included, case-folded) and the data in sent order', async () => {
		const url = `${receiver.url}/Hooks/Paycashless?Tenant=ABC`;
		const created = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('cb-po-1', { callbackUrl: url }) });
		const completed = await emulator.completePayout('cb-po-1');
		expect(completed).toMatchObject({ id: created.body.id, status: 'succeeded' });
		expect(completed.networkSessionId).toMatch(/^\d{30}$/);
		await emulator.callbacksSettled();

		expect(receiver.received).toHaveLength(1);
		const [hit] = receiver.received;
		expect(hit.path).toBe('/Hooks/Paycashless?Tenant=ABC');
		expect(hit.headers['content-type']).toBe('application/json');
		expect(hit.headers['request-timestamp']).toMatch(/^\d{10}$/);
		const body = JSON.parse(hit.rawBody);
		expect(keys(body)).toEqual(['data', 'event']);
		expect(body.event).toBe('PAYOUT_SUCCEEDED');
		expect(body.data).toEqual((await call(emulator, 'GET', `/v1/payouts/${created.body.id}`)).body);
		// Insertion order, not sorted: receivers must handle both.
		expect(JSON.stringify(body.data)).not.toBe(canonicalJson(body.data));
		expect(verify(emulator, url, hit)).toEqual({ valid: true, urlText: url.toLowerCase(), dataForm: 'received' });
		expect(verify(emulator, url, hit, Date.now(), 'other').valid).toBe(false);
		expect(verify(emulator, `${receiver.url}/other`, hit).valid).toBe(false);

		expect(emulator.callbacks).toHaveLength(1);
		expect(emulator.callbacks[0]).toMatchObject({ url, event: 'PAYOUT_SUCCEEDED', attempt: 1, status: 200, body: hit.rawBody });
	});

	it('retries a non-2xx answer with the same deliveryId and a fresh, re-signed timestamp', async () => {
		await emulator.close();
		let clock = Date.now();
		emulator = await startEmulator({ callbackRetryDelayMs: 20, now: () => (clock += 1000) });
		receiver.statuses.push(500, 503);
		await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('cb-retry', { callbackUrl: receiver.url }) });
		await emulator.completePayout('cb-retry', 'failed');
		await emulator.callbacksSettled();

		expect(receiver.received.map((r) => r.status)).toEqual([500, 503, 200]);
		expect(emulator.callbacks.map((c) => [c.attempt, c.status])).toEqual([[1, 500], [2, 503], [3, 200]]);
		expect(new Set(emulator.callbacks.map((c) => c.deliveryId)).size).toBe(1);
		expect(new Set(receiver.received.map((r) => r.rawBody)).size).toBe(1);
		const stamps = receiver.received.map((r) => Number(r.headers['request-timestamp']));
		expect(stamps[1]).toBeGreaterThan(stamps[0]);
		expect(stamps[2]).toBeGreaterThan(stamps[1]);
		for (const hit of receiver.received) expect(verify(emulator, receiver.url, hit, Number(hit.headers['request-timestamp']) * 1000).valid).toBe(true);
		const data = JSON.parse(receiver.received[0].rawBody).data;
		expect(JSON.parse(receiver.received[0].rawBody).event).toBe('PAYOUT_FAILED');
		expect(data).toMatchObject({ status: 'failed', failureCode: expect.any(String), failureMessage: expect.any(String) });
	});

	it('gives up after 4 attempts; an unreachable URL is recorded with status 0', async () => {
		receiver.statuses.push(500, 500, 500, 500, 500, 500);
		await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('cb-fail', { callbackUrl: receiver.url }) });
		await emulator.completePayout('cb-fail');
		await emulator.callbacksSettled();
		expect(receiver.received).toHaveLength(4);
		expect(emulator.callbacks.map((c) => c.attempt)).toEqual([1, 2, 3, 4]);

		emulator.clearLogs();
		await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('cb-down', { callbackUrl: 'http://127.0.0.1:9/down' }) });
		await emulator.completePayout('cb-down');
		await emulator.callbacksSettled();
		expect(emulator.callbacks.map((c) => c.status)).toEqual([0, 0, 0, 0]);
	});

	it('close() drops pending retries at once', async () => {
		await emulator.close();
		emulator = await startEmulator({ callbackRetryDelayMs: 60_000 });
		receiver.statuses.push(500);
		await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('cb-close', { callbackUrl: receiver.url }) });
		await emulator.completePayout('cb-close');
		while (emulator.callbacks.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
		const started = Date.now();
		await emulator.close();
		await emulator.callbacksSettled();
		expect(Date.now() - started).toBeLessThan(1000);
		expect(emulator.callbacks).toHaveLength(1);
	});

	it('invoice: INVOICE_PAYMENT_SUCCEEDED per payment, then INVOICE_PAID with the whole invoice', async () => {
		const created = await call(emulator, 'POST', '/v1/invoices', {
			body: invoiceBody('cb-inv', { autoFinalize: true, acceptPartialPayments: true, maxInstallments: 2, callbackUrl: receiver.url }),
		});
		const due = created.body.amountDue;
		const partial = await emulator.payInvoice('cb-inv', 100000);
		expect(partial).toMatchObject({ status: 'partially_paid', amountPaid: 100000 });
		const paid = await emulator.payInvoice(created.body.id);
		expect(paid).toMatchObject({ status: 'paid', amountPaid: due });
		await emulator.callbacksSettled();

		const events = receiver.received.map((r) => JSON.parse(r.rawBody));
		expect(events.map((e) => e.event)).toEqual(['INVOICE_PAYMENT_SUCCEEDED', 'INVOICE_PAYMENT_SUCCEEDED', 'INVOICE_PAID']);
		expect(keys(events[0].data)).toEqual(['amountPaid', 'amountRequested', 'createdAt', 'currency', 'id', 'intentId', 'invoiceId', 'liveMode', 'paid', 'updatedAt']);
		expect(events[0].data).toMatchObject({ amountPaid: 100000, invoiceId: created.body.id, currency: 'NGN', paid: true });
		expect(events[1].data.amountPaid).toBe(due - 100000);
		expect(events[2].data).toEqual((await call(emulator, 'GET', `/v1/invoices/${created.body.id}`)).body);
		for (const hit of receiver.received) expect(verify(emulator, receiver.url, hit).valid).toBe(true);
		await expect(emulator.payInvoice('cb-inv')).rejects.toThrow(/paid/);
	});

	it('invoice payments are refused when not allowed', async () => {
		const draft = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('cb-draft') });
		await expect(emulator.payInvoice(draft.body.id)).rejects.toThrow(/draft/);
		await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('cb-whole', { autoFinalize: true }) });
		await expect(emulator.payInvoice('cb-whole', 100)).rejects.toThrow(/partial/);
		await expect(emulator.payInvoice('inv_missing')).rejects.toThrow(/No invoice/);
	});

	it('payment: succeeded fills charged amount and fees; then only a reversal is possible', async () => {
		await call(emulator, 'POST', '/v1/payments', { body: paymentBody('cb-pay', { callbackUrl: receiver.url }) });
		const done = await emulator.completePayment('cb-pay');
		expect(done).toMatchObject({ status: 'succeeded', chargedAmount: 250000, fee: Math.round(250000 * 0.015), vat: Math.round(Math.round(250000 * 0.015) * 0.075) });
		await expect(emulator.completePayment('cb-pay', 'failed')).rejects.toThrow(/cannot become failed/);
		await expect(emulator.completePayment('cb-pay', 'bogus')).rejects.toThrow(/status/);
		await emulator.completePayment('cb-pay', 'reversed');
		await emulator.callbacksSettled();
		expect(receiver.received.map((r) => JSON.parse(r.rawBody).event)).toEqual(['PAYMENT_SUCCEEDED', 'PAYMENT_REVERSED']);
		expect(JSON.parse(receiver.received[0].rawBody).data).toMatchObject({ reference: 'cb-pay', status: 'succeeded' });
	});

	it('payout failure refunds the balance; reversal only after success', async () => {
		const before = (await control(emulator, 'GET', '/__emulator/balance')).body.NGN;
		await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('cb-refund') });
		expect((await control(emulator, 'GET', '/__emulator/balance')).body.NGN).toBe(before - 10000 - 1000 - 75);
		await emulator.completePayout('cb-refund', 'failed');
		expect((await control(emulator, 'GET', '/__emulator/balance')).body.NGN).toBe(before);
		await expect(emulator.completePayout('cb-refund', 'succeeded')).rejects.toThrow(/cannot become/);
	});

	it('dedicated account: DEDICATED_ACCOUNT_ACTIVATED with the account', async () => {
		const request = await call(emulator, 'POST', '/v1/dedicated_accounts', { body: dedicatedAccountBody({ callbackUrl: receiver.url }) });
		const status = await emulator.activateAccountRequest(request.body.accountRequestCode);
		expect(status.status).toBe('active');
		await expect(emulator.activateAccountRequest(request.body.accountRequestCode)).rejects.toThrow(/once/);
		await emulator.callbacksSettled();
		const body = JSON.parse(receiver.received[0].rawBody);
		expect(body.event).toBe('DEDICATED_ACCOUNT_ACTIVATED');
		expect(body.data).toEqual((await call(emulator, 'GET', `/v1/dedicated_accounts/${(status.account as any).id}`)).body);
	});

	it('invoice cancellation sends INVOICE_CANCELLED', async () => {
		const created = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('cb-cancel', { callbackUrl: receiver.url }) });
		await call(emulator, 'POST', `/v1/invoices/${created.body.id}/cancel`, { body: { cancellationReason: 'Wrong amount' } });
		await emulator.callbacksSettled();
		expect(JSON.parse(receiver.received[0].rawBody)).toMatchObject({ event: 'INVOICE_CANCELLED', data: { id: created.body.id, status: 'cancelled' } });
	});
});

describe('control API over HTTP', () => {
	let emulator: EmulatorHandle;
	let receiver: Receiver;
	beforeAll(async () => {
		emulator = await startEmulator({ seed: { payouts: 5 }, callbackRetryDelayMs: 10 });
		receiver = await startReceiver();
	});
	afterAll(async () => {
		await emulator.close();
		await receiver.close();
	});

	it('health, store, requests, callbacks, logs', async () => {
		const health = await control(emulator, 'GET', '/__emulator/health');
		expect(health.status).toBe(200);
		expect(health.body).toMatchObject({ status: 'ok', baseUrl: emulator.baseUrl, counts: { payouts: 5, payments: 0 } });
		expect(JSON.stringify(health.body)).not.toContain(emulator.apiSecret);
		const store = await control(emulator, 'GET', '/__emulator/store/payouts');
		expect(store.body.map((p: any) => p.id)).toEqual(emulator.list('payouts').map((p) => p.id));
		expect((await control(emulator, 'GET', '/__emulator/store/dedicated_accounts')).status).toBe(200);
		expect((await control(emulator, 'GET', '/__emulator/store/nothing')).status).toBe(404);
		expect((await control(emulator, 'GET', '/__emulator/nothing')).status).toBe(404);

		await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('ctl-1', { callbackUrl: receiver.url }) });
		const completed = await control(emulator, 'POST', '/__emulator/payouts/ctl-1/complete', { status: 'failed', failureCode: 'account_closed', failureMessage: 'Closed' });
		expect(completed.body).toMatchObject({ status: 'failed', failureCode: 'account_closed', failureMessage: 'Closed' });
		expect((await control(emulator, 'GET', '/__emulator/callbacks/settled')).status).toBe(200);
		const requests = await control(emulator, 'GET', '/__emulator/requests');
		expect(requests.body.map((r: any) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /v1/payouts 202']);
		const callbacks = await control(emulator, 'GET', '/__emulator/callbacks');
		expect(callbacks.body.map((c: any) => c.event)).toEqual(['PAYOUT_FAILED']);
		expect((await control(emulator, 'DELETE', '/__emulator/logs')).status).toBe(200);
		expect(emulator.requests).toHaveLength(0);
		expect(emulator.callbacks).toHaveLength(0);
	});

	it('complete / pay / activate by id or reference; errors come back as JSON', async () => {
		const payment = await call(emulator, 'POST', '/v1/payments/checkout', { body: { reference: 'ctl-pay', amount: { value: 700, currency: 'USD' }, customer: { email: 'c@d.co' } } });
		const done = await control(emulator, 'POST', `/__emulator/payments/${payment.body.id}/complete`, {});
		expect(done.body).toMatchObject({ status: 'succeeded', chargedAmount: 700, paymentMethod: 'card' });
		const invoice = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('ctl-inv', { autoFinalize: true }) });
		const paid = await control(emulator, 'POST', '/__emulator/invoices/ctl-inv/pay', {});
		expect(paid.body).toMatchObject({ id: invoice.body.id, status: 'paid' });
		const request = await call(emulator, 'POST', '/v1/dedicated_accounts', { body: dedicatedAccountBody() });
		const activated = await control(emulator, 'POST', `/__emulator/dedicated_accounts/requests/${request.body.accountRequestCode}/activate`);
		expect(activated.body.status).toBe('active');
		const missing = await control(emulator, 'POST', '/__emulator/payouts/nope/complete', {});
		expect(missing.status).toBe(404);
		expect(missing.body.error.code).toBe('resource_missing');
		const wrong = await control(emulator, 'POST', '/__emulator/payments/ctl-pay/complete', { status: 'initiated' });
		expect(wrong.status).toBe(400);
	});

	it('hosted invoice page completes the payment through the control API', async () => {
		const invoice = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('ctl-page', { autoFinalize: true }) });
		const page = await fetch(invoice.body.hostedInvoiceUrl);
		expect(page.headers.get('content-type')).toMatch(/text\/html/);
		const html = await page.text();
		expect(html).toContain(invoice.body.number);
		expect(html).toContain(`/__emulator/invoices/${invoice.body.id}/pay`);
		expect((await fetch(`${emulator.baseUrl}/pay/inv_missing`)).status).toBe(404);
	});

	it('after "Simulate payment" the page shows the paid state, no button, and whether each callback reached the workflow', async () => {
		const invoice = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('page-paid', { autoFinalize: true, callbackUrl: `${receiver.url}/webhook-waiting/7?x=1` }) });
		const due = await (await fetch(invoice.body.hostedInvoiceUrl)).text();
		expect(due).toContain('>Simulate payment</button>');
		expect(due).toMatch(/Due: NGN \d{1,3}(,\d{3})*\.\d\d \(status open\)/);
		expect(due).toContain('No callback sent yet.');
		// What the button does: pay through the control API, wait for the first attempts, show the page again.
		expect((await control(emulator, 'POST', `/__emulator/invoices/${invoice.body.id}/pay`, {})).status).toBe(200);
		expect((await control(emulator, 'GET', '/__emulator/callbacks/first-attempts')).status).toBe(200);
		const paid = await (await fetch(invoice.body.hostedInvoiceUrl)).text();
		expect(paid).toContain(`<h1>Invoice ${invoice.body.number} (paid)</h1>`);
		expect(paid).toMatch(/Paid: NGN \d{1,3}(,\d{3})*\.\d\d \(status paid\)/);
		expect(paid).not.toContain('Simulate payment</button>');
		expect(paid).toContain(`INVOICE_PAID to ${receiver.url}/webhook-waiting/7: reached it (HTTP 200)`);
		expect(paid).not.toContain('{&#34;');

		const quiet = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('page-no-callback', { autoFinalize: true }) });
		expect(await (await fetch(quiet.body.hostedInvoiceUrl)).text()).toContain('No Callback URL was given');
	});

	it('/ lists what is waiting to be paid, newest first, each linked to its page; paid ones leave the list', async () => {
		const older = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('wait-older', { autoFinalize: true }) });
		const checkout = await call(emulator, 'POST', '/v1/payments/checkout', { body: { reference: 'wait-checkout', amount: { value: 1500050, currency: 'NGN' }, customer: { email: 'c@d.co' } } });
		const newer = await call(emulator, 'POST', '/v1/invoices', { body: invoiceBody('wait-newer', { autoFinalize: true }) });
		const page = await fetch(`${emulator.baseUrl}/`);
		expect(page.status).toBe(200);
		expect(page.headers.get('content-type')).toMatch(/text\/html/);
		const html = await page.text();
		const links = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
		expect(links).toEqual(expect.arrayContaining([`/pay/${older.body.id}`, `/pay/${newer.body.id}`, `/checkout/${checkout.body.id}`]));
		expect(html).toContain('NGN 15,000.50');
		// Newest first.
		expect(links.indexOf(`/pay/${newer.body.id}`)).toBeLessThan(links.indexOf(`/pay/${older.body.id}`));
		// Each link opens the page whose button pays it.
		expect(await (await fetch(`${emulator.baseUrl}/pay/${newer.body.id}`)).text()).toContain(`/__emulator/invoices/${newer.body.id}/pay`);
		await control(emulator, 'POST', `/__emulator/invoices/${older.body.id}/pay`, {});
		await control(emulator, 'POST', `/__emulator/payments/${checkout.body.id}/complete`, {});
		const after = await (await fetch(`${emulator.baseUrl}/`)).text();
		expect(after).not.toContain(`/pay/${older.body.id}`);
		expect(after).not.toContain(`/checkout/${checkout.body.id}`);
		expect(after).toContain(`/pay/${newer.body.id}`);
	});

	it('/ lists the payouts with their state; a payout\'s page settles or fails it, sends the callback and shows the new state', async () => {
		const settled = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('page-payout-ok', { callbackUrl: receiver.url }) });
		const failed = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('page-payout-fail', { callbackUrl: receiver.url }) });
		const html = await (await fetch(`${emulator.baseUrl}/`)).text();
		expect(html).toContain('<h2 id="payouts-heading">Payouts</h2>');
		// Linked from the top: the lists can be long.
		expect(html).toMatch(/<p id="jump">.*href="#payouts-heading".*href="#test-data"/);
		for (const payout of [settled, failed]) expect(html).toMatch(new RegExp(`href="/payout/${payout.body.id}">Payout ${payout.body.reference}</a>: NGN [\\d,]+\\.\\d\\d to \\d{10} at [^<]+ \\(<span class="status">pending</span>\\)`));
		const open = await (await fetch(`${emulator.baseUrl}/payout/${settled.body.id}`)).text();
		expect(open).toContain('>Settle (succeeded)</button>');
		expect(open).toContain('>Fail</button>');
		expect(open).toContain(`/__emulator/payouts/${settled.body.id}/complete`);
		expect(open).toMatch(/Status pending/);
		// What the buttons post.
		await control(emulator, 'POST', `/__emulator/payouts/${settled.body.id}/complete`, { status: 'succeeded' });
		await control(emulator, 'POST', `/__emulator/payouts/${failed.body.id}/complete`, { status: 'failed' });
		expect((await control(emulator, 'GET', '/__emulator/callbacks/first-attempts')).status).toBe(200);
		const done = await (await fetch(`${emulator.baseUrl}/payout/${settled.body.id}`)).text();
		expect(done).toContain(`<h1>Payout ${settled.body.reference} (succeeded)</h1>`);
		expect(done).not.toContain('</button>');
		expect(done).toContain(`PAYOUT_SUCCEEDED to ${receiver.url}: reached it (HTTP 200)`);
		expect(await (await fetch(`${emulator.baseUrl}/payout/${failed.body.reference}`)).text()).toMatch(/Status failed: /);
		const after = await (await fetch(`${emulator.baseUrl}/`)).text();
		expect(after).toContain(`${settled.body.reference}</a>`);
		expect(after).toMatch(new RegExp(`${failed.body.reference}</a>[^\\n]*<span class="status">failed</span>`));
		expect((await fetch(`${emulator.baseUrl}/payout/po_missing`)).status).toBe(404);
	});

	it('/ lists the test banks with their codes, accounts with their holders\' names as Look Up gives them, and how to get "not found"', async () => {
		const html = await (await fetch(`${emulator.baseUrl}/`)).text();
		for (const bank of BANKS) expect(html).toContain(`<tr><td>${bank.name.replace(/'/g, '&#39;')}</td><td>${bank.cbnCode}</td><td>${bank.nibssCode}</td><td><code>${bank.id}</code></td></tr>`);
		const rows = [...html.matchAll(/<tr><td>(\d{10})<\/td><td>[^<]+ \((\d+)\)<\/td><td>([^<]+)<\/td><\/tr>/g)];
		expect(rows.length).toBeGreaterThanOrEqual(5);
		for (const [, accountNumber, bankCode, holder] of rows) {
			const lookUp = await call(emulator, 'GET', `/v1/banks/account_lookup?accountNumber=${accountNumber}&bankCode=${bankCode}`);
			expect({ accountNumber, bankCode, name: lookUp.body.accountName }).toEqual({ accountNumber, bankCode, name: holder });
		}
		const notFound = /id="not-found">[^<]*\(e\.g\. (\d{10})\)/.exec(html)![1];
		expect((await call(emulator, 'GET', `/v1/banks/account_lookup?accountNumber=${notFound}&bankCode=058`)).status).toBe(404);
	});

	it('faults can be set and cleared; a bad config is refused', async () => {
		expect((await control(emulator, 'PUT', '/__emulator/faults', { error5xxRate: 2 })).status).toBe(400);
		expect((await control(emulator, 'PUT', '/__emulator/faults', { match: '(' })).status).toBe(400);
		expect((await control(emulator, 'PUT', '/__emulator/faults', { error5xxRate: 1 })).status).toBe(200);
		expect((await call(emulator, 'GET', '/v1/payouts')).status).toBeGreaterThanOrEqual(500);
		expect((await control(emulator, 'DELETE', '/__emulator/faults')).status).toBe(200);
		expect((await call(emulator, 'GET', '/v1/payouts')).status).toBe(200);
	});

	it('reset {seed} replaces all state; bad sizes are refused', async () => {
		const reset = await control(emulator, 'POST', '/__emulator/reset', { seed: { payments: 12 } });
		expect(reset.body.counts).toMatchObject({ payouts: 0, payments: 12, invoices: 0 });
		expect(emulator.requests).toHaveLength(0);
		expect((await call(emulator, 'GET', '/v1/payouts/verify/ctl-1')).status).toBe(404);
		expect((await control(emulator, 'POST', '/__emulator/reset', { seed: { payments: 100_001 } })).status).toBe(400);
		expect((await control(emulator, 'POST', '/__emulator/reset', {})).body.counts.payouts).toBe(5);
	});
});
