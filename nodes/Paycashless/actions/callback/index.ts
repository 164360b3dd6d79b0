import type { INodeProperties } from 'n8n-workflow';

import type { PaycashlessOperation } from '../types';
import * as verify from './verify.operation';

export const operations: Record<string, PaycashlessOperation> = { verify };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['callback'] } },
		options: [
			{
				name: 'Verify',
				value: 'verify',
				description:
					'Check that a callback received by a Webhook or Wait node really comes from Paycashless (signature and timestamp)',
				action: 'Verify a callback',
			},
		],
		default: 'verify',
	},
	...verify.description,
];
