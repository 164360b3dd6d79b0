import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { additionalBodyJsonField, additionalFieldsCollection, metadataField } from '../../descriptions/common';
import { ID_PREFIXES } from '../../descriptions/locators';
import { taxRateFields, taxTypeField } from '../../descriptions/taxRate';
import { compact } from '../../helpers/body';
import { invalid, optionalText, requireId, requireText } from '../../helpers/validation';
import { apiPath, paycashlessRequest } from '../../transport/request';
import { finishBody } from '../common';

const properties: INodeProperties[] = [
	{
		displayName: 'Tax Rate ID',
		name: 'taxRateId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'txr_abc123',
		description: 'The tax rate to change (an ID starting with txr_, from Tax Rate → Create)',
	},
	additionalFieldsCollection(
		[
			taxRateFields.active,
			taxRateFields.description,
			metadataField,
			taxRateFields.name,
			{ ...taxTypeField, required: false },
			additionalBodyJsonField,
		],
		'updateFields',
	),
];

export const description = updateDisplayOptions({ show: { resource: ['taxRate'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const id = requireId(this.getNodeParameter('taxRateId', i), ID_PREFIXES.taxRate, 'Tax Rate ID');
	const fields = this.getNodeParameter('updateFields', i, {}) as IDataObject;
	const body = finishBody(
		compact({
			name: fields.name === undefined ? undefined : requireText(fields.name, 'Name'),
			description: optionalText(fields.description),
			active: fields.active as boolean | undefined,
			taxType: fields.taxType as string | undefined,
		}),
		fields,
	);
	if (Object.keys(body).length === 0) invalid('Update Fields', fields, 'choose at least one field to change');
	return await paycashlessRequest.call(this, { method: 'PUT', path: apiPath`/v1/tax_rates/${id}`, body }, i);
}
