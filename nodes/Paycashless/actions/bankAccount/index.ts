import type { INodeProperties } from 'n8n-workflow';

import type { PaycashlessOperation } from '../types';
import * as lookUp from './lookUp.operation';

export const operations: Record<string, PaycashlessOperation> = { lookUp };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bankAccount'] } },
		options: [
			{
				name: 'Look Up',
				value: 'lookUp',
				description: 'Get the account name and bank of an account number',
				action: 'Look up a bank account',
			},
		],
		default: 'lookUp',
	},
	...lookUp.description,
];
