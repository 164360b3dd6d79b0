/**
 * "Requests in Parallel": how many input items the node works on at once. One field per
 * operation that may run items side by side (each field of this node is shown for exactly one
 * resource and operation); the router (actions/router.ts) reads it.
 * - Reads (get, get many, verify, look up): default DEFAULT_READ_CONCURRENCY, chosen from the
 *   fan-out benchmark (bench/README.md): at 50 ms per request it is where n8n's own per-request
 *   cost becomes the limit (more in flight gains little) and already faster than the HTTP Request
 *   node sending every item at once, while the load on the API stays bounded.
 * - Creates that are found again by reference (payouts, payments, invoices): default 1. Each
 *   item keeps its own retries and reconciliation by reference, so raising it never creates
 *   anything twice, but money moves in input order only with 1.
 * - Other writes (tax rates, dedicated accounts, invoice cancel): always one at a time, no field.
 */
import type { INodeProperties } from 'n8n-workflow';

export const CONCURRENCY_PARAMETER = 'concurrency';
export const DEFAULT_READ_CONCURRENCY = 20;
export const DEFAULT_WRITE_CONCURRENCY = 1;
export const MAX_CONCURRENCY = 100;

/** Operations that only read. */
export const READ_OPERATIONS: Readonly<Record<string, readonly string[]>> = {
	bankAccount: ['lookUp'],
	dedicatedAccount: ['get', 'getAll', 'getRequestStatus'],
	invoice: ['get', 'getAll'],
	payment: ['get', 'getAll', 'verify'],
	payout: ['get', 'getAll', 'verify'],
};

/** Creates reconciled by their reference (transport/reconcile.ts): safe side by side. */
export const REFERENCE_CREATES: Readonly<Record<string, readonly string[]>> = {
	invoice: ['create'],
	payment: ['createCheckout', 'createTransfer'],
	payout: ['create'],
};

/** The default of an operation's field, or undefined when its items always run one at a time. */
export function defaultConcurrency(resource: string, operation: string): number | undefined {
	if (READ_OPERATIONS[resource]?.includes(operation)) return DEFAULT_READ_CONCURRENCY;
	if (REFERENCE_CREATES[resource]?.includes(operation)) return DEFAULT_WRITE_CONCURRENCY;
	return undefined;
}

function concurrencyProperty(resource: string, operation: string, defaultValue: number): INodeProperties {
	const write = defaultValue === DEFAULT_WRITE_CONCURRENCY && REFERENCE_CREATES[resource]?.includes(operation);
	return {
		displayName: 'Requests in Parallel',
		name: CONCURRENCY_PARAMETER,
		type: 'number',
		default: defaultValue,
		noDataExpression: true,
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
		displayOptions: { show: { resource: [resource], operation: [operation] } },
		description: write
			? 'How many input items are sent to Paycashless at once. 1 creates them one after another in input order. More is faster; each item is still checked by its reference before anything is sent again, so nothing is created twice. Output order always follows the input.'
			: 'How many input items are sent to Paycashless at once. Output order always follows the input. Lower it if Paycashless answers "Too many requests".',
	};
}

/** One "Requests in Parallel" field for every operation that has one. */
export function concurrencyProperties(operations: Record<string, Record<string, unknown>>): INodeProperties[] {
	return Object.entries(operations).flatMap(([resource, byOperation]) =>
		Object.keys(byOperation).flatMap((operation) => {
			const value = defaultConcurrency(resource, operation);
			return value === undefined ? [] : [concurrencyProperty(resource, operation, value)];
		}),
	);
}
