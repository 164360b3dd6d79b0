import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { TAX_RATE } from '../../catalog/objects';
import { additionalBodyJsonField, additionalFieldsCollection, metadataField } from '../fields/common';
import { taxRateFields, taxTypeField } from './fields';
import { compact } from '../../helpers/body';
import { optionalText, requireNumber, requireText } from '../../helpers/validation';
import type { PaycashlessApi } from '../../transport';
import { finishBody } from '../common';
import type { OperationDeclaration, OperationOption } from '../types';

export const description: INodeProperties[] = [
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

export const option: OperationOption = { name: 'Create', description: 'Create a tax rate for invoices', action: 'Create a tax rate' };

export const declaration: OperationDeclaration = { kind: 'write', check: { text: 'whether the tax rate exists in the Paycashless dashboard (the API cannot list tax rates)' } };

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
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
	return await api.request({ method: 'POST', path: TAX_RATE.path, body });
}

/** What running it as an AI agent's tool does to money. */
export const asTool = { effect: 'Invoices that name the new tax rate charge customers more (or show the tax included).' };

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'VAT or sales tax, inclusive or exclusive' };
