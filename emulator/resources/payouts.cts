/**
 * POST /v1/payouts, GET /v1/payouts, GET /v1/payouts/{id}, GET /v1/payouts/verify/{reference},
 * and completing a payout. Creation failures use the payout form `{ status: 'failed', message }`:
 * 400 for bad input (amount, account, bank...), 422 for insufficient balance.
 */
import { accountExists, bankById, isAccountNumber } from '../banks.cjs';
import { ApiError, duplicateReference, invalidField, invalidState, notFound, payoutFailure } from '../errors.cjs';
import { listPage } from '../lists.cjs';
import { CURRENCIES, isoTime, PAYOUT_STATUSES, type Currency, type Payout, type PayoutStatus } from '../models.cjs';
import { payoutCharges } from '../money.cjs';
import { flat } from '../prng.cjs';
import type { Core, Router } from '../router.cjs';
import { bodyObject, Fields } from '../validate.cjs';

/** Who the emulator says initiated API payouts (the real values are not published). */
const API_INITIATION = Object.freeze({
	actor: 'api_key',
	user: Object.freeze({ email: 'owner@merchant.test' }),
	apiKey: Object.freeze({ description: 'Emulator test key' }),
});

/** Every payout, created or seeded, is built here (field order of seed 2.7). */
export function buildPayout(input: {
	id: string;
	reference: string;
	amount: number;
	currency: Currency;
	status: PayoutStatus;
	destinationAccountNumber: string;
	destinationBankId: string;
	callbackUrl: string | null;
	receiptEmail: string | null;
	narration: string | null;
	metadata: Record<string, unknown> | null;
	ip: string;
	createdAt: number;
	updatedAt?: number;
}): Payout {
	const charges = payoutCharges(input.currency, input.amount);
	return {
		id: input.id,
		reference: input.reference,
		amount: input.amount,
		currency: input.currency,
		status: input.status,
		destinationAccountNumber: input.destinationAccountNumber,
		destinationBankId: input.destinationBankId,
		fee: charges.fee,
		vat: charges.vat,
		networkSessionId: null,
		requiresConfirmation: false,
		confirmationState: 'confirmed',
		callbackUrl: input.callbackUrl,
		receiptEmail: input.receiptEmail,
		narration: input.narration,
		metadata: input.metadata,
		failureCode: null,
		failureMessage: null,
		liveMode: false,
		// `user` and `apiKey` are shared, frozen objects: 100,000 seeded payouts stay cheap.
		initiation: { actor: API_INITIATION.actor, ip: input.ip, user: API_INITIATION.user, apiKey: API_INITIATION.apiKey },
		approval: null,
		cancellation: null,
		createdAt: isoTime(input.createdAt),
		updatedAt: isoTime(input.updatedAt ?? input.createdAt),
	};
}

/** Total a payout draws from the balance. */
function debit(payout: Payout): number {
	return payout.amount + payout.fee + payout.vat;
}

interface PayoutInput {
	reference: string;
	amount: number;
	currency: Currency;
	destinationAccountNumber: string;
	bankId: string;
	narration: string | null;
	callbackUrl: string | null;
	receiptEmail: string | null;
	metadata: Record<string, unknown> | null;
}

function readPayout(body: unknown, rawBody: string): PayoutInput {
	const f = new Fields(bodyObject(body, rawBody), '', 400);
	const reference = f.string('reference', { required: true }) as string;
	const amountFields = f.object('amount', { required: true }) as Fields;
	const amount = amountFields.amount('value', { required: true }) as number;
	const currency = amountFields.oneOf('currency', CURRENCIES) ?? 'NGN';
	const destinationAccountNumber = f.string('destinationAccountNumber', { required: true }) as string;
	if (!isAccountNumber(destinationAccountNumber)) {
		throw invalidField('destinationAccountNumber', 'Invalid destination account number: `destinationAccountNumber` must be 10 digits (NUBAN).');
	}
	const bankId = f.string('bankId', { required: true }) as string;
	if (!bankById(bankId)) {
		throw invalidField('bankId', `Invalid bank: \`bankId\` ${JSON.stringify(bankId)} is not a Paycashless bank id (bank_...; take it from an account lookup's bank.id).`);
	}
	if (!accountExists(destinationAccountNumber)) {
		throw invalidField('destinationAccountNumber', `Invalid destination account: account ${destinationAccountNumber} could not be resolved at that bank.`);
	}
	return {
		reference,
		amount,
		currency,
		destinationAccountNumber,
		bankId,
		narration: f.string('narration', { maxLength: 100 }) ?? null,
		callbackUrl: f.url('callbackUrl') ?? null,
		receiptEmail: f.email('receiptEmail') ?? null,
		metadata: f.metadata('metadata') ?? null,
	};
}

export function registerPayouts(router: Router, core: Core): void {
	const { store } = core;

	router.add('POST', '/v1/payouts', (ctx) => {
		let input: PayoutInput;
		try {
			input = readPayout(ctx.body, ctx.rawBody);
		} catch (error) {
			// Payout creation answers every input problem in its own form.
			if (error instanceof ApiError && error.field) throw payoutFailure(400, error.message);
			throw error;
		}
		if (store.payouts.getByReference(input.reference)) throw duplicateReference('payout', input.reference);
		const now = core.nowSeconds();
		const payout = buildPayout({
			id: store.newId('po_', store.payouts),
			reference: input.reference,
			amount: input.amount,
			currency: input.currency,
			status: 'pending',
			destinationAccountNumber: input.destinationAccountNumber,
			destinationBankId: input.bankId,
			callbackUrl: input.callbackUrl,
			receiptEmail: input.receiptEmail,
			narration: input.narration,
			metadata: input.metadata,
			ip: ctx.ip,
			createdAt: now,
		});
		if (debit(payout) > store.balances[payout.currency]) {
			throw payoutFailure(422, `Insufficient balance: this payout needs ${debit(payout)} ${payout.currency} (amount + fee + VAT, smallest unit); ${store.balances[payout.currency]} is available.`);
		}
		store.balances[payout.currency] -= debit(payout);
		store.payouts.add(payout, now, undefined);
		return { status: 202, body: { id: payout.id, status: payout.status, reference: payout.reference } };
	});

	router.add('GET', '/v1/payouts', (ctx) => ({
		status: 200,
		body: listPage(store.payouts, ctx.query, {
			name: 'payouts',
			statuses: PAYOUT_STATUSES,
			filters: {
				destinationAccountNumber: (row, value) => row.obj.destinationAccountNumber === value,
				reference: (row, value) => row.obj.reference === value,
			},
			present: (row) => row.obj,
		}),
	}));

	router.add('GET', '/v1/payouts/verify/:reference', (ctx) => {
		const row = store.payouts.getByReference(ctx.params.reference);
		if (!row) throw notFound('payout', ctx.params.reference);
		return { status: 200, body: row.obj };
	});

	router.add('GET', '/v1/payouts/:id', (ctx) => {
		const row = store.payouts.get(ctx.params.id);
		if (!row) throw notFound('payout', ctx.params.id);
		return { status: 200, body: row.obj };
	});
}

const NEXT: Partial<Record<PayoutStatus, readonly PayoutStatus[]>> = {
	pending: ['sent', 'succeeded', 'failed', 'reversed', 'cancelled'],
	sent: ['succeeded', 'failed', 'reversed'],
	succeeded: ['reversed'],
};

/** NIBSS-style session id: 30 digits. */
export function networkSessionId(seconds: number, randomDigits16: string): string {
	return flat(`0000${String(seconds)}${randomDigits16}`);
}

export const PAYOUT_FAILURES: Partial<Record<PayoutStatus, { code: string; message: string }>> = {
	failed: { code: 'beneficiary_bank_unavailable', message: 'The beneficiary bank could not be reached; no money left the balance.' },
	reversed: { code: 'transfer_reversed', message: 'The beneficiary bank returned the transfer; the amount was credited back.' },
};

/** Payout statuses that give the money back to the balance. */
const REFUNDED: readonly PayoutStatus[] = ['failed', 'reversed', 'cancelled'];

/**
 * Moves a payout to `status` (default `succeeded`) and sends `PAYOUT_<STATUS>` with the payout
 * as data. `failed` / `reversed` set `failureCode` / `failureMessage` and refund the balance.
 */
export function completePayout(
	core: Core,
	idOrReference: string,
	status: string = 'succeeded',
	failure?: { failureCode?: string; failureMessage?: string },
): Payout {
	const row = core.store.payouts.find(idOrReference);
	if (!row) throw notFound('payout', idOrReference);
	const payout = row.obj;
	if (!PAYOUT_STATUSES.includes(status as PayoutStatus) || status === 'pending') {
		throw invalidField('status', `\`status\` must be one of ${PAYOUT_STATUSES.filter((s) => s !== 'pending').join(', ')}.`, 400);
	}
	const next = status as PayoutStatus;
	if (!(NEXT[payout.status] ?? []).includes(next)) {
		throw invalidState(`Payout ${payout.id} is ${payout.status}; it cannot become ${status}.`);
	}
	const now = core.nowSeconds();
	payout.status = next;
	if ((next === 'sent' || next === 'succeeded' || next === 'reversed') && payout.networkSessionId === null) {
		payout.networkSessionId = networkSessionId(now, core.store.digits(16));
	}
	const defaults = PAYOUT_FAILURES[next];
	if (defaults) {
		payout.failureCode = failure?.failureCode ?? defaults.code;
		payout.failureMessage = failure?.failureMessage ?? defaults.message;
	}
	if (next === 'cancelled') payout.cancellation = { cancelledBy: 'emulator', cancelledAt: isoTime(now) };
	if (REFUNDED.includes(next)) core.store.balances[payout.currency] += debit(payout);
	payout.updatedAt = isoTime(now);
	core.dispatcher.send(payout.callbackUrl, `PAYOUT_${next.toUpperCase()}`, payout);
	return payout;
}
