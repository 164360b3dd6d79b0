/**
 * The node's resource and operation names as types, derived from the resources' operation maps
 * (in the spirit of n8n's versioned nodes' `node.type.ts`): a typo in a name is a type error. They
 * type every reference from one operation to another (`OperationRef` in ./types.ts).
 */
import type * as bankAccount from './bankAccount';
import type * as callback from './callback';
import type * as dedicatedAccount from './dedicatedAccount';
import type * as invoice from './invoice';
import type * as payment from './payment';
import type * as payout from './payout';
import type * as taxRate from './taxRate';

import type { PaycashlessOperationNames } from './types';

declare module './types' {
	/** Each resource's operation values; OperationRef (./types.ts) is typed by them. */
	interface PaycashlessOperationNames {
		bankAccount: keyof typeof bankAccount.operations;
		callback: keyof typeof callback.operations;
		dedicatedAccount: keyof typeof dedicatedAccount.operations;
		invoice: keyof typeof invoice.operations;
		payment: keyof typeof payment.operations;
		payout: keyof typeof payout.operations;
		taxRate: keyof typeof taxRate.operations;
	}
}

export type PaycashlessResource = keyof PaycashlessOperationNames;
