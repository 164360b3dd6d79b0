/**
 * The Paycashless action node's operations against the emulator, one node run each, as the run table
 * gives them (scripts/harness/operationRuns.cts: its parameters, what it settles in the emulator, its
 * checks): in a real n8n 2.41 (test/e2e/n8n.test.cts: single process and queue mode) and in n8n's
 * engine in the test process (test/engine/operations.test.cts: n8n-core 2.41 and 1.123). Entries
 * that need a wait resumed or input items run in their own suites (wait.cts and others). Registered
 * by the file that imports it, with the lab it runs in.
 */
import type { IDataObject } from 'n8n-workflow';

import { resources } from '../../../nodes/Paycashless/actions/registry';
import type { PaycashlessResource } from '../../../nodes/Paycashless/actions/node.type';
import { OPERATION_RUNS, RUN_SEED, type RunContext } from '../../../scripts/harness/operationRuns.cjs';
import { paycashlessNode, type E2eLab } from '../e2e/harness.cjs';

/** What the operations need: a node run, the credential, the emulator. */
export type OperationsLab = Pick<E2eLab, 'runNode' | 'good' | 'emulator'>;

/** "Payout → Create (first run and repeat)": the node's own names, then the entry's words. */
function titleOf(entry: { resource: string; operation: string; title?: string }): string {
	const resource = resources[entry.resource as PaycashlessResource];
	return `${resource.displayName} → ${resource.operations[entry.operation].option.name}${entry.title ? ` ${entry.title}` : ''}`;
}

export function describeOperations(where: string, getLab: () => OperationsLab): void {
	describe(`Paycashless action node: the operations ${where}`, () => {
		let lab: OperationsLab;
		let context: RunContext;

		beforeAll(() => {
			lab = getLab();
			lab.emulator.reset(RUN_SEED);
			const run = async (parameters: Record<string, unknown>) => (await lab.runNode(paycashlessNode(lab.good, parameters))) as IDataObject[];
			context = { emulator: lab.emulator, expect, state: {}, run };
		});

		for (const entry of OPERATION_RUNS) {
			if (entry.inProcess) continue;
			it(titleOf(entry), async () => {
				await entry.run(context);
			});
		}

		it('Get Many with Return All over 1,000 records returns exactly 1,000 items, 100 per page', async () => {
			lab.emulator.reset({ payouts: 1000 });
			const items = await context.run({ resource: 'payout', operation: 'getAll', returnAll: true });
			expect(items).toHaveLength(1000);
			expect(new Set(items.map((payout) => payout.id)).size).toBe(1000);
			const pages = lab.emulator.requests.filter((r) => r.method === 'GET' && r.path === '/v1/payouts');
			expect(pages).toHaveLength(10);
			expect(pages.every((page) => page.query.limit === '100' && page.status === 200)).toBe(true);
		});
	});
}
