import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalBodyJsonField,
	additionalFieldsCollection,
	amountFields,
	callbackUrlField,
	currencyField,
	metadataField,
	referenceField,
} from '../../descriptions/common';
import { ID_PREFIXES } from '../../descriptions/locators';
import { compact } from '../../helpers/body';
import { optionalText, requireDigits, requireId, requireText } from '../../helpers/validation';
import { paycashlessRequest } from '../../transport/request';
import { finishBody, readAmount } from '../common';
import { fullPayoutAfterCreate } from '../createdOutput';

const properties: INodeProperties[] = [
	{
		...referenceField,
		description:
			'Your own unique reference for this payout, e.g. the ID of the bill being paid. Paycashless refuses a reference used before, so a payout is never sent twice; look it up with Payout → Verify.',
	},
	...amountFields('How much to send.'),
	currencyField,
	{
		displayName: 'Destination Account Number',
		name: 'destinationAccountNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0123456789',
		description: 'The bank account number (NUBAN) to pay into',
	},
	{
		displayName: 'Bank ID',
		name: 'bankId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'bank_538ed2056326432ba8e6853b613997bb',
		description:
			'The Paycashless ID of the destination bank (starts with bank_), not its CBN or NIBSS code. Get it with Bank Account → Look Up.',
		hint: 'After Bank Account → Look Up, use the expression {{ $json.bank.id }}',
	},
	additionalFieldsCollection([
		callbackUrlField,
		metadataField,
		{
			displayName: 'Narration',
			name: 'narration',
			type: 'string',
			default: '',
			description: 'Text shown on the recipient’s statement',
		},
		additionalBodyJsonField,
	]),
];

export const description = updateDisplayOptions({ show: { resource: ['payout'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const reference = requireText(this.getNodeParameter('reference', i), 'Reference');
	const amount = readAmount.call(this, i);
	const destinationAccountNumber = requireDigits(
		this.getNodeParameter('destinationAccountNumber', i),
		'Destination Account Number',
		'0123456789',
	);
	const bankId = requireId(this.getNodeParameter('bankId', i), ID_PREFIXES.bank, 'Bank ID');
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const body = finishBody(
		compact({
			reference,
			amount,
			destinationAccountNumber,
			bankId,
			narration: optionalText(fields.narration),
			callbackUrl: optionalText(fields.callbackUrl),
		}),
		fields,
	);
	const result = await paycashlessRequest.call(
		this,
		{ method: 'POST', path: '/v1/payouts', body, reference, moneyMovement: 'payout' },
		i,
	);
	return await fullPayoutAfterCreate.call(this, i, reference, result);
}
