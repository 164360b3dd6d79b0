/**
 * Display options that show one property for an exact set of resource + operation pairs.
 * n8n's `show` is an AND over parameters, so a set is written as resources × operations; that
 * is only right when the product adds no other existing operation, and this checks it (a new
 * operation that breaks it fails at load, in every test, with the reason).
 */
import type { IDisplayOptions } from 'n8n-workflow';

export interface OperationPair {
	resource: string;
	operation: string;
}

const key = (pair: OperationPair) => `${pair.resource}.${pair.operation}`;

/**
 * `show` for exactly `pairs` among `all`. `prefix` is `/` inside a collection (n8n then reads
 * the node's top-level parameters).
 */
export function showExactly(pairs: OperationPair[], all: OperationPair[], prefix = ''): IDisplayOptions {
	const resources = [...new Set(pairs.map((pair) => pair.resource))].sort();
	const operations = [...new Set(pairs.map((pair) => pair.operation))].sort();
	const wanted = new Set(pairs.map(key));
	const extra = all.filter(
		(pair) => resources.includes(pair.resource) && operations.includes(pair.operation) && !wanted.has(key(pair)),
	);
	if (extra.length > 0) {
		throw new Error(
			`Cannot show a property for exactly ${[...wanted].join(', ')}: it would also show for ${extra.map(key).join(', ')}. Give the property its own display options.`,
		);
	}
	return { show: { [`${prefix}resource`]: resources, [`${prefix}operation`]: operations } };
}
