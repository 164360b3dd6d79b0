/**
 * Callback → Verify: checks a Paycashless callback that arrived through n8n's own Webhook node
 * (Raw Body on) or a Wait node, with the trigger's rules (../../callbacks/evaluate.ts): same
 * signature, timestamp window and body checks, nothing re-implemented here.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_TIMESTAMP_TOLERANCE_SECONDS } from '../../../../lib/signing';
import { invalid, requireInteger, requireText } from '../../helpers/validation';
import { evaluateCallback } from '../../callbacks/evaluate';
import type { HeaderValues } from '../../callbacks/headers';
import { candidateCallbackUrls } from '../../callbacks/urls';
import { callbackSecret } from '../../callbacks/receive';
import { READ, type OperationDeclaration, type OperationOption } from '../types';

export const description: INodeProperties[] = [
	{
		displayName: 'Callback URL',
		name: 'expectedCallbackUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://your-n8n.example.com/webhook/paycashless',
		description:
			'The exact URL you gave Paycashless as callbackUrl (your Webhook node\'s Production URL). Paycashless signs this URL; the Test URL of the same Webhook node is accepted too.',
	},
	{
		displayName: 'Headers',
		name: 'callbackHeaders',
		type: 'json',
		// '{}', not '': n8n's JSON editor marks an empty text "Unexpected end of JSON input" in red.
		default: '{}',
		description:
			'The request headers of the callback. Leave {} (or empty) to use the incoming item\'s "headers" (where the Webhook node puts them; no expression needed, which keeps this fast).',
	},
	{
		displayName: 'Raw Body Field',
		name: 'rawBodyBinaryProperty',
		type: 'string',
		default: 'data',
		description:
			'The binary field holding the body exactly as received (the Webhook node\'s "Raw Body" option puts it in "data"). Leave empty, or turn Raw Body off, to use the parsed body below.',
	},
	{
		displayName: 'Parsed Body',
		name: 'callbackBody',
		type: 'json',
		default: '{}',
		description:
			'Used when there is no raw body: the callback body as JSON ({"event": ..., "data": ...}). Leave {} (or empty) to use the incoming item\'s "body".',
	},
	{
		displayName: 'If Not Verified',
		name: 'onInvalid',
		type: 'options',
		default: 'error',
		options: [
			{
				name: 'Stop With an Error',
				value: 'error',
				description: 'The node fails with the reason (use "On Error" in the node settings to route it)',
			},
			{
				name: 'Output the Item With Verified = False',
				value: 'flag',
				description:
					'The item says verified: false, the reason and the HTTP status to answer (e.g. 401 with Respond to Webhook)',
			},
		],
	},
	{
		displayName: 'Timestamp Tolerance (Seconds)',
		name: 'timestampToleranceSeconds',
		type: 'number',
		default: DEFAULT_TIMESTAMP_TOLERANCE_SECONDS,
		typeOptions: { minValue: 1 },
		description: 'How far the callback\'s Request-Timestamp may be from this server\'s clock, either way',
	},
];

export const option: OperationOption = {
	name: 'Verify',
	description: 'Check that a callback received by a Webhook or Wait node really comes from Paycashless (signature and timestamp)',
	action: 'Verify a callback',
};

/** Sends nothing to Paycashless: reads the credential's secret and checks the item. */
export const declaration: OperationDeclaration = READ;

/** Not given: nothing, blank, or the default {} (no callback has empty headers or an empty body). */
function isEmpty(value: unknown): boolean {
	if (value === undefined || value === null) return true;
	if (typeof value === 'string') return /^\s*(\{\s*\})?\s*$/.test(value);
	return typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

function asObject(value: unknown, field: string): IDataObject {
	if (value === undefined || value === null || value === '') return {};
	if (typeof value === 'string') {
		let parsed: unknown;
		try {
			parsed = JSON.parse(value);
		} catch {
			invalid(field, value, 'must be a JSON object (this text is not JSON)');
		}
		return asObject(parsed, field);
	}
	if (typeof value !== 'object' || Array.isArray(value)) invalid(field, value, 'must be a JSON object');
	return value as IDataObject;
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const nowMs = Date.now();
	const callbackUrl = requireText(this.getNodeParameter('expectedCallbackUrl', i), 'Callback URL');
	if (!/^https?:\/\/[^\s]+$/i.test(callbackUrl)) invalid('Callback URL', callbackUrl, 'must be an http(s) URL');
	const incoming = this.getInputData()[i]?.json ?? {};
	const headersValue = this.getNodeParameter('callbackHeaders', i, '{}');
	const headers = asObject(isEmpty(headersValue) ? incoming.headers : headersValue, 'Headers') as HeaderValues;
	const lowerHeaders: HeaderValues = {};
	for (const [name, value] of Object.entries(headers)) lowerHeaders[name.toLowerCase()] = value;
	const tolerance = requireInteger(
		this.getNodeParameter('timestampToleranceSeconds', i, DEFAULT_TIMESTAMP_TOLERANCE_SECONDS),
		'Timestamp Tolerance (Seconds)',
		1,
	);
	const binaryField = String(this.getNodeParameter('rawBodyBinaryProperty', i, 'data') ?? '').trim();
	let rawBody: Buffer | undefined;
	if (binaryField && this.getInputData()[i]?.binary?.[binaryField]) {
		rawBody = await this.helpers.getBinaryDataBuffer(i, binaryField);
	}
	const bodyValue = rawBody ? undefined : this.getNodeParameter('callbackBody', i, '{}');
	const parsedBody = rawBody ? undefined : isEmpty(bodyValue) ? incoming.body : bodyValue;
	const secret = await callbackSecret(this);

	const outcome = evaluateCallback({
		secret,
		rawBody,
		parsedBody,
		headers: lowerHeaders,
		candidateUrls: candidateCallbackUrls({ productionUrl: callbackUrl }),
		nowMs,
		toleranceSeconds: tolerance,
		matchesEvent: () => true,
	});
	if (outcome.action === 'accept') {
		return {
			verified: true,
			event: outcome.callback.event,
			data: outcome.callback.data as IDataObject,
			deliveryId: outcome.deliveryId,
			verifiedAt: new Date(nowMs).toISOString(),
		};
	}
	if (outcome.action === 'ignore') throw new NodeOperationError(this.getNode(), 'Every event is accepted by Verify', { itemIndex: i });
	if (this.getNodeParameter('onInvalid', i, 'error') === 'flag') {
		return {
			verified: false,
			reason: outcome.error,
			message: outcome.message,
			httpStatus: outcome.status,
			...(outcome.event === undefined ? {} : { event: outcome.event }),
		};
	}
	throw new NodeOperationError(this.getNode(), `The callback is not a genuine Paycashless callback (${outcome.error}): ${outcome.message}`, {
		itemIndex: i,
		description: `Checked against ${callbackUrl} (and its Test/Production twin) with the API Secret of the credential.`,
	});
}

/** Not offered to an AI agent: it checks a callback n8n received, which a model does not have. */
export const asTool = false as const;

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Signature and timestamp of a callback received by n8n\'s Webhook node (Raw Body on); stops or flags forged ones', requests: '(none: checks the incoming item)' };
