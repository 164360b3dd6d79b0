import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { INVOICE } from '../../catalog/objects';
import { invoiceIdLocator } from '../fields/locators';
import { requireText } from '../../helpers/validation';
import { type PaycashlessApi } from '../../transport';
import { readLocatorId } from '../common';
import type { OperationDeclaration, OperationOption } from '../types';

export const description: INodeProperties[] = [
	{ ...invoiceIdLocator, description: 'The invoice to cancel (an ID starting with inv_)' },
	{
		displayName: 'Cancellation Reason',
		name: 'cancellationReason',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Order cancelled by the customer',
		description: 'Why the invoice is cancelled',
	},
];

export const option: OperationOption = { name: 'Cancel', description: 'Cancel an invoice', action: 'Cancel an invoice' };

export const declaration: OperationDeclaration = { kind: 'write', check: { with: { resource: 'invoice', operation: 'get' }, text: 'whether the invoice is cancelled now' } };

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const id = readLocatorId.call(this, i, 'invoiceId', INVOICE.idPrefix, 'Invoice ID');
	const cancellationReason = requireText(this.getNodeParameter('cancellationReason', i), 'Cancellation Reason');
	return await api.request({ method: 'POST', path: INVOICE.cancel(id), body: { cancellationReason } });
}

/** What running it as an AI agent's tool does to people. */
export const asTool = { effect: 'The customer can no longer pay the invoice.' };

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'With a cancellation reason' };
