/**
 * List searches behind the resource locators ("From List"). One page per call; n8n asks for
 * the next page with `paginationToken` (the API cursor). The API has no text search, so the
 * filter is applied to the page received.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { DEDICATED_ACCOUNT, INVOICE, PAYMENT, PAYOUT } from '../catalog/objects';
import { MAX_PAGE_SIZE, paycashlessApi } from '../transport';

type Describe = (record: IDataObject) => string;

function label(...parts: unknown[]): string {
	return parts.filter((part) => part !== undefined && part !== null && part !== '').join(' · ');
}

/** Amounts in lists are shown as the API returns them: smallest unit plus currency. */
function minor(amount: unknown, currency: unknown): string | undefined {
	if (typeof amount === 'number') return `${amount} ${typeof currency === 'string' ? currency : ''} (smallest unit)`.trim();
	if (amount && typeof amount === 'object') {
		const { value, currency: nested } = amount as IDataObject;
		return minor(value, nested ?? currency);
	}
	return undefined;
}

type ListSearch = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/** A list search over one list endpoint: one page per call, labelled by `describe`. */
function listSearchOf(path: string, describe: Describe): ListSearch {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const page = await paycashlessApi(this).page({ path }, MAX_PAGE_SIZE, paginationToken);
		const needle = filter?.trim().toLowerCase();
		const results: INodeListSearchItems[] = [];
		for (const record of page.data) {
			const id = typeof record.id === 'string' ? record.id : undefined;
			if (!id) continue;
			const name = describe(record) || id;
			if (needle && !`${name} ${id}`.toLowerCase().includes(needle)) continue;
			results.push({ name, value: id });
		}
		return { results, paginationToken: page.hasMore ? page.cursor : undefined };
	};
}

export const searchPayments = listSearchOf(PAYMENT.path, (r) =>
	label(r.reference, minor(r.expectedAmount, r.currency), r.status, r.id),
);

export const searchPayouts = listSearchOf(PAYOUT.path, (r) =>
	label(r.reference, minor(r.amount, r.currency), r.status, r.id),
);

export const searchInvoices = listSearchOf(INVOICE.path, (r) =>
	label(r.number, r.reference, minor(r.amountDue, r.currency), r.status, r.id),
);

export const searchDedicatedAccounts = listSearchOf(DEDICATED_ACCOUNT.path, (r) =>
	label(r.accountName, r.accountNumber, r.bankName, r.id),
);
