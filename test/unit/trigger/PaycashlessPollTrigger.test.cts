/**
 * The Paycashless Poll Trigger against the emulator, through a fake poll context that applies
 * n8n's static-data rules (scripts/harness/pollContext.cts): baseline on activation, status changes,
 * creation order, a poll failing half-way, a restart, records created during a poll, overlapping
 * polls, "Fetch Test Event", Start From a date, the state's bound, and the event key shared with
 * the webhook trigger.
 */
import type { IDataObject } from 'n8n-workflow';

import { startEmulator } from '../../../emulator/index.cjs';
import type { EmulatorHandle } from '../../../emulator/types.cjs';
import { callbackEventKey, eventKey } from '../../../nodes/Paycashless/catalog/eventKeys';
import {
	decide,
	MAX_REMEMBERED,
	planPoll,
	type PollEvent,
	type PollSettings,
} from '../../../nodes/Paycashless/poll/engine';
import { call } from '../../support/emulatorClient.cjs';
import { PollHarness } from '../../../scripts/harness/pollContext.cjs';

let emulator: EmulatorHandle;
let counter = 0;

beforeAll(async () => {
	emulator = await startEmulator({ callbackRetries: 0 });
});

afterAll(async () => {
	await emulator.close();
});

beforeEach(() => {
	emulator.reset({});
	emulator.clearFaults();
});

function credentials() {
	return { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl };
}

function harness(parameters: Record<string, unknown>, beforeRequest?: (index: number, url: string) => void | Promise<void>) {
	return new PollHarness({ parameters: parameters as never, credentials: credentials(), beforeRequest });
}

async function createPayment(): Promise<string> {
	counter += 1;
	const answer = await call(emulator, 'POST', '/v1/payments', {
		body: {
			reference: `poll-test-${process.pid}-${counter}`,
			paymentMethod: 'pay_with_transfer',
			amount: { value: 150_000, currency: 'NGN' },
			customer: { email: 'ada@example.com', name: 'Ada' },
			expiresIn: 1800,
		},
	});
	if (answer.status !== 200) throw new Error(`create payment: ${answer.status} ${JSON.stringify(answer.body)}`);
	return answer.body.id as string;
}

async function createPayments(count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) ids.push(await createPayment());
	return ids;
}

const ids = (items: IDataObject[]) => items.map((item) => (item.data as IDataObject).id as string);

describe('New Payment', () => {
	const parameters = { resource: 'payment', event: 'created' };

	it('ignores what exists at activation, then emits each new payment once, oldest first', async () => {
		await createPayments(5);
		const trigger = harness(parameters);
		expect(await trigger.activate()).toEqual([]);
		const created = await createPayments(7);
		const first = await trigger.poll();
		expect(ids(first)).toEqual(created);
		expect(first[0]).toMatchObject({
			event: 'PAYMENT_CREATED',
			eventKey: eventKey('payment', created[0], 'created'),
			source: 'poll',
			data: { id: created[0], status: 'initiated' },
		});
		expect(await trigger.poll()).toEqual([]);
		const more = await createPayments(3);
		expect(ids(await trigger.poll())).toEqual(more);
		expect(await trigger.poll()).toEqual([]);
	});

	it('asks only for payments created since the activation (less the accepted clock difference, 5 minutes) and 1 minute of overlap', async () => {
		const trigger = harness(parameters);
		await trigger.activate();
		const from = trigger.sent.length;
		await trigger.poll();
		const [request] = trigger.requestsSince(from);
		const gte = Number(request.query['createdAt.gte']);
		expect(request.query.limit).toBe('100');
		expect(request.query.status).toBeUndefined();
		expect(Math.abs(gte - (Math.floor(Date.now() / 1000) - 360))).toBeLessThanOrEqual(5);
	});
});

describe('Payment Succeeded', () => {
	const parameters = { resource: 'payment', event: 'succeeded' };

	it('emits payments created before activation when they succeed later, and new ones, each once', async () => {
		const before = await createPayments(4);
		await emulator.completePayment(before[0]);
		const trigger = harness(parameters);
		expect(await trigger.activate()).toEqual([]);

		await emulator.completePayment(before[1]);
		await emulator.completePayment(before[2], 'failed');
		const after = await createPayments(3);
		await emulator.completePayment(after[2]);
		await emulator.completePayment(after[0]);
		const first = await trigger.poll();
		// Creation order, not the order they succeeded in.
		expect(ids(first)).toEqual([before[1], after[0], after[2]]);
		expect(first.every((item) => item.event === 'PAYMENT_SUCCEEDED')).toBe(true);
		expect(await trigger.poll()).toEqual([]);

		await emulator.completePayment(before[3]);
		expect(ids(await trigger.poll())).toEqual([before[3]]);
		expect(await trigger.poll()).toEqual([]);
	});

	it('sends one request series per watched status, within the look-back window', async () => {
		const trigger = harness({ resource: 'payment', event: 'failedOrExpired', lookbackHours: 5 });
		await trigger.activate();
		const from = trigger.sent.length;
		await trigger.poll();
		const sent = trigger.requestsSince(from);
		expect(sent.map((r) => r.query.status)).toEqual(['failed', 'expired']);
		for (const request of sent) {
			expect(Math.abs(Number(request.query['createdAt.gte']) - (Math.floor(Date.now() / 1000) - 5 * 3600))).toBeLessThanOrEqual(5);
		}
	});

	it('gives the same eventKey as the webhook trigger gives the PAYMENT_SUCCEEDED callback', async () => {
		const trigger = harness(parameters);
		await trigger.activate();
		const [id] = await createPayments(1);
		const payment = await emulator.completePayment(id);
		const [item] = await trigger.poll();
		expect(item.eventKey).toBe(`payment:${id}:succeeded`);
		expect(callbackEventKey('PAYMENT_SUCCEEDED', payment)).toBe(item.eventKey);
	});
});

describe('Invoice Paid (invoices carry no creation time)', () => {
	it('emits an invoice once when it is paid, with the key the webhook trigger gives INVOICE_PAID', async () => {
		const createInvoice = async (n: number) => {
			const answer = await call(emulator, 'POST', '/v1/invoices', {
				body: {
					reference: `poll-inv-${process.pid}-${n}`,
					description: 'Order',
					currency: 'NGN',
					customer: { email: 'ada@example.com', name: 'Ada' },
					items: [{ name: 'Rice', quantity: 2, price: 500_000 }],
					daysUntilDue: 7,
					autoFinalize: true,
				},
			});
			if (answer.status !== 201) throw new Error(`create invoice: ${answer.status} ${JSON.stringify(answer.body)}`);
			return answer.body.id as string;
		};
		const before = await createInvoice(1);
		const trigger = harness({ resource: 'invoice', event: 'paid' });
		expect(await trigger.activate()).toEqual([]);
		const after = await createInvoice(2);
		await emulator.payInvoice(after);
		await emulator.payInvoice(before);
		const items = await trigger.poll();
		expect(ids(items)).toEqual([before, after]); // list order: oldest first
		expect(items.map((item) => item.eventKey)).toEqual([`invoice:${before}:paid`, `invoice:${after}:paid`]);
		expect(items[0].event).toBe('INVOICE_PAID');
		expect(callbackEventKey('INVOICE_PAID', items[0].data)).toBe(items[0].eventKey);
		expect(await trigger.poll()).toEqual([]);
		// No creation time in invoices: a key is kept until the record cannot be listed any more.
		const seen = trigger.staticData.seen as Record<string, number>;
		expect(seen[`${after}|paid`]).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
	});
});

describe('failures, restarts and concurrency', () => {
	it('a poll that fails on its second page changes nothing; the next one emits everything once', async () => {
		let failAt = -1;
		const trigger = harness({ resource: 'payment', event: 'created' }, (index) => {
			if (index === failAt) throw Object.assign(new Error('page lost'), { code: 'EPROTO' });
		});
		await trigger.activate();
		const created = await createPayments(250);
		const before = JSON.stringify(trigger.staticData);
		failAt = trigger.sent.length + 1;
		await expect(trigger.poll()).rejects.toThrow('page lost');
		expect(trigger.sent.length).toBe(failAt); // page 1 read, page 2 failed (not retried: unknown error)
		expect(JSON.stringify(trigger.staticData)).toBe(before);
		const items = await trigger.poll();
		expect(ids(items)).toEqual(created);
		expect(await trigger.poll()).toEqual([]);
	});

	it('a restart after emitting, and after polls that emitted nothing, neither repeats nor loses events', async () => {
		const trigger = harness({ resource: 'payment', event: 'succeeded' });
		await trigger.activate();
		const batch = await createPayments(30);
		for (const id of batch.slice(0, 10)) await emulator.completePayment(id);
		expect(await trigger.poll()).toHaveLength(10);
		expect(await trigger.poll()).toEqual([]); // not saved by n8n: nothing emitted
		trigger.restart();
		expect(await trigger.poll()).toEqual([]);
		for (const id of batch.slice(10, 20)) await emulator.completePayment(id);
		trigger.restart(); // n8n down while they succeeded
		expect(ids(await trigger.poll())).toEqual(batch.slice(10, 20));
		expect(new Set(trigger.emitted.map((item) => item.eventKey)).size).toBe(trigger.emitted.length);
	});

	it('records created and completed while a poll pages are emitted by that poll or the next, once', async () => {
		const extra: string[] = [];
		let during = false;
		const trigger = harness({ resource: 'payment', event: 'succeeded' }, async (index) => {
			if (!during || index % 2 === 0) return;
			const id = await createPayment();
			await emulator.completePayment(id);
			extra.push(id);
		});
		await trigger.activate();
		const batch = await createPayments(450);
		for (const id of batch) await emulator.completePayment(id);
		during = true;
		await trigger.poll();
		during = false;
		await trigger.poll();
		const emittedIds = ids(trigger.emitted);
		expect(extra.length).toBeGreaterThan(0);
		expect(new Set(emittedIds).size).toBe(emittedIds.length);
		expect(new Set(emittedIds)).toEqual(new Set([...batch, ...extra]));
	});

	it('an overlapping poll of the same node is skipped while the first one runs', async () => {
		let release: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (release = resolve));
		let hold = false;
		const trigger = harness({ resource: 'payment', event: 'created' }, async () => {
			if (hold) await gate;
		});
		await trigger.activate();
		await createPayments(3);
		hold = true;
		const slow = trigger.poll();
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(await trigger.poll()).toEqual([]);
		expect(trigger.logs.some((line) => /still running/.test(line.message))).toBe(true);
		hold = false;
		release();
		expect(await slow).toHaveLength(3);
		// Nothing about running polls is in the saved state: a restart never finds a poll "running".
		expect(trigger.saved).not.toMatch(/lease|running/);
		expect(await trigger.poll()).toEqual([]);
	});
});

describe('Fetch Test Event and Start From', () => {
	it('Fetch Test Event returns the newest matching record and leaves the state alone', async () => {
		const trigger = harness({ resource: 'payment', event: 'succeeded' });
		await trigger.activate();
		const saved = trigger.saved;
		const [a, b] = await createPayments(3);
		await emulator.completePayment(b);
		await emulator.completePayment(a);
		const items = await trigger.manual();
		expect(ids(items)).toEqual([b]);
		expect(items[0].eventKey).toBe(`payment:${b}:succeeded`);
		expect(trigger.saved).toBe(saved);
		expect(ids(await trigger.poll())).toEqual([a, b]);
	});

	it('Fetch Test Event with nothing to show says so', async () => {
		const trigger = harness({ resource: 'payout', event: 'failedOrReversed' });
		await expect(trigger.manual()).rejects.toThrow(/no payout to show yet/);
	});

	it('Start From a date emits the records created since that date on the first poll, oldest first', async () => {
		emulator.reset({ payments: 2000 });
		const all = emulator.list('payments') as Array<{ id: string; status: string; createdAt: string }>;
		const since = '2025-11-01T00:00:00Z';
		const expected = all.filter((p) => p.status === 'succeeded' && p.createdAt >= '2025-11-01T00:00:00').map((p) => p.id);
		expect(expected.length).toBeGreaterThan(10);
		const trigger = harness({ resource: 'payment', event: 'succeeded', startFrom: 'date', startDate: since });
		expect(ids(await trigger.activate())).toEqual(expected);
		// Next poll: the look-back window (72 h) starts after all of them: none again, keys forgotten.
		expect(await trigger.poll()).toEqual([]);
		expect(Object.keys(trigger.staticData.seen as object)).toHaveLength(0);
	});

	it('bad settings are refused before anything is sent', async () => {
		const trigger = harness({ resource: 'payment', event: 'status', statuses: [] });
		await expect(trigger.poll()).rejects.toThrow('Statuses: pick at least one status');
		const late = harness({ resource: 'payment', event: 'succeeded', startFrom: 'date', startDate: 'yesterday' });
		await expect(late.poll()).rejects.toThrow(/Start Date/);
		expect(trigger.sent.length + late.sent.length).toBe(0);
	});
});

describe('eventKey (shared by both triggers)', () => {
	it('is kind:id:status, from the id prefix and data.status, else from the event name', () => {
		expect(eventKey('payment', 'pi_1', 'Succeeded')).toBe('payment:pi_1:succeeded');
		expect(callbackEventKey('PAYOUT_FAILED', { id: 'po_9', status: 'failed' })).toBe('payout:po_9:failed');
		expect(callbackEventKey('DEDICATED_ACCOUNT_ACTIVATED', { id: 'va_3', status: 'active' })).toBe('dedicated_account:va_3:active');
		// No status in the data: the event name's last word; unknown prefix: the rest of the name.
		expect(callbackEventKey('INVOICE_PAYMENT_SUCCEEDED', { id: 'ipay_7', invoiceId: 'inv_1' })).toBe('invoice_payment:ipay_7:succeeded');
		expect(callbackEventKey('PAYMENT_SUCCEEDED', { reference: 'no-id' })).toBeUndefined();
		expect(callbackEventKey('PAYMENT_SUCCEEDED', 'text')).toBeUndefined();
	});
});

describe('the state (pure)', () => {
	const settings: PollSettings = {
		resource: 'payment',
		watch: { type: 'status', statuses: ['succeeded'] },
		startFrom: { mode: 'now' },
		lookbackSeconds: 72 * 3600,
		scope: 'credential:x',
	};
	const now = 1_800_000_000;

	function event(id: string, createdSeconds: number): PollEvent {
		return { key: `${id}|succeeded`, id, status: 'succeeded', record: { id }, createdMs: createdSeconds * 1000, createdBound: createdSeconds, rank: 0 };
	}

	it(`keeps at most ${MAX_REMEMBERED} keys: past that the window starts later and says from when`, () => {
		const plan = planPoll({}, settings, now);
		const events = Array.from({ length: MAX_REMEMBERED + 500 }, (_, i) => event(`pi_${i}`, now - 3600 + Math.floor(i / 2)));
		const outcome = decide(settings, { ...plan, baseline: false }, events, now);
		expect(outcome.emit).toHaveLength(MAX_REMEMBERED + 500);
		expect(Object.keys(outcome.next.seen).length).toBeLessThanOrEqual(MAX_REMEMBERED);
		expect(outcome.trimmedTo).toBeGreaterThan(now - 3600);
		expect(outcome.next.floor).toBe(outcome.trimmedTo);
		// The next poll starts there: the forgotten ones cannot come back.
		expect(planPoll(outcome.next as unknown as IDataObject, settings, now + 60).start).toBe(outcome.trimmedTo);
	});

	it('forgets a key only once its record is older than every later window', () => {
		const plan = planPoll({}, settings, now);
		const outcome = decide(settings, { ...plan, baseline: false }, [event('pi_old', now - 72 * 3600 + 10), event('pi_new', now - 60)], now);
		expect(Object.keys(outcome.next.seen).sort()).toEqual(['pi_new|succeeded', 'pi_old|succeeded']);
		const later = planPoll(outcome.next as unknown as IDataObject, settings, now + 20);
		const after = decide(settings, later, [], now + 20);
		expect(Object.keys(after.next.seen)).toEqual(['pi_new|succeeded']);
		expect(later.start).toBe(now + 20 - 72 * 3600);
	});

	it('starts afresh (baseline) when the event or the credential changes', () => {
		const plan = planPoll({}, settings, now);
		const stored = decide(settings, plan, [event('pi_1', now - 5)], now).next as unknown as IDataObject;
		expect(planPoll(stored, settings, now + 60).fresh).toBe(false);
		expect(planPoll(stored, { ...settings, scope: 'credential:y' }, now + 60).baseline).toBe(true);
		expect(planPoll(stored, { ...settings, watch: { type: 'status', statuses: ['failed'] } }, now + 60).baseline).toBe(true);
		// A longer look-back never reads further back than before.
		expect(planPoll(stored, { ...settings, lookbackSeconds: 30 * 86_400 }, now + 60).start).toBe(now - 72 * 3600);
	});
});
