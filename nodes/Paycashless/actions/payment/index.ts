import type { PaycashlessOperation, PaycashlessResourceDefinition } from '../types';
import * as createCheckout from './createCheckout.operation';
import * as createTransfer from './createTransfer.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as verify from './verify.operation';
import * as waitForPayment from './waitForPayment.operation';

/** Each operation's file, under its value. A new operation is one more line here. */
export const operations = { createCheckout, createTransfer, get, getAll, verify, waitForPayment } satisfies Record<string, PaycashlessOperation>;

export const resource: PaycashlessResourceDefinition = {
	displayName: 'Payment',
	/** The Resource option's description: n8n's AI builders caption this resource's operation types with it. */
	caption: 'Payment: money collected from a customer (checkout link or bank transfer)',
	operations,
	defaultOperation: 'createTransfer',
};
