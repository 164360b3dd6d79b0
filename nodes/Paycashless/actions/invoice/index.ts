import type { INodeProperties } from 'n8n-workflow';

import type { PaycashlessOperation } from '../types';
import * as cancel from './cancel.operation';
import * as create from './create.operation';
import * as createAndWait from './createAndWait.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const operations: Record<string, PaycashlessOperation> = { cancel, create, createAndWait, get, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		options: [
			{ name: 'Cancel', value: 'cancel', description: 'Cancel an invoice', action: 'Cancel an invoice' },
			{
				name: 'Create',
				value: 'create',
				description: 'Create an invoice with a payment page',
				action: 'Create an invoice',
			},
			{
				name: 'Create and Wait for Payment',
				value: 'createAndWait',
				description: 'Create an invoice, then pause the workflow until it is fully paid (verified callback) or a time limit passes',
				action: 'Create an invoice and wait for payment',
			},
			{ name: 'Get', value: 'get', description: 'Get an invoice by its ID', action: 'Get an invoice' },
			{ name: 'Get Many', value: 'getAll', description: 'List invoices', action: 'Get many invoices' },
		],
		default: 'create',
	},
	...cancel.description,
	...create.description,
	...createAndWait.description,
	...get.description,
	...getAll.description,
];
