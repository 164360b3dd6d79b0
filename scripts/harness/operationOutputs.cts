/**
 * Real output items of every operation of the Paycashless node: the run table (./operationRuns.cts)
 * run by the real node code in the fake n8n contexts (./executeContext.cts, `fakeRunContext`)
 * against the emulator, with its checks, waits resumed by the callbacks the emulator really sends;
 * then both triggers on what the emulator holds and sent. The output schemas the package ships
 * (nodes/Paycashless/__schema__) are generated from these items by `npm run schemas`
 * (scripts/output-schemas.cts) and checked against them (test/unit/node/schemas.test.cts).
 *
 * Each operation is run in the variants a user meets (first run and repeat of a create, a wait
 * while waiting, at its time limit, already settled and resumed, a verified and a refused
 * callback), so the schema holds the fields of every one of them.
 */
import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { startEmulator } from '../../emulator/index.cjs';
import type { EmulatorHandle } from '../../emulator/types.cjs';
import { Paycashless } from '../../nodes/Paycashless/Paycashless.node';
import { PaycashlessTrigger } from '../../nodes/Paycashless/PaycashlessTrigger.node';
import { RESOURCES } from '../../nodes/Paycashless/poll/events';
import { PollHarness } from './pollContext.cjs';
import { createExecuteContext, runNode } from './executeContext.cjs';
import { OPERATION_RUNS, RUN_SEED, type OperationRun, type RunContext } from './operationRuns.cjs';
import { CALLBACK_URL, RESUME_URL } from './seed.cjs';
import { runWebhook } from './webhookContext.cjs';

/** `resource/operation` → its output items (json only). */
export type OperationOutputs = Map<string, IDataObject[]>;

/** Every resource/operation pair the node's Operation lists offer (the node's own, not the tool's). */
export function nodeOperations(): Array<{ resource: string; operation: string }> {
	return new Paycashless().description.properties
		.filter((property) => property.name === 'operation' && !(property.displayOptions?.show?.['@tool'] as boolean[] | undefined)?.includes(true))
		.flatMap((property) =>
			((property.displayOptions?.show?.resource as string[] | undefined) ?? []).flatMap((resource) =>
				(property.options as Array<{ value: string }>).map((option) => ({ resource, operation: option.value })),
			),
		);
}


/** Real outputs of the three nodes: every operation's, the Paycashless Trigger's, and the Poll Trigger's per resource. */
export interface NodeOutputs {
	operations: OperationOutputs;
	/** Paycashless Trigger: one item per callback the emulator sent while the operations ran. */
	trigger: IDataObject[];
	/** Paycashless Poll Trigger: resource → the test events of each of its Events. */
	poll: Map<string, IDataObject[]>;
}

/** Runs every operation against a fresh emulator, then both triggers on what it holds and sent. */
export async function collectNodeOutputs(expect: jest.Expect): Promise<NodeOutputs> {
	const emulator = await startEmulator({ callbackRetries: 0, seed: RUN_SEED });
	try {
		const operations = await collect(emulator, expect);
		await emulator.callbacksSettled();
		return { operations, trigger: await triggerOutputs(emulator), poll: await pollOutputs(emulator) };
	} finally {
		await emulator.close();
	}
}

/**
 * The Paycashless Trigger fed every callback the emulator signed and sent to CALLBACK_URL (as it
 * was sent: body and headers), with that URL as its Production URL and All Events.
 */
async function triggerOutputs(emulator: EmulatorHandle): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	const trigger = new PaycashlessTrigger();
	for (const attempt of emulator.callbacks.filter((sent) => sent.url === CALLBACK_URL)) {
		const run = await runWebhook(trigger, {
			rawBody: Buffer.from(attempt.body),
			body: JSON.parse(attempt.body) as IDataObject,
			headers: Object.fromEntries(Object.entries(attempt.headers).map(([name, value]) => [name.toLowerCase(), value])),
			requestUrl: new URL(CALLBACK_URL).pathname,
			productionUrl: CALLBACK_URL,
			credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl },
			parameters: {},
		});
		if (run.answer.status !== 200) throw new Error(`the trigger refused a callback the emulator sent (${attempt.event}): ${JSON.stringify(run.answer)}`);
		items.push(...run.items);
	}
	if (items.length === 0) throw new Error('the emulator sent no callback to the trigger');
	return items;
}

/** The Poll Trigger's test event ("Fetch Test Event") for every Event of every resource that has a record. */
async function pollOutputs(emulator: EmulatorHandle): Promise<Map<string, IDataObject[]>> {
	const outputs = new Map<string, IDataObject[]>();
	const credentials = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl };
	for (const [resource, spec] of Object.entries(RESOURCES)) {
		const items: IDataObject[] = [];
		for (const event of spec.events) {
			const parameters: INodeParameters = { resource, event: event.value, statuses: [...(spec.statuses ?? [])], statusNames: '', startFrom: 'now' };
			try {
				items.push(...(await new PollHarness({ parameters, credentials }).manual()));
			} catch {
				// No record for this Event yet ("has no ... to show yet"): the others describe the item.
			}
		}
		if (items.length === 0) throw new Error(`the Poll Trigger found no ${resource} to show`);
		outputs.set(resource, items);
	}
	return outputs;
}

/**
 * The run table's runtime in the fake n8n contexts against `emulator`: each node run is the real
 * node's code (./executeContext.cts); a wait's run stops where n8n would pause it and gives the item
 * n8n forwards at the time limit; a resume is the node's webhook fed the callback the emulator sent.
 * `record` sees every output, by `resource/operation`.
 */
export function fakeRunContext(emulator: EmulatorHandle, expect: jest.Expect, record: (key: string, items: IDataObject[]) => void = () => undefined): RunContext {
	const credentials = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl };
	const add = (parameters: INodeParameters, items: IDataObject[]) => {
		record(`${String(parameters.resource)}/${String(parameters.operation)}`, items);
		return items;
	};
	const run = async (parameters: INodeParameters, items?: Array<{ json: IDataObject }>) => {
		const { output } = await runNode({ parameters, credentials, items });
		return add(parameters, output.map((item) => item.json));
	};
	const runWait = async (parameters: INodeParameters) => {
		const harness = createExecuteContext({ parameters, credentials });
		const stack = { data: { main: [[{ json: {} }]] } } as { data: { main: Array<Array<{ json: IDataObject }>> } };
		Object.assign(harness.context, {
			evaluateExpression: (expression: string) => (expression === '{{ $execution.resumeUrl }}' ? RESUME_URL : undefined),
			putExecutionToWait: async () => undefined,
			getExecuteData: () => stack,
		});
		const [output] = await new Paycashless().execute.call(harness.context as IExecuteFunctions);
		const timeLimit = stack.data.main[0][0].json;
		return add(parameters, [...output.map((item) => item.json), ...(Object.keys(timeLimit).length > 0 ? [timeLimit] : [])]);
	};
	const resume = async (parameters: INodeParameters, reference: string) => {
		await emulator.callbacksSettled();
		const attempt = [...emulator.callbacks].reverse().find((found) => found.url.startsWith(RESUME_URL.split('?')[0]) && found.body.includes(`"${reference}"`));
		if (!attempt) throw new Error(`the emulator sent no callback for ${reference}`);
		const url = new URL(attempt.url);
		const resumed = await runWebhook(new Paycashless(), {
			rawBody: attempt.body,
			headers: attempt.headers,
			requestUrl: `${url.pathname}${url.search}`,
			credentials,
			parameters: { ...parameters, __paycashlessResumeUrl: RESUME_URL, __paycashlessAwaitedReference: reference },
		});
		if (resumed.items.length === 0) throw new Error(`the callback for ${reference} did not resume the wait: ${JSON.stringify(resumed.answer)}`);
		return add(parameters, resumed.items);
	};
	return { emulator, expect, run, resumeUrl: RESUME_URL, runWait, resume };
}

/** Runs one entry, its failure naming it. */
export async function runEntry(entry: OperationRun, context: RunContext): Promise<void> {
	try {
		await entry.run(context);
	} catch (error) {
		(error as Error).message = `${entry.resource}/${entry.operation} (scripts/harness/operationRuns.cts): ${(error as Error).message}`;
		throw error;
	}
}

/** Runs every entry of the run table (./operationRuns.cts) in its order, in the fake n8n contexts, its checks with `expect`. */
async function collect(emulator: EmulatorHandle, expect: jest.Expect): Promise<OperationOutputs> {
	const outputs: OperationOutputs = new Map();
	const context = fakeRunContext(emulator, expect, (key, items) => outputs.set(key, [...(outputs.get(key) ?? []), ...items]));
	for (const entry of OPERATION_RUNS) await runEntry(entry, context);
	return outputs;
}
