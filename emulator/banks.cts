/**
 * A small fixed table of Nigerian banks and the emulator's deterministic account directory.
 * Bank ids are stable (`bank_` + md5 of the name); Access Bank carries the id from the
 * Paycashless docs' payout example so that example can be replayed as is.
 */
import { createHash } from 'crypto';

import type { BankRef } from './models.cjs';
import { hash32 } from './prng.cjs';

export interface Bank extends BankRef {
	/** Value of `preferredBank` on dedicated-account requests that selects this bank. */
	slug: string;
}

function bank(name: string, slug: string, cbnCode: string, nibssCode: string, id?: string): Bank {
	return { id: id ?? `bank_${createHash('md5').update(name).digest('hex')}`, name, cbnCode, nibssCode, slug };
}

export const BANKS: readonly Bank[] = [
	bank('Access Bank', 'access_bank', '044', '000014', 'bank_538ed2056326432ba8e6853b613997bb'),
	bank('Guaranty Trust Bank', 'gtbank', '058', '000013'),
	bank('Zenith Bank', 'zenith_bank', '057', '000015'),
	bank('First Bank of Nigeria', 'first_bank', '011', '000016'),
	bank('United Bank for Africa', 'uba', '033', '000004'),
	bank('Wema Bank', 'wema_bank', '035', '000017'),
	bank('Providus Bank', 'providus_bank', '101', '000023'),
	bank('Kuda Microfinance Bank', 'kuda_mfb', '50211', '090267'),
	bank('Moniepoint Microfinance Bank', 'moniepoint_mfb', '50515', '090405'),
	bank('Safe Haven Microfinance Bank', 'safehaven_mfb', '51113', '090286'),
];

/** Banks dedicated accounts are opened at (the `preferredBank` choice). */
export const DEDICATED_ACCOUNT_BANKS = BANKS.filter((b) => ['safehaven_mfb', 'providus_bank', 'wema_bank'].includes(b.slug));
export const DEFAULT_DEDICATED_ACCOUNT_BANK = DEDICATED_ACCOUNT_BANKS.find((b) => b.slug === 'safehaven_mfb') as Bank;

export function bankById(id: string): Bank | undefined {
	return BANKS.find((b) => b.id === id);
}

/** By CBN or NIBSS code. */
export function bankByCode(code: string): Bank | undefined {
	return BANKS.find((b) => b.cbnCode === code || b.nibssCode === code);
}

export function bankBySlug(slug: string): Bank | undefined {
	return BANKS.find((b) => b.slug === slug);
}

export function bankRef(b: Bank): BankRef {
	return { id: b.id, name: b.name, cbnCode: b.cbnCode, nibssCode: b.nibssCode };
}

const SURNAMES = ['OKAFOR', 'ADEYEMI', 'BELLO', 'EZE', 'OGUNLEYE', 'ABUBAKAR', 'NWOSU', 'BALOGUN', 'OKONKWO', 'ADEBAYO', 'MOHAMMED', 'CHUKWU', 'OLAWALE', 'DANJUMA', 'IBE', 'AFOLABI'];
const GIVEN_NAMES = ['ADAEZE', 'CHINEDU', 'OLUWASEUN', 'NGOZI', 'EMEKA', 'FUNMILAYO', 'IBRAHIM', 'AISHA', 'TUNDE', 'KEMI', 'SEGUN', 'ZAINAB', 'OBINNA', 'YETUNDE', 'MUSA', 'CHIAMAKA'];

export function isAccountNumber(value: string): boolean {
	return /^\d{10}$/.test(value);
}

/** Account numbers starting with `000` do not exist in the emulator (to test "account not found"). */
export function accountExists(accountNumber: string): boolean {
	return isAccountNumber(accountNumber) && !accountNumber.startsWith('000');
}

/**
 * Accounts whose holder is named, at every bank: businesses that carry a person's name (which a
 * payee check for that person must refuse), spellings of one name, and a person with a middle name.
 */
const NAMED_ACCOUNTS: Readonly<Record<string, string>> = Object.freeze({
	'0234567801': 'ADA OBI',
	'0234567802': 'ADA OBI COLLECTIONS',
	'0234567803': 'ADA OBI & SON',
	'0234567804': 'ADA OBI FASHION HOUSE',
	'0234567805': 'ADA CHIOMA OBI',
	'0234567806': 'MUHAMMAD BELLO',
	'0234567807': 'BELLO MOHAMMED MULTIBIZ',
	'0234567808': 'ADA OBI CONCEPTS',
	'0234567809': 'ADA OBI (NIG) LTD',
});

/** The holder's name of an account: derived from the bank and the account number, so always the same. */
export function accountName(accountNumber: string, bankId: string): string {
	const named = NAMED_ACCOUNTS[accountNumber];
	if (named !== undefined) return named;
	const h = hash32(`${bankId}:${accountNumber}`);
	return `${SURNAMES[h % SURNAMES.length]} ${GIVEN_NAMES[(h >>> 8) % GIVEN_NAMES.length]}`;
}

export function personName(seed: string): string {
	const h = hash32(seed);
	const given = GIVEN_NAMES[h % GIVEN_NAMES.length];
	const surname = SURNAMES[(h >>> 8) % SURNAMES.length];
	const title = (s: string) => s[0] + s.slice(1).toLowerCase();
	return `${title(given)} ${title(surname)}`;
}

/** What Bank Account → Look Up answers for an account number and a CBN or NIBSS bank code. */
export type AccountLookUp =
	| { found: true; accountNumber: string; accountName: string; bank: Bank }
	| { found: false; field: 'accountNumber' | 'bankCode'; status: 400 | 404; message: string };

/** The one account look-up: the API's `GET /v1/banks/account_lookup` and the Pay page's look-up box. */
export function lookUpAccount(accountNumber: string, bankCode: string): AccountLookUp {
	if (!isAccountNumber(accountNumber)) return { found: false, field: 'accountNumber', status: 400, message: '`accountNumber` must be 10 digits (NUBAN).' };
	const bank = bankByCode(bankCode);
	if (!bank) return { found: false, field: 'bankCode', status: 404, message: `No bank has the CBN or NIBSS code ${JSON.stringify(bankCode)}.` };
	if (!accountExists(accountNumber)) return { found: false, field: 'accountNumber', status: 404, message: `Account ${accountNumber} was not found at ${bank.name}.` };
	return { found: true, accountNumber, accountName: accountName(accountNumber, bank.id), bank };
}
