/**
 * An operation's dry run: its own `execute` in the fake n8n context (./executeContext.cts), each
 * required field set to its placeholder (an example the user sees), its first request caught before
 * it leaves. What the docs generator (scripts/docs/operations.cts) writes as the operation's request,
 * and what the checklist test (test/unit/node/operationChecklist.test.cts) looks up among the
 * emulator's routes. Nothing is sent.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { registry } from '../../nodes/Paycashless/actions/registry';
import { NodeRun } from '../../nodes/Paycashless/actions/run';
import { limitsKind } from '../../nodes/Paycashless/actions/types';
import { moneyApi } from '../../nodes/Paycashless/money/step';
import type { PaycashlessResource } from '../../nodes/Paycashless/actions/node.type';
import type { PaycashlessApi, PaycashlessRequest } from '../../nodes/Paycashless/transport';
import { createExecuteContext } from './executeContext.cjs';

/** Thrown by the dry run's transport once it has the operation's first request. */
class Caught extends Error {
	constructor(readonly request: { method: string; path: string }) {
		super('caught');
	}
}

const catching: PaycashlessApi = {
	request: async (request: PaycashlessRequest) => {
		throw new Caught({ method: request.method, path: request.path.split('?', 1)[0] });
	},
	paginate: async (list) => {
		throw new Caught({ method: 'GET', path: list.path });
	},
	page: async (list) => {
		throw new Caught({ method: 'GET', path: list.path });
	},
};

/**
 * Values the dry run needs beyond each required field's placeholder (a list or a choice has none),
 * by `resource/operation`; `'none'` for an operation that sends no request.
 */
const DRY_RUN: Record<string, INodeParameters | 'none'> = {
	'callback/verify': 'none',
	'invoice/create': { items: { itemValues: [{ name: 'Rice', quantity: 1, price: 100 }] } },
	'invoice/createAndWait': { items: { itemValues: [{ name: 'Rice', quantity: 1, price: 100 }] } },
	'taxRate/update': { updateFields: { name: 'VAT' } },
};

/** A value for a required field: its placeholder, else its default. */
function sample(field: INodeProperties): unknown {
	if (field.type === 'resourceLocator') {
		const byId = field.modes?.find((mode) => mode.name === 'id');
		return { __rl: true, mode: 'id', value: byId?.placeholder ?? 'x1' };
	}
	const example = field.placeholder || (typeof field.default === 'string' && field.default) || 'x1';
	if (field.type === 'number') return typeof field.default === 'number' && field.default > 0 ? field.default : 1;
	if (field.type === 'string') return example;
	return field.default;
}

/** The request as the docs write it: each path segment that is a field's value named `{id}`, `{code}` or `{<field>}`. */
export interface DryRequest {
	method: string;
	path: string;
	/** e.g. `/v1/payouts/{id}`. */
	pattern: string;
}

function segmentName(field: string): string {
	if (/Id$/.test(field)) return 'id';
	if (/Code$/.test(field)) return 'code';
	return field;
}

/**
 * The first request the operation sends, `none` when it sends none, or why it refused to send one
 * (`also`: parameters set on top, e.g. Money Limits).
 */
export async function firstRequest(resource: string, operation: string, also: INodeParameters = {}): Promise<DryRequest | 'none' | { refused: string }> {
	const handler = registry[resource as PaycashlessResource][operation];
	const extra = DRY_RUN[`${resource}/${operation}`];
	if (extra === 'none') return 'none';
	const parameters: INodeParameters = { resource, operation };
	const values = new Map<string, string>();
	for (const field of handler.description) {
		if (!field.required) continue;
		const value = sample(field);
		parameters[field.name] = value as INodeParameters[string];
		const text = typeof value === 'object' && value !== null && '__rl' in value ? String((value as unknown as { value: unknown }).value) : String(value);
		values.set(encodeURIComponent(text), segmentName(field.name));
	}
	Object.assign(parameters, extra, also);
	const { context } = createExecuteContext({ parameters, credentials: { apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9' } });
	Object.assign(context, { evaluateExpression: () => 'http://127.0.0.1:9/webhook-waiting/1', putExecutionToWait: async () => undefined });
	try {
		// As the router gives it (actions/plan.ts itemApi): a run of its own, the money step's API where the operation moves money.
		const run = new NodeRun(context);
		await handler.execute.call(context, 0, limitsKind(handler.declaration) !== undefined ? moneyApi(run.money, catching) : catching, run);
		return 'none';
	} catch (error) {
		// The money step (money/step.ts) hands a failure on as an n8n error of the item, the caught request as its cause.
		const caught = error instanceof Caught ? error : (error as { cause?: unknown }).cause;
		if (!(caught instanceof Caught)) return { refused: (error as Error).message };
		const pattern = caught.request.path
			.split('/')
			.map((segment) => (values.has(segment) ? `{${values.get(segment)}}` : segment))
			.join('/');
		return { ...caught.request, pattern };
	}
}
