import type { PaycashlessOperation, PaycashlessResourceDefinition } from '../types';
import * as lookUp from './lookUp.operation';

/** Each operation's file, under its value. A new operation is one more line here. */
export const operations = { lookUp } satisfies Record<string, PaycashlessOperation>;

export const resource: PaycashlessResourceDefinition = { displayName: 'Bank Account', operations, defaultOperation: 'lookUp' };
