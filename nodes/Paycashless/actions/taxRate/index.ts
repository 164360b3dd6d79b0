import type { INodeProperties } from 'n8n-workflow';

import type { PaycashlessOperation } from '../types';
import * as create from './create.operation';
import * as update from './update.operation';

export const operations: Record<string, PaycashlessOperation> = { create, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['taxRate'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Create a tax rate for invoices', action: 'Create a tax rate' },
			{ name: 'Update', value: 'update', description: 'Change a tax rate', action: 'Update a tax rate' },
		],
		default: 'create',
	},
	...create.description,
	...update.description,
];
