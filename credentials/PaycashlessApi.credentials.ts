import type {
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import {
	type BodilessSigning,
	bodyToSign,
	joinUrl,
	requestSignature,
	SIGNATURE_HEADER,
	TIMESTAMP_HEADER,
	unixTimestamp,
} from '../lib/signing';
import { PAYCASHLESS_DEFAULT_BASE_URL } from '../lib/api';
import { ceilingRefusalError, payoutCeilingRefusal, readPayoutSettings, settingsRefusal, signedHostRefusal, type PayoutCeilingSettings } from '../lib/payoutCeiling';

/**
 * The mark of the Test button's request (`test` below): `authenticate` then also answers for the
 * payout settings (an unreadable one fails the Test, saying why) and never sends the mark.
 */
const CREDENTIAL_TEST_HEADER = 'X-Paycashless-Credential-Test';

/** Headers this credential owns; any earlier value, in any letter case, is replaced (the Test's mark is dropped). */
const OWNED_HEADERS = ['authorization', 'content-type', SIGNATURE_HEADER.toLowerCase(), TIMESTAMP_HEADER.toLowerCase(), CREDENTIAL_TEST_HEADER.toLowerCase()];

export interface PaycashlessCredentialData extends PayoutCeilingSettings {
	apiKey?: string;
	apiSecret: string;
	baseUrl?: string;
	bodilessSigning?: BodilessSigning;
}

/**
 * Signs one request in place of n8n: adds `Request-Timestamp`, `Request-Signature` and (when a
 * key is set) `Authorization: Bearer`. The body is replaced by the string that was signed.
 * Idempotent: running it again on its own output yields a valid request with a fresh timestamp.
 */
export function signPaycashlessRequest(
	credentials: PaycashlessCredentialData,
	requestOptions: IHttpRequestOptions,
	nowMs: number,
): IHttpRequestOptions {
	const method = (requestOptions.method ?? 'GET').toUpperCase();
	const headers: IDataObject = {};
	for (const [name, value] of Object.entries(requestOptions.headers ?? {})) {
		if (!OWNED_HEADERS.includes(name.toLowerCase())) headers[name] = value as IDataObject[string];
	}

	const body = bodyToSign(method, requestOptions.body);
	const timestamp = unixTimestamp(nowMs);
	const signature = requestSignature({
		secret: String(credentials.apiSecret ?? ''),
		// n8n's HTTP Request node hands over request-library options: the address is in `uri`.
		url: joinUrl(requestOptions.baseURL, requestOptions.url ?? (requestOptions as { uri?: string }).uri),
		body,
		timestamp,
		bodilessSigning: credentials.bodilessSigning,
	});

	if (credentials.apiKey) headers.Authorization = `Bearer ${credentials.apiKey}`;
	if (body !== undefined) headers['Content-Type'] = 'application/json';
	headers[TIMESTAMP_HEADER] = timestamp;
	headers[SIGNATURE_HEADER] = signature;

	const signed: IHttpRequestOptions = { ...requestOptions, headers };
	if (body === undefined) delete signed.body;
	else signed.body = body;
	if (requestOptions.qs) {
		// Query values that are `undefined` would be sent as empty strings by some serialisers.
		signed.qs = Object.fromEntries(Object.entries(requestOptions.qs).filter(([, v]) => v !== undefined));
	}
	return signed;
}

/**
 * Test rules that fail the test with `message` when the answer's error `field` (`code` or `type`,
 * at the top level or under `error`: Paycashless uses both) is one of `values`.
 */
function errorRules(field: 'code' | 'type', values: string[], message: string): IAuthenticateRuleResponseSuccessBody[] {
	return values.flatMap((value) =>
		[`error.${field}`, field].map((key) => ({ type: 'responseSuccessBody' as const, properties: { key, value, message } })),
	);
}

export class PaycashlessApi implements ICredentialType {
	name = 'paycashlessApi';

	displayName = 'Paycashless API';

	icon: Icon = {
		light: 'file:../nodes/Paycashless/paycashless.svg',
		dark: 'file:../nodes/Paycashless/paycashless.dark.svg',
	};

	// The Docs link of the credential panel: this package's own page (where to find the key pair, each field).
	// A literal: n8n's lint (cred-class-field-documentation-url-missing) reads only a string here; it is
	// PACKAGE_DOCS_URL (lib/api.ts) + README.md#credentials, which test/tooling/repo/docs.test.cts checks.
	documentationUrl = 'https://github.com/paycashless/n8n-nodes-paycashless/blob/main/README.md#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'The API key from the Developer Tools section of the Paycashless dashboard. Sandbox and live keys differ: use the pair of the mode you want. Sent as a Bearer token.',
		},
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'The secret key of the same pair (Developer Tools; a live secret is shown only once). It only signs requests and verifies callbacks: it is never sent.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: PAYCASHLESS_DEFAULT_BASE_URL,
			placeholder: 'https://api.paycashless.com',
			description:
				'Change only for a proxy or the local Paycashless emulator. Starts with https://, without /v1 at the end: paths such as /v1/payouts are appended to it. The credential signs only requests to this scheme, host and port.',
		},
		{
			displayName: 'Payouts',
			name: 'payouts',
			type: 'options',
			default: 'allowed',
			description:
				'Whether requests signed with this credential may create payouts (any request with a body to /v1/payouts, whatever its method). Checked where the credential signs, so it holds for every node that uses it, also the HTTP Request node and an AI agent\'s HTTP Request tool.',
			options: [
				{ name: 'Allowed', value: 'allowed', description: 'Payouts up to the maximums below' },
				{ name: 'Off', value: 'off', description: 'Every payout is refused before it is sent; everything else works' },
			],
		},
		{
			displayName: 'Maximum Payout (NGN)',
			name: 'maxPayoutNgn',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			displayOptions: { show: { payouts: ['allowed'] } },
			description:
				'The largest payout this credential signs, in naira (not kobo). A larger one is refused before it is sent, from any node. 0 = no ceiling. Once a maximum is set for one currency, payouts in a currency without one are refused.',
		},
		{
			displayName: 'Maximum Payout (USD)',
			name: 'maxPayoutUsd',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			displayOptions: { show: { payouts: ['allowed'] } },
			description: 'The largest payout this credential signs, in dollars (not cents). 0 = no ceiling (see Maximum Payout (NGN)).',
		},
		{
			displayName: 'Signing of Requests Without a Body',
			name: 'bodilessSigning',
			type: 'options',
			default: 'documented',
			description:
				'Advanced. How GET requests are signed. Keep the documented form unless Paycashless rejects GET requests with a signature error while POST requests work.',
			options: [
				{
					name: 'Path + Timestamp (Documented)',
					value: 'documented',
					description: 'Sign path + timestamp',
				},
				{
					name: 'Path + Hash of {} + Timestamp',
					value: 'emptyObjectHash',
					description: 'Sign path + HMAC of an empty JSON object + timestamp',
				},
			],
		},
	];

	/**
	 * A property, not a class method: n8n copies community credential types with an object spread
	 * (`{ ...credential }`, in its LoadNodesAndCredentials), which keeps own properties only. As a
	 * method, `authenticate` was lost there, so the editor's HTTP Request node did not offer
	 * "Paycashless API" under Authentication > Predefined Credential Type.
	 */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		// What the credential refuses to sign (lib/payoutCeiling.ts): a refused request is neither
		// signed nor sent. First the address: only the Base URL's origin (scheme, host, port).
		const { url: requestUrl, uri } = requestOptions as { url?: string; uri?: string };
		const baseUrl = typeof credentials.baseUrl === 'string' && credentials.baseUrl.trim() !== '' ? credentials.baseUrl : PAYCASHLESS_DEFAULT_BASE_URL;
		if (requestUrl !== undefined && uri !== undefined && String(requestUrl) !== String(uri)) {
			throw ceilingRefusalError({
				message: 'Refused by the Paycashless credential: the request names two different addresses (url and uri)',
				description: 'Nothing was sent. Give the request one address.',
			});
		}
		const url = joinUrl(requestOptions.baseURL, requestUrl ?? uri);
		const refusal = signedHostRefusal(baseUrl, url) ?? payoutCeilingRefusal(credentials as PayoutCeilingSettings, requestOptions, url);
		if (refusal) throw ceilingRefusalError(refusal);
		// The Test button: payout settings that cannot be read refuse every payout; the Test says why.
		if (Object.keys(requestOptions.headers ?? {}).some((name) => name.toLowerCase() === CREDENTIAL_TEST_HEADER.toLowerCase())) {
			const settings = readPayoutSettings(credentials as PayoutCeilingSettings);
			if ('unreadable' in settings) throw ceilingRefusalError(settingsRefusal(settings.unreadable));
		}
		return signPaycashlessRequest(credentials as unknown as PaycashlessCredentialData, requestOptions, Date.now());
	};

	/**
	 * The Test button: a signed `GET /v1/payouts?limit=1`, marked (`CREDENTIAL_TEST_HEADER`) so that
	 * `authenticate` first refuses payout settings it cannot read: n8n shows a refusal's message as
	 * the Test's (its credential tester returns `error.message` when the error has no `code`).
	 * n8n reads a failed answer's status code
	 * only, so the request keeps every answer (`ignoreHttpStatusErrors`) and the rules read its body:
	 * the error code says which of key, secret or clock is wrong (top level or under `error`, as
	 * Paycashless uses both); an answer without the list's `hasMore` is not Paycashless's.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{ ($credentials.baseUrl || "${PAYCASHLESS_DEFAULT_BASE_URL}").replace(/\\/+$/, "") }}`,
			url: '/v1/payouts',
			method: 'GET',
			qs: { limit: 1 },
			headers: { [CREDENTIAL_TEST_HEADER]: '1' },
			ignoreHttpStatusErrors: true,
		},
		rules: [
			...errorRules(
				'code',
				['invalid_api_key', 'missing_api_key'],
				'Paycashless rejected the API Key. Copy it again from Developer Tools in the Paycashless dashboard, without spaces, from the same mode (sandbox or live) as the secret.',
			),
			...errorRules(
				'code',
				['invalid_signature', 'missing_signature'],
				'Paycashless accepted the API Key but not the request signature: the API Secret is wrong. Use the secret of the same key pair and mode (sandbox or live), copied without spaces.',
			),
			...errorRules(
				'code',
				['expired_timestamp', 'invalid_timestamp'],
				'Paycashless refused the request time: the clock of the machine running n8n is more than 5 minutes off. Correct its clock (for example with NTP), then test again.',
			),
			...errorRules(
				'type',
				['authentication_error'],
				'Paycashless rejected the API key or the request signature. Check that the API Key and the API Secret are one pair from the same mode (sandbox or live), copied without spaces.',
			),
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'hasMore',
					value: undefined,
					message:
						'The Base URL did not answer like the Paycashless API: no list of payouts came back from its /v1/payouts. The Base URL is https://api.paycashless.com (or your proxy\'s or the emulator\'s address) without /v1 at the end: the node adds /v1/... itself. When it is exactly that, Paycashless did not answer as usual: try again in a few minutes.',
				},
			},
		],
	};
}
