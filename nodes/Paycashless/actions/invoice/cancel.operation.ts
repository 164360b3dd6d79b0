import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ID_PREFIXES, invoiceIdLocator } from '../../descriptions/locators';
import { requireText } from '../../helpers/validation';
import { apiPath, paycashlessRequest } from '../../transport/request';
import { readLocatorId } from '../common';

const properties: INodeProperties[] = [
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

export const description = updateDisplayOptions({ show: { resource: ['invoice'], operation: ['cancel'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const id = readLocatorId.call(this, i, 'invoiceId', ID_PREFIXES.invoice, 'Invoice ID');
	const cancellationReason = requireText(this.getNodeParameter('cancellationReason', i), 'Cancellation Reason');
	return await paycashlessRequest.call(
		this,
		{ method: 'POST', path: apiPath`/v1/invoices/${id}/cancel`, body: { cancellationReason } },
		i,
	);
}
