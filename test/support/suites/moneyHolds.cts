/**
 * Period limits when executions race, in a real n8n: ten webhook calls at once start ten
 * executions side by side (n8n sets no concurrency limit), each paying NGN 1,000 under a Maximum
 * Total per Period of NGN 1,500. In one n8n process they see each other's payouts in flight
 * (nodes/Paycashless/money/inFlight.ts) and exactly one is paid; in queue mode each
 * worker process sees its own, so the bound docs/money.md states is one payout per worker here
 * (each worker alone never passes the total). Every answer 200 ms late, so that all ten read
 * Paycashless's list before any payout is listed. Unit tests: test/unit/node/money.test.cts.
 */
import { randomUUID } from 'crypto';

import { ACCESS_BANK } from '../reliability.cjs';
import { paycashlessNode, selectE2eRuntime, SETUP_TIMEOUT_MS, useE2eLab, webhookNode, type E2eLab, type E2eRuntime } from '../e2e/harness.cjs';

export function describeMoneyHolds(runtime: Partial<E2eRuntime>): void {
	selectE2eRuntime(runtime);
	jest.setTimeout(SETUP_TIMEOUT_MS);

	let lab: E2eLab;
	useE2eLab((started) => (lab = started));

	// Each test starts from an account that paid nothing today (this suite's own emulator).
	beforeEach(() => lab.emulator.reset({ payouts: 0 }));

	it('ten webhook executions at once cannot pass the period total together', async () => {
		const webhookPath = `period-race-${randomUUID().slice(0, 8)}`;
		const prefix = `race-${randomUUID().slice(0, 8)}`;
		const pay = {
			...paycashlessNode(lab.good, {
				resource: 'payout',
				operation: 'create',
				reference: `=${prefix}-{{ $json.body.k }}`,
				amount: 1000,
				currency: 'NGN',
				destinationAccountNumber: '0123456789',
				bankId: ACCESS_BANK,
				moneyLimits: { maxAmount: 1000, periodTotal: 1500 },
			}),
			name: 'Pay',
			onError: 'continueRegularOutput' as const,
		};
		await lab.createActiveWorkflow(`period race ${prefix}`, [webhookNode(webhookPath), pay], { Webhook: { main: [[{ node: 'Pay', type: 'main', index: 0 }]] } }, [webhookPath]);
		lab.emulator.setFaults({ latencyMs: 200 });
		const answers = await Promise.all(
			Array.from({ length: 10 }, async (_, k) => {
				const response = await fetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ k }),
				});
				return { status: response.status, text: await response.text() };
			}),
		).finally(() => lab.emulator.clearFaults());
		expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
		const paid = lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix)).map((payout) => payout.reference);
		const refused = answers.filter((answer) => answer.text.includes('MAX_TOTAL_PERIOD'));
		expect(paid.length + refused.length).toBe(10);
		if (lab.queue) {
			// Queue mode: each worker keeps within the total alone; together, at most one NGN 1,000
			// payout per worker process (docs/money.md, "Executions side by side").
			const workers = lab.queue.processes.filter((process) => process.role === 'worker').length;
			expect(workers).toBeGreaterThanOrEqual(2);
			expect(paid.length).toBeGreaterThanOrEqual(1);
			expect(paid.length).toBeLessThanOrEqual(workers);
		} else {
			expect(paid).toHaveLength(1);
		}
	});

	/** A webhook workflow paying with `parameters`; the payout's fields come from the posted body. */
	async function payingWorkflow(name: string, moneyLimits: Record<string, unknown>): Promise<(body: Record<string, unknown>) => Promise<string>> {
		const webhookPath = `money-holds-${randomUUID().slice(0, 8)}`;
		const pay = {
			...paycashlessNode(lab.good, {
				resource: 'payout',
				operation: 'create',
				reference: '={{ $json.body.reference }}',
				amount: '={{ $json.body.amount }}',
				currency: 'NGN',
				destinationAccountNumber: '={{ $json.body.account }}',
				bankId: ACCESS_BANK,
				moneyLimits,
			}),
			name: 'Pay',
			onError: 'continueRegularOutput' as const,
		};
		await lab.createActiveWorkflow(`${name} ${webhookPath}`, [webhookNode(webhookPath), pay], { Webhook: { main: [[{ node: 'Pay', type: 'main', index: 0 }]] } }, [webhookPath]);
		return async (body) => {
			const response = await fetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
			expect(response.status).toBe(200);
			return await response.text();
		};
	}

	const payoutPosts = (reference: string) => lab.emulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payouts' && (request.body as { reference?: string } | undefined)?.reference === reference);

	it('a reference Paycashless lists as failed skips no check: asked again, it is held to the period total like a new payout', async () => {
		const prefix = `failed-${randomUUID().slice(0, 8)}`;
		const pay = await payingWorkflow('failed reference', { maxAmount: 1000, periodTotal: 1500 });
		await pay({ reference: `${prefix}-a`, amount: 1000, account: '0123456789' });
		await lab.emulator.completePayout(`${prefix}-a`, 'failed');
		// The failed payout moved nothing: another one fits.
		const other = await pay({ reference: `${prefix}-b`, amount: 1000, account: '0123456789' });
		expect([other, lab.emulator.list('payouts').filter((payout) => payout.reference === `${prefix}-b`).length]).toEqual([other, 1]);
		// The failed reference again: checked as new, refused by the period total, never sent.
		const again = await pay({ reference: `${prefix}-a`, amount: 1000, account: '0123456789' });
		expect(again).toContain('MAX_TOTAL_PERIOD');
		expect(payoutPosts(`${prefix}-a`)).toHaveLength(1);
	});

	it('Expected Account Name refuses a business account that carries the person\'s name, and pays the person', async () => {
		const prefix = `named-${randomUUID().slice(0, 8)}`;
		const pay = await payingWorkflow('named payee', { maxAmount: 1000, expectedAccountName: 'Ada Obi', beneficiaryBankCode: '044' });
		// emulator/banks.cts NAMED_ACCOUNTS: 0234567802 ADA OBI COLLECTIONS, 0234567803 ADA OBI & SON, 0234567805 ADA CHIOMA OBI.
		for (const [k, account] of ['0234567802', '0234567803', '0234567805'].entries()) {
			const text = await pay({ reference: `${prefix}-${k}`, amount: 10, account });
			expect([account, text.includes('NAME_MISMATCH')]).toEqual([account, true]);
		}
		expect(lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix))).toHaveLength(0);
		expect(await pay({ reference: `${prefix}-person`, amount: 10, account: '0234567801' })).toContain(`${prefix}-person`);
		expect(lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix))).toHaveLength(1);
	});
}
