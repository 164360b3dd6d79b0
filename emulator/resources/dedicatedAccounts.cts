/**
 * POST /v1/dedicated_accounts (202), GET /v1/dedicated_accounts, GET /v1/dedicated_accounts/{id},
 * GET /v1/dedicated_accounts/requests/{code}/status, and activating a request (the customer's
 * consent), which opens the account.
 */
import { bankById, bankBySlug, bankRef, DEFAULT_DEDICATED_ACCOUNT_BANK, type Bank } from '../banks.cjs';
import { customerId } from '../customers.cjs';
import { invalidField, invalidState, notFound } from '../errors.cjs';
import { listPage } from '../lists.cjs';
import { CURRENCIES, isoDate, type AccountRequest, type Currency, type DedicatedAccount } from '../models.cjs';
import type { Core, Router } from '../router.cjs';
import { bodyObject, Fields } from '../validate.cjs';

const AWAITING_CONSENT = 'awaiting_customer_consent';

/** Every dedicated account, created or seeded, is built here (field order of seed 2.11). */
export function buildDedicatedAccount(input: {
	id: string;
	accountRequestCode: string;
	customerId: string;
	accountNumber: string;
	accountName: string;
	bank: Bank;
	currency: Currency;
	status: string;
	createdAt: number;
	updatedAt?: number;
}): DedicatedAccount {
	return {
		id: input.id,
		accountRequestCode: input.accountRequestCode,
		customerId: input.customerId,
		accountNumber: input.accountNumber,
		accountName: input.accountName,
		bankName: input.bank.name,
		bankId: input.bank.id,
		currency: input.currency,
		acceptedAmountPolicy: 'ACCEPTED_AMOUNT_POLICY_ALLOW_ANY',
		status: input.status,
		type: 'temporary_virtual_account',
		liveMode: false,
		createdAt: isoDate(input.createdAt),
		updatedAt: isoDate(input.updatedAt ?? input.createdAt),
		bank: bankRef(input.bank),
	};
}

/** The `account` member of a request's status (2.10). */
export function requestAccount(account: DedicatedAccount): NonNullable<AccountRequest['account']> {
	return {
		id: account.id,
		accountName: account.accountName,
		accountNumber: account.accountNumber,
		bankName: account.bankName,
		bankId: account.bankId,
		currency: account.currency,
	};
}

/**
 * The BVN among the identities: the one typed `bvn` (which must be 11 digits, as every BVN is),
 * else an untyped 11-digit number.
 */
function bvnOf(identities: Fields[]): string | null {
	for (const [index, identity] of identities.entries()) {
		const type = identity.string('type');
		const number = identity.string('number', { required: true }) as string;
		if (type?.toLowerCase() === 'bvn') {
			if (!/^\d{11}$/.test(number)) throw invalidField(`kycProfile.identities[${index}].number`, 'A BVN has exactly 11 digits.');
			return number;
		}
		if (type === undefined && /^\d{11}$/.test(number)) return number;
	}
	return null;
}

export function registerDedicatedAccounts(router: Router, core: Core): void {
	const { store } = core;

	router.add('POST', '/v1/dedicated_accounts', (ctx) => {
		const f = new Fields(bodyObject(ctx.body, ctx.rawBody));
		const accountType = f.oneOf('accountType', ['individual', 'business'] as const) ?? 'individual';
		const currency = f.oneOf('currency', CURRENCIES, { required: true }) as Currency;
		// `safehaven_mfb` is the one documented value; any string is accepted.
		const preferredBank = f.string('preferredBank');
		const callbackUrl = f.url('callbackUrl') ?? null;
		let accountName: string;
		let owner: string;
		let bvn: string | null = null;
		if (accountType === 'individual') {
			const email = f.email('email', { required: true }) as string;
			const kyc = f.object('kycProfile', { required: true }) as Fields;
			const firstName = kyc.string('firstName', { required: true }) as string;
			const lastName = kyc.string('lastName', { required: true }) as string;
			kyc.string('phoneNumber', { required: true });
			kyc.date('dateOfBirth', { required: true });
			kyc.string('otherName');
			kyc.string('bankAccountNumber');
			kyc.string('bankId');
			kyc.string('gender');
			kyc.string('countryOfOrigin');
			bvn = bvnOf(kyc.objects('identities', { required: true, minItems: 1 }) as Fields[]);
			accountName = f.string('accountName') ?? `${firstName} ${lastName}`;
			owner = email;
		} else {
			// The business body is not published: only the name is required here.
			accountName = f.string('accountName', { required: true }) as string;
			owner = f.email('email') ?? accountName;
		}
		const bank = (preferredBank && bankBySlug(preferredBank)) || DEFAULT_DEDICATED_ACCOUNT_BANK;

		const code = store.newId('acc_req_', store.accountRequests);
		store.accountRequests.add({ accountRequestCode: code, status: AWAITING_CONSENT, liveMode: false, account: null }, core.nowSeconds(), {
			callbackUrl,
			currency,
			bankId: bank.id,
			accountName,
			customerId: customerId(owner),
			bvn,
		});
		return {
			status: 202,
			body: {
				status: AWAITING_CONSENT,
				accountRequestCode: code,
				message: 'Account request received: the customer must give consent before the account is opened.',
			},
		};
	});

	router.add('GET', '/v1/dedicated_accounts', (ctx) => ({
		status: 200,
		body: listPage(store.dedicatedAccounts, ctx.query, {
			name: 'dedicated_accounts',
			filters: {
				bvn: (row, value) => row.meta.bvn === value,
				currency: (row, value) => row.obj.currency === value,
				customerId: (row, value) => row.obj.customerId === value,
			},
			present: (row) => row.obj,
		}),
	}));

	router.add('GET', '/v1/dedicated_accounts/requests/:code/status', (ctx) => {
		const row = store.accountRequests.get(ctx.params.code);
		if (!row) throw notFound('dedicated account request', ctx.params.code);
		return { status: 200, body: row.obj };
	});

	router.add('GET', '/v1/dedicated_accounts/:id', (ctx) => {
		const row = store.dedicatedAccounts.get(ctx.params.id);
		if (!row) throw notFound('dedicated account', ctx.params.id);
		return { status: 200, body: row.obj };
	});
}

/**
 * The customer consented: opens the account (status `active`), attaches it to the request, and
 * sends `DEDICATED_ACCOUNT_ACTIVATED` with the account as data. Returns the request status.
 */
export function activateAccountRequest(core: Core, code: string): AccountRequest {
	const { store } = core;
	const row = store.accountRequests.get(code);
	if (!row) throw notFound('dedicated account request', code);
	if (row.obj.status !== AWAITING_CONSENT) throw invalidState(`Account request ${code} is ${row.obj.status}; it can be activated only once.`);
	const now = core.nowSeconds();
	const account = buildDedicatedAccount({
		id: store.newId('va_', store.dedicatedAccounts),
		accountRequestCode: code,
		customerId: row.meta.customerId,
		accountNumber: `8${String(parseInt(store.hex(12), 16)).padStart(9, '0').slice(-9)}`,
		accountName: row.meta.accountName,
		bank: bankById(row.meta.bankId) ?? DEFAULT_DEDICATED_ACCOUNT_BANK,
		currency: row.meta.currency,
		status: 'active',
		createdAt: now,
	});
	store.dedicatedAccounts.add(account, now, { bvn: row.meta.bvn });
	row.obj.status = 'active';
	row.obj.account = requestAccount(account);
	core.dispatcher.send(row.meta.callbackUrl, 'DEDICATED_ACCOUNT_ACTIVATED', account);
	return row.obj;
}
