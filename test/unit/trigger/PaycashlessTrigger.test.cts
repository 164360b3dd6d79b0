import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { registry } from '../../../nodes/Paycashless/actions/registry';
import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { PaycashlessTrigger } from '../../../nodes/Paycashless/PaycashlessTrigger.node';
import { runWebhook, TEST_PRODUCTION_URL, TEST_WEBHOOK_ID, type FakeWebhookOptions, type WebhookRun } from '../../../scripts/harness/webhookContext.cjs';
import { signCallback, sortedJson, unixSeconds } from '../../support/independentSigning.cjs';

const SECRET = 'sk_test_trigger_Zq8!secret';
const OTHER_SECRET = 'sk_test_someone_else';
const TEST_URL = TEST_PRODUCTION_URL.replace('/webhook/', '/webhook-test/');
const trigger = new PaycashlessTrigger();

/** Keys deliberately out of alphabetical order, nested, with an array of objects. */
const PAYMENT_DATA = {
	status: 'succeeded',
	id: 'pi_01HZX',
	amount: { value: 250000, currency: 'NGN' },
	reference: 'order-1042',
	metadata: { orderId: 'A-1042', channel: 'web' },
	items: [{ qty: 1, name: 'Plan' }],
};

/** Data that fits each event family (the trigger refuses an event name that contradicts its data). */
const INVOICE_DATA = { id: 'inv_01HZX', status: 'paid', reference: 'inv-1042', currency: 'NGN', amountDue: 250000, amountPaid: 250000 };
const INVOICE_PAYMENT_DATA = { id: 'ipay_01HZX', invoiceId: 'inv_01HZX', intentId: 'pi_01HZY', amountPaid: 250000, paid: true };
const PAYOUT_DATA = { id: 'po_01HZX', status: 'succeeded', reference: 'payout-1042', amount: 250000, currency: 'NGN' };

function dataFor(event: string): unknown {
	const name = event.toUpperCase();
	const failed = name.endsWith('_FAILED');
	if (name.startsWith('INVOICE_PAYMENT_')) return INVOICE_PAYMENT_DATA;
	if (name.startsWith('INVOICE_')) return INVOICE_DATA;
	if (name.startsWith('PAYOUT_')) return failed ? { ...PAYOUT_DATA, status: 'failed' } : PAYOUT_DATA;
	return failed ? { ...PAYMENT_DATA, status: 'failed' } : PAYMENT_DATA;
}

interface SendOptions {
	event?: string;
	data?: unknown;
	/** The URL the sender signs (the callbackUrl it was given). */
	signedUrl?: string;
	/** Sign `data` serialised in received order (default) or sorted. */
	order?: 'received' | 'sorted';
	secret?: string;
	timestamp?: string;
	/** Replace the signature header value (undefined: computed). null: leave the header out. */
	signature?: string | null;
	omitTimestamp?: boolean;
	/** Body bytes to send instead of the JSON of { event, data }. */
	rawBody?: string;
	context?: FakeWebhookOptions;
}

/** "Resource → Operation", as the Paycashless node displays them, of every operation with a Callback URL field. */
function operationsWithCallbackUrl(): string[] {
	const actionProperties = new Paycashless().description.properties;
	const displayName = (name: string, list: INodeProperties | undefined, value: string) =>
		((list?.options ?? []) as INodePropertyOptions[]).find((option) => option.value === value)?.name ?? name;
	const hasCallbackUrl = (list: INodeProperties[]): boolean =>
		list.some((p) => p.name === 'callbackUrl' || hasCallbackUrl(((p.options ?? []) as INodeProperties[]).filter((o) => 'name' in o && 'type' in o)));
	const resources = actionProperties.find((p) => p.name === 'resource');
	const names: string[] = [];
	for (const [resource, operations] of Object.entries(registry)) {
		const operationList = actionProperties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
		for (const [operation, { description }] of Object.entries(operations)) {
			if (hasCallbackUrl(description)) names.push(`${displayName(resource, resources, resource)} → ${displayName(operation, operationList, operation)}`);
		}
	}
	return names;
}

function bodyText(event: string, data: unknown): string {
	return JSON.stringify({ event, data });
}

async function send(options: SendOptions = {}): Promise<WebhookRun> {
	const event = options.event ?? 'PAYMENT_SUCCEEDED';
	const data = options.data === undefined ? dataFor(event) : options.data;
	const timestamp = options.timestamp ?? unixSeconds();
	const dataJson = options.order === 'sorted' ? sortedJson(data) : JSON.stringify(data);
	const signature =
		options.signature === undefined
			? signCallback(options.secret ?? SECRET, options.signedUrl ?? TEST_PRODUCTION_URL, dataJson, timestamp)
			: options.signature;
	const headers: Record<string, string> = { 'Content-Type': 'application/json' };
	if (signature !== null) headers['Request-Signature'] = signature;
	if (!options.omitTimestamp) headers['Request-Timestamp'] = timestamp;
	return await runWebhook(trigger, {
		rawBody: options.rawBody ?? bodyText(event, data),
		credentials: { apiKey: 'pk_test_x', apiSecret: SECRET },
		...options.context,
		headers: { ...headers, ...(options.context?.headers ?? {}) },
	});
}

function expectAccepted(run: WebhookRun): void {
	expect(run.answer).toEqual({ status: 200, body: undefined });
	expect(run.result.noWebhookResponse).toBeUndefined();
	expect(run.items).toHaveLength(1);
}

function expectRejected(run: WebhookRun, status: number, error: string): void {
	expect(run.result).toEqual({ noWebhookResponse: true });
	expect(run.response.statusCode).toBe(status);
	expect(run.response.ended).toBe(true);
	expect(run.response.body).toEqual(expect.objectContaining({ error }));
	expect(run.items).toHaveLength(0);
	const warnings = run.logs.filter((line) => line.level === 'warn');
	expect(warnings).toHaveLength(1);
	expect(warnings[0].message).toContain(error);
}

describe('PaycashlessTrigger description', () => {
	const { description } = trigger;

	it('is a POST webhook trigger answering at once without data', () => {
		expect(description.name).toBe('paycashlessTrigger');
		expect(description.group).toEqual(['trigger']);
		expect(description.inputs).toEqual([]);
		expect(description.outputs).toEqual(['main']);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.credentials).toEqual([{ name: 'paycashlessApi', required: true }]);
		expect(description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: 'noData', path: 'webhook' },
		]);
	});

	it('tells the user where to paste the URL and warns when verification is skipped', () => {
		const notices = description.properties.filter((p) => p.type === 'notice');
		expect(notices[0].displayName).toMatch(/Callback URL/);
		expect(notices[0].displayOptions).toBeUndefined();
		// It names, as the Paycashless node shows them, exactly the operations that have a Callback URL field.
		const named = [...notices[0].displayName.matchAll(/([A-Z][A-Za-z ]+?) → ([A-Z][A-Za-z ]+?)(?=[,;)])/g)].map((m) => `${m[1]} → ${m[2]}`);
		expect(named.sort()).toEqual(operationsWithCallbackUrl().sort());
		// In n8n 2.x's words: "Execute step", the Test URL / Production URL tabs, "publish".
		expect(notices[0].displayName).toMatch(/"Execute step"/);
		expect(notices[0].displayName).toMatch(/Test URL tab/);
		expect(notices[0].displayName).toMatch(/publish the workflow and use the Production URL tab/);
		expect(notices[0].displayName).not.toMatch(/Listen for test event|shown above|activate/i);
		// No notice shown on `options.skipSignatureVerification`: n8n 1.x cannot resolve a display
		// condition on a collection's child and refuses to activate the workflow (test/unit/node/n8n1x.test.cts).
		// The option's own name and description carry the warning, and items say "verified": false.
		expect(notices.find((p) => p.name === 'skipVerificationNotice')).toBeUndefined();
	});

	it('has its own trigger panel text in n8n 2.x words, and a node-panel text that also fits the Paycashless node', () => {
		const panel = description.triggerPanel as { header: string; executionsHelp: { active: string; inactive: string }; activationHint: string };
		expect(panel.header).toMatch(/Test URL/);
		expect(panel.executionsHelp.inactive).toMatch(/Execute step[\s\S]*Test URL[\s\S]*publish[\s\S]*Production URL/);
		expect(panel.executionsHelp.active).toMatch(/published[\s\S]*Production URL[\s\S]*Test URL/);
		expect(panel.activationHint).toMatch(/publish/);
		expect(`${panel.header} ${panel.executionsHelp.active} ${panel.executionsHelp.inactive} ${panel.activationHint}`).not.toMatch(/activate|Listen for/i);
		// n8n merges "Paycashless" and "Paycashless Trigger" into one node-panel entry showing this text.
		expect(description.description).toMatch(/payouts/);
		expect(description.description).toMatch(/callbacks/);
	});

	it('offers only the known events plus All Events, and defaults to All Events', () => {
		const events = description.properties.find((p) => p.name === 'events') as INodeProperties;
		expect(events.default).toEqual(['*']);
		expect((events.options ?? []).map((o) => (o as { value: string }).value).sort()).toEqual([
			'*',
			'INVOICE_PAID',
			'INVOICE_PAYMENT_SUCCEEDED',
		]);
	});

	it('has options sorted by name with safe defaults', () => {
		const options = description.properties.find((p) => p.name === 'options') as INodeProperties;
		const fields = options.options as INodeProperties[];
		const names = fields.map((o) => o.displayName);
		expect(names).toEqual([...names].sort());
		expect(fields.find((o) => o.name === 'skipSignatureVerification')?.default).toBe(false);
		expect(fields.find((o) => o.name === 'timestampToleranceSeconds')?.default).toBe(300);
	});

	it('has a lifecycle that succeeds without calling anything', async () => {
		const noCalls = {} as never;
		for (const method of ['checkExists', 'create', 'delete'] as const) {
			await expect(trigger.webhookMethods.default[method].call(noCalls)).resolves.toBe(true);
		}
	});
});

describe('PaycashlessTrigger signature verification', () => {
	it('accepts a callback signed over data in received key order', async () => {
		const before = Date.now();
		const run = await send();
		expectAccepted(run);
		const [item] = run.items;
		expect(item.event).toBe('PAYMENT_SUCCEEDED');
		expect(item.data).toEqual(PAYMENT_DATA);
		expect(Object.keys(item.data as object)).toEqual(Object.keys(PAYMENT_DATA));
		expect(item.verified).toBe(true);
		expect(item.deliveryId).toMatch(/^[0-9a-f]{32}$/);
		const receivedAt = Date.parse(item.receivedAt as string);
		expect(new Date(receivedAt).toISOString()).toBe(item.receivedAt);
		expect(receivedAt).toBeGreaterThanOrEqual(before - 1);
		expect(item.headers).toBeUndefined();
		expect(item.rawBody).toBeUndefined();
		expect(run.logs.filter((l) => l.level === 'warn')).toEqual([]);
	});

	it('accepts a callback signed over data with sorted keys', async () => {
		expect(sortedJson(PAYMENT_DATA)).not.toBe(JSON.stringify(PAYMENT_DATA));
		const run = await send({ order: 'sorted' });
		expectAccepted(run);
		expect(run.items[0].verified).toBe(true);
	});

	it('uses the raw body key order, not the parsed body, when both are there', async () => {
		const timestamp = unixSeconds();
		const raw = bodyText('PAYMENT_SUCCEEDED', PAYMENT_DATA);
		const signature = signCallback(SECRET, TEST_PRODUCTION_URL, JSON.stringify(PAYMENT_DATA), timestamp);
		// A parsed body whose key order differs from the bytes (and is not the sorted order either).
		const reordered = Object.fromEntries(Object.entries(PAYMENT_DATA).reverse());
		const run = await runWebhook(trigger, {
			rawBody: raw,
			body: { data: reordered, event: 'PAYMENT_SUCCEEDED' },
			headers: { 'request-signature': signature, 'request-timestamp': timestamp },
			credentials: { apiSecret: SECRET },
		});
		expectAccepted(run);
	});

	it('accepts a raw body given as a string', async () => {
		const timestamp = unixSeconds();
		const signature = signCallback(SECRET, TEST_PRODUCTION_URL, JSON.stringify(PAYMENT_DATA), timestamp);
		const run = await runWebhook(trigger, {
			rawBody: bodyText('PAYMENT_SUCCEEDED', PAYMENT_DATA),
			rawBodyAsString: true,
			headers: { 'request-signature': signature, 'request-timestamp': timestamp },
			credentials: { apiSecret: SECRET },
		});
		expectAccepted(run);
	});

	it('falls back to the parsed body when there is no raw body', async () => {
		const timestamp = unixSeconds();
		const signature = signCallback(SECRET, TEST_PRODUCTION_URL, JSON.stringify(PAYMENT_DATA), timestamp);
		const run = await runWebhook(trigger, {
			body: { event: 'PAYMENT_SUCCEEDED', data: PAYMENT_DATA },
			headers: { 'request-signature': signature, 'request-timestamp': timestamp },
			credentials: { apiSecret: SECRET },
		});
		expectAccepted(run);
		expect(run.items[0].data).toEqual(PAYMENT_DATA);
	});

	it('lower-cases a callback URL with upper-case letters', async () => {
		const mixedCase = `https://N8N.Example.com/webhook/${TEST_WEBHOOK_ID.toUpperCase()}/webhook`;
		const run = await send({
			signedUrl: mixedCase,
			context: { productionUrl: mixedCase, webhookId: TEST_WEBHOOK_ID.toUpperCase() },
		});
		expectAccepted(run);
	});

	it('a signature taken over the URL without lower-casing is refused', async () => {
		const mixedCase = `https://N8N.Example.com/webhook/${TEST_WEBHOOK_ID}/webhook`;
		const timestamp = unixSeconds();
		// Wrong on purpose: the URL is not lower-cased before signing.
		const { hmacHex } = await import('../../support/independentSigning.cjs');
		const signature = hmacHex(SECRET, mixedCase + hmacHex(SECRET, JSON.stringify(PAYMENT_DATA)) + timestamp);
		const run = await send({ signature, timestamp, context: { productionUrl: mixedCase } });
		expectRejected(run, 401, 'invalid_signature');
	});

	it('accepts a callback URL with a query string, using the query actually received', async () => {
		const query = 'notify=all&Source=Invoices';
		const run = await send({
			signedUrl: `${TEST_PRODUCTION_URL}?${query}`,
			context: { requestUrl: `/webhook/${TEST_WEBHOOK_ID}/webhook?${query}` },
		});
		expectAccepted(run);

		const withoutQuery = await send({ signedUrl: `${TEST_PRODUCTION_URL}?${query}` });
		expectRejected(withoutQuery, 401, 'invalid_signature');
	});

	it('accepts the test URL (/webhook-test/) although n8n reports the production URL', async () => {
		const run = await send({
			signedUrl: TEST_URL,
			context: { mode: 'manual', requestUrl: `/webhook-test/${TEST_WEBHOOK_ID}/webhook` },
		});
		expectAccepted(run);
	});

	it('accepts the test URL with a query string', async () => {
		const run = await send({
			signedUrl: `${TEST_URL}?a=1`,
			context: { mode: 'manual', requestUrl: `/webhook-test/${TEST_WEBHOOK_ID}/webhook?a=1` },
		});
		expectAccepted(run);
	});

	it('accepts the URL of the endpoint served when n8n reports it (custom test endpoint)', async () => {
		const served = `https://n8n.example.com/hooks-test/${TEST_WEBHOOK_ID}/webhook`;
		const refused = await send({ signedUrl: served });
		expectRejected(refused, 401, 'invalid_signature');
		const run = await send({ signedUrl: served, context: { servedUrl: served } });
		expectAccepted(run);
	});

	it('accepts the Callback URL Override (reverse proxy), and only with it', async () => {
		const publicUrl = 'https://Pay.Example.org/n8n/paycashless/hook';
		const refused = await send({ signedUrl: publicUrl });
		expectRejected(refused, 401, 'invalid_signature');
		expect(refused.logs[0].meta).toEqual(expect.objectContaining({ checkedCallbackUrls: expect.arrayContaining([TEST_PRODUCTION_URL, TEST_URL]) }));

		const run = await send({ signedUrl: publicUrl, context: { parameters: { options: { callbackUrlOverride: publicUrl } } } });
		expectAccepted(run);
	});

	it('accepts the override with the query string received', async () => {
		const publicUrl = 'https://pay.example.org/hook';
		const run = await send({
			signedUrl: `${publicUrl}?tenant=7`,
			context: { requestUrl: '/webhook/x/webhook?tenant=7', parameters: { options: { callbackUrlOverride: publicUrl } } },
		});
		expectAccepted(run);
	});

	it('refuses tampered data with 401 invalid_signature', async () => {
		const timestamp = unixSeconds();
		const signature = signCallback(SECRET, TEST_PRODUCTION_URL, JSON.stringify(PAYMENT_DATA), timestamp);
		const tampered = { ...PAYMENT_DATA, amount: { value: 25000000, currency: 'NGN' } };
		const run = await send({ data: tampered, signature, timestamp });
		expectRejected(run, 401, 'invalid_signature');
		expect(run.response.body).toEqual({ error: 'invalid_signature', message: expect.any(String) });
	});

	it('refuses a relabelled event that contradicts its data (the event name is not signed)', async () => {
		// The documented signature covers data only: a genuine payment re-sent as a payout event.
		const timestamp = unixSeconds();
		const signature = signCallback(SECRET, TEST_PRODUCTION_URL, JSON.stringify(PAYMENT_DATA), timestamp);
		const run = await send({ event: 'PAYOUT_REVERSED', data: PAYMENT_DATA, signature, timestamp });
		expectRejected(run, 422, 'inconsistent_event');
	});

	it('refuses a callback signed with another secret', async () => {
		const run = await send({ secret: OTHER_SECRET });
		expectRejected(run, 401, 'invalid_signature');
	});

	it('refuses a signature that is not hex or has the wrong length', async () => {
		expectRejected(await send({ signature: 'abc' }), 401, 'invalid_signature');
		expectRejected(await send({ signature: 'z'.repeat(128) }), 401, 'invalid_signature');
	});

	it('accepts a signature in upper-case hex', async () => {
		const timestamp = unixSeconds();
		const signature = signCallback(SECRET, TEST_PRODUCTION_URL, JSON.stringify(PAYMENT_DATA), timestamp).toUpperCase();
		expectAccepted(await send({ signature, timestamp }));
	});

	it('refuses a callback without Request-Signature', async () => {
		expectRejected(await send({ signature: null }), 401, 'missing_signature');
	});

	it('refuses a callback without Request-Timestamp', async () => {
		expectRejected(await send({ omitTimestamp: true }), 401, 'missing_timestamp');
	});

	it('refuses stale and future timestamps outside the default 300 s window', async () => {
		const now = Date.now();
		expectRejected(await send({ timestamp: unixSeconds(now - 310_000) }), 401, 'stale_timestamp');
		expectRejected(await send({ timestamp: unixSeconds(now + 310_000) }), 401, 'stale_timestamp');
		expectAccepted(await send({ timestamp: unixSeconds(now - 290_000) }));
		expectAccepted(await send({ timestamp: unixSeconds(now + 290_000) }));
	});

	it('refuses a timestamp that is not 10 digits', async () => {
		expectRejected(await send({ timestamp: String(Date.now()) }), 401, 'stale_timestamp');
	});

	it('applies a configured window, and 0 turns the check off', async () => {
		const thirtySecondsAgo = unixSeconds(Date.now() - 30_000);
		const narrow = { parameters: { options: { timestampToleranceSeconds: 10 } } };
		const narrowRun = await send({ timestamp: thirtySecondsAgo, context: narrow });
		expectRejected(narrowRun, 401, 'stale_timestamp');
		expect((narrowRun.response.body as { message: string }).message).toContain('10 seconds');

		const off = { parameters: { options: { timestampToleranceSeconds: 0 } } };
		const old = await send({ timestamp: '1000000000', context: off });
		expectAccepted(old);
		expect(old.items[0].verified).toBe(true);
		// Off means no window, not no signature.
		expectRejected(await send({ timestamp: '1000000000', secret: OTHER_SECRET, context: off }), 401, 'invalid_signature');
	});

	it('a window that is not a number (an expression gone wrong) falls back to 300 seconds, never to no check', async () => {
		const garbled = { parameters: { options: { timestampToleranceSeconds: 'ten' } } };
		const hourOld = await send({ timestamp: unixSeconds(Date.now() - 3_600_000), context: garbled });
		expectRejected(hourOld, 401, 'stale_timestamp');
		expect((hourOld.response.body as { message: string }).message).toContain('300 seconds');
		expectAccepted(await send({ timestamp: unixSeconds(Date.now() - 60_000), context: garbled }));
	});

	it('answers 400 to a body that is not JSON', async () => {
		const run = await send({ rawBody: 'event=INVOICE_PAID&data=1' });
		expectRejected(run, 400, 'invalid_json');
	});

	it('answers 400 to an empty body', async () => {
		const run = await runWebhook(trigger, { credentials: { apiSecret: SECRET }, headers: { 'request-signature': 'a'.repeat(128), 'request-timestamp': unixSeconds() } });
		expectRejected(run, 400, 'invalid_json');
	});

	it('answers 400 to JSON without event or data', async () => {
		expectRejected(await send({ rawBody: JSON.stringify({ data: PAYMENT_DATA }) }), 400, 'invalid_payload');
		expectRejected(await send({ rawBody: JSON.stringify({ event: 'INVOICE_PAID' }) }), 400, 'invalid_payload');
		expectRejected(await send({ rawBody: JSON.stringify({ event: '', data: {} }) }), 400, 'invalid_payload');
		expectRejected(await send({ rawBody: JSON.stringify({ event: 'INVOICE_PAID', data: null }) }), 400, 'invalid_payload');
		expectRejected(await send({ rawBody: JSON.stringify([{ event: 'INVOICE_PAID', data: {} }]) }), 400, 'invalid_payload');
	});

	it('verifies data with non-ASCII text (naira sign, accents, emoji)', async () => {
		const data = { customer: { name: 'Adébáyọ̀ Ògúnlẹ́sì' }, narration: 'Rent ₦150,000 🎉', id: 'pi_ü' };
		const run = await send({ data });
		expectAccepted(run);
		expect(run.items[0].data).toEqual(data);
		expect(Buffer.byteLength(bodyText('PAYMENT_SUCCEEDED', data))).toBeGreaterThan(bodyText('PAYMENT_SUCCEEDED', data).length);
	});

	it('verifies non-ASCII data sent as \\u escapes', async () => {
		const data = { name: 'Adé', amount: 100 };
		const escaped = JSON.stringify({ event: 'PAYMENT_SUCCEEDED', data }).replace('é', '\\u00e9');
		expect(escaped).toContain('\\u00e9');
		expectAccepted(await send({ data, rawBody: escaped }));
	});

	it('answers 500 and starts nothing when the credential has no API secret', async () => {
		const run = await send({ context: { credentials: { apiKey: 'pk', apiSecret: '' } } });
		expectRejected(run, 500, 'missing_api_secret');
	});
});

describe('PaycashlessTrigger event selection', () => {
	const select = (events: string[], otherEventNames = '') => ({ parameters: { events, otherEventNames } });

	it('starts the workflow for a selected event', async () => {
		const run = await send({ event: 'INVOICE_PAID', context: select(['INVOICE_PAID']) });
		expectAccepted(run);
		expect(run.items[0].event).toBe('INVOICE_PAID');
	});

	it('acknowledges an event that is not selected with 200 and starts nothing', async () => {
		const run = await send({ event: 'INVOICE_PAYMENT_SUCCEEDED', context: select(['INVOICE_PAID']) });
		expect(run.result).toEqual({ noWebhookResponse: true });
		expect(run.items).toEqual([]);
		expect(run.answer.status).toBe(200);
		expect(run.answer.body).toEqual({ received: true, ignored: true, reason: 'event_not_selected' });
		expect(run.logs.filter((l) => l.level === 'warn')).toEqual([]);
	});

	it('still refuses an unverified callback for an event that is not selected', async () => {
		const run = await send({ event: 'INVOICE_PAYMENT_SUCCEEDED', secret: OTHER_SECRET, context: select(['INVOICE_PAID']) });
		expectRejected(run, 401, 'invalid_signature');
	});

	it('All Events starts the workflow for any event, including unknown ones', async () => {
		for (const event of ['INVOICE_PAID', 'DEDICATED_ACCOUNT_CREDITED', 'something.new']) {
			const run = await send({ event, context: select(['*']) });
			expectAccepted(run);
		}
	});

	it('Other Event Names adds events, comma-separated, any letter case', async () => {
		const context = select(['INVOICE_PAID'], ' payout_succeeded ,PAYMENT_FAILED,, ');
		expectAccepted(await send({ event: 'PAYOUT_SUCCEEDED', context }));
		expectAccepted(await send({ event: 'payment_failed', context }));
		expectAccepted(await send({ event: 'INVOICE_PAID', context }));
		const ignored = await send({ event: 'PAYOUT_FAILED', context });
		expect(ignored.items).toEqual([]);
		expect(ignored.answer.status).toBe(200);
	});

	it('Other Event Names alone (no Events ticked) selects only those', async () => {
		const context = select([], 'PAYOUT_SUCCEEDED');
		expectAccepted(await send({ event: 'PAYOUT_SUCCEEDED', context }));
		expect((await send({ event: 'INVOICE_PAID', context })).items).toEqual([]);
	});

	it('matches event names regardless of letter case', async () => {
		const run = await send({ event: 'Invoice_Paid', context: select(['INVOICE_PAID']) });
		expectAccepted(run);
		expect(run.items[0].event).toBe('Invoice_Paid');
	});
});

describe('PaycashlessTrigger delivery id', () => {
	it('is the same for every retry of a delivery, whatever the timestamp or key order', async () => {
		const now = Date.now();
		const first = await send({ timestamp: unixSeconds(now - 120_000) });
		const retry = await send({ timestamp: unixSeconds(now - 60_000) });
		const reordered = Object.fromEntries(Object.entries(PAYMENT_DATA).reverse());
		const retryReordered = await send({ data: reordered, timestamp: unixSeconds(now) });
		const ids = [first, retry, retryReordered].map((run) => run.items[0].deliveryId);
		expect(new Set(ids).size).toBe(1);
		expect(first.items[0].receivedAt).toEqual(expect.any(String));
	});

	it('differs for different data, not for a different event name (which is not signed)', async () => {
		const flag = { parameters: { options: { inconsistentEvents: 'flag' } } };
		const base = (await send()).items[0].deliveryId;
		const otherData = (await send({ data: { ...PAYMENT_DATA, status: 'reversed' }, event: 'PAYMENT_REVERSED' })).items[0].deliveryId;
		const relabelled = (await send({ event: 'PAYOUT_SUCCEEDED', data: PAYMENT_DATA, context: flag })).items[0].deliveryId;
		expect(otherData).not.toBe(base);
		expect(relabelled).toBe(base);
	});
});

describe('PaycashlessTrigger output options', () => {
	it('adds headers without the signature, authorization or cookies', async () => {
		const run = await send({
			context: {
				parameters: { options: { includeHeaders: true } },
				headers: { Authorization: 'Basic dXNlcjpwYXNz', Cookie: 'sid=1', 'User-Agent': 'Paycashless/1.0' },
			},
		});
		expectAccepted(run);
		const headers = run.items[0].headers as Record<string, string>;
		expect(headers['request-timestamp']).toMatch(/^\d{10}$/);
		expect(headers['user-agent']).toBe('Paycashless/1.0');
		expect(headers['content-type']).toBe('application/json');
		expect(headers).not.toHaveProperty('request-signature');
		expect(headers).not.toHaveProperty('authorization');
		expect(headers).not.toHaveProperty('cookie');
	});

	it('adds the raw body exactly as received', async () => {
		const raw = `{ "event": "INVOICE_PAID",\n  "data": ${JSON.stringify(INVOICE_DATA)} }`;
		const run = await send({ event: 'INVOICE_PAID', rawBody: raw, context: { parameters: { options: { includeRawBody: true } } } });
		expectAccepted(run);
		expect(run.items[0].rawBody).toBe(raw);
	});
});

describe('PaycashlessTrigger with verification skipped (unsafe)', () => {
	const skip = { parameters: { options: { skipSignatureVerification: true } } };

	it('accepts a badly signed callback, marks it unverified and warns', async () => {
		const run = await send({ secret: OTHER_SECRET, context: skip });
		expectAccepted(run);
		expect(run.items[0].verified).toBe(false);
		expect(run.items[0].verificationSkipped).toBe(true);
		const warnings = run.logs.filter((l) => l.level === 'warn');
		expect(warnings).toHaveLength(1);
		expect(warnings[0].message).toContain('invalid_signature');
	});

	it('accepts a callback without signature headers', async () => {
		const run = await send({ signature: null, omitTimestamp: true, context: skip });
		expectAccepted(run);
		expect(run.items[0].verified).toBe(false);
	});

	it('marks even a correctly signed callback unverified (nothing was enforced)', async () => {
		const run = await send({ context: skip });
		expectAccepted(run);
		expect(run.items[0].verified).toBe(false);
		expect(run.logs.filter((l) => l.level === 'warn')).toEqual([]);
	});

	it('still answers 400 to a body that is not a callback', async () => {
		expectRejected(await send({ rawBody: 'nope', context: skip }), 400, 'invalid_json');
	});
});

describe('PaycashlessTrigger never reveals the secret', () => {
	it('keeps the secret and the expected signature out of every answer, item and log line', async () => {
		const timestamp = unixSeconds();
		const expected = signCallback(SECRET, TEST_PRODUCTION_URL, JSON.stringify(PAYMENT_DATA), timestamp);
		const expectedTest = signCallback(SECRET, TEST_URL, JSON.stringify(PAYMENT_DATA), timestamp);
		const everything = { parameters: { options: { includeHeaders: true, includeRawBody: true } } };
		const runs = [
			await send({ timestamp, secret: OTHER_SECRET, context: everything }),
			await send({ timestamp, signature: 'f'.repeat(128), context: everything }),
			await send({ timestamp, data: { ...PAYMENT_DATA, id: 'pi_forged' }, signature: expected, context: everything }),
			await send({ timestamp: '1000000000', context: everything }),
			await send({ signature: null, context: everything }),
			await send({ rawBody: '{not json', context: everything }),
			await send({ timestamp, context: everything }),
			await send({ timestamp, secret: OTHER_SECRET, context: { parameters: { options: { skipSignatureVerification: true, includeHeaders: true } } } }),
		];
		for (const run of runs) {
			const visible = JSON.stringify([run.response.body, run.answer, run.items, run.logs]);
			expect(visible).not.toContain(SECRET);
			expect(visible).not.toContain(expectedTest);
			// Not even the received signature (Include Headers drops it).
			expect(visible).not.toContain(expected);
		}
		expect(runs.filter((r) => r.items.length === 0)).toHaveLength(6);
	});
});

describe('PaycashlessTrigger version 2 (n8n leaves some bodies unread)', () => {
	/** A signed callback whose bytes n8n did not read (version 2, a content type n8n does not parse). */
	async function sendUnread(contentType: string | undefined, unreadBody: string | Error, signedData: unknown = PAYMENT_DATA): Promise<WebhookRun> {
		const timestamp = unixSeconds();
		const headers: Record<string, string> = {
			'request-signature': signCallback(SECRET, TEST_PRODUCTION_URL, JSON.stringify(signedData), timestamp),
			'request-timestamp': timestamp,
		};
		if (contentType) headers['content-type'] = contentType;
		return await runWebhook(trigger, { unreadBody, body: undefined, headers, credentials: { apiSecret: SECRET } });
	}
	const reads = (run: WebhookRun) => (run.context.getRequestObject() as unknown as { rawBodyReads: number }).rawBodyReads;

	it('is version 2 for new workflows and still version 1 for existing ones (the same node)', () => {
		expect(trigger.description.version).toEqual([1, 2]);
		expect(trigger.description.defaultVersion).toBe(2);
	});

	it('reads a body n8n left unread and verifies it as version 1 does (no content type, octet-stream)', async () => {
		for (const contentType of [undefined, 'application/octet-stream']) {
			const run = await sendUnread(contentType, bodyText('PAYMENT_SUCCEEDED', PAYMENT_DATA));
			expectAccepted(run);
			expect(run.items[0]).toEqual(expect.objectContaining({ event: 'PAYMENT_SUCCEEDED', data: PAYMENT_DATA, verified: true }));
			expect(reads(run)).toBe(1);
		}
	});

	it('refuses a forged body it read itself, as any other (401, nothing started)', async () => {
		const run = await sendUnread('application/octet-stream', bodyText('PAYMENT_SUCCEEDED', { ...PAYMENT_DATA, amount: { value: 1, currency: 'NGN' } }));
		expectRejected(run, 401, 'invalid_signature');
		expect(reads(run)).toBe(1);
	});

	it('reads nothing when n8n read the body, nor a multipart body (n8n\'s form parser took its stream)', async () => {
		const read = await send({ context: { unreadBody: 'other bytes' } });
		expectAccepted(read);
		expect(reads(read)).toBe(0);
		const multipart = await sendUnread('multipart/form-data; boundary=x', bodyText('PAYMENT_SUCCEEDED', PAYMENT_DATA));
		expectRejected(multipart, 400, 'invalid_json');
		expect(reads(multipart)).toBe(0);
	});

	it('a read that fails (connection cut, body over n8n\'s size limit) is refused with 400: nothing thrown, nothing started', async () => {
		const run = await sendUnread(undefined, new Error('Request body stream was aborted mid-read or is not readable'));
		expect(run.result).toEqual({ noWebhookResponse: true });
		expect(run.response.statusCode).toBe(400);
		expect(run.response.body).toEqual(expect.objectContaining({ error: 'unprocessable_callback' }));
		expect(run.items).toHaveLength(0);
	});
});
