/**
 * How hard the transport tries: attempts, waits, timeout, and what a repeated reference means.
 * Read from the node's "Request Options" collection of the item being processed (see
 * descriptions/requestOptions.ts); list searches, which have no item, use the defaults.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { invalid, requireInteger } from '../helpers/validation';
import type { PaycashlessContext } from './types';

/** Name of the "Request Options" collection of every operation. */
export const REQUEST_OPTIONS = 'requestOptions';

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
	onRepeatedReference: RepeatedReferenceMode;
}

export const DEFAULT_TRANSPORT_SETTINGS: Readonly<TransportSettings> = Object.freeze({
	maxAttempts: 3,
	retryDelayMs: 1000,
	maxRetryWaitMs: 60_000,
	timeoutMs: 30_000,
	onRepeatedReference: 'returnExisting',
});

/** Bounds of the settings (also used by the field definitions). */
export const SETTING_LIMITS = {
	maxAttempts: { min: 1, max: 10 },
	retryDelayMs: { min: 0, max: 600_000 },
	maxRetryWaitMs: { min: 0, max: 3_600_000 },
	timeoutMs: { min: 1, max: 3_600_000 },
} as const;

const MODES: readonly RepeatedReferenceMode[] = ['returnExisting', 'error'];

/** Parameter name and display name of each numeric setting in the collection. */
export const SETTING_PARAMETERS = {
	maxAttempts: { name: 'maxAttempts', displayName: 'Max Attempts' },
	retryDelayMs: { name: 'retryDelay', displayName: 'Retry Delay' },
	maxRetryWaitMs: { name: 'maxRetryWait', displayName: 'Max Retry Wait' },
	timeoutMs: { name: 'timeout', displayName: 'Timeout' },
} as const;

function integerSetting(options: IDataObject, key: keyof typeof SETTING_LIMITS): number {
	const { name, displayName } = SETTING_PARAMETERS[key];
	const value = options[name];
	if (value === undefined || value === null || value === '') return DEFAULT_TRANSPORT_SETTINGS[key];
	const { min, max } = SETTING_LIMITS[key];
	return requireInteger(value, `Request Options → ${displayName}`, min, max);
}

/** The settings for one item (defaults without an item, e.g. in list searches). */
export function readTransportSettings(this: PaycashlessContext, itemIndex?: number): TransportSettings {
	if (itemIndex === undefined) return { ...DEFAULT_TRANSPORT_SETTINGS };
	const options = ((this as IExecuteFunctions).getNodeParameter(REQUEST_OPTIONS, itemIndex, {}) ?? {}) as IDataObject;
	const mode = options.onRepeatedReference ?? DEFAULT_TRANSPORT_SETTINGS.onRepeatedReference;
	if (!MODES.includes(mode as RepeatedReferenceMode)) {
		invalid('Request Options → On Repeated Reference', mode, 'use Return Existing or Error');
	}
	return {
		maxAttempts: integerSetting(options, 'maxAttempts'),
		retryDelayMs: integerSetting(options, 'retryDelayMs'),
		maxRetryWaitMs: integerSetting(options, 'maxRetryWaitMs'),
		timeoutMs: integerSetting(options, 'timeoutMs'),
		onRepeatedReference: mode as RepeatedReferenceMode,
	};
}
