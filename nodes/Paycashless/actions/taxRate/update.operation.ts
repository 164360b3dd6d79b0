import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { TAX_RATE } from '../../catalog/objects';
import { additionalBodyJsonField, additionalFieldsCollection, metadataField } from '../fields/common';
import { taxRateFields, taxTypeField } from './fields';
import { compact } from '../../helpers/body';
import { invalid, optionalText, requireId, requireText } from '../../helpers/validation';
import type { PaycashlessApi } from '../../transport';
import { finishBody } from '../common';
import type { OperationDeclaration, OperationOption } from '../types';

export const description: INodeProperties[] = [
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

export const option: OperationOption = { name: 'Update', description: 'Change a tax rate', action: 'Update a tax rate' };

export const declaration: OperationDeclaration = { kind: 'write', check: { text: 'in the Paycashless dashboard whether the tax rate has its new values' } };

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const id = requireId(this.getNodeParameter('taxRateId', i), TAX_RATE.idPrefix, 'Tax Rate ID');
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
	return await api.request({ method: 'PUT', path: TAX_RATE.one(id), body });
}

/** What running it as an AI agent's tool does to money. */
export const asTool = { effect: 'Every later invoice that uses this tax rate follows the change; a deactivated rate stops applying.' };

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: '`txr_…` id' };
