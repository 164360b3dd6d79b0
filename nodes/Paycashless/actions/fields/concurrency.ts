/**
 * "Requests in Parallel": how many input items the node works on at once, derived from each
 * operation's declaration (actions/types.ts); the run's plan (actions/plan.ts) reads it.
 * - Reads: default DEFAULT_READ_CONCURRENCY, chosen from the fan-out benchmark (bench/README.md):
 *   at 50 ms per request it is where n8n's own per-request cost becomes the limit (more in flight
 *   gains little) and already faster than the HTTP Request node sending every item at once,
 *   while the load on the API stays bounded.
 * - Creates found again by reference (payouts, payments, invoices): default DEFAULT_WRITE_CONCURRENCY,
 *   chosen from the creates benchmark (bench/CREATES.md): one at a time, 1,000 payouts at 50 ms per
 *   request took 47x as long as the HTTP Request node. Each item keeps its own retries and
 *   reconciliation by reference, so parallel items never create anything twice (the reliability
 *   and crash tests run at this default); a 429 holds every item of the run (transport/retry.ts);
 *   after a failure that stops the node no new item starts and the error lists what was done.
 *   Money moves in input order only with 1.
 * - Other writes (tax rates, dedicated accounts, invoice cancel): always one at a time, no field.
 * Two fields in all (their defaults differ), each shown for exactly its operations.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

export const CONCURRENCY_PARAMETER = 'concurrency';
export const DEFAULT_READ_CONCURRENCY = 20;
export const DEFAULT_WRITE_CONCURRENCY = 100;
export const MAX_CONCURRENCY = 100;

const base = {
	displayName: 'Requests in Parallel',
	name: CONCURRENCY_PARAMETER,
	type: 'number',
	default: DEFAULT_READ_CONCURRENCY,
	noDataExpression: true,
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
} as const;

/** The "Requests in Parallel" fields: one shown for the reads, one for the creates found by reference. */
export function concurrencyProperties(reads: IDisplayOptions, creates: IDisplayOptions): INodeProperties[] {
	return [
		{
			...base,
			default: DEFAULT_READ_CONCURRENCY,
			displayOptions: reads,
			description:
				'How many input items are sent to Paycashless at once. Output order always follows the input. Lower it if Paycashless answers "Too many requests".',
		},
		{
			...base,
			default: DEFAULT_WRITE_CONCURRENCY,
			displayOptions: creates,
			description:
				'How many input items are sent to Paycashless at once. Each item is checked by its reference before anything is sent again, so nothing is created twice, and output order always follows the input. Set 1 to create them one after another in input order (about 50 times slower for a large batch); lower it if Paycashless answers "Too many requests" often.',
		},
	];
}
