/**
 * What the emulator holds on a fresh `npm start`, shared by scripts/n8n/start.ts and the browser
 * tests (test/browser/), so the tests see what a new user sees.
 */
import type { EmulatorOptions } from '../../emulator/types';

/** Records the emulator seeds at start, so lists and "Return All" have something to show. */
export const FRESH_START_SEED = { invoices: 25, payments: 60, payouts: 40, dedicatedAccounts: 12 };

/** Seeded records are spread over this many days up to the start. */
export const FRESH_START_SEED_DAYS = 30;

/**
 * The emulator's options on a fresh start at `nowMs`: the seed records are dated over the last
 * 30 days up to that moment (the same records, ids and amounts every time; only their dates move),
 * so the daily reconciliation example's "since yesterday" has payments to sum.
 */
export function freshStartEmulatorOptions(nowMs: number): EmulatorOptions {
	const to = Math.floor(nowMs / 1000);
	return { seed: FRESH_START_SEED, seedPeriod: { from: to - FRESH_START_SEED_DAYS * 86_400, to } };
}
