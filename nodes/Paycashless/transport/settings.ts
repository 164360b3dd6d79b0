/**
 * How hard the transport tries: attempts, waits, timeout, and what a repeated reference means.
 * Plain values: the node reads them from its "Request Options" (descriptions/requestOptions.ts)
 * and hands them over; list searches, which have no item, use the defaults.
 */

/** What to do when Paycashless says a reference was used before (HTTP 409). */
export type RepeatedReferenceMode = 'returnExisting' | 'error';

export interface TransportSettings {
	/** Sends of one request in all, first one included (1 = no retry). */
	maxAttempts: number;
	/** First wait of the exponential backoff, ms (doubles per attempt, with jitter). */
	retryDelayMs: number;
	/** Longest single wait, ms: caps the backoff; a longer `Retry-After` ends the retries. */
	maxRetryWaitMs: number;
	/** Timeout of every request, ms. */
	timeoutMs: number;
	/**
	 * How long one request (with its lookups) keeps being retried, ms from its first attempt: a
	 * bad network is ridden out by time, not given up after a small count.
	 */
	maxRetryTimeMs: number;
	onRepeatedReference: RepeatedReferenceMode;
}

export const DEFAULT_TRANSPORT_SETTINGS: Readonly<TransportSettings> = Object.freeze({
	maxAttempts: 10,
	retryDelayMs: 1000,
	maxRetryWaitMs: 60_000,
	timeoutMs: 30_000,
	maxRetryTimeMs: 120_000,
	onRepeatedReference: 'returnExisting',
});

/** Bounds of the settings (also used by the field definitions). */
export const SETTING_LIMITS = {
	maxAttempts: { min: 1, max: 100 },
	retryDelayMs: { min: 0, max: 600_000 },
	maxRetryWaitMs: { min: 0, max: 3_600_000 },
	timeoutMs: { min: 1, max: 3_600_000 },
	maxRetryTimeMs: { min: 0, max: 86_400_000 },
} as const;

