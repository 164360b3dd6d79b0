/**
 * What the transport knows of one run: a node run of the Paycashless node (the router makes one,
 * ../actions/run.ts), or one poll, webhook call or list search (`paycashlessApi` makes one for the
 * API it returns when given n8n's context). Every API made for the run shares it, so what it holds
 * ends with the run and is never shared between runs or processes:
 *
 * - the credential's Base URL, read once: n8n loads and decrypts the credential from its database on
 *   every `getCredentials` (and once more inside `httpRequestWithAuthentication`), so reading it for
 *   every request of a 1,000-page list or 1,000 items cost one database read each (bench/README.md).
 *   A failed read is not kept;
 * - the 429 hold: until the wait Paycashless asked for is over, no request of the run starts (every
 *   item in flight, reads and creates), so items sent in parallel back off together instead of each
 *   finding the limit again (./retry.ts);
 * - the open run of read-backs, when the run makes many payouts (./readBacks.ts).
 */
import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../../../lib/api';
import { checkBaseUrl } from './baseUrl';
import type { ReadBackRun } from './readBacks';
import type { PaycashlessContext, RunHold } from './types';
import { remembered } from '../helpers/remembered';

export class TransportRun {
	/** The credential's base URL without trailing slashes (default https://api.paycashless.com). */
	readonly baseUrlOf: () => Promise<string>;

	/** Until when no request of the run starts: an earlier 429's wait. */
	readonly hold: RunHold = { until: 0 };

	/** The run of read-backs the router opened for a run of many creates, while it is open. */
	readBacks?: ReadBackRun;

	constructor(readonly context: PaycashlessContext) {
		this.baseUrlOf = remembered(async () => await this.readBaseUrl());
	}

	/**
	 * Records of a list this run read for another purpose (the period limits' reads of the payout
	 * list): the open run of read-backs takes the new objects from them instead of reading them again.
	 */
	offerToReadBacks(records: IDataObject[]): void {
		this.readBacks?.offer(records);
	}

	private async readBaseUrl(): Promise<string> {
		const credentials = await this.context.getCredentials(CREDENTIAL_NAME);
		const checked = checkBaseUrl(credentials?.baseUrl);
		if ('problem' in checked) throw new NodeOperationError(this.context.getNode(), checked.problem);
		return checked.url;
	}
}
