/**
 * Resource locators for objects that have a list endpoint: pick from a list (searched through
 * `methods/listSearch.ts`) or paste an ID, checked against its prefix.
 */
import type { INodeProperties } from 'n8n-workflow';

import { ID_PREFIXES } from '../../catalog/objects';
import { idPattern } from '../../helpers/validation';

interface LocatorSpec {
	name: string;
	displayName: string;
	/** ID prefix, e.g. `po_`. */
	prefix: string;
	/** Name of the list search method in `methods.listSearch`. */
	searchListMethod: string;
	description: string;
}

function idLocator(spec: LocatorSpec): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: spec.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${spec.displayName.replace(/ ID$/, '')}...`,
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `${spec.prefix}abc123`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: idPattern(spec.prefix),
							errorMessage: `The ID must start with "${spec.prefix}"`,
						},
					},
				],
			},
		],
	};
}



export const paymentIdLocator = idLocator({
	name: 'paymentId',
	displayName: 'Payment ID',
	prefix: ID_PREFIXES.payment,
	searchListMethod: 'searchPayments',
	description: 'The payment to get (an ID starting with pi_)',
});

export const payoutIdLocator = idLocator({
	name: 'payoutId',
	displayName: 'Payout ID',
	prefix: ID_PREFIXES.payout,
	searchListMethod: 'searchPayouts',
	description: 'The payout to get (an ID starting with po_)',
});

export const invoiceIdLocator = idLocator({
	name: 'invoiceId',
	displayName: 'Invoice ID',
	prefix: ID_PREFIXES.invoice,
	searchListMethod: 'searchInvoices',
	description: 'The invoice (an ID starting with inv_)',
});

export const dedicatedAccountIdLocator = idLocator({
	name: 'dedicatedAccountId',
	displayName: 'Dedicated Account ID',
	prefix: ID_PREFIXES.dedicatedAccount,
	searchListMethod: 'searchDedicatedAccounts',
	description: 'The dedicated account to get (an ID starting with va_)',
});
