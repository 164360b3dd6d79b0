import type { INodeProperties } from 'n8n-workflow';

import type { PaycashlessOperation } from '../types';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getRequestStatus from './getRequestStatus.operation';

export const operations: Record<string, PaycashlessOperation> = { create, get, getAll, getRequestStatus };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['dedicatedAccount'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Request a dedicated bank account for a customer',
				action: 'Create a dedicated account',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a dedicated account by its ID',
				action: 'Get a dedicated account',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List dedicated accounts',
				action: 'Get many dedicated accounts',
			},
			{
				name: 'Get Request Status',
				value: 'getRequestStatus',
				description: 'Check an account request, and get the account once it is ready',
				action: 'Get the status of a dedicated account request',
			},
		],
		default: 'create',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...getRequestStatus.description,
];
