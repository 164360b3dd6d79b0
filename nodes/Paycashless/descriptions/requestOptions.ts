/**
 * "Request Options": retries, waits and timeout of every operation, and, on the creates that
 * carry a reference, what a repeated reference means. One collection per operation (each field
 * of this node is shown for exactly one resource and operation); the transport reads it
 * (transport/settings.ts), so no operation file has to. The defaults are written out (n8n's
 * lint wants literals) and must equal DEFAULT_TRANSPORT_SETTINGS; a test checks that.
 */
import type { INodeProperties } from 'n8n-workflow';

import { REQUEST_OPTIONS, SETTING_LIMITS, SETTING_PARAMETERS } from '../transport/settings';

/** Creates whose result can be found again by reference (see transport/reconcile.ts). */
const CREATES_WITH_REFERENCE: Record<string, string[]> = {
	invoice: ['create'],
	payment: ['createCheckout', 'createTransfer'],
	payout: ['create'],
};

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
		default: 3,
		typeOptions: { minValue: SETTING_LIMITS.maxAttempts.min, maxValue: SETTING_LIMITS.maxAttempts.max },
		description:
			'How many times a request may be sent in all when Paycashless is busy (429), fails (5xx) or does not answer. Reads are simply sent again; a payout, payment or invoice is first looked up by its reference, so it is never created twice. 1 means no retries.',
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

/** The "Request Options" collection of one operation. */
export function requestOptionsProperty(resource: string, operation: string): INodeProperties {
	const withReference = CREATES_WITH_REFERENCE[resource]?.includes(operation) ?? false;
	const options = withReference ? [...commonFields, onRepeatedReferenceField] : commonFields;
	return {
		displayName: 'Request Options',
		name: REQUEST_OPTIONS,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { resource: [resource], operation: [operation] } },
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/** One "Request Options" collection for every operation of every resource. */
export function requestOptionsProperties(operations: Record<string, Record<string, unknown>>): INodeProperties[] {
	return Object.entries(operations).flatMap(([resource, byOperation]) =>
		Object.keys(byOperation).map((operation) => requestOptionsProperty(resource, operation)),
	);
}
