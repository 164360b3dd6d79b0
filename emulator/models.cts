/**
 * The shapes the emulator answers with: exactly the field tables of the service interface
 * (seed part 2). Every field is always present; fields that may be empty are `null`.
 */
import { flat } from './prng.cjs';

export const CURRENCIES = ['NGN', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'partially_paid', 'cancelled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const PAYMENT_STATUSES = ['initiated', 'awaiting_charge', 'charged', 'failed', 'expired', 'reversed', 'succeeded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYOUT_STATUSES = ['pending', 'succeeded', 'failed', 'reversed', 'sent', 'cancelled'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

type AcceptedAmountPolicy =
	| 'ACCEPTED_AMOUNT_POLICY_FIXED'
	| 'ACCEPTED_AMOUNT_POLICY_ALLOW_PARTIAL'
	| 'ACCEPTED_AMOUNT_POLICY_ALLOW_EXCESS'
	| 'ACCEPTED_AMOUNT_POLICY_ALLOW_ANY';

type Metadata = Record<string, unknown>;

export interface InvoiceItem {
	id: string;
	name: string;
	quantity: number;
	price: number;
}

/** 2.1 */
export interface Invoice {
	id: string;
	status: InvoiceStatus;
	customerId: string;
	description: string;
	currency: Currency;
	reference: string;
	sendEmail: boolean;
	dueDate: string;
	liveMode: boolean;
	number: string;
	amountDue: number;
	amountPaid: number;
	totalInclusiveTaxAmount: number;
	totalExclusiveTaxAmount: number;
	taxRateIds: string[];
	items: InvoiceItem[];
	hostedInvoiceUrl: string;
	maxInstallments: number;
}

/** What the service keeps about an invoice beyond its response fields. */
export interface InvoiceMeta {
	updatedAt: number;
	customer: { email: string; name: string; address: string | null };
	acceptPartialPayments: boolean;
	callbackUrl: string | null;
	returnUrl: string | null;
	metadata: Metadata;
	cancellationReason: string | null;
}

/** 2.2 */
export interface TaxRate {
	id: string;
	name: string;
	inclusive: boolean;
	description: string;
	active: boolean;
	percentage: number;
	taxType: 'vat' | 'sales_tax';
	rateType: 'fixed_amount' | 'percentage';
	fixedAmount: number;
	liveMode: boolean;
	createdAt: string;
	updatedAt: string;
	metadata: Metadata;
}

/** 2.3 */
export interface Customer {
	id: string;
	name: string;
	email: string;
	phoneNumber: string;
	address: string;
	reference: string;
	isBlacklisted: boolean;
	liveMode: boolean;
}

/** 2.4 */
export interface Payment {
	id: string;
	reference: string;
	currency: Currency;
	status: PaymentStatus;
	accessToken: string;
	acceptedAmountPolicy: AcceptedAmountPolicy;
	paymentMethod: 'pay_with_transfer' | 'card' | 'dedicated_virtual_account' | 'invoice_payment_account' | 'bank_transfer' | null;
	paymentChannel: 'checkout' | 'terminal' | 'api' | 'bank_account';
	customerId: string;
	expectedAmount: number;
	chargedAmount: number;
	fee: number;
	vat: number;
	emtl: number;
	callbackUrl: string | null;
	returnUrl: string | null;
	receiptEmail: string | null;
	metadata: Metadata;
	liveMode: boolean;
	createdAt: string;
	updatedAt: string;
}

export interface PaymentMeta {
	customer: Customer;
	expiresAt: string;
	/** The account a pay-by-transfer payment is paid into. */
	transferAccount: { accountName: string; accountNumber: string; bankName: string } | null;
}

/** 2.7 */
export interface Payout {
	id: string;
	reference: string;
	amount: number;
	currency: Currency;
	status: PayoutStatus;
	destinationAccountNumber: string;
	destinationBankId: string;
	fee: number;
	vat: number;
	networkSessionId: string | null;
	requiresConfirmation: boolean;
	confirmationState: 'pending' | 'confirmed' | 'rejected';
	callbackUrl: string | null;
	receiptEmail: string | null;
	narration: string | null;
	metadata: Metadata | null;
	failureCode: string | null;
	failureMessage: string | null;
	liveMode: boolean;
	initiation: { actor: string; ip: string; user: { email: string }; apiKey: { description: string } };
	approval: { approvedBy: string; approvedAt: string } | null;
	cancellation: { cancelledBy: string; cancelledAt: string } | null;
	createdAt: string;
	updatedAt: string;
}

export interface BankRef {
	id: string;
	name: string;
	cbnCode: string;
	nibssCode: string;
}

/** 2.11 */
export interface DedicatedAccount {
	id: string;
	accountRequestCode: string;
	customerId: string;
	accountNumber: string;
	accountName: string;
	bankName: string;
	bankId: string;
	currency: Currency;
	acceptedAmountPolicy: AcceptedAmountPolicy;
	status: string;
	type: string;
	liveMode: boolean;
	createdAt: string;
	updatedAt: string;
	bank: BankRef;
}

export interface DedicatedAccountMeta {
	bvn: string | null;
}

/** 2.10 */
export interface AccountRequest {
	accountRequestCode: string;
	status: string;
	liveMode: boolean;
	account: {
		id: string;
		accountName: string;
		accountNumber: string;
		bankName: string;
		bankId: string;
		currency: Currency;
	} | null;
}

export interface AccountRequestMeta {
	callbackUrl: string | null;
	currency: Currency;
	bankId: string;
	accountName: string;
	customerId: string;
	bvn: string | null;
}

const dayPrefixes = new Map<number, string>();
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** Date-time in the form the service uses (ISO 8601, UTC, e.g. `2025-03-01T09:30:00.000Z`). */
export function isoTime(seconds: number): string {
	const whole = Math.floor(seconds);
	const day = Math.floor(whole / 86_400);
	let prefix = dayPrefixes.get(day);
	if (prefix === undefined) {
		prefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
		if (dayPrefixes.size < 100_000) dayPrefixes.set(day, prefix);
	}
	const rest = whole - day * 86_400;
	return flat(`${prefix}${two(Math.floor(rest / 3600))}:${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}.000Z`);
}

/** The date form of dedicated-account list items (YYYY-MM-DD). */
export function isoDate(seconds: number): string {
	return isoTime(seconds).slice(0, 10);
}
