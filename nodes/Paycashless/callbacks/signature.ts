/**
 * Callback signature check for the trigger, cheapest first, so that unsigned input costs little:
 *
 * 1. the headers' shape (a 128-hex signature, a 10-digit timestamp inside the window) before the
 *    body is even looked at;
 * 2. the signature over the bytes of `data` exactly as received (found by rawJson.ts, no
 *    re-serialising), for every URL form that may have been signed (urls.ts);
 * 3. only then `data` re-serialised (received key order, then sorted), when the sender's bytes
 *    differ from its own `JSON.stringify` (pretty-printed bodies).
 *
 * The formula and the constant-time comparison are lib/signing.ts's (`callbackSignatureOver`,
 * `signaturesMatch`); here the URL text is one of the exact texts from `signedUrlForms`, used as is.
 */
import { callbackSignatureOver, canonicalJson, hmacSha512Hex, signaturesMatch, timestampWithinTolerance } from '../../../lib/signing';

export type HeaderProblem = 'missing_signature' | 'missing_timestamp' | 'invalid_signature' | 'stale_timestamp';

/** Checks the two headers without touching the body. */
export function checkSignatureHeaders(
	signature: string | undefined,
	timestamp: string | undefined,
	nowMs: number,
	toleranceSeconds: number,
): HeaderProblem | undefined {
	if (!signature || !signature.trim()) return 'missing_signature';
	if (!timestamp || !timestamp.trim()) return 'missing_timestamp';
	if (!/^[0-9a-fA-F]{128}$/.test(signature.trim())) return 'invalid_signature';
	if (!/^\d{10}$/.test(timestamp.trim())) return 'stale_timestamp';
	if (toleranceSeconds > 0 && !timestampWithinTolerance(timestamp.trim(), nowMs, toleranceSeconds)) return 'stale_timestamp';
	return undefined;
}

export interface SignedCallbackInput {
	secret: string;
	/** Exact URL texts that may have been signed (already lower-cased as the sender would). */
	urlTexts: string[];
	/** The `data` member's text exactly as received, when the raw body is at hand. */
	rawDataText?: string;
	/** The parsed `data` (depth already bounded), for the re-serialised forms. */
	data: unknown;
	signature: string;
	timestamp: string;
}

export type SignedCallbackResult =
	| { valid: true; urlText: string; dataForm: 'raw' | 'received' | 'sorted' }
	| { valid: false };

/** Tries every URL text with each form of `data`; constant-time compare for each. Never throws. */
export function verifySignedCallback(input: SignedCallbackInput): SignedCallbackResult {
	try {
		const timestamp = input.timestamp.trim();
		const tried = new Set<string>();
		const attempt = (form: 'raw' | 'received' | 'sorted', dataJson: () => string): SignedCallbackResult | undefined => {
			const text = dataJson();
			if (tried.has(text)) return undefined;
			tried.add(text);
			const dataHash = hmacSha512Hex(input.secret, text);
			for (const urlText of input.urlTexts) {
				if (signaturesMatch(callbackSignatureOver(input.secret, urlText, dataHash, timestamp), input.signature)) {
					return { valid: true, urlText, dataForm: form };
				}
			}
			return undefined;
		};
		if (input.rawDataText !== undefined) {
			const result = attempt('raw', () => input.rawDataText as string);
			if (result) return result;
		}
		return attempt('received', () => JSON.stringify(input.data)) ?? attempt('sorted', () => canonicalJson(input.data)) ?? { valid: false };
	} catch {
		return { valid: false };
	}
}
