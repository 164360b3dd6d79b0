import type { INodeProperties } from 'n8n-workflow';

import type { PaycashlessOperation } from '../types';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as verify from './verify.operation';

export const operations: Record<string, PaycashlessOperation> = { create, get, getAll, verify };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payout'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Send money to a bank account', action: 'Create a payout' },
			{ name: 'Get', value: 'get', description: 'Get a payout by its ID', action: 'Get a payout' },
			{ name: 'Get Many', value: 'getAll', description: 'List payouts', action: 'Get many payouts' },
			{
				name: 'Verify',
				value: 'verify',
				description: 'Get a payout by your reference, to check its status',
				action: 'Verify a payout',
			},
		],
		default: 'create',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...verify.description,
];
