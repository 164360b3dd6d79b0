/** GET /v1/banks/account_lookup?accountNumber=...&bankCode=... (bank code: CBN or NIBSS). */
import { bankRef, lookUpAccount } from '../banks.cjs';
import { apiError, invalidField, missingField } from '../errors.cjs';
import type { Router } from '../router.cjs';

export function registerAccountLookup(router: Router): void {
	router.add('GET', '/v1/banks/account_lookup', (ctx) => {
		const { accountNumber, bankCode } = ctx.query;
		if (!accountNumber) throw missingField('accountNumber', '`accountNumber` (query) is required.');
		if (!bankCode) throw missingField('bankCode', '`bankCode` (query) is required: the CBN or NIBSS code of the bank.');
		const answer = lookUpAccount(accountNumber, bankCode);
		if (!answer.found) {
			throw answer.status === 400 ? invalidField(answer.field, answer.message, 400) : apiError(404, 'invalid_request_error', 'resource_missing', answer.message, [answer.field]);
		}
		return { status: 200, body: { accountNumber, accountName: answer.accountName, bank: bankRef(answer.bank) } };
	});
}
