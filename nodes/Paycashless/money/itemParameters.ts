/**
 * A parameter of item `i`, evaluated once per node run. n8n evaluates a parameter's expression each
 * time it is read (`{{ $('Staff Rows').item.json.name }}` walks the paired items back), and a batch
 * reads the same fields of every row several times: the check, the hash, the reservation, the send
 * and the run details. Read through here, each row's field is evaluated once per run, so every step
 * of one run also sees the same value (an expression with `$now` does not change between the check
 * and the send). Each reader gets its own copy of an object value (a reader may change what it got).
 *
 * Memory holds it for one node run only (keyed by n8n's context object of the run). In money/: the
 * money step and the batch read their rows through it, and the operations that send with them.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

const runs = new WeakMap<object, Map<string, unknown>>();

/** A copy of plain objects and arrays, the leaves (strings, numbers, dates, …) as they are. */
function copied(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(copied);
	if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
		return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, copied(inner)]));
	}
	return value;
}

/** `this.getNodeParameter(name, i, fallback)`, evaluated once per run (a read that throws is not kept). */
export function itemParameter(this: IExecuteFunctions, name: string, i: number, fallback?: unknown): unknown {
	let read = runs.get(this);
	if (!read) {
		read = new Map();
		runs.set(this, read);
	}
	const key = `${i}\n${name}\n${fallback === undefined ? '' : JSON.stringify(fallback)}`;
	if (!read.has(key)) read.set(key, fallback === undefined ? this.getNodeParameter(name, i) : this.getNodeParameter(name, i, fallback));
	return copied(read.get(key));
}
