/**
 * The Operations tables, written from the node's declarations: README.md's (each resource and its
 * operations) and docs/operations.md's (each operation, the request it sends, its notes). The
 * request is the one its dry run sends first (scripts/harness/dryRun.cts: `GET /v1/payouts/{id}`),
 * ", then waits" for an operation that waits; an operation that sends several says so in its own
 * `docs.requests` (the operations whose requests it sends, or words). The notes are each operation file's `docs.notes`.
 */
import { resources } from '../../nodes/Paycashless/actions/registry';
import type { PaycashlessOperation } from '../../nodes/Paycashless/actions/types';
import { firstRequest } from '../harness/dryRun.cjs';
import type { Region } from './regions.cjs';

/** The operations of each resource, by their names (as the Operation list shows them). */
function byName(operations: Record<string, PaycashlessOperation>): Array<[string, PaycashlessOperation]> {
	return Object.entries(operations).sort(([, a], [, b]) => a.option.name.localeCompare(b.option.name));
}

async function requestCell(resource: string, value: string, operation: PaycashlessOperation): Promise<string> {
	const { requests } = operation.docs;
	if (typeof requests === 'string') return requests;
	if (requests) {
		const cells = await Promise.all(requests.map((ref) => requestCell(ref.resource, ref.operation, resources[ref.resource].operations[ref.operation])));
		return cells.join(', ');
	}
	const request = await firstRequest(resource, value);
	if (request === 'none') return '(none)';
	if ('refused' in request) throw new Error(`${resource}/${value}: the dry run sent nothing (${request.refused}); give it docs.requests or a DRY_RUN value (scripts/harness/dryRun.cts)`);
	return `\`${request.method} ${request.pattern}\`${operation.wait ? ', then waits' : ''}`;
}

export async function operationRegions(): Promise<Region[]> {
	const readme = ['| Resource | Operations |', '|---|---|'];
	const detail = ['| Resource | Operation | Request | Notes |', '|---|---|---|---|'];
	for (const [resource, definition] of Object.entries(resources)) {
		const operations = byName(definition.operations);
		readme.push(`| ${definition.displayName} | ${operations.map(([, operation]) => operation.option.name).join(', ')} |`);
		for (const [value, operation] of operations) {
			detail.push(`| ${definition.displayName} | ${operation.option.name} | ${await requestCell(resource, value, operation)} | ${operation.docs.notes} |`);
		}
	}
	return [
		{ file: 'README.md', name: 'operations', text: readme.join('\n') },
		{ file: 'docs/operations.md', name: 'operations', text: detail.join('\n') },
	];
}
