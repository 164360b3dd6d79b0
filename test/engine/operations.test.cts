/**
 * The run table (scripts/harness/operationRuns.cts) in n8n's engine in the test process, every
 * entry, each alone on an emptied emulator (test/support/suites/operations.cts): n8n-core's request
 * helpers sign and send every request, on n8n 2.41 and 1.123 (jest projects engine and engine-1x).
 * A node run is a workflow Start → the node (On Error: Continue (regular output)) over the entry's
 * items; a wait's run ends waiting, with the item n8n forwards at the time limit on its stack; a
 * resume is the emulator's callback given to the waiting node as n8n's server gives it
 * (test/support/engine/engine.cts `resume`), and the execution run on from there.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { startEmulator } from '../../emulator/index.cjs';
import type { EmulatorHandle } from '../../emulator/types.cjs';
import type { RunContext } from '../../scripts/harness/operationRuns.cjs';
import { CREDENTIAL_TYPE } from '../../scripts/n8n/lab.cjs';
import { describeOperations, type OperationsLab } from '../support/suites/operations.cjs';
import { ENGINE_N8N, ENGINE_RESUME_URL, paycashlessEngineNode, runWorkflow, type EngineRun } from '../support/engine/engine.cjs';

jest.setTimeout(120_000);

const NAME = 'Node Under Test';

let emulator: EmulatorHandle;
let lab: OperationsLab;

/** One workflow run: Start → the node, over `items`. */
async function runOnce(parameters: INodeParameters, items: INodeExecutionData[] = [{ json: {} }]): Promise<EngineRun> {
	const result = await runWorkflow({
		nodes: [
			{ name: 'Start', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
			{ onError: 'continueRegularOutput', ...paycashlessEngineNode(NAME, parameters) },
		],
		connections: { Start: { main: [[{ node: NAME, type: 'main', index: 0 }]] } },
		input: items,
		credentials: { [CREDENTIAL_TYPE]: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl, bodilessSigning: 'documented' } },
	});
	if (result.run.data.resultData.error) throw new Error(`the workflow failed: ${result.run.data.resultData.error.message}`);
	return result;
}

const json = (items: INodeExecutionData[]) => items.map((item) => item.json);

beforeAll(async () => {
	emulator = await startEmulator({ port: 0, callbackRetries: 0 });
	/** The runs waiting, by the reference they wait for. */
	const waiting = new Map<string, EngineRun>();
	const context: RunContext = {
		emulator,
		expect,
		resumeUrl: ENGINE_RESUME_URL,
		run: async (parameters, items) => json((await runOnce(parameters, items)).output(NAME)),
		runWait: async (parameters) => {
			const result = await runOnce(parameters);
			const output = json(result.output(NAME));
			if (result.run.status !== 'waiting') return output;
			waiting.set(String(parameters.reference), result);
			// The item n8n forwards if the time limit passes first: on the waiting node's stack entry.
			return [...output, ...json(result.run.data.executionData?.nodeExecutionStack[0]?.data.main[0] ?? [])];
		},
		resume: async (parameters, reference) => {
			const paused = waiting.get(reference);
			if (!paused) throw new Error(`no run waits for ${reference}`);
			await emulator.callbacksSettled();
			const call = [...emulator.callbacks].reverse().find((attempt) => attempt.url.startsWith(ENGINE_RESUME_URL) && attempt.body.includes(`"${reference}"`));
			if (!call) throw new Error(`the emulator sent no callback for ${reference} to ${ENGINE_RESUME_URL}`);
			const { answer, resumed } = await paused.resume(call);
			if (!resumed) throw new Error(`the callback for ${reference} did not resume the wait: ${answer.status} ${JSON.stringify(answer.body)}`);
			waiting.delete(reference);
			const runs = resumed.run.data.resultData.runData[NAME] ?? [];
			return json(runs[runs.length - 1]?.data?.main[0] ?? []) as IDataObject[];
		},
	};
	lab = { emulator, context };
});

afterAll(async () => {
	await emulator?.close();
});

describeOperations(`in n8n ${ENGINE_N8N.version}'s engine against the emulator`, 'every', () => lab);
