/**
 * "Request Options": retries, waits and timeout of every operation and, on the creates found
 * again by reference, what a repeated reference means. One collection for the whole node; its
 * "On Repeated Reference" option is shown only for the creates (derived from the operations'
 * declarations). The node reads it per item here and hands plain settings to the transport. The
 * defaults are written out (n8n's lint wants literals) and must equal DEFAULT_TRANSPORT_SETTINGS;
 * a test checks that.
 */
import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalid, requireInteger } from '../../helpers/validation';
import { DEFAULT_TRANSPORT_SETTINGS, SETTING_LIMITS, type RepeatedReferenceMode, type TransportSettings } from '../../transport';

/** Name of the "Request Options" collection. */
const REQUEST_OPTIONS = 'requestOptions';

/** Parameter name and display name of each numeric setting in the collection. */
export const SETTING_PARAMETERS = {
	maxAttempts: { name: 'maxAttempts', displayName: 'Max Attempts' },
	retryDelayMs: { name: 'retryDelay', displayName: 'Retry Delay' },
	maxRetryWaitMs: { name: 'maxRetryWait', displayName: 'Max Retry Wait' },
	timeoutMs: { name: 'timeout', displayName: 'Timeout' },
	maxRetryTimeMs: { name: 'maxRetryTime', displayName: 'Max Retry Time' },
} as const;

const onRepeatedReferenceField: INodeProperties = {
	displayName: 'On Repeated Reference',
	name: 'onRepeatedReference',
	type: 'options',
	options: [
		{
			name: 'Return Existing',
			value: 'returnExisting',
			description:
				'Output the object already created with this reference (marked with _paycashless.reconciled), so running the workflow again never creates or pays twice. An object with a different amount or account is an error.',
		},
		{
			name: 'Error',
			value: 'error',
			description: 'Fail the item (or output an error item with Continue On Fail)',
		},
	],
	default: 'returnExisting',
	description: 'What to do when Paycashless says the reference was used before (HTTP 409)',
};

const commonFields: INodeProperties[] = [
	{
		displayName: SETTING_PARAMETERS.maxAttempts.displayName,
		name: SETTING_PARAMETERS.maxAttempts.name,
		type: 'number',
		default: 10,
		typeOptions: { minValue: SETTING_LIMITS.maxAttempts.min, maxValue: SETTING_LIMITS.maxAttempts.max },
		description:
			'How many times a request may be sent in all when Paycashless is busy (429), fails (5xx) or does not answer, within Max Retry Time. Reads are simply sent again; a payout, payment or invoice is first looked up by its reference, so it is never created twice. A connection that cannot be opened at all (wrong Base URL, server down) is tried at most 3 times. 1 means no retries.',
	},
	{
		displayName: SETTING_PARAMETERS.maxRetryTimeMs.displayName,
		name: SETTING_PARAMETERS.maxRetryTimeMs.name,
		type: 'number',
		default: 120000,
		typeOptions: { minValue: SETTING_LIMITS.maxRetryTimeMs.min, maxValue: SETTING_LIMITS.maxRetryTimeMs.max },
		description:
			'How long one request keeps being retried, in milliseconds from its first attempt (2 minutes by default), so a bad network is ridden out rather than given up after a few tries. No retry starts after this time; the last error is reported.',
	},
	{
		displayName: SETTING_PARAMETERS.maxRetryWaitMs.displayName,
		name: SETTING_PARAMETERS.maxRetryWaitMs.name,
		type: 'number',
		default: 60000,
		typeOptions: { minValue: SETTING_LIMITS.maxRetryWaitMs.min, maxValue: SETTING_LIMITS.maxRetryWaitMs.max },
		description:
			'Longest wait before one retry, in milliseconds. When Paycashless asks (Retry-After) for a longer wait, the node stops with an error instead.',
	},
	{
		displayName: SETTING_PARAMETERS.retryDelayMs.displayName,
		name: SETTING_PARAMETERS.retryDelayMs.name,
		type: 'number',
		default: 1000,
		typeOptions: { minValue: SETTING_LIMITS.retryDelayMs.min, maxValue: SETTING_LIMITS.retryDelayMs.max },
		description:
			'First wait before a retry, in milliseconds; it doubles with every attempt (with some randomness), up to Max Retry Wait. A Retry-After from Paycashless takes precedence.',
	},
	{
		displayName: SETTING_PARAMETERS.timeoutMs.displayName,
		name: SETTING_PARAMETERS.timeoutMs.name,
		type: 'number',
		default: 30000,
		typeOptions: { minValue: SETTING_LIMITS.timeoutMs.min, maxValue: SETTING_LIMITS.timeoutMs.max },
		description:
			'How long to wait for each answer, in milliseconds. A create that times out is looked up by its reference before anything is sent again.',
	},
];

/** The one "Request Options" collection; "On Repeated Reference" shown for the creates (`/resource`, `/operation`). */
export function requestOptionsProperty(creates: IDisplayOptions): INodeProperties {
	const onRepeatedReference = { ...onRepeatedReferenceField, displayOptions: creates };
	return {
		displayName: 'Request Options',
		name: REQUEST_OPTIONS,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...commonFields, onRepeatedReference].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

const MODES: readonly RepeatedReferenceMode[] = ['returnExisting', 'error'];

function integerSetting(options: IDataObject, key: keyof typeof SETTING_LIMITS): number {
	const { name, displayName } = SETTING_PARAMETERS[key];
	const value = options[name];
	if (value === undefined || value === null || value === '') return DEFAULT_TRANSPORT_SETTINGS[key];
	const { min, max } = SETTING_LIMITS[key];
	return requireInteger(value, `Request Options → ${displayName}`, min, max);
}

/** The transport settings of item `itemIndex`, from its Request Options. */
export function readRequestOptions(this: IExecuteFunctions, itemIndex: number): TransportSettings {
	const options = (this.getNodeParameter(REQUEST_OPTIONS, itemIndex, {}) ?? {}) as IDataObject;
	const mode = options.onRepeatedReference ?? DEFAULT_TRANSPORT_SETTINGS.onRepeatedReference;
	if (!MODES.includes(mode as RepeatedReferenceMode)) {
		invalid('Request Options → On Repeated Reference', mode, 'use Return Existing or Error');
	}
	return {
		maxAttempts: integerSetting(options, 'maxAttempts'),
		retryDelayMs: integerSetting(options, 'retryDelayMs'),
		maxRetryWaitMs: integerSetting(options, 'maxRetryWaitMs'),
		timeoutMs: integerSetting(options, 'timeoutMs'),
		maxRetryTimeMs: integerSetting(options, 'maxRetryTimeMs'),
		onRepeatedReference: mode as RepeatedReferenceMode,
	};
}
