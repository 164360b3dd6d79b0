/**
 * What a Create and Wait leaves in n8n's engine when it pauses (test/support/engine/engine.cts), on n8n
 * 2.41 and 1.123: the run ends waiting until the time limit, and the node's execution-stack entry
 * holds the one item n8n forwards if nobody pays by then (n8n does not run the node again at the
 * time limit: nodes/Paycashless/wait/pause.ts). That item is the invoice as created, marked
 * timeLimitReached, paired with the input item; and the invoice exists once, its callback URL this
 * execution's resume URL with the awaited reference; the node's run while it waits is the invoice
 * marked waiting. The resume itself needs n8n's server (a POST
 * to the resume URL): test/e2e/wait.test.cts.
 */
import { useEmulator } from '../support/emulator.cjs';
import { CREDENTIAL_TYPE } from '../../scripts/n8n/lab.cjs';
import { ENGINE_N8N, paycashlessEngineNode, runWorkflow } from '../support/engine/engine.cjs';

jest.setTimeout(60_000);

const emulator = useEmulator({ callbackRetries: 0 });

const start = { name: 'Start', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };

describe(`Invoice → Create and Wait pauses in n8n ${ENGINE_N8N.version}'s engine`, () => {
	it('the run waits until the time limit; its run shows the invoice waiting; the stack holds the time-limit item: the invoice as created, paired, once in Paycashless', async () => {
		emulator.reset({});
		const reference = `engine-wait-${ENGINE_N8N.version}`;
		const before = Date.now();
		const result = await runWorkflow({
			nodes: [
				start,
				paycashlessEngineNode('Create and Wait', {
					resource: 'invoice',
					operation: 'createAndWait',
					reference: '={{ $json.reference }}',
					invoiceDescription: 'Order for the engine wait test',
					currency: 'NGN',
					customerEmail: 'ada@example.com',
					customerName: 'Ada Obi',
					items: { itemValues: [{ name: 'Rice', quantity: 2, price: 1500 }] },
					daysUntilDue: 7,
					waitTimeLimit: 30,
					waitTimeLimitUnit: 'minutes',
				}),
			],
			connections: { Start: { main: [[{ node: 'Create and Wait', type: 'main', index: 0 }]] } },
			input: [{ json: { reference } }],
			credentials: { [CREDENTIAL_TYPE]: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl, bodilessSigning: 'documented' } },
		});

		// Waiting: no output yet, the time limit 30 minutes from now.
		expect(result.run.status).toBe('waiting');
		const waitTill = new Date(result.run.waitTill as Date).getTime();
		expect(waitTill).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1000);
		expect(waitTill).toBeLessThanOrEqual(Date.now() + 30 * 60_000 + 1000);
		// What n8n keeps as the node's run while it waits: the invoice, marked waiting, with the callback URL.
		const waiting = result.output('Create and Wait');
		expect(waiting).toHaveLength(1);
		expect(waiting[0].json.paycashlessWait).toEqual({
			outcome: 'waiting',
			reference,
			callbackUrl: `http://127.0.0.1:5678/webhook-waiting/1?paycashlessReference=${reference}`,
			waitTill: new Date(waitTill).toISOString(),
		});

		// The invoice exists once, and Paycashless will call this execution's resume URL.
		const invoices = emulator.list('invoices').filter((invoice) => invoice.reference === reference);
		expect(invoices).toHaveLength(1);
		const created = emulator.requests.filter((r) => r.method === 'POST' && r.path === '/v1/invoices');
		expect(created).toHaveLength(1);
		const callbackUrl = new URL(String((created[0].body as { callbackUrl?: string }).callbackUrl));
		expect(`${callbackUrl.origin}${callbackUrl.pathname}`).toBe('http://127.0.0.1:5678/webhook-waiting/1');
		expect(callbackUrl.searchParams.get('paycashlessReference')).toBe(reference);

		// The stored stack entry: the node itself, holding the item n8n forwards at the time limit.
		const stack = result.run.data.executionData?.nodeExecutionStack ?? [];
		expect(stack.map((entry) => entry.node.name)).toEqual(['Create and Wait']);
		const stored = stack[0].data.main[0] ?? [];
		expect(stored).toHaveLength(1);
		expect(stored[0].pairedItem).toEqual({ item: 0 });
		expect(stored[0].json).toMatchObject({
			id: invoices[0].id,
			reference,
			status: invoices[0].status,
			inMainUnits: expect.objectContaining({ currency: 'NGN' }),
			paycashlessWait: expect.objectContaining({ outcome: 'timeLimitReached', reference, waitedUntil: new Date(waitTill).toISOString() }),
		});
	});
});
