import type { PaycashlessOperation, PaycashlessResourceDefinition } from '../types';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getRequestStatus from './getRequestStatus.operation';

/** Each operation's file, under its value. A new operation is one more line here. */
export const operations = { create, get, getAll, getRequestStatus } satisfies Record<string, PaycashlessOperation>;

export const resource: PaycashlessResourceDefinition = {
	displayName: 'Dedicated Account',
	/** The Resource option's description: n8n's AI builders caption this resource's operation types with it. */
	caption: "Dedicated Account: a customer's own virtual bank account number, for money paid in by transfer",
	operations,
	defaultOperation: 'create',
};
