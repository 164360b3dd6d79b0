/**
 * What every operation file declares about itself, beside its fields (`description`) and its
 * `execute`: its words in the Operation list (`option`) and what it does to Paycashless
 * (`declaration`). Everything else (Requests in Parallel, the Request Options, retries,
 * reconciliation, the advice in errors) is derived from these in one place each.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { FoundByReference as TransportFoundByReference, PaycashlessApi, WritePolicy } from '../transport';
import { MONEY_KINDS, type MoneyKind } from '../money/kinds';
import type { WaitKind } from '../wait/fields';
import type { NodeRun } from './run';

export type { MoneyKind };

/**
 * The node's resource and operation names, as `{ resource: operation names }`. They are filled in by
 * ./node.type.ts, which derives them from the resources' operation maps and merges them into this
 * interface (TypeScript's declaration merging): this file cannot import them, since every operation
 * imports this file. Empty only where node.type.ts is not compiled (ts-jest transpiles file by file).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PaycashlessOperationNames {}

type Names = PaycashlessOperationNames;

/**
 * Another operation of this node, by its resource and operation values, typed by the node's own
 * names: `{ resource: 'invoice', operation: 'gett' }` is a type error.
 */
export type OperationRef = keyof Names extends never
	? { resource: string; operation: string }
	: { [R in keyof Names]: { resource: R; operation: Names[R] } }[keyof Names];

/** How a create is found again by its reference: the transport's policy, naming operations by reference. */
export type FoundByReference = TransportFoundByReference<OperationRef>;

/**
 * What an operation does to Paycashless: only reads (sent again freely; items run side by side,
 * Requests in Parallel, default 20), or a write under the transport's policy (a create found again
 * by its reference, or any other write with how a user checks it), naming operations by reference.
 */
export type OperationDeclaration = { kind: 'read'; batch?: MoneyKind } | WritePolicy<OperationRef>;

/**
 * A read that checks a whole batch (Payout → Check Batch): the router calls its `execute` once with
 * the first item's index, it reads every input item itself and returns one record paired with all
 * of them; the Money Limits of `batch` are shown for it. It only reads, so it is never retried as a write.
 */
export const BATCH_CHECK_OF = (kind: MoneyKind): OperationDeclaration => ({ kind: 'read', batch: kind });

/** The declaration of a create (a Create and Wait operation is built from one). */
export type CreateDeclaration = Extract<OperationDeclaration, { kind: 'create' }>;

/**
 * The money kind of an operation, from its declaration (Money Limits and the tool's words follow
 * it). A create whose object moves money but is none of the kinds above fails loudly: it would
 * otherwise get another kind's limits and words.
 */
export function moneyKind(declaration: OperationDeclaration): MoneyKind | undefined {
	if (declaration.kind !== 'create') return undefined;
	const { object, movesMoney } = declaration.findsAgain;
	const kind = MONEY_KINDS.find((known) => known === object);
	if (kind) return kind;
	if (movesMoney) throw new Error(`The ${object} create moves money, but Money Limits know no ${object}: add it to MONEY_KINDS`);
	return undefined;
}

/** The money kind of a batch check (a read run once for all items, e.g. Payout → Check Batch), or undefined. */
export function batchKind(declaration: OperationDeclaration): MoneyKind | undefined {
	return declaration.kind === 'read' ? declaration.batch : undefined;
}

/** The Money Limits an operation shows: those of the money it moves, or of the batch it checks. */
export function limitsKind(declaration: OperationDeclaration): MoneyKind | undefined {
	return moneyKind(declaration) ?? batchKind(declaration);
}

/** The declaration of every operation that only reads. */
export const READ: OperationDeclaration = { kind: 'read' };

export interface OperationOption {
	/** Shown in the Operation list, e.g. `Verify`. */
	name: string;
	description: string;
	/** The sentence n8n shows in the node panel, e.g. `Verify a payout`. */
	action: string;
}

/** One operation: its words, what it does, its fields and how one item becomes records. */
export interface PaycashlessOperation {
	option: OperationOption;
	declaration: OperationDeclaration;
	/** Its fields; the resource adds the display options that show them for this operation only. */
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number, api: PaycashlessApi, run: NodeRun): Promise<IDataObject | IDataObject[]>;
	/** For an operation that pauses the execution: which callbacks end the wait (../wait/fields.ts). */
	wait?: WaitKind;
	/**
	 * As an AI agent's tool (./tool.ts): `false` when it cannot work as one tool call (waits never
	 * can); `action` replaces the sentence the model reads as the tool's description; `effect` says
	 * what running it does to money or to people (who is e-mailed, what later invoices use);
	 * `fields` are fields of the tool variant only (shown for this operation), set by the person who
	 * sets up the workflow.
	 */
	asTool?: false | { action?: string; effect?: string; fields?: INodeProperties[] };
	/**
	 * Its row in docs/operations.md (written by `npm run docs`, scripts/docs/operations.cts): `notes`
	 * for the user; `requests` only where the request its dry run sees first is not the whole story:
	 * the operations whose requests it sends (their own rows' requests), or words.
	 */
	docs: { notes: string; requests?: string | OperationRef[] };
	/**
	 * What an AI that builds workflows reads about it (./fields/builderHints.ts), for the
	 * operations that move money or wait: `option`, shown under the operation in n8n's
	 * `search_nodes` and in its type; `pattern`, a short correct example in its type.
	 */
	builderHint?: { option: string; pattern?: string };
	/**
	 * Runs once before any item (the router): may refuse the whole run (`refuseAll`: every item gets
	 * its error, nothing is sent).
	 */
	beforeItems?(this: IExecuteFunctions, api: PaycashlessApi, run: NodeRun): Promise<BeforeItems>;
}

/** What an operation's `beforeItems` decided for the run. */
export interface BeforeItems {
	/** Nothing is sent: each item's error (by item index), and the one error a stopping run shows. */
	refuseAll?: { errors: Array<NodeApiError | NodeOperationError>; summary: NodeApiError | NodeOperationError };
}

/** One resource: its name in the Resource list and its operations, keyed by their values. */
export interface PaycashlessResourceDefinition {
	displayName: string;
	/** Its Resource option's description, "<Display Name>: what it is" (AI builders caption its operations with it). */
	caption: string;
	operations: Record<string, PaycashlessOperation>;
	/** The operation chosen when the resource is picked. */
	defaultOperation: string;
}
