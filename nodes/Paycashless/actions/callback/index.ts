import type { PaycashlessOperation, PaycashlessResourceDefinition } from '../types';
import * as verify from './verify.operation';

/** Each operation's file, under its value. A new operation is one more line here. */
export const operations = { verify } satisfies Record<string, PaycashlessOperation>;

export const resource: PaycashlessResourceDefinition = { displayName: 'Callback', operations, defaultOperation: 'verify' };
