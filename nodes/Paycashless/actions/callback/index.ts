import type { PaycashlessOperation, PaycashlessResourceDefinition } from '../types';
import * as verify from './verify.operation';

/** Each operation's file, under its value. A new operation is one more line here. */
export const operations = { verify } satisfies Record<string, PaycashlessOperation>;

export const resource: PaycashlessResourceDefinition = {
	displayName: 'Callback',
	/** The Resource option's description: n8n's AI builders caption this resource's operation types with it. */
	caption: 'Callback: checks that a request to an n8n Webhook really came from Paycashless (signature)',
	operations,
	defaultOperation: 'verify',
};
