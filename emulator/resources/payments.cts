/**
 * POST /v1/payments (pay by transfer), POST /v1/payments/checkout, GET /v1/payments,
 * GET /v1/payments/{id}, GET /v1/payments/{reference}/verify, and completing a payment.
 */
import { DEFAULT_DEDICATED_ACCOUNT_BANK } from '../banks.cjs';
import { buildCustomer } from '../customers.cjs';
import { duplicateReference, invalidField, invalidState, notFound } from '../errors.cjs';
import { listPage } from '../lists.cjs';
import { CURRENCIES, isoTime, PAYMENT_STATUSES, type Currency, type Customer, type Payment, type PaymentStatus } from '../models.cjs';
import { paymentCharges } from '../money.cjs';
import { hash32 } from '../prng.cjs';
import type { Core, Router } from '../router.cjs';
import { bodyObject, Fields } from '../validate.cjs';

/** Expiry of a checkout link when the request names none (the real period is not published). */
const DEFAULT_CHECKOUT_EXPIRY_SECONDS = 1800;
const MERCHANT_ACCOUNT_NAME = 'PAYCASHLESS EMULATOR MERCHANT';

interface CommonPaymentInput {
	reference: string;
	amount: { value: number; currency: Currency };
	customer: Customer;
	callbackUrl: string | null;
	metadata: Record<string, unknown>;
	expiresIn: number | undefined;
}

/** Fields both kinds of payment creation share; everything is validated before anything is stored. */
function readCommon(core: Core, f: Fields, expiresInRequired: boolean): CommonPaymentInput {
	const reference = f.string('reference', { required: true }) as string;
	const amountFields = f.object('amount', { required: true }) as Fields;
	const amount = {
		value: amountFields.amount('value', { required: true }) as number,
		currency: amountFields.oneOf('currency', CURRENCIES, { required: true }) as Currency,
	};
	const customerFields = f.object('customer', { required: true }) as Fields;
	const customer = buildCustomer({
		email: customerFields.email('email', { required: true }) as string,
		name: customerFields.string('name'),
		phoneNumber: customerFields.string('phoneNumber'),
		address: customerFields.string('address'),
		reference: customerFields.string('reference'),
	});
	const expiresIn = f.integer('expiresIn', { required: expiresInRequired, min: 1, max: 31 * 86_400 });
	const callbackUrl = f.url('callbackUrl') ?? null;
	const metadata = f.metadata('metadata') ?? {};
	if (core.store.payments.getByReference(reference)) throw duplicateReference('payment', reference);
	return { reference, amount, customer, callbackUrl, metadata, expiresIn };
}

/** Every payment, created or seeded, is built here (field order of seed 2.4). */
export function buildPayment(input: {
	id: string;
	reference: string;
	currency: Currency;
	status: PaymentStatus;
	accessToken: string;
	paymentMethod: Payment['paymentMethod'];
	paymentChannel: Payment['paymentChannel'];
	customerId: string;
	expectedAmount: number;
	callbackUrl: string | null;
	returnUrl: string | null;
	receiptEmail: string | null;
	metadata: Record<string, unknown>;
	createdAt: number;
	updatedAt: number;
	acceptedAmountPolicy?: Payment['acceptedAmountPolicy'];
}): Payment {
	const payment: Payment = {
		id: input.id,
		reference: input.reference,
		currency: input.currency,
		status: input.status,
		accessToken: input.accessToken,
		acceptedAmountPolicy: input.acceptedAmountPolicy ?? 'ACCEPTED_AMOUNT_POLICY_FIXED',
		paymentMethod: input.paymentMethod,
		paymentChannel: input.paymentChannel,
		customerId: input.customerId,
		expectedAmount: input.expectedAmount,
		chargedAmount: 0,
		fee: 0,
		vat: 0,
		emtl: 0,
		callbackUrl: input.callbackUrl,
		returnUrl: input.returnUrl,
		receiptEmail: input.receiptEmail,
		metadata: input.metadata,
		liveMode: false,
		createdAt: isoTime(input.createdAt),
		updatedAt: isoTime(input.updatedAt),
	};
	applyCharges(payment);
	return payment;
}

/** Statuses in which money was taken: charged amount and fees are filled. */
const CHARGED: readonly PaymentStatus[] = ['charged', 'succeeded', 'reversed'];

function applyCharges(payment: Payment): void {
	if (CHARGED.includes(payment.status)) {
		payment.chargedAmount = payment.expectedAmount;
		Object.assign(payment, paymentCharges(payment.currency, payment.chargedAmount));
	} else {
		Object.assign(payment, { chargedAmount: 0, fee: 0, vat: 0, emtl: 0 });
	}
}

/** The account a pay-by-transfer payment is paid into: derived from the payment id. */
function transferAccount(paymentId: string): { accountName: string; accountNumber: string; bankName: string } {
	const accountNumber = `9${String(hash32(paymentId)).padStart(10, '0').slice(-9)}`;
	return { accountName: MERCHANT_ACCOUNT_NAME, accountNumber, bankName: DEFAULT_DEDICATED_ACCOUNT_BANK.name };
}

export function registerPayments(router: Router, core: Core): void {
	const { store } = core;

	/** Stores a new `initiated` payment; pay-by-transfer ones get the account to pay into. */
	function storeNewPayment(
		input: CommonPaymentInput,
		expiresInSeconds: number,
		kind: Pick<Payment, 'paymentMethod' | 'paymentChannel' | 'returnUrl'>,
	) {
		const now = core.nowSeconds();
		const id = store.newId('pi_', store.payments);
		const expiresAt = isoTime(now + expiresInSeconds);
		const account = kind.paymentMethod === 'pay_with_transfer' ? transferAccount(id) : null;
		const payment = buildPayment({
			id,
			reference: input.reference,
			currency: input.amount.currency,
			status: 'initiated',
			accessToken: store.hex(40),
			...kind,
			customerId: input.customer.id,
			expectedAmount: input.amount.value,
			callbackUrl: input.callbackUrl,
			receiptEmail: input.customer.email,
			metadata: input.metadata,
			createdAt: now,
			updatedAt: now,
		});
		store.payments.add(payment, now, { customer: input.customer, expiresAt, transferAccount: account });
		return { id, expiresAt, account };
	}

	router.add('POST', '/v1/payments', (ctx) => {
		const f = new Fields(bodyObject(ctx.body, ctx.rawBody));
		f.oneOf('paymentMethod', ['pay_with_transfer'] as const);
		const input = readCommon(core, f, true);
		const { id, expiresAt, account } = storeNewPayment(input, input.expiresIn as number, {
			paymentMethod: 'pay_with_transfer',
			paymentChannel: 'api',
			returnUrl: null,
		});
		if (!account) throw new Error('a pay-by-transfer payment always has an account to pay into');
		return {
			status: 200,
			body: {
				id,
				reference: input.reference,
				accountName: account.accountName,
				accountNumber: account.accountNumber,
				bankName: account.bankName,
				amount: input.amount,
				customer: input.customer,
				liveMode: false,
				expiresAt,
				metadata: input.metadata,
			},
		};
	});

	router.add('POST', '/v1/payments/checkout', (ctx) => {
		const f = new Fields(bodyObject(ctx.body, ctx.rawBody));
		const returnUrl = f.url('returnUrl') ?? null;
		const input = readCommon(core, f, false);
		const { id, expiresAt } = storeNewPayment(input, input.expiresIn ?? DEFAULT_CHECKOUT_EXPIRY_SECONDS, {
			paymentMethod: null,
			paymentChannel: 'checkout',
			returnUrl,
		});
		return {
			status: 200,
			body: {
				id,
				reference: input.reference,
				amount: input.amount,
				authorizationUrl: `${core.baseUrl}/checkout/${id}`,
				returnUrl,
				callbackUrl: input.callbackUrl,
				expiresAt,
				metadata: input.metadata,
			},
		};
	});

	router.add('GET', '/v1/payments', (ctx) => ({
		status: 200,
		body: listPage(store.payments, ctx.query, {
			name: 'payments',
			statuses: PAYMENT_STATUSES,
			filters: {
				reference: (row, value) => row.obj.reference === value,
				customerId: (row, value) => row.obj.customerId === value,
			},
			present: (row) => row.obj,
		}),
	}));

	router.add('GET', '/v1/payments/:reference/verify', (ctx) => {
		const row = store.payments.getByReference(ctx.params.reference);
		if (!row) throw notFound('payment', ctx.params.reference);
		return { status: 200, body: row.obj };
	});

	router.add('GET', '/v1/payments/:id', (ctx) => {
		const row = store.payments.get(ctx.params.id);
		if (!row) throw notFound('payment', ctx.params.id);
		return { status: 200, body: row.obj };
	});
}

const NEXT: Partial<Record<PaymentStatus, readonly PaymentStatus[]>> = {
	initiated: ['awaiting_charge', 'charged', 'succeeded', 'failed', 'expired'],
	awaiting_charge: ['charged', 'succeeded', 'failed', 'expired'],
	charged: ['succeeded', 'failed', 'reversed'],
	succeeded: ['reversed'],
};

/**
 * Moves a payment to `status` (default `succeeded`; charged amount = expected amount, fees
 * computed) and sends `PAYMENT_<STATUS>` with the payment as data.
 */
export function completePayment(core: Core, idOrReference: string, status: string = 'succeeded'): Payment {
	const row = core.store.payments.find(idOrReference);
	if (!row) throw notFound('payment', idOrReference);
	const payment = row.obj;
	if (!PAYMENT_STATUSES.includes(status as PaymentStatus) || status === 'initiated') {
		throw invalidField('status', `\`status\` must be one of ${PAYMENT_STATUSES.filter((s) => s !== 'initiated').join(', ')}.`, 400);
	}
	const allowed = NEXT[payment.status] ?? [];
	if (!allowed.includes(status as PaymentStatus)) {
		throw invalidState(`Payment ${payment.id} is ${payment.status}; it cannot become ${status}.`);
	}
	payment.status = status as PaymentStatus;
	if (payment.paymentMethod === null && CHARGED.includes(payment.status)) payment.paymentMethod = 'card';
	applyCharges(payment);
	payment.updatedAt = isoTime(core.nowSeconds());
	core.dispatcher.send(payment.callbackUrl, `PAYMENT_${status.toUpperCase()}`, payment);
	return payment;
}
