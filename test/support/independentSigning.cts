/**
 * The callback signature computed straight from the Paycashless documentation with Node's crypto,
 * deliberately NOT through nodes/Paycashless/signing.ts, so the tests check the trigger against an
 * independent reading of the rule:
 *   dataHash  = hex(HMAC-SHA512(secret, JSON.stringify(data)))
 *   signature = hex(HMAC-SHA512(secret, lower(callbackUrl) + dataHash + timestamp))
 */
import { createHmac } from 'crypto';

export function hmacHex(secret: string, text: string): string {
	return createHmac('sha512', secret).update(text, 'utf8').digest('hex');
}

export function signCallback(secret: string, callbackUrl: string, dataJson: string, timestamp: string): string {
	return hmacHex(secret, callbackUrl.toLowerCase() + hmacHex(secret, dataJson) + timestamp);
}

/** JSON with object keys sorted recursively (a second, independent implementation). */
export function sortedJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.keys(value as object)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${sortedJson((value as Record<string, unknown>)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value);
}

export function unixSeconds(ms: number = Date.now()): string {
	return String(Math.floor(ms / 1000));
}
