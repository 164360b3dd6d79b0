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
import { paycashlessNode, selectE2eRuntime, SETUP_TIMEOUT_MS, startE2eLab, webhookNode, type E2eLab, type E2eRuntime } from '../e2e/harness.cjs';

export function describePeriodRace(runtime: Partial<E2eRuntime>): void {
	selectE2eRuntime(runtime);
	jest.setTimeout(SETUP_TIMEOUT_MS);

	let lab: E2eLab;

	beforeAll(async () => {
		lab = await startE2eLab();
	}, SETUP_TIMEOUT_MS);

	afterAll(async () => {
		lab?.emulator.clearFaults();
		await lab?.close();
	}, 60_000);

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
		);
		lab.emulator.clearFaults();
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
}
