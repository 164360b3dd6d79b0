import type { PaycashlessOperation, PaycashlessResourceDefinition } from '../types';
import * as cancel from './cancel.operation';
import * as create from './create.operation';
import * as createAndWait from './createAndWait.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

/** Each operation's file, under its value. A new operation is one more line here. */
export const operations = { cancel, create, createAndWait, get, getAll } satisfies Record<string, PaycashlessOperation>;

export const resource: PaycashlessResourceDefinition = {
	displayName: 'Invoice',
	/** The Resource option's description: n8n's AI builders caption this resource's operation types with it. */
	caption: 'Invoice: bills a customer, with a hosted page where they pay',
	operations,
	defaultOperation: 'create',
};
