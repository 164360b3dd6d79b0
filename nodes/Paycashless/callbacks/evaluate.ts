/**
 * What the trigger does with one incoming callback, without n8n: bound and parse the body,
 * verify the signature (rules in lib/signing.ts, order of checks in signature.ts), check the event
 * name against the data, choose the event, build the output item. Pure apart from hashing; the
 * node passes in the clock, the headers and the candidate URLs. Never throws for any input.
 *
 * Order, cheapest first, so unsigned input costs little: body size, then the signature headers'
 * shape and the timestamp window (without reading the body), then a non-recursive scan of the
 * body (depth bound), then JSON.parse, then the HMACs.
 */
import { DEFAULT_TIMESTAMP_TOLERANCE_SECONDS, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../../lib/signing';
import { signedUrlForms } from './urls';
import { headerValue, type HeaderValues } from './headers';
import { checkEventAgainstData, kindOfData, type EventCheck, type ObjectKind } from './consistency';
import { deliveryIdFor, parseCallbackBody, rawBodyBytes, type ParsedCallback } from './parse';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from './rawJson';
import { checkSignatureHeaders, verifySignedCallback } from './signature';

type CallbackRejection =
	| 'payload_too_large'
	| 'too_deeply_nested'
	| 'inconsistent_event'
	| 'invalid_json'
	| 'invalid_payload'
	| 'missing_signature'
	| 'missing_timestamp'
	| 'stale_timestamp'
	| 'invalid_signature'
	| 'missing_api_secret';



export interface CallbackInput {
	/** The API secret of the credential. */
	secret: string;
	rawBody: unknown;
	parsedBody: unknown;
	headers: HeaderValues;
	candidateUrls: string[];
	nowMs: number;
	/** Seconds either side of now; 0 turns the window off. */
	toleranceSeconds?: number;
	skipVerification?: boolean;
	matchesEvent: (event: string) => boolean;
	/** What to do when the event name contradicts the data: refuse (default) or start flagged. */
	inconsistentEvents?: 'refuse' | 'flag';
}

type CallbackStatus = 400 | 401 | 413 | 422 | 500;

export type CallbackOutcome =
	| {
			action: 'reject';
			status: CallbackStatus;
			error: CallbackRejection;
			message: string;
			/** The event name, when the body could be read. */
			event?: string;
	  }
	| { action: 'ignore'; event: string; verified: boolean; deliveryId: string }
	| {
			action: 'accept';
			callback: ParsedCallback;
			deliveryId: string;
			verified: boolean;
			eventCheck: EventCheck;
			/** What the data is, from its id (for Confirm With Paycashless). */
			kind?: ObjectKind;
			/** The URL text the signature matched (logged, never output). */
			signedUrl?: string;
			/** Only when verification was skipped: why the callback would have been refused, if it would. */
			wouldReject?: CallbackRejection;
	  };

function rejectionMessage(error: CallbackRejection, toleranceSeconds: number, detail?: string): string {
	switch (error) {
		case 'payload_too_large':
			return `The body is larger than ${MAX_BODY_BYTES / (1024 * 1024)} MB; Paycashless callbacks are a few kilobytes.`;
		case 'too_deeply_nested':
			return `The body is nested more than ${MAX_JSON_DEPTH} levels deep; Paycashless callbacks are not.`;
		case 'inconsistent_event':
			return `The event name does not match the signed data: ${detail ?? 'they contradict each other'}. The event name is not covered by the signature.`;
		case 'invalid_json':
			return 'The body is not valid JSON.';
		case 'invalid_payload':
			return 'The body must be a JSON object with an "event" name and a "data" member.';
		case 'missing_signature':
			return `The ${SIGNATURE_HEADER} header is missing.`;
		case 'missing_timestamp':
			return `The ${TIMESTAMP_HEADER} header is missing.`;
		case 'stale_timestamp':
			return toleranceSeconds > 0
				? `The ${TIMESTAMP_HEADER} header is not a 10-digit Unix time within ${toleranceSeconds} seconds of this server's clock.`
				: `The ${TIMESTAMP_HEADER} header is not a 10-digit Unix time.`;
		case 'invalid_signature':
			return `The ${SIGNATURE_HEADER} header does not match this callback.`;
		case 'missing_api_secret':
			return 'Callbacks cannot be verified here: the Paycashless credential has no API Secret.';
	}
}

function statusOf(error: CallbackRejection): CallbackStatus {
	if (error === 'payload_too_large') return 413;
	if (error === 'inconsistent_event') return 422;
	if (error === 'invalid_json' || error === 'invalid_payload' || error === 'too_deeply_nested') return 400;
	if (error === 'missing_api_secret') return 500;
	return 401;
}

/** Decides what happens to one callback: reject (with status), ignore (2xx, no run) or accept. Never throws. */
export function evaluateCallback(input: CallbackInput): CallbackOutcome {
	// A value that is not a number (an expression gone wrong) falls back to the default, never to "no check".
	const configured = Number(input.toleranceSeconds ?? DEFAULT_TIMESTAMP_TOLERANCE_SECONDS);
	const tolerance = Number.isFinite(configured) ? Math.max(0, configured) : DEFAULT_TIMESTAMP_TOLERANCE_SECONDS;
	const reject = (error: CallbackRejection, event?: string, detail?: string): CallbackOutcome => ({
		action: 'reject',
		status: statusOf(error),
		error,
		message: rejectionMessage(error, tolerance, detail),
		...(event === undefined ? {} : { event }),
	});

	const bytes = rawBodyBytes(input.rawBody);
	if (bytes !== undefined && bytes > MAX_BODY_BYTES) return reject('payload_too_large');

	const signature = headerValue(input.headers, SIGNATURE_HEADER);
	const timestamp = headerValue(input.headers, TIMESTAMP_HEADER);
	let failure: CallbackRejection | undefined;
	if (!input.secret) failure = 'missing_api_secret';
	else failure = checkSignatureHeaders(signature, timestamp, input.nowMs, tolerance);
	// Unsigned input is refused here, before the body is read.
	if (failure && !input.skipVerification) return reject(failure);

	const parsed = parseCallbackBody(input.rawBody, input.parsedBody);
	if (!parsed.ok) return reject(parsed.error);
	const { callback } = parsed;

	let signedUrl: string | undefined;
	if (!failure) {
		const urlTexts = [...new Set(input.candidateUrls.filter((url) => url).flatMap((url) => signedUrlForms(url)))];
		const result = verifySignedCallback({
			secret: input.secret,
			urlTexts,
			rawDataText: callback.rawDataText,
			data: callback.data,
			signature: signature as string,
			timestamp: timestamp as string,
		});
		if (result.valid) signedUrl = result.urlText;
		else failure = 'invalid_signature';
	}
	if (failure && !input.skipVerification) return reject(failure, callback.event);
	// With verification skipped nothing is vouched for, even when the signature happens to match.
	const verified = !failure && !input.skipVerification;

	const eventCheck = checkEventAgainstData(callback.event, callback.data);
	if (eventCheck.result === 'inconsistent' && input.inconsistentEvents !== 'flag') {
		return reject('inconsistent_event', callback.event, eventCheck.reason);
	}
	const deliveryId = deliveryIdFor(callback.data);
	if (!input.matchesEvent(callback.event)) return { action: 'ignore', event: callback.event, verified, deliveryId };
	const kind = kindOfData(callback.data);
	return {
		action: 'accept',
		callback,
		deliveryId,
		verified,
		eventCheck,
		...(kind ? { kind } : {}),
		...(signedUrl ? { signedUrl } : {}),
		...(failure ? { wouldReject: failure } : {}),
	};
}
