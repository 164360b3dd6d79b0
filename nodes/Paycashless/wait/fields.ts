/**
 * The fields of every waiting operation (Create and Wait, Payment → Wait for Payment): the Time
 * Limit, the create's fields without Callback URL, one item per run, and which callbacks end the
 * wait for one kind of object (WaitKind, from the catalog). Pausing is pause.ts; resuming is
 * webhook.ts (as n8n's Wait node and send-and-wait operations split the same jobs).
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ReferencedObject } from '../catalog/objects';
import { invalid } from '../helpers/validation';

const MAX_WAIT_MS = 366 * 24 * 3600 * 1000;

/**
 * Which callbacks end a wait for one kind of object. The signed data decides: a callback ends the
 * wait when its data is the awaited object (by reference) in a `settled` status, which becomes
 * the outcome. Paycashless signs the URL, the data and the timestamp, not the event name, so a
 * known resuming name (`<PREFIX>_<STATUS>`, e.g. INVOICE_PAID) whose data says otherwise is
 * refused; a name the package does not know is judged on the data alone (not every name is
 * published).
 */
export interface WaitKind {
	/** Event-name prefix, e.g. `INVOICE`. */
	eventPrefix: string;
	/** Final statuses, e.g. `paid`, `cancelled`: nothing to wait for after them. */
	settled: readonly string[];
	/**
	 * Events answered 200 without resuming: the reason code given in the answer, and what the
	 * event means for the wait in the log's words.
	 */
	acknowledge: Record<string, { reason: string; note: string }>;
}

/** The wait for one object: its event prefix and final statuses from the catalog (catalog/objects.ts). */
export function waitKindOf(object: ReferencedObject, acknowledge: WaitKind['acknowledge']): WaitKind {
	return { eventPrefix: object.eventPrefix, settled: object.finalStatuses, acknowledge };
}

/** A create's fields without its Callback URL (a Create and Wait operation sets it). */
export function withoutCallbackUrl(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		if (property.type !== 'collection' || !Array.isArray(property.options)) return property;
		return { ...property, options: (property.options as INodeProperties[]).filter((option) => option.name !== 'callbackUrl') };
	});
}

/** The Time Limit fields of every Create and Wait operation. */
export function timeLimitProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Time Limit',
			name: 'waitTimeLimit',
			type: 'number',
			default: 24,
			typeOptions: { minValue: 1 },
			description:
				'How long to wait for Paycashless to confirm. After that the workflow goes on with the object as it was when the wait began, with paycashlessWait.outcome = "timeLimitReached": look it up by its reference to see what happened meanwhile. n8n checks waiting executions about once a minute.',
		},
		{
			displayName: 'Time Limit Unit',
			name: 'waitTimeLimitUnit',
			type: 'options',
			default: 'hours',
			options: [
				{ name: 'Minutes', value: 'minutes' },
				{ name: 'Hours', value: 'hours' },
				{ name: 'Days', value: 'days' },
			],
		},
	];
}

const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** The waitTill date from the node's Time Limit fields; a clear error on bad values. */
export function waitTillFrom(amount: unknown, unit: unknown, nowMs: number): Date {
	const perUnit = UNIT_MS[String(unit)];
	if (perUnit === undefined) invalid('Time Limit Unit', unit, 'allowed are minutes, hours or days');
	const value = Number(amount);
	if (typeof amount === 'boolean' || amount === '' || !Number.isFinite(value) || value <= 0) {
		invalid('Time Limit', amount, 'a number above 0 is required');
	}
	const ms = value * perUnit;
	if (ms > MAX_WAIT_MS) invalid('Time Limit', amount, 'at most 366 days');
	return new Date(nowMs + ms);
}

/** The end of the wait from the node's Time Limit fields (checked). */
export function waitTillOf(this: IExecuteFunctions, i: number): Date {
	return waitTillFrom(this.getNodeParameter('waitTimeLimit', i), this.getNodeParameter('waitTimeLimitUnit', i), Date.now());
}

/** A wait pauses the whole execution, so it takes one item per run. */
export function requireOneItem(this: IExecuteFunctions, i: number, object: string): void {
	const count = this.getInputData().length;
	if (count !== 1) {
		throw new NodeOperationError(
			this.getNode(),
			`This operation waits for one ${object} per run and got ${count} items: put a Loop Over Items node (batch size 1) before it`,
			{ itemIndex: i },
		);
	}
}
