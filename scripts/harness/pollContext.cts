/**
 * A fake `IPollFunctions` for the Paycashless Poll Trigger, built on the execute-context fake
 * (real credential signing, Node's fetch), with n8n's static-data rules as n8n 2.41 and 1.123
 * apply them to poll triggers (n8n-core poll-trigger-executor.js, n8n trigger-execution-context
 * factory, active-workflow-manager):
 * - the node's static data is one object that lives as long as the activation (same process);
 * - it is written to the database when a poll returns items (`__emit` → saveStaticData) and after
 *   the activation poll (activation saves the workflow's static data), not after a poll that
 *   returns null or throws;
 * - a restart loads what was last written.
 * `poll()` runs the node once in trigger mode, `activate()` runs the activation poll, `manual()`
 * runs it as "Fetch Test Event", `restart()` drops the in-memory state for the saved one.
 */
import type { IDataObject, INodeExecutionData, INodeParameters, IPollFunctions } from 'n8n-workflow';

import type { PaycashlessCredentialData } from '../../credentials/PaycashlessApi.credentials';
import { PaycashlessPollTrigger } from '../../nodes/Paycashless/PaycashlessPollTrigger.node';
import { createExecuteContext, type LogLine, type SentRequest } from './executeContext.cjs';

export interface PollHarnessOptions {
	parameters: INodeParameters;
	credentials: PaycashlessCredentialData;
	timezone?: string;
	/** Called before every request the node sends (index from 0 over the harness's life); throw to fail it. */
	beforeRequest?: (index: number, url: string) => void | Promise<void>;
}

export class PollHarness {
	readonly node = new PaycashlessPollTrigger();
	/** Every request sent, over the harness's life. */
	readonly sent: SentRequest[] = [];
	readonly logs: LogLine[] = [];
	/** The node's static data in memory (n8n's workflow object). */
	staticData: IDataObject = {};
	/** What the database holds (JSON), as n8n last saved it. */
	saved = '{}';
	/** Items of every poll that returned some, in order. */
	readonly emitted: IDataObject[] = [];
	private requestCount = 0;

	constructor(private readonly options: PollHarnessOptions) {}

	private context(mode: 'trigger' | 'manual'): IPollFunctions {
		const harness = createExecuteContext({
			nodeType: this.node,
			parameters: this.options.parameters,
			credentials: this.options.credentials,
			timezone: this.options.timezone,
		});
		const base = harness.context as unknown as Record<string, unknown> & {
			getNodeParameter: (name: string, index: number, fallback?: unknown) => unknown;
			helpers: Record<string, unknown> & { httpRequestWithAuthentication: (...args: unknown[]) => Promise<unknown> };
		};
		const send = base.helpers.httpRequestWithAuthentication;
		const sentHere = harness.sent;
		const context = {
			...base,
			getNodeParameter: (name: string, fallback?: unknown) => base.getNodeParameter(name, 0, fallback),
			getMode: () => mode,
			getActivationMode: () => 'activate',
			getWorkflowStaticData: (type: string) => {
				if (type !== 'node') throw new Error('only node static data');
				return mode === 'manual' ? JSON.parse(this.saved) : this.staticData;
			},
			logger: {
				debug: (message: string, meta?: unknown) => this.logs.push({ level: 'debug', message, meta }),
				info: (message: string, meta?: unknown) => this.logs.push({ level: 'info', message, meta }),
				warn: (message: string, meta?: unknown) => this.logs.push({ level: 'warn', message, meta }),
				error: (message: string, meta?: unknown) => this.logs.push({ level: 'error', message, meta }),
			},
			helpers: {
				...base.helpers,
				httpRequestWithAuthentication: async (...args: unknown[]) => {
					const index = this.requestCount++;
					const options = args[1] as { url: string };
					try {
						await this.options.beforeRequest?.(index, options.url);
						return await send.apply(context, args);
					} finally {
						this.sent.push(...sentHere.splice(0));
					}
				},
			},
		};
		return context as unknown as IPollFunctions;
	}

	private async run(mode: 'trigger' | 'manual'): Promise<INodeExecutionData[][] | null> {
		return await this.node.poll.call(this.context(mode));
	}

	/** One scheduled poll: items are "emitted" and the static data saved only when there are some. */
	async poll(): Promise<IDataObject[]> {
		const result = await this.run('trigger');
		if (result === null) return [];
		const items = result[0].map((item) => item.json);
		this.saved = JSON.stringify(this.staticData);
		this.emitted.push(...items);
		return items;
	}

	/** The activation poll: as `poll()`, and n8n saves the static data afterwards in any case. */
	async activate(): Promise<IDataObject[]> {
		const items = await this.poll();
		this.saved = JSON.stringify(this.staticData);
		return items;
	}

	/** "Fetch Test Event". */
	async manual(): Promise<IDataObject[]> {
		const result = await this.run('manual');
		return result === null ? [] : result[0].map((item) => item.json);
	}

	/** n8n stops and starts again: the in-memory static data is what the database held. */
	restart(): void {
		this.staticData = JSON.parse(this.saved) as IDataObject;
	}

	/** Requests sent since `from` (an index into `sent`). */
	requestsSince(from: number): SentRequest[] {
		return this.sent.slice(from);
	}
}
