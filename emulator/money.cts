/**
 * Charges the emulator applies (the real price list is not published; these are plausible
 * figures so that `fee`, `vat` and `emtl` are filled and consistent).
 */
import type { Currency } from './models.cjs';

/** VAT on fees: 7.5 %. */
const VAT_RATE = 0.075;

export interface Charges {
	fee: number;
	vat: number;
}

/** Collections: 1.5 % capped at NGN 2,000 (NGN); 3.9 % (USD). EMTL NGN 50 on NGN 10,000 and above. */
export function paymentCharges(currency: Currency, amount: number): Charges & { emtl: number } {
	const fee = currency === 'NGN' ? Math.min(Math.round(amount * 0.015), 200_000) : Math.round(amount * 0.039);
	const emtl = currency === 'NGN' && amount >= 1_000_000 ? 5_000 : 0;
	return { fee, vat: Math.round(fee * VAT_RATE), emtl };
}

/** Payouts: NGN 10 up to NGN 5,000, NGN 25 up to NGN 50,000, NGN 50 above; USD 1.00 flat. */
export function payoutCharges(currency: Currency, amount: number): Charges {
	let fee = 100;
	if (currency === 'NGN') fee = amount <= 500_000 ? 1_000 : amount <= 5_000_000 ? 2_500 : 5_000;
	return { fee, vat: Math.round(fee * VAT_RATE) };
}
