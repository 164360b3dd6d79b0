import type { PaycashlessOperation, PaycashlessResourceDefinition } from '../types';
import * as lookUp from './lookUp.operation';

/** Each operation's file, under its value. A new operation is one more line here. */
export const operations = { lookUp } satisfies Record<string, PaycashlessOperation>;

export const resource: PaycashlessResourceDefinition = {
	displayName: 'Bank Account',
	/** The Resource option's description: n8n's AI builders caption this resource's operation types with it. */
	caption: 'Bank Account: who holds a Nigerian bank account, and the Paycashless bank ID a payout to it needs',
	operations,
	defaultOperation: 'lookUp',
};
