/**
 * The operation registry: every resource and its operations, and what the rest of the node derives
 * from an operation's declaration: the write policy handed to the transport (with the words a user
 * sees, taken from the node's own Resource and Operation names), the default of Requests in
 * Parallel, and which operations show which shared fields. The item runner is router.ts.
 */
import type { IDisplayOptions } from 'n8n-workflow';

import { DEFAULT_READ_CONCURRENCY, DEFAULT_WRITE_CONCURRENCY } from './fields/concurrency';
import type { WritePolicy } from '../transport';
import * as bankAccount from './bankAccount';
import * as callback from './callback';
import * as dedicatedAccount from './dedicatedAccount';
import * as invoice from './invoice';
import type { PaycashlessResource } from './node.type';
import * as payment from './payment';
import * as payout from './payout';
import * as taxRate from './taxRate';
import { moneyKind, type MoneyKind, type OperationDeclaration, type OperationRef, type PaycashlessOperation, type PaycashlessResourceDefinition } from './types';

/** The resources in the order of the Resource list (alphabetical, as n8n's lint wants). */
export const resources: Record<PaycashlessResource, PaycashlessResourceDefinition> = {
	bankAccount: bankAccount.resource,
	callback: callback.resource,
	dedicatedAccount: dedicatedAccount.resource,
	invoice: invoice.resource,
	payment: payment.resource,
	payout: payout.resource,
	taxRate: taxRate.resource,
};

/** Every operation, by resource and operation value. */
export const registry = Object.fromEntries(
	Object.entries(resources).map(([resource, definition]) => [resource, definition.operations]),
) as Record<PaycashlessResource, Record<string, PaycashlessOperation>>;

/** The handler of `resource` + `operation`, or undefined. */
export function findOperation(resource: string, operation: string): PaycashlessOperation | undefined {
	const operations = registry[resource as PaycashlessResource] as Record<string, PaycashlessOperation> | undefined;
	return operations && Object.prototype.hasOwnProperty.call(operations, operation) ? operations[operation] : undefined;
}

export interface OperationPair {
	resource: string;
	operation: string;
}

/**
 * Display options that show a shared field for `pairs` (`prefix` \`/\` inside a collection, where
 * n8n reads the node's top-level parameters). n8n's `show` is an AND over parameters, so a set is
 * written as resources × operations; that is only right when the product adds no other operation:
 * test/unit/node/sharedFields.test.cts resolves every shared field as n8n does and names any
 * operation it shows for beyond its own.
 */
export function showFor(pairs: OperationPair[], prefix = ''): IDisplayOptions {
	const resources = [...new Set(pairs.map((pair) => pair.resource))].sort();
	const operations = [...new Set(pairs.map((pair) => pair.operation))].sort();
	return { show: { [`${prefix}resource`]: resources, [`${prefix}operation`]: operations } };
}

/** Every operation as a resource + operation pair; with `where`, those whose declaration it accepts. */
export function operationPairs(where: (declaration: OperationDeclaration) => boolean = () => true): OperationPair[] {
	return Object.entries(registry).flatMap(([resource, operations]) =>
		Object.entries(operations)
			.filter(([, operation]) => where(operation.declaration))
			.map(([operation]) => ({ resource, operation })),
	);
}

/** The operations that create `object` (payout, payment, invoice) and so move money. */
export function moneyPairs(kind: MoneyKind): OperationPair[] {
	return operationPairs((declaration) => moneyKind(declaration) === kind);
}

/** How the node names an operation, e.g. "Payout → Verify": its Resource and Operation names. */
function operationLabel(ref: OperationRef): string {
	const operation = findOperation(ref.resource, ref.operation);
	if (!operation) throw new Error(`No operation ${ref.resource}.${ref.operation} to name`);
	return `${resources[ref.resource].displayName} → ${operation.option.name}`;
}

/** The transport's policy for an operation's writes, with the words resolved. */
export function writePolicy(declaration: OperationDeclaration): WritePolicy | undefined {
	if (declaration.kind === 'read') return undefined;
	// The same policy, with each operation named as the user sees it.
	if (declaration.kind === 'write') {
		const { check } = declaration;
		return { kind: 'write', check: { ...check, with: check.with && operationLabel(check.with) } };
	}
	const { findsAgain } = declaration;
	return { kind: 'create', findsAgain: { ...findsAgain, findWith: { ...findsAgain.findWith, operation: operationLabel(findsAgain.findWith.operation) } } };
}

/** The default of "Requests in Parallel", or undefined when the operation's items always run one at a time. */
export function defaultConcurrency(declaration: OperationDeclaration): number | undefined {
	if (declaration.kind === 'read') return DEFAULT_READ_CONCURRENCY;
	if (declaration.kind === 'create') return DEFAULT_WRITE_CONCURRENCY;
	return undefined;
}
