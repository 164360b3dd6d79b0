/**
 * What one poll of the Paycashless Poll Trigger costs in list requests, at 0, 100 and 10,000 new
 * records, against the emulator (100 records a page). The counts are exact and asserted; the
 * test prints them as a table for docs/polling-trigger.md.
 */
import { startEmulator } from '../../../emulator/index.cjs';
import type { EmulatorHandle } from '../../../emulator/types.cjs';
import { call } from '../../support/emulatorClient.cjs';
import { PollHarness } from '../../../scripts/harness/pollContext.cjs';

jest.setTimeout(300_000);

let emulator: EmulatorHandle;
let counter = 0;
const rows: string[] = [];

beforeAll(async () => {
	emulator = await startEmulator({ callbackRetries: 0 });
});

afterAll(async () => {
	await emulator.close();
	process.stdout.write(`\n| Event | Poll | List requests |\n|---|---|---|\n${rows.join('\n')}\n`);
});

/** Creates `count` payments, 25 at a time; optionally moves each to `status`. */
async function createPayments(count: number, status?: string): Promise<void> {
	const one = async () => {
		counter += 1;
		const answer = await call(emulator, 'POST', '/v1/payments', {
			body: {
				reference: `cost-${counter}`,
				paymentMethod: 'pay_with_transfer',
				amount: { value: 5000, currency: 'NGN' },
				customer: { email: 'cost@example.com' },
				expiresIn: 1800,
			},
		});
		if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
		if (status) await emulator.completePayment(answer.body.id as string, status);
	};
	for (let done = 0; done < count; done += 25) {
		await Promise.all(Array.from({ length: Math.min(25, count - done) }, one));
	}
}

async function pollCost(trigger: PollHarness, label: string, event: string, expectedItems: number): Promise<number> {
	const from = trigger.sent.length;
	const items = await trigger.poll();
	expect(items).toHaveLength(expectedItems);
	const requests = trigger.sent.length - from;
	rows.push(`| ${event} | ${label} | ${requests} |`);
	return requests;
}

function harness(parameters: Record<string, unknown>): PollHarness {
	return new PollHarness({
		parameters: parameters as never,
		credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl },
	});
}

it('New Payment: one page per 100 records created since the newest seen, less 1 minute; Payment Succeeded: one page per 100 succeeded payments in the window, new or not', async () => {
	emulator.reset({});
	let created = harness({ resource: 'payment', event: 'created' });
	let succeeded = harness({ resource: 'payment', event: 'succeeded' });
	const failedOrExpired = harness({ resource: 'payment', event: 'failedOrExpired' });
	for (const trigger of [created, succeeded, failedOrExpired]) await trigger.activate();
	expect(await pollCost(created, '0 new', 'New Payment', 0)).toBe(1);
	expect(await pollCost(succeeded, '0 new', 'Payment Succeeded', 0)).toBe(1);
	expect(await pollCost(failedOrExpired, '0 new (two statuses)', 'Payment Failed or Expired', 0)).toBe(2);
	await createPayments(100, 'succeeded');
	expect(await pollCost(created, '100 new', 'New Payment', 100)).toBe(1);
	expect(await pollCost(succeeded, '100 new', 'Payment Succeeded', 100)).toBe(1);

	emulator.reset({});
	created = harness({ resource: 'payment', event: 'created' });
	succeeded = harness({ resource: 'payment', event: 'succeeded' });
	for (const trigger of [created, succeeded]) await trigger.activate();
	await createPayments(10_000, 'succeeded');
	expect(await pollCost(created, '10,000 new', 'New Payment', 10_000)).toBe(100);
	expect(await pollCost(succeeded, '10,000 new', 'Payment Succeeded', 10_000)).toBe(100);
	// New Payment re-reads what was created in the minute before the newest record.
	const times = (emulator.list('payments') as Array<{ createdAt: string }>).map((p) => Date.parse(p.createdAt) / 1000);
	const newest = Math.max(...times);
	const recent = times.filter((t) => t >= newest - 60).length;
	const label = `0 new, right after (${recent.toLocaleString('en')} created in the minute before the newest)`;
	expect(await pollCost(created, label, 'New Payment', 0)).toBe(Math.max(1, Math.ceil(recent / 100)));
	expect(await pollCost(succeeded, '0 new (the same 10,000 still in the window)', 'Payment Succeeded', 0)).toBe(100);
});
