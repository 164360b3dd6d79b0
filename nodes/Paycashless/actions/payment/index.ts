import type { INodeProperties } from 'n8n-workflow';

import type { PaycashlessOperation } from '../types';
import * as createCheckout from './createCheckout.operation';
import * as createTransfer from './createTransfer.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as verify from './verify.operation';

export const operations: Record<string, PaycashlessOperation> = { createCheckout, createTransfer, get, getAll, verify };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payment'] } },
		options: [
			{
				name: 'Create Checkout Link',
				value: 'createCheckout',
				description: 'Create a hosted payment page to send the customer to',
				action: 'Create a checkout link',
			},
			{
				name: 'Create Transfer Payment',
				value: 'createTransfer',
				description: 'Get a bank account the customer pays into by transfer',
				action: 'Create a transfer payment',
			},
			{ name: 'Get', value: 'get', description: 'Get a payment by its ID', action: 'Get a payment' },
			{ name: 'Get Many', value: 'getAll', description: 'List payments', action: 'Get many payments' },
			{
				name: 'Verify',
				value: 'verify',
				description: 'Get a payment by your reference, to check its status',
				action: 'Verify a payment',
			},
		],
		default: 'createTransfer',
	},
	...createCheckout.description,
	...createTransfer.description,
	...get.description,
	...getAll.description,
	...verify.description,
];
