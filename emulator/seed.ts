/**
 * Deterministic generated data: the same `seedValue` and counts give the same records (ids,
 * amounts, statuses, timestamps). Each collection has its own PRNG stream, so seeding more
 * payouts does not change the payments. Records are spread over calendar year 2025 (UTC) in
 * creation order, with varied statuses and both currencies, so list filters have data to bite on.
 */
import { BANKS, DEDICATED_ACCOUNT_BANKS, personName } from './banks';
import { buildCustomer } from './customers';
import type { Currency, InvoiceStatus, PaymentStatus, PayoutStatus } from './models';
import { isoTime, type Payment } from './models';
import { mulberry32, pick, pickWeighted, randInt, randomDigits, randomHex, type Rng } from './prng';
import { buildDedicatedAccount, requestAccount } from './resources/dedicatedAccounts';
import { buildInvoice } from './resources/invoices';
import { buildPayment } from './resources/payments';
import { buildPayout, networkSessionId, PAYOUT_FAILURES } from './resources/payouts';
import type { Store } from './store';
import type { Collection } from './types';

export const MAX_SEED_RECORDS = 100_000;
/** Seeded records are created between these two instants (Unix seconds). */
export const SEED_FROM = Date.UTC(2025, 0, 1) / 1000;
export const SEED_TO = Date.UTC(2026, 0, 1) / 1000;

const COLLECTION_STREAMS: Record<Collection, number> = { invoices: 1, payments: 2, payouts: 3, dedicatedAccounts: 4 };

function streamFor(seedValue: number, collection: Collection): Rng {
	return mulberry32((Math.imul(seedValue >>> 0, 0x9e3779b1) ^ Math.imul(COLLECTION_STREAMS[collection], 0x85ebca6b)) >>> 0);
}

/** Creation time of record `index` of `count`: ascending, spread over the seed period. */
function timeOf(rng: Rng, index: number, count: number): number {
	return SEED_FROM + Math.floor(((index + rng()) * (SEED_TO - SEED_FROM)) / count);
}

function uniqueId(rng: Rng, prefix: string, table: { hasKey(key: string): boolean }): string {
	for (;;) {
		const id = prefix + randomHex(rng, 24);
		if (!table.hasKey(id)) return id;
	}
}

function currencyOf(rng: Rng): Currency {
	return rng() < 0.8 ? 'NGN' : 'USD';
}

/** An amount in the smallest unit: NGN 10 to NGN 500,000, USD 1 to USD 5,000, in whole units. */
function amountOf(rng: Rng, currency: Currency): number {
	return currency === 'NGN' ? randInt(rng, 10, 500_000) * 100 : randInt(rng, 1, 5_000) * 100;
}

function customers(rng: Rng, count: number) {
	return Array.from({ length: count }, (_, index) => {
		const email = `customer${String(index + 1).padStart(4, '0')}@example.com`;
		return buildCustomer({ email, name: personName(email), phoneNumber: `+23480${randomDigits(rng, 8)}` });
	});
}

function reference(prefix: string, index: number): string {
	return `seed_${prefix}_${String(index + 1).padStart(6, '0')}`;
}

function seedPayouts(store: Store, rng: Rng, count: number): void {
	const accounts = Array.from({ length: Math.max(1, Math.min(500, Math.ceil(count / 5))) }, () => ({
		number: `${randInt(rng, 1, 9)}${randomDigits(rng, 9)}`,
		bankId: pick(rng, BANKS).id,
	}));
	const statuses: Array<[PayoutStatus, number]> = [['succeeded', 60], ['pending', 8], ['sent', 7], ['failed', 12], ['reversed', 5], ['cancelled', 8]];
	const narrations = ['Salary', 'Vendor payment', 'Refund', 'Commission', 'Supplier settlement', 'Transport allowance'];
	for (let index = 0; index < count; index++) {
		const createdAt = timeOf(rng, index, count);
		const status = pickWeighted(rng, statuses);
		const currency = currencyOf(rng);
		const account = pick(rng, accounts);
		const payout = buildPayout({
			id: uniqueId(rng, 'po_', store.payouts),
			reference: reference('po', index),
			amount: amountOf(rng, currency),
			currency,
			status,
			destinationAccountNumber: account.number,
			destinationBankId: account.bankId,
			callbackUrl: null,
			receiptEmail: rng() < 0.3 ? `payee${randInt(rng, 1, 999)}@example.com` : null,
			narration: rng() < 0.8 ? pick(rng, narrations) : null,
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
		store.payouts.add(payout, createdAt, undefined);
	}
}

function seedPayments(store: Store, rng: Rng, count: number): void {
	const pool = customers(rng, Math.max(1, Math.min(300, Math.ceil(count / 3))));
	const statuses: Array<[PaymentStatus, number]> = [['succeeded', 55], ['initiated', 10], ['awaiting_charge', 5], ['charged', 5], ['failed', 12], ['expired', 10], ['reversed', 3]];
	const kinds: Array<[Payment['paymentChannel'], Payment['paymentMethod']]> = [
		['api', 'pay_with_transfer'],
		['checkout', 'card'],
		['checkout', 'bank_transfer'],
		['bank_account', 'dedicated_virtual_account'],
		['api', 'invoice_payment_account'],
	];
	for (let index = 0; index < count; index++) {
		const createdAt = timeOf(rng, index, count);
		const status = pickWeighted(rng, statuses);
		const currency = currencyOf(rng);
		const customer = pick(rng, pool);
		const [paymentChannel, method] = pick(rng, kinds);
		const payment = buildPayment({
			id: uniqueId(rng, 'pi_', store.payments),
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
		store.payments.add(payment, createdAt, { customer, expiresAt: isoTime(createdAt + 1800), transferAccount: null });
	}
}

function seedInvoices(store: Store, rng: Rng, count: number, baseUrl: string): void {
	const pool = customers(rng, Math.max(1, Math.min(300, Math.ceil(count / 3))));
	const statuses: Array<[InvoiceStatus, number]> = [['paid', 35], ['open', 25], ['draft', 10], ['partially_paid', 12], ['cancelled', 8]];
	const products = ['Consulting (hour)', 'Website maintenance', 'Catering tray', 'Delivery', 'Training seat', 'Office supplies', 'Hosting (month)'];
	for (let index = 0; index < count; index++) {
		const createdAt = timeOf(rng, index, count);
		const status = pickWeighted(rng, statuses);
		const currency = currencyOf(rng);
		const customer = pick(rng, pool);
		const id = uniqueId(rng, 'inv_', store.invoices);
		const acceptPartialPayments = status === 'partially_paid' || rng() < 0.15;
		const items = Array.from({ length: randInt(rng, 1, 3) }, () => ({
			id: `item_${randomHex(rng, 24)}`,
			name: pick(rng, products),
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
			number: store.nextInvoiceNumber(),
			amountPaid: 0,
			taxRates: [],
			items,
			hostedInvoiceUrl: `${baseUrl}/pay/${id}`,
			maxInstallments: acceptPartialPayments ? randInt(rng, 2, 6) : 1,
		});
		if (status === 'paid') invoice.amountPaid = invoice.amountDue;
		if (status === 'partially_paid') invoice.amountPaid = Math.max(1, Math.floor(invoice.amountDue * (0.2 + rng() * 0.6)));
		store.invoices.add(invoice, createdAt, {
			updatedAt: createdAt,
			customer: { email: customer.email, name: customer.name, address: null },
			acceptPartialPayments,
			callbackUrl: null,
			returnUrl: null,
			metadata: {},
			cancellationReason: status === 'cancelled' ? 'Issued in error' : null,
		});
	}
}

function seedDedicatedAccounts(store: Store, rng: Rng, count: number): void {
	const owners = Array.from({ length: Math.max(1, Math.ceil(count / 2)) }, (_, index) => ({
		email: `holder${String(index + 1).padStart(5, '0')}@example.com`,
		bvn: `22${randomDigits(rng, 9)}`,
	}));
	for (let index = 0; index < count; index++) {
		const createdAt = timeOf(rng, index, count);
		const owner = pick(rng, owners);
		const code = uniqueId(rng, 'acc_req_', store.accountRequests);
		const account = buildDedicatedAccount({
			id: uniqueId(rng, 'va_', store.dedicatedAccounts),
			accountRequestCode: code,
			customerId: buildCustomer({ email: owner.email }).id,
			accountNumber: `${randInt(rng, 1, 9)}${randomDigits(rng, 9)}`,
			accountName: personName(owner.email),
			bank: pick(rng, DEDICATED_ACCOUNT_BANKS),
			currency: currencyOf(rng),
			status: rng() < 0.85 ? 'active' : 'inactive',
			createdAt,
		});
		store.dedicatedAccounts.add(account, createdAt, { bvn: owner.bvn });
		store.accountRequests.add({ accountRequestCode: code, status: 'active', liveMode: false, account: requestAccount(account) }, createdAt, {
			callbackUrl: null,
			currency: account.currency,
			bankId: account.bankId,
			accountName: account.accountName,
			customerId: account.customerId,
			bvn: owner.bvn,
		});
	}
}

/** Fills `store` with `counts` generated records per collection (each 0..100,000). */
export function seedStore(store: Store, counts: Partial<Record<Collection, number>>, seedValue: number, baseUrl: string): void {
	for (const [collection, raw] of Object.entries(counts) as Array<[Collection, number | undefined]>) {
		if (!(collection in COLLECTION_STREAMS)) throw new Error(`Unknown collection to seed: ${collection}`);
		const count = raw ?? 0;
		if (!Number.isInteger(count) || count < 0 || count > MAX_SEED_RECORDS) {
			throw new Error(`Seed count for ${collection} must be an integer from 0 to ${MAX_SEED_RECORDS} (got ${raw}).`);
		}
	}
	const generators: Record<Collection, (rng: Rng, count: number) => void> = {
		invoices: (rng, count) => seedInvoices(store, rng, count, baseUrl),
		payments: (rng, count) => seedPayments(store, rng, count),
		payouts: (rng, count) => seedPayouts(store, rng, count),
		dedicatedAccounts: (rng, count) => seedDedicatedAccounts(store, rng, count),
	};
	for (const collection of Object.keys(COLLECTION_STREAMS) as Collection[]) {
		const count = counts[collection] ?? 0;
		if (count > 0) generators[collection](streamFor(seedValue, collection), count);
	}
}
