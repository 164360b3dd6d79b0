import type { PaycashlessOperation, PaycashlessResourceDefinition } from '../types';
import * as batchStatus from './batchStatus.operation';
import * as checkBatch from './checkBatch.operation';
import * as create from './create.operation';
import * as createAndWait from './createAndWait.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as verify from './verify.operation';

/** Each operation's file, under its value. A new operation is one more line here. */
export const operations = { batchStatus, checkBatch, create, createAndWait, get, getAll, verify } satisfies Record<string, PaycashlessOperation>;

export const resource: PaycashlessResourceDefinition = {
	displayName: 'Payout',
	/** The Resource option's description: n8n's AI builders caption this resource's operation types with it. */
	caption: 'Payout: money sent from the business account to a bank account',
	operations,
	defaultOperation: 'create',
};
