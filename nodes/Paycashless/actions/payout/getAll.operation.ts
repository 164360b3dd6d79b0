import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYOUT, sortedStatuses } from '../../catalog/objects';
import { createdAtFilterFields, filtersCollection, listFields, referenceFilterFields, statusFilterField } from '../fields/listFilters';
import type { PaycashlessApi } from '../../transport';
import { readFirst, readListFilters, readListOptions, referenceFilter } from '../common';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

/** Sorted for the Status list. */
const STATUSES = sortedStatuses(PAYOUT);

export const description: INodeProperties[] = [
	...listFields,
	filtersCollection([
		statusFilterField(STATUSES, 'Only payouts in this status'),
		{
			displayName: 'Destination Account Number',
			name: 'destinationAccountNumber',
			type: 'string',
			default: '',
			description: 'Only payouts to this bank account number',
		},
		...referenceFilterFields('payouts', { sent: false, verify: 'Payout → Verify' }),
		...createdAtFilterFields,
	]),
];

/** What a person reads first (n8n's table view follows key order): reference, status, naira, to whom, when. */
const FIRST_KEYS = ['reference', 'status', 'inMainUnits', 'destinationAccountNumber', 'destinationBankId', 'createdAt'];

export const option: OperationOption = { name: 'Get Many', description: 'List payouts', action: 'Get many payouts' };

export const declaration: OperationDeclaration = READ;

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject[]> {
	const options = readListOptions.call(this, i);
	const qs = readListFilters.call(this, i, STATUSES, { sendsReference: false });
	const payouts = await api.paginate({ path: PAYOUT.path, qs }, { ...options, keep: referenceFilter.call(this, i) });
	return readFirst(payouts, FIRST_KEYS);
}

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Filters: status, destination account, reference or its start (after the read), created from/before; reference, status and amount first' };
