/**
 * Payroll rows as the unit tests of payroll give them to Payout → Check Batch and Payout → Create
 * (test/unit/node/payroll.test.cts, payrollApproval.test.cts): one item per row, paid at Access
 * Bank, each row's Expected Account Name its own.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

/** Access Bank (bank code 044), as in Paycashless's docs. */
export const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';

export interface PayrollRow {
	reference: string;
	/** In naira. */
	amount: number;
	account: string;
	/** The holder's name as the row gives it (Expected Account Name). */
	name: string;
	/** The row's Payee Key (Additional Fields), if any. */
	key?: string;
}

/** One node item per row: `operation`, the row's payout, `limits` with its Expected Account Name, then `extra` (its additionalFields beside the row's key). */
export function payoutItems(list: PayrollRow[], operation: 'checkBatch' | 'create', limits: IDataObject, extra: INodeParameters = {}): INodeParameters[] {
	return list.map((row) => ({
		resource: 'payout',
		operation,
		reference: row.reference,
		amount: row.amount,
		currency: 'NGN',
		destinationAccountNumber: row.account,
		bankId: ACCESS_BANK,
		moneyLimits: { ...limits, expectedAccountName: row.name, beneficiaryBankCode: '044' } as INodeParameters,
		...(row.key ? { additionalFields: { payeeKey: row.key, ...((extra.additionalFields as IDataObject) ?? {}) } as INodeParameters } : {}),
		...Object.fromEntries(Object.entries(extra).filter(([key]) => !(row.key && key === 'additionalFields'))),
	}));
}
