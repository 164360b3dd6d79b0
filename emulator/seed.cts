/**
 * Deterministic generated data: the same `seedValue` and counts give the same records (ids,
 * amounts, statuses, timestamps). Every record draws from its own PRNG (seeded from the seed
 * value, its collection and its position), so seeding more payouts does not change the
 * payments, and a record can be built on first use (see `LazyRow`): 100,000 records cost only
 * their ids, references and times at start. Records are spread over calendar year 2025 (UTC) in
 * creation order, with varied statuses and both currencies, so list filters have data to bite on.
 */
import { BANKS, DEDICATED_ACCOUNT_BANKS, personName } from './banks.cjs';
import { buildCustomer } from './customers.cjs';
import type {
	AccountRequest,
	AccountRequestMeta,
	Currency,
	Customer,
	DedicatedAccount,
	DedicatedAccountMeta,
	Invoice,
	InvoiceMeta,
	InvoiceStatus,
	Payment,
	PaymentMeta,
	PaymentStatus,
	Payout,
	PayoutStatus,
} from './models.cjs';
import { isoTime } from './models.cjs';
import { flat, mulberry32, pick, pickWeighted, randInt, randomDigits, randomHex, type Rng } from './prng.cjs';
import { buildDedicatedAccount, requestAccount } from './resources/dedicatedAccounts.cjs';
import { buildInvoice } from './resources/invoices.cjs';
import { buildPayment } from './resources/payments.cjs';
import { buildPayout, networkSessionId, PAYOUT_FAILURES } from './resources/payouts.cjs';
import { invoiceNumber, LazyRow, type Store } from './store.cjs';
import type { Collection } from './types.cjs';

const MAX_SEED_RECORDS = 100_000;
/** By default, seeded records are created between these two instants (Unix seconds). */
const SEED_FROM = Date.UTC(2025, 0, 1) / 1000;
const SEED_TO = Date.UTC(2026, 0, 1) / 1000;

/** When seeded records were created: from `from` to `to` (Unix seconds), in creation order. */
export interface SeedPeriod {
	from: number;
	to: number;
}

const DEFAULT_SEED_PERIOD: SeedPeriod = { from: SEED_FROM, to: SEED_TO };

const COLLECTION_STREAMS: Record<Collection, number> = { invoices: 1, payments: 2, payouts: 3, dedicatedAccounts: 4 };

function streamSeed(seedValue: number, collection: Collection): number {
	return (Math.imul(seedValue >>> 0, 0x9e3779b1) ^ Math.imul(COLLECTION_STREAMS[collection], 0x85ebca6b)) >>> 0;
}

/** The PRNG of one collection as a whole (shared pools: accounts, customers). */
function poolRng(seedValue: number, collection: Collection): Rng {
	return mulberry32(streamSeed(seedValue, collection));
}

/** The PRNG of record `index`. */
function recordRng(seedValue: number, collection: Collection, index: number): Rng {
	return mulberry32((streamSeed(seedValue, collection) + Math.imul(index + 1, 0x9e3779b9)) >>> 0);
}

/** A seeded id: `prefix` + 24 hex characters. */
function seededId(rng: Rng, prefix: string): string {
	return flat(prefix + randomHex(rng, 24));
}

interface Head {
	rng: Rng;
	/** Unix seconds; ascending with the index, spread over the seed period. */
	createdAt: number;
	id: string;
}

/** The first draws of every record: its time and id (known without building the record). */
function head(period: SeedPeriod, seedValue: number, collection: Collection, prefix: string, index: number, count: number): Head {
	const rng = recordRng(seedValue, collection, index);
	const createdAt = period.from + Math.floor(((index + rng()) * (period.to - period.from)) / count);
	return { rng, createdAt, id: seededId(rng, prefix) };
}

function reference(prefix: string, index: number): string {
	return flat(`seed_${prefix}_${String(index + 1).padStart(6, '0')}`);
}

function currencyOf(rng: Rng): Currency {
	return rng() < 0.8 ? 'NGN' : 'USD';
}

/** An amount in the smallest unit: NGN 10 to NGN 500,000, USD 1 to USD 5,000, in whole units. */
function amountOf(rng: Rng, currency: Currency): number {
	return currency === 'NGN' ? randInt(rng, 10, 500_000) * 100 : randInt(rng, 1, 5_000) * 100;
}

function customerPool(rng: Rng, count: number): Customer[] {
	return Array.from({ length: Math.max(1, Math.min(300, Math.ceil(count / 3))) }, (_, index) => {
		const email = `customer${String(index + 1).padStart(4, '0')}@example.com`;
		return buildCustomer({ email, name: personName(email), phoneNumber: `+23480${randomDigits(rng, 8)}` });
	});
}

const PAYOUT_STATUSES: Array<[PayoutStatus, number]> = [['succeeded', 60], ['pending', 8], ['sent', 7], ['failed', 12], ['reversed', 5], ['cancelled', 8]];
const NARRATIONS = ['Salary', 'Vendor payment', 'Refund', 'Commission', 'Supplier settlement', 'Transport allowance'];

function seedPayouts(store: Store, period: SeedPeriod, seedValue: number, count: number): void {
	const poolDraws = poolRng(seedValue, 'payouts');
	const accounts = Array.from({ length: Math.max(1, Math.min(500, Math.ceil(count / 5))) }, () => ({
		number: flat(`${randInt(poolDraws, 1, 9)}${randomDigits(poolDraws, 9)}`),
		bankId: pick(poolDraws, BANKS).id,
	}));
	const build = (index: number): { obj: Payout; meta: undefined } => {
		const { rng, createdAt, id } = head(period, seedValue, 'payouts', 'po_', index, count);
		const status = pickWeighted(rng, PAYOUT_STATUSES);
		const currency = currencyOf(rng);
		const account = pick(rng, accounts);
		const payout = buildPayout({
			id,
			reference: reference('po', index),
			amount: amountOf(rng, currency),
			currency,
			status,
			destinationAccountNumber: account.number,
			destinationBankId: account.bankId,
			callbackUrl: null,
			receiptEmail: rng() < 0.3 ? `payee${randInt(rng, 1, 999)}@example.com` : null,
			narration: rng() < 0.8 ? pick(rng, NARRATIONS) : null,
			metadata: rng() < 0.3 ? { category: pick(rng, ['payroll', 'vendors', 'refunds']) } : null,
			ip: `102.89.${randInt(rng, 0, 255)}.${randInt(rng, 1, 254)}`,
			createdAt,
			updatedAt: status === 'pending' ? createdAt : createdAt + randInt(rng, 5, 3600),
		});
		if (status === 'succeeded' || status === 'sent' || status === 'reversed') payout.networkSessionId = networkSessionId(createdAt, randomDigits(rng, 16));
		const failure = PAYOUT_FAILURES[status];
		if (failure) {
			payout.failureCode = failure.code;
			payout.failureMessage = failure.message;
		}
		if (rng() < 0.1) {
			payout.requiresConfirmation = true;
			payout.confirmationState = status === 'pending' ? 'pending' : status === 'cancelled' ? 'rejected' : 'confirmed';
			if (payout.confirmationState === 'confirmed') payout.approval = { approvedBy: 'finance@merchant.test', approvedAt: isoTime(createdAt + 300) };
		}
		if (status === 'cancelled') payout.cancellation = { cancelledBy: 'finance@merchant.test', cancelledAt: isoTime(createdAt + 600) };
		return { obj: payout, meta: undefined };
	};
	for (let index = 0; index < count; index++) {
		const { createdAt, id } = head(period, seedValue, 'payouts', 'po_', index, count);
		store.payouts.addLazy(id, reference('po', index), new LazyRow(createdAt, index, build));
	}
}

const PAYMENT_STATUSES: Array<[PaymentStatus, number]> = [['succeeded', 55], ['initiated', 10], ['awaiting_charge', 5], ['charged', 5], ['failed', 12], ['expired', 10], ['reversed', 3]];
const PAYMENT_KINDS: Array<[Payment['paymentChannel'], Payment['paymentMethod']]> = [
	['api', 'pay_with_transfer'],
	['checkout', 'card'],
	['checkout', 'bank_transfer'],
	['bank_account', 'dedicated_virtual_account'],
	['api', 'invoice_payment_account'],
];

function seedPayments(store: Store, period: SeedPeriod, seedValue: number, count: number): void {
	const pool = customerPool(poolRng(seedValue, 'payments'), count);
	const build = (index: number): { obj: Payment; meta: PaymentMeta } => {
		const { rng, createdAt, id } = head(period, seedValue, 'payments', 'pi_', index, count);
		const status = pickWeighted(rng, PAYMENT_STATUSES);
		const currency = currencyOf(rng);
		const customer = pick(rng, pool);
		const [paymentChannel, method] = pick(rng, PAYMENT_KINDS);
		const payment = buildPayment({
			id,
			reference: reference('pi', index),
			currency,
			status,
			accessToken: randomHex(rng, 40),
			paymentMethod: status === 'initiated' && paymentChannel === 'checkout' ? null : method,
			paymentChannel,
			customerId: customer.id,
			expectedAmount: amountOf(rng, currency),
			callbackUrl: null,
			returnUrl: paymentChannel === 'checkout' ? 'https://shop.example.com/thanks' : null,
			receiptEmail: customer.email,
			metadata: rng() < 0.3 ? { orderId: `ord_${randomDigits(rng, 6)}` } : {},
			createdAt,
			updatedAt: status === 'initiated' ? createdAt : createdAt + randInt(rng, 5, 1800),
		});
		return { obj: payment, meta: { customer, expiresAt: isoTime(createdAt + 1800), transferAccount: null } };
	};
	for (let index = 0; index < count; index++) {
		const { createdAt, id } = head(period, seedValue, 'payments', 'pi_', index, count);
		store.payments.addLazy(id, reference('pi', index), new LazyRow(createdAt, index, build));
	}
}

const INVOICE_STATUSES: Array<[InvoiceStatus, number]> = [['paid', 35], ['open', 25], ['draft', 10], ['partially_paid', 12], ['cancelled', 8]];
const PRODUCTS = ['Consulting (hour)', 'Website maintenance', 'Catering tray', 'Delivery', 'Training seat', 'Office supplies', 'Hosting (month)'];

function seedInvoices(store: Store, period: SeedPeriod, seedValue: number, count: number, baseUrl: string): void {
	const pool = customerPool(poolRng(seedValue, 'invoices'), count);
	const firstNumber = store.invoiceCount + 1;
	const build = (index: number): { obj: Invoice; meta: InvoiceMeta } => {
		const { rng, createdAt, id } = head(period, seedValue, 'invoices', 'inv_', index, count);
		const status = pickWeighted(rng, INVOICE_STATUSES);
		const currency = currencyOf(rng);
		const customer = pick(rng, pool);
		const acceptPartialPayments = status === 'partially_paid' || rng() < 0.15;
		const items = Array.from({ length: randInt(rng, 1, 3) }, () => ({
			id: seededId(rng, 'item_'),
			name: pick(rng, PRODUCTS),
			quantity: randInt(rng, 1, 5),
			price: Math.max(100, Math.round(amountOf(rng, currency) / 10 / 100) * 100),
		}));
		const invoice = buildInvoice({
			id,
			status,
			customerId: customer.id,
			description: `Invoice for ${customer.name}`,
			currency,
			reference: reference('inv', index),
			sendEmail: rng() < 0.5,
			dueDate: isoTime(createdAt + randInt(rng, 7, 60) * 86_400),
			number: invoiceNumber(firstNumber + index),
			amountPaid: 0,
			taxRates: [],
			items,
			hostedInvoiceUrl: `${baseUrl}/pay/${id}`,
			maxInstallments: acceptPartialPayments ? randInt(rng, 2, 6) : 1,
		});
		if (status === 'paid') invoice.amountPaid = invoice.amountDue;
		if (status === 'partially_paid') invoice.amountPaid = Math.max(1, Math.floor(invoice.amountDue * (0.2 + rng() * 0.6)));
		const meta: InvoiceMeta = {
			updatedAt: createdAt,
			customer: { email: customer.email, name: customer.name, address: null },
			acceptPartialPayments,
			callbackUrl: null,
			returnUrl: null,
			metadata: {},
			cancellationReason: status === 'cancelled' ? 'Issued in error' : null,
		};
		return { obj: invoice, meta };
	};
	for (let index = 0; index < count; index++) {
		const { createdAt, id } = head(period, seedValue, 'invoices', 'inv_', index, count);
		store.invoices.addLazy(id, reference('inv', index), new LazyRow(createdAt, index, build));
	}
	store.invoiceCount += count;
}

function seedDedicatedAccounts(store: Store, period: SeedPeriod, seedValue: number, count: number): void {
	const poolDraws = poolRng(seedValue, 'dedicatedAccounts');
	const owners = Array.from({ length: Math.max(1, Math.ceil(count / 2)) }, (_, index) => ({
		email: `holder${String(index + 1).padStart(5, '0')}@example.com`,
		bvn: `22${randomDigits(poolDraws, 9)}`,
	}));
	const keysOf = (index: number) => {
		const { rng, createdAt, id } = head(period, seedValue, 'dedicatedAccounts', 'va_', index, count);
		return { rng, createdAt, id, code: seededId(rng, 'acc_req_') };
	};
	const build = (index: number): { obj: DedicatedAccount; meta: DedicatedAccountMeta } => {
		const { rng, createdAt, id, code } = keysOf(index);
		const owner = pick(rng, owners);
		const account = buildDedicatedAccount({
			id,
			accountRequestCode: code,
			customerId: buildCustomer({ email: owner.email }).id,
			accountNumber: `${randInt(rng, 1, 9)}${randomDigits(rng, 9)}`,
			accountName: personName(owner.email),
			bank: pick(rng, DEDICATED_ACCOUNT_BANKS),
			currency: currencyOf(rng),
			status: rng() < 0.85 ? 'active' : 'inactive',
			createdAt,
		});
		return { obj: account, meta: { bvn: owner.bvn } };
	};
	for (let index = 0; index < count; index++) {
		const { createdAt, id, code } = keysOf(index);
		const accountRow = new LazyRow(createdAt, index, build);
		store.dedicatedAccounts.addLazy(id, undefined, accountRow);
		const buildRequest = (): { obj: AccountRequest; meta: AccountRequestMeta } => {
			const account = accountRow.obj;
			return {
				obj: { accountRequestCode: code, status: 'active', liveMode: false, account: requestAccount(account) },
				meta: { callbackUrl: null, currency: account.currency, bankId: account.bankId, accountName: account.accountName, customerId: account.customerId, bvn: accountRow.meta.bvn },
			};
		};
		store.accountRequests.addLazy(code, undefined, new LazyRow(createdAt, index, buildRequest));
	}
}

/** Throws when a count is not a whole number from 0 to 100,000 or names no collection. */
export function checkSeedCounts(counts: Partial<Record<Collection, number>>): void {
	for (const [collection, raw] of Object.entries(counts) as Array<[Collection, number | undefined]>) {
		if (!(collection in COLLECTION_STREAMS)) throw new Error(`Unknown collection to seed: ${collection}`);
		const count = raw ?? 0;
		if (!Number.isInteger(count) || count < 0 || count > MAX_SEED_RECORDS) {
			throw new Error(`Seed count for ${collection} must be an integer from 0 to ${MAX_SEED_RECORDS} (got ${raw}).`);
		}
	}
}

/** Fills `store` with `counts` generated records per collection (each 0..100,000). */
export function seedStore(
	store: Store,
	counts: Partial<Record<Collection, number>>,
	seedValue: number,
	baseUrl: string,
	period: SeedPeriod = DEFAULT_SEED_PERIOD,
): void {
	if (!(Number.isInteger(period.from) && Number.isInteger(period.to) && period.to > period.from)) {
		throw new Error(`The seed period must be two whole Unix times, the first before the second (got ${period.from} to ${period.to}).`);
	}
	checkSeedCounts(counts);
	const generators: Record<Collection, (count: number) => void> = {
		invoices: (count) => seedInvoices(store, period, seedValue, count, baseUrl),
		payments: (count) => seedPayments(store, period, seedValue, count),
		payouts: (count) => seedPayouts(store, period, seedValue, count),
		dedicatedAccounts: (count) => seedDedicatedAccounts(store, period, seedValue, count),
	};
	for (const collection of Object.keys(COLLECTION_STREAMS) as Collection[]) {
		const count = counts[collection] ?? 0;
		if (count > 0) generators[collection](count);
	}
}
