/**
 * One run of the Paycashless node: what it holds between its items, in one place. The router makes
 * it when n8n runs the node (or the tool) and hands it to the operations; it ends with the run,
 * and nothing of it is kept in module state. Its parts are the layers' own:
 *
 * - `transport`: the credential's Base URL read once, the 429 hold, the open read-backs (../transport/run.ts);
 * - `money`: the node as read once, the account key, the period's list as read, a batch reserved
 *   whole, each row's fields as first read, the account-lookup nodes upstream (../money/run.ts);
 * - `batch`: what Payout → Create's Batch Options decided before the first payout (./payout/batchOptions.ts).
 *
 * What outlives a run is not here: the execution's ledger (n8n's node context), the account lookups
 * an execution shares (its flow context), the payouts in flight of this process (../money/inFlight.ts).
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { TransportRun } from '../transport';
import { MoneyRun } from '../money/run';
import type { Approval } from './payout/approval';

/** What Create's Batch Options decided before the first payout, for the metadata of each. */
export interface BatchRun {
	batchId?: string;
	approval?: Approval;
	/** Items paid under another reference than their row's (Pay Again If Failed), by item index. */
	payAgain: Map<number, string>;
	/**
	 * Set once the batch check before the first payout looked every reference up (no item needs to
	 * again): the items it found under the reference they would be sent under (paid before, or failed
	 * and not paid again), with Paycashless's payout, found again without a create (./payout/create.operation.ts).
	 */
	found?: Map<number, IDataObject>;
}

export class NodeRun {
	readonly transport: TransportRun;

	readonly money: MoneyRun;

	/** What Batch Options decided, once Payout → Create's `beforeItems` ran. */
	batch?: BatchRun;

	constructor(readonly context: IExecuteFunctions) {
		this.transport = new TransportRun(context);
		this.money = new MoneyRun(context, this.transport);
	}

	/** The node, read once (n8n deep-copies it on every `getNode()`). Read only. */
	get node(): INode {
		return this.money.node;
	}

	/** The node runs as an AI agent's tool. */
	get asTool(): boolean {
		return this.money.asTool;
	}
}
