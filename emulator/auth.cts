/**
 * Request authentication exactly as the service does it, with the project's signing module:
 * `Authorization: Bearer <apiKey>`, `Request-Timestamp` (10 digits, within the tolerance) and
 * `Request-Signature` over the path from /v1 on + HMAC(raw body) + timestamp. A body is accepted
 * when signed as received or as its canonical (sorted) JSON; a request without a body in the
 * form(s) `bodilessSigning` allows. Answers never contain the secret or the expected signature.
 */
import {
	canonicalJson,
	requestSignature,
	signaturesMatch,
	SIGNATURE_HEADER,
	TIMESTAMP_HEADER,
	timestampWithinTolerance,
	type BodilessSigning,
} from '../lib/signing';
import { apiError, type ApiError } from './errors.cjs';

export interface AuthSettings {
	/** The account's key pairs; the first key '' means no bearer check (its secret signs). */
	keys: ReadonlyArray<{ apiKey: string; apiSecret: string }>;
	bodilessSigning: BodilessSigning | 'either';
	timestampToleranceSeconds: number;
	now: () => number;
}

export interface SignedRequest {
	headers: Record<string, string | string[] | undefined>;
	/** The request target as received (path and query). */
	url: string;
	rawBody: string;
}

function header(request: SignedRequest, name: string): string | undefined {
	const value = request.headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

function authError(code: string, message: string): ApiError {
	return apiError(401, 'authentication_error', code, message);
}

/** The body strings a valid signature may cover (`undefined`: no body). */
function signedBodies(rawBody: string): Array<string | undefined> {
	if (rawBody === '') return [undefined];
	const bodies: Array<string | undefined> = [rawBody];
	try {
		const canonical = canonicalJson(JSON.parse(rawBody));
		if (canonical !== rawBody) bodies.push(canonical);
	} catch {
		// Not JSON: only the raw text can have been signed.
	}
	return bodies;
}

/** `null` when the request is authentic, else the 401 to answer. */
export function checkAuth(settings: AuthSettings, request: SignedRequest): ApiError | null {
	let apiSecret = settings.keys[0].apiSecret;
	if (settings.keys[0].apiKey) {
		const authorization = header(request, 'authorization');
		const match = authorization ? /^Bearer\s+(.+)$/i.exec(authorization.trim()) : null;
		const pair = match ? settings.keys.find((key) => key.apiKey === match[1]) : undefined;
		if (pair) apiSecret = pair.apiSecret;
		if (!pair) {
			return authError(
				'invalid_api_key',
				authorization
					? 'The API key is not valid: the Authorization header must be "Bearer <API key>" with the API key of this account.'
					: 'The API key is missing: send the header "Authorization: Bearer <API key>".',
			);
		}
	}
	const signature = header(request, SIGNATURE_HEADER);
	if (!signature || !signature.trim()) {
		return authError('missing_signature', `The signature is missing: send the ${SIGNATURE_HEADER} header (HMAC-SHA512 of the request, 128 hex characters).`);
	}
	const timestamp = header(request, TIMESTAMP_HEADER)?.trim();
	if (!timestamp || !/^\d{10}$/.test(timestamp)) {
		return authError(
			'invalid_timestamp',
			timestamp
				? `The timestamp is not valid: ${TIMESTAMP_HEADER} must be the Unix time in seconds (10 digits).`
				: `The timestamp is missing: send the ${TIMESTAMP_HEADER} header (Unix time in seconds, 10 digits).`,
		);
	}
	if (!timestampWithinTolerance(timestamp, settings.now(), settings.timestampToleranceSeconds)) {
		return authError(
			'expired_timestamp',
			`The timestamp is too far from the server clock: ${TIMESTAMP_HEADER} must be within ${settings.timestampToleranceSeconds} seconds of now. Check the clock of the machine sending the request.`,
		);
	}
	const forms: BodilessSigning[] = settings.bodilessSigning === 'either' ? ['documented', 'emptyObjectHash'] : [settings.bodilessSigning];
	for (const body of signedBodies(request.rawBody)) {
		for (const bodilessSigning of body === undefined ? forms : ['documented' as const]) {
			const expected = requestSignature({ secret: apiSecret, url: request.url, body, timestamp, bodilessSigning });
			if (signaturesMatch(expected, signature)) return null;
		}
	}
	return authError(
		'invalid_signature',
		`The signature does not match: ${SIGNATURE_HEADER} must be computed with the API secret over the request path (from /v1 on), the body and the timestamp sent.`,
	);
}
