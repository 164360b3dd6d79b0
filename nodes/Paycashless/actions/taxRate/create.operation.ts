import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { additionalBodyJsonField, additionalFieldsCollection, metadataField } from '../../descriptions/common';
import { taxRateFields, taxTypeField } from '../../descriptions/taxRate';
import { compact } from '../../helpers/body';
import { optionalText, requireNumber, requireText } from '../../helpers/validation';
import { paycashlessRequest } from '../../transport/request';
import { finishBody } from '../common';

const properties: INodeProperties[] = [
	{ ...taxRateFields.name, required: true },
	{
		displayName: 'Percentage',
		name: 'percentage',
		type: 'number',
		required: true,
		default: 7.5,
		typeOptions: { minValue: 0, maxValue: 100 },
		description: 'The rate in percent, e.g. 7.5 for Nigerian VAT',
	},
	taxTypeField,
	{
		displayName: 'Inclusive',
		name: 'inclusive',
		type: 'boolean',
		default: false,
		description: 'Whether prices already include this tax (on) or the tax is added on top (off)',
	},
	additionalFieldsCollection([taxRateFields.active, taxRateFields.description, metadataField, additionalBodyJsonField]),
];

export const description = updateDisplayOptions({ show: { resource: ['taxRate'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const name = requireText(this.getNodeParameter('name', i), 'Name');
	const percentage = requireNumber(this.getNodeParameter('percentage', i), 'Percentage', 0, 100);
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const body = finishBody(
		compact({
			name,
			percentage,
			taxType: this.getNodeParameter('taxType', i) as string,
			inclusive: this.getNodeParameter('inclusive', i, false) as boolean,
			active: fields.active as boolean | undefined,
			description: optionalText(fields.description),
		}),
		fields,
	);
	return await paycashlessRequest.call(this, { method: 'POST', path: '/v1/tax_rates', body }, i);
}
