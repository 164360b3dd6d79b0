import type { PaycashlessOperation, PaycashlessResourceDefinition } from '../types';
import * as create from './create.operation';
import * as update from './update.operation';

/** Each operation's file, under its value. A new operation is one more line here. */
export const operations = { create, update } satisfies Record<string, PaycashlessOperation>;

export const resource: PaycashlessResourceDefinition = {
	displayName: 'Tax Rate',
	/** The Resource option's description: n8n's AI builders caption this resource's operation types with it. */
	caption: 'Tax Rate: tax rates applied to invoice line items',
	operations,
	defaultOperation: 'create',
};
