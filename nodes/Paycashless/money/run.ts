/**
 * What Money Limits know of one node run: everything the money code keeps between the items of a
 * run, in one place. The router makes it with the run (../actions/run.ts) and hands it to every
 * money function; it ends with the run. What outlives a run is elsewhere and says so: the
 * execution's ledger in n8n's node context (./ledger.ts), the lookups an execution shares in its
 * flow context (./lookups.ts), the payouts in flight of this process (./inFlight.ts).
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../../../lib/api';
import type { TransportRun } from '../transport';
import { accountKey } from './accounts';
import type { Reservation } from './inFlight';
import type { View } from './periodList';
import { runsAsTool } from '../helpers/runsAsTool';
import { remembered } from '../helpers/remembered';

/** What a check found (./limits.ts): a new create (reserved), or one found again (nothing reserved, nothing new paid). */
export interface MoneyCheck extends Reservation {
	/** Already counted in this execution, listed by Paycashless as this very payout, or under way: not paid again. */
	foundAgain: boolean;
}

export class MoneyRun {
	/**
	 * The node, read once to read its type, name and stored parameters: n8n deep-copies the node on
	 * every `getNode()`, and Money Limits asked for it several times per item. Read only.
	 */
	readonly node: INode;

	/** The node runs as an AI agent's tool (n8n names the tool variant `<type>Tool`). */
	readonly asTool: boolean;

	/** What the run read of Paycashless's payout list for the period limits (./period.ts). */
	periodView?: View;

	/** The reservations of a batch reserved whole (All or Nothing), by item, until each is sent (./reservedBatch.ts). */
	reservedBatch?: Map<number, MoneyCheck>;

	/** Each row's fields as first read (./itemParameters.ts): by item, name and fallback. */
	readonly itemParameters = new Map<string, unknown>();

	/** n8n's data proxy of each item read so far (./plainReads.ts). */
	readonly itemProxies = new Map<number, IDataObject>();

	/** The names of the account-lookup nodes upstream, once read (./beneficiary.ts): the workflow does not change during a run. */
	lookupNodes?: string[];

	/** The account key of the credential the run pays with (./accounts.ts), read once; a failed read is not kept. */
	readonly accountKey: () => Promise<string>;

	constructor(
		readonly context: IExecuteFunctions,
		/** The run's transport (its Base URL, 429 hold and read-backs). */
		readonly transport: TransportRun,
	) {
		this.node = context.getNode();
		this.asTool = runsAsTool(this.node);
		this.accountKey = remembered(async () => {
			const credentials = await context.getCredentials(CREDENTIAL_NAME);
			return accountKey(credentials?.baseUrl, credentials?.apiKey);
		});
	}

	/** The account lookups' key of the credential: the account key, short (./lookups.ts). */
	async lookupKey(): Promise<string> {
		return (await this.accountKey()).slice(0, 16);
	}
}
