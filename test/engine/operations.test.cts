/**
 * The Paycashless action node's operations suite (test/support/suites/operations.cts, which the e2e suite
 * runs in a real n8n 2.41) in n8n's engine in the test process: n8n-core's request helpers sign
 * and send every request, on n8n 2.41 and 1.123 (jest projects engine and engine-1x). For 1.123
 * this is where they run (test/e2e-1x/n8n.test.cts leaves them out).
 */
import { startEmulator } from '../../emulator/index.cjs';
import type { EmulatorHandle } from '../../emulator/types.cjs';
import { CREDENTIAL_TYPE } from '../../scripts/n8n/lab.cjs';
import { describeOperations, type OperationsLab } from '../support/suites/operations.cjs';
import { ENGINE_N8N, runWorkflow } from '../support/engine/engine.cjs';

jest.setTimeout(120_000);

let emulator: EmulatorHandle;
let lab: OperationsLab;

beforeAll(async () => {
	emulator = await startEmulator({ port: 0, callbackRetries: 0 });
	lab = {
		emulator,
		good: { id: 'engine', name: 'Paycashless (emulator)' },
		// As the e2e lab's runNode: one node after the start, On Error: Continue (regular output).
		runNode: async (node) => {
			const name = node.name ?? 'Node Under Test';
			const result = await runWorkflow({
				nodes: [
					{ name: 'Start', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
					{ onError: 'continueRegularOutput', ...node, name } as Parameters<typeof runWorkflow>[0]['nodes'][number],
				],
				connections: { Start: { main: [[{ node: name, type: 'main', index: 0 }]] } },
				input: [{ json: {} }],
				credentials: { [CREDENTIAL_TYPE]: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl, bodilessSigning: 'documented' } },
			});
			if (result.run.data.resultData.error) throw new Error(`the workflow failed: ${result.run.data.resultData.error.message}`);
			return result.output(name).map((item) => item.json);
		},
	};
});

afterAll(async () => {
	await emulator?.close();
});

describeOperations(`in n8n ${ENGINE_N8N.version}'s engine against the emulator`, () => lab);
