/** GET /v1/banks/account_lookup?accountNumber=...&bankCode=... (bank code: CBN or NIBSS). */
import { accountExists, accountName, bankByCode, bankRef, isAccountNumber } from '../banks.cjs';
import { apiError, invalidField, missingField } from '../errors.cjs';
import type { Router } from '../router.cjs';

export function registerAccountLookup(router: Router): void {
	router.add('GET', '/v1/banks/account_lookup', (ctx) => {
		const { accountNumber, bankCode } = ctx.query;
		if (!accountNumber) throw missingField('accountNumber', '`accountNumber` (query) is required.');
		if (!bankCode) throw missingField('bankCode', '`bankCode` (query) is required: the CBN or NIBSS code of the bank.');
		if (!isAccountNumber(accountNumber)) throw invalidField('accountNumber', '`accountNumber` must be 10 digits (NUBAN).', 400);
		const bank = bankByCode(bankCode);
		if (!bank) throw apiError(404, 'invalid_request_error', 'resource_missing', `No bank has the CBN or NIBSS code ${JSON.stringify(bankCode)}.`, ['bankCode']);
		if (!accountExists(accountNumber)) {
			throw apiError(404, 'invalid_request_error', 'resource_missing', `Account ${accountNumber} was not found at ${bank.name}.`, ['accountNumber']);
		}
		return { status: 200, body: { accountNumber, accountName: accountName(accountNumber, bank.id), bank: bankRef(bank) } };
	});
}
