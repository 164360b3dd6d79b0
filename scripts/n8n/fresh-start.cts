/**
 * What the emulator holds on a fresh `npm start`, shared by scripts/n8n/start.cts, start-queue.ts,
 * the browser tests (test/browser/) and the README's picture (scripts/browser/screenshot.cts), so
 * they see what a new user sees; and the credential the examples get.
 */
import type { EmulatorHandle, EmulatorOptions } from '../../emulator/types.cjs';
import { freePort } from './lab.cjs';

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

/** The live API keys from PAYCASHLESS_API_KEY / PAYCASHLESS_API_SECRET, or undefined; half a pair is an error. */
export function liveKeysFromEnv(): { apiKey: string; apiSecret: string } | undefined {
	const apiKey = process.env.PAYCASHLESS_API_KEY ?? '';
	const apiSecret = process.env.PAYCASHLESS_API_SECRET ?? '';
	if ((apiKey === '') !== (apiSecret === '')) {
		throw new Error('Only one of PAYCASHLESS_API_KEY and PAYCASHLESS_API_SECRET is set: set both to use the Paycashless API, or neither to use the local emulator.');
	}
	return apiKey === '' ? undefined : { apiKey, apiSecret };
}

/** `liveKeysFromEnv()`, or the process ends with its message (exit code 2). */
export function liveKeysOrExit(say: (message: string) => void): ReturnType<typeof liveKeysFromEnv> {
	try {
		return liveKeysFromEnv();
	} catch (error) {
		say((error as Error).message);
		return process.exit(2);
	}
}

export interface ExampleCredential {
	name: string;
	data: Record<string, string>;
	/** The emulator started for it (none with live keys). */
	emulator?: EmulatorHandle;
}

/**
 * The credential `npm start` (one process or queue mode) gives the examples: the live API with
 * `live` keys, else a local emulator seeded for a fresh start.
 */
export async function exampleCredential(live: { apiKey: string; apiSecret: string } | undefined, say: (message: string) => void): Promise<ExampleCredential> {
	if (live) {
		const baseUrl = process.env.PAYCASHLESS_BASE_URL || 'https://api.paycashless.com';
		say(`using the Paycashless API at ${baseUrl} (keys from PAYCASHLESS_API_KEY / PAYCASHLESS_API_SECRET); the emulator is not started`);
		return { name: 'Paycashless (API)', data: { ...live, baseUrl, bodilessSigning: 'documented' } };
	}
	// Imported lazily: the emulator is a dev-only module (not in the published package).
	const { startEmulator } = await import('../../emulator/index.cjs');
	const port = await freePort(Number(process.env.PAYCASHLESS_EMULATOR_PORT || 4010));
	const emulator = await startEmulator({ ...freshStartEmulatorOptions(Date.now()), port, callbackRetryDelayMs: 5_000 });
	say(`Paycashless emulator on ${emulator.baseUrl} (seeded over the last ${FRESH_START_SEED_DAYS} days: ${Object.entries(FRESH_START_SEED).map(([k, v]) => `${v} ${k}`).join(', ')})`);
	return {
		name: 'Paycashless (local emulator)',
		data: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl, bodilessSigning: 'documented' },
		emulator,
	};
}
