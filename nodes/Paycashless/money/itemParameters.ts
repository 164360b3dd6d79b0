/**
 * A parameter of item `i`, evaluated once per node run. n8n evaluates a parameter's expression each
 * time it is read (`{{ $('Staff Rows').item.json.name }}` walks the paired items back), and a batch
 * reads the same fields of every row several times: the check, the hash, the reservation, the send
 * and the run details. Read through here, each row's field is evaluated once per run, so every step
 * of one run also sees the same value (an expression with `$now` does not change between the check
 * and the send). Each reader gets its own copy of an object value (a reader may change what it got).
 *
 * A field whose expressions only read the input (`{{ $json.reference }}`, `{{ $('Staff Rows').item.json.name }}`)
 * is read on n8n's data proxy of the item, without a trip through n8n's expression engine
 * (./plainReads.ts); any other goes to `getNodeParameter`.
 *
 * Memory holds it for one node run only (the run's `itemParameters`, ./run.ts). In money/: the
 * money step and the batch read their rows through it, and the operations that send with them.
 */
import type { IDataObject } from 'n8n-workflow';

import { readPlainParameter } from './plainReads';
import type { MoneyRun } from './run';

/** A copy of plain objects and arrays, the leaves (strings, numbers, dates, …) as they are. */
function copied(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(copied);
	if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
		return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, copied(inner)]));
	}
	return value;
}

/** `getNodeParameter(name, i, fallback)`, evaluated once per run (a read that throws is not kept). */
export function itemParameter(run: MoneyRun, name: string, i: number, fallback?: unknown): unknown {
	const { itemParameters: read, itemProxies: proxies } = run;
	const key = `${i}\n${name}\n${fallback === undefined ? '' : JSON.stringify(fallback)}`;
	if (!read.has(key)) {
		const proxyOf = () => {
			let proxy = proxies.get(i);
			if (!proxy) {
				proxy = run.context.getWorkflowDataProxy(i) as unknown as IDataObject;
				proxies.set(i, proxy);
			}
			return proxy;
		};
		const plain = readPlainParameter.call(run.context, run.node.parameters, name, proxyOf);
		if (plain.read) read.set(key, plain.value);
		else read.set(key, fallback === undefined ? run.context.getNodeParameter(name, i) : run.context.getNodeParameter(name, i, fallback));
	}
	return copied(read.get(key));
}
