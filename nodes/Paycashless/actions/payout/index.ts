import type { PaycashlessOperation, PaycashlessResourceDefinition } from '../types';
import * as checkBatch from './checkBatch.operation';
import * as create from './create.operation';
import * as createAndWait from './createAndWait.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as verify from './verify.operation';

/** Each operation's file, under its value. A new operation is one more line here. */
export const operations = { checkBatch, create, createAndWait, get, getAll, verify } satisfies Record<string, PaycashlessOperation>;

export const resource: PaycashlessResourceDefinition = { displayName: 'Payout', operations, defaultOperation: 'create' };
