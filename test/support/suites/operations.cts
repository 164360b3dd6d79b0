/**
 * The Paycashless action node's operations against the emulator, as the run table gives them
 * (scripts/harness/operationRuns.cts: its parameters, what it seeds and settles in the emulator, its
 * checks), each entry alone on an emptied emulator: in n8n's engine in the test process every
 * entry, waits paused and resumed included (test/engine/operations.test.cts: n8n-core 2.41 and
 * 1.123), and in a real n8n 2.41 the entries marked `inN8n` (test/e2e/n8n.test.cts: single process
 * and queue mode; `realN8nOperations`). Registered by the file that imports it, with the lab it
 * runs in.
 */
import type { IDataObject } from 'n8n-workflow';

import { resources } from '../../../nodes/Paycashless/actions/registry';
import type { PaycashlessResource } from '../../../nodes/Paycashless/actions/node.type';
import type { EmulatorHandle } from '../../../emulator/types.cjs';
import { runEntry } from '../../../scripts/harness/operationOutputs.cjs';
import { OPERATION_RUNS, type OperationRun, type RunContext } from '../../../scripts/harness/operationRuns.cjs';
import { paycashlessNode, type E2eLab } from '../e2e/harness.cjs';

/** A runtime of the run table: its emulator and its context (jest's `expect`). */
export interface OperationsLab {
	emulator: EmulatorHandle;
	context: RunContext;
}

/** "Payout → Create (first run and repeat)": the node's own names, then the entry's words. */
function titleOf(entry: { resource: string; operation: string; title?: string }): string {
	const resource = resources[entry.resource as PaycashlessResource];
	return `${resource.displayName} → ${resource.operations[entry.operation].option.name}${entry.title ? ` ${entry.title}` : ''}`;
}

/** A real n8n (the e2e lab): one node run per workflow run through n8n's server; no input items, no waits. */
export function realN8nOperations(lab: Pick<E2eLab, 'runNode' | 'good' | 'emulator'>): OperationsLab {
	const unavailable = (what: string) => () => {
		throw new Error(`${what} is not part of the run table in a real n8n: mark no entry that needs it inN8n (its suites: wait.cts, payroll.cts)`);
	};
	const run: RunContext['run'] = async (parameters, items) => {
		if (items) unavailable('a node run over input items')();
		return (await lab.runNode(paycashlessNode(lab.good, parameters))) as IDataObject[];
	};
	return {
		emulator: lab.emulator,
		context: { emulator: lab.emulator, expect, run, resumeUrl: '', runWait: unavailable('a wait'), resume: unavailable('a resume') },
	};
}

/** Registers the run table's entries (`every` one: n8n's engine; those marked `inN8n`: a real n8n), each alone. */
export function describeOperations(where: string, which: 'every' | 'inN8n', getLab: () => OperationsLab): void {
	describe(`Paycashless action node: the operations ${where}`, () => {
		let lab: OperationsLab;

		beforeAll(() => {
			lab = getLab();
		});

		const entries: OperationRun[] = which === 'every' ? OPERATION_RUNS : OPERATION_RUNS.filter((entry) => entry.inN8n !== undefined);
		for (const entry of entries) {
			it(titleOf(entry), async () => {
				// Alone: nothing in the emulator but what the entry seeds itself.
				lab.emulator.reset({});
				await runEntry(entry, lab.context);
			});
		}

		it('Get Many with Return All over 1,000 records returns exactly 1,000 items, 100 per page', async () => {
			lab.emulator.reset({ payouts: 1000 });
			const items = await lab.context.run({ resource: 'payout', operation: 'getAll', returnAll: true });
			expect(items).toHaveLength(1000);
			expect(new Set(items.map((payout) => payout.id)).size).toBe(1000);
			const pages = lab.emulator.requests.filter((r) => r.method === 'GET' && r.path === '/v1/payouts');
			expect(pages).toHaveLength(10);
			expect(pages.every((page) => page.query.limit === '100' && page.status === 200)).toBe(true);
		});
	});
}
