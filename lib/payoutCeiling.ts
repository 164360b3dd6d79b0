/**
 * What the Paycashless credential refuses to sign, written once.
 *
 * The credential signs every request made with it: this package's nodes, n8n's HTTP Request node
 * with the predefined credential type, an agent's HTTP Request tool. A signature covers the path
 * from /v1 on, the body and the time, not the method nor the host: whoever receives a signed
 * request can send its headers and body to Paycashless for 5 minutes. So the credential
 * - signs only requests to its Base URL's origin (scheme, host, port): any other address is
 *   refused before signing (`signedHostRefusal`);
 * - treats every request whose signed path is /v1/payouts (any letter case, trailing slash,
 *   encoded letters, doubled slashes, dot segments, a proxy's path prefix) and that has a body,
 *   whatever its method, as a payout create, and POST /v1/payouts without one too. Such a request
 *   is refused before it is signed or sent when
 *   - payouts are switched off in the credential, or
 *   - a ceiling is set and the body's amount is above the ceiling of its currency, or its
 *     currency has no ceiling while another has (a ceiling names its currency), or
 *   - a ceiling is set and the body, as it will be sent, cannot be read for sure (./payoutBody.ts:
 *     not JSON, a key twice, no whole-number amount.value, no or two currencies...) or is a form.
 * Pure: no n8n, no I/O. Messages name amounts in main units, never the credential's secrets.
 */
import { readPayoutBody, PAYOUT_CURRENCIES, type PayoutCurrency } from './payoutBody';
import { bodyToSign, signingPath } from './signing';

const CEILING_CURRENCIES = PAYOUT_CURRENCIES;
type CeilingCurrency = PayoutCurrency;

/** The credential's fields this module reads. */
export interface PayoutCeilingSettings {
	/** `off`: every payout is refused. Default (absent): allowed. */
	payouts?: string;
	/** Largest payout in naira; 0 or empty = no ceiling. */
	maxPayoutNgn?: number | string;
	/** Largest payout in dollars; 0 or empty = no ceiling. */
	maxPayoutUsd?: number | string;
}

/** The `code` of the error a refusal throws: the transport reads it as "refused before sending". */
export const CEILING_REFUSAL_CODE = 'PAYCASHLESS_CREDENTIAL_REFUSED';

/** What a request looks like here (n8n's request options, or the request library's for the HTTP Request node). */
export interface OutgoingRequest {
	method?: string;
	baseURL?: string;
	url?: string;
	uri?: string;
	body?: unknown;
	form?: unknown;
	formData?: unknown;
}

const MINOR_UNITS_PER_MAIN = 100;

/** The payouts path, as `normalisedPath` gives it. */
const PAYOUTS_PATH = '/v1/payouts';

/**
 * The signed path (`signingPath`) as a lenient server might route it: percent-decoding undone
 * (also twice), backslashes as slashes, `;parameters` and spaces around segments dropped, `.`
 * and `..` resolved, empty segments and trailing slashes dropped.
 */
function normalisedPath(url: string): string {
	let path = signingPath(url);
	for (let round = 0; round < 3; round++) {
		try {
			const decoded = decodeURIComponent(path);
			if (decoded === path) break;
			path = decoded;
		} catch {
			break;
		}
	}
	const segments: string[] = [];
	for (const raw of path.toLowerCase().replace(/\\/g, '/').split('/')) {
		const segment = raw.split(';', 1)[0].trim();
		if (segment === '' || segment === '.') continue;
		if (segment === '..') segments.pop();
		else segments.push(segment);
	}
	return `/${segments.join('/')}`;
}

/** Whether the signed path is the payouts path (also with a format suffix, `/v1/payouts.json`). */
function isPayoutsPath(url: string): boolean {
	const path = normalisedPath(url);
	return path === PAYOUTS_PATH || path.startsWith(`${PAYOUTS_PATH}.`);
}

/**
 * Whether the request creates a payout: its signed path is the payouts path and it has a body,
 * whatever its method (the signature does not cover the method), or it is a POST.
 */
export function isPayoutCreate(method: string | undefined, url: string, hasBody = false): boolean {
	if (!isPayoutsPath(url)) return false;
	return hasBody || (method ?? 'GET').toUpperCase() === 'POST';
}

function ceilingOf(value: number | string | undefined): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const number = typeof value === 'number' ? value : Number(value);
	return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** `NGN 1,500.50` from 150050 kobo (integer arithmetic: no float on the way). */
function showMinor(minor: number, currency: string): string {
	const whole = Math.floor(minor / MINOR_UNITS_PER_MAIN);
	const cents = String(minor % MINOR_UNITS_PER_MAIN).padStart(2, '0');
	return `${currency} ${whole.toLocaleString('en-US')}.${cents}`;
}

function showMain(main: number, currency: string): string {
	return `${currency} ${main.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/**
 * Why the credential refuses this request, or `undefined` when it may be signed and sent. Only a
 * payout create is ever refused. `url` is the full address (base URL joined); `request.body` is
 * the body as n8n hands it over: it is read as the credential will send it (`bodyToSign`).
 */
export function payoutCeilingRefusal(settings: PayoutCeilingSettings, request: OutgoingRequest, url: string): CeilingRefusal | undefined {
	const method = (request.method ?? 'GET').toUpperCase();
	const sent = bodyToSign(method, request.body);
	const form = request.form !== undefined || request.formData !== undefined;
	if (!isPayoutCreate(method, url, sent !== undefined || form)) return undefined;
	const where = 'Nothing was sent. The limit is in the Paycashless credential (Payouts, Maximum Payout); only a person who may edit that credential can change it.';
	const asPayout = method === 'POST' ? '' : ` (a ${method} with a body to /v1/payouts is signed as a payout: the signature does not cover the method)`;
	if (settings.payouts === 'off') {
		return { message: `Refused by the Paycashless credential: payouts are switched off${asPayout}`, description: where };
	}
	const ceilings: Partial<Record<CeilingCurrency, number>> = {};
	for (const currency of CEILING_CURRENCIES) {
		const ceiling = ceilingOf(currency === 'NGN' ? settings.maxPayoutNgn : settings.maxPayoutUsd);
		if (ceiling !== undefined) ceilings[currency] = ceiling;
	}
	if (Object.keys(ceilings).length === 0) return undefined;
	const unreadable = (reason: string) => ({
		message: `Refused by the Paycashless credential: this payout's amount cannot be checked against its Maximum Payout (${reason})${asPayout}`,
		description: `${where} Send the payout as a JSON body with amount.value in kobo or cents and amount.currency NGN or USD, each key once.`,
	});
	if (form) return unreadable('it is sent as a form, not JSON');
	const reading = readPayoutBody(sent);
	if ('unreadable' in reading) return unreadable(reading.unreadable);
	const amount = reading.money;
	const ceiling = ceilings[amount.currency];
	if (ceiling === undefined) {
		return {
			message: `Refused by the Paycashless credential: it sets no Maximum Payout for ${amount.currency}${asPayout}`,
			description: `${where} A ceiling names its currency: payouts in a currency without one are refused once any ceiling is set.`,
		};
	}
	// Compared in kobo/cents: the ceiling (main units, up to 2 decimals) rounded to whole kobo.
	const ceilingMinor = Math.round(ceiling * MINOR_UNITS_PER_MAIN);
	if (amount.minor > ceilingMinor) {
		return {
			message: `Refused by the Paycashless credential: ${showMinor(amount.minor, amount.currency)} is above its Maximum Payout of ${showMain(ceiling, amount.currency)}${asPayout}`,
			description: `${where} Amounts in the API body are in kobo or cents: ${amount.minor} is ${showMinor(amount.minor, amount.currency)}.`,
		};
	}
	return undefined;
}

/** `https://api.paycashless.com` from an absolute http(s) URL, or `undefined` when it has none for sure. */
function originOf(url: string): string | undefined {
	// The authority as written: no user part (`@`), no backslash, no space, so that every URL
	// parser on the way reads the same host.
	const written = /^(https?):\/\/([^/?#\\@\s]+)(?=[/?#]|$)/i.exec(url);
	if (!written) return undefined;
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return undefined;
	}
	if (parsed.username !== '' || parsed.password !== '') return undefined;
	const scheme = written[1].toLowerCase();
	const authority = written[2].toLowerCase().replace(scheme === 'https' ? /:443$/ : /:80$/, '');
	return `${scheme}://${authority}` === parsed.origin ? parsed.origin : undefined;
}

/**
 * Why the credential refuses to sign a request to `url`, or `undefined` when `url` is on the
 * origin of its Base URL (`baseUrl`, already defaulted): the signature would let whoever receives
 * the request replay it to Paycashless.
 */
export function signedHostRefusal(baseUrl: string, url: string): CeilingRefusal | undefined {
	const own = originOf(baseUrl.trim());
	if (!own) {
		return {
			message: 'Refused by the Paycashless credential: its Base URL is not a web address starting with https:// (or http://), so it signs nothing',
			description: 'Nothing was sent. Correct the Base URL in the Paycashless credential, for example https://api.paycashless.com.',
		};
	}
	const target = originOf(url);
	if (target === own) return undefined;
	const shown = target ?? (/^[a-z][a-z\d+\-.]*:\/\//i.test(url) ? 'an address it cannot read for sure' : 'an address without scheme and host');
	return {
		message: `Refused by the Paycashless credential: it signs only requests to ${own}, and this one goes to ${shown}`,
		description: `Nothing was sent. A signed request can be replayed to Paycashless by whoever receives it (the signature covers the path, body and time, not the host), so this credential signs nothing for another address. Send the request to ${own}, or change the Base URL in the credential.`,
	};
}

export interface CeilingRefusal {
	message: string;
	description: string;
}

/**
 * The error a refusal throws where the credential signs: the whole text in `message` (what the
 * HTTP Request node and the credential's Test show), the parts in `refusal`, and the mark
 * `paycashlessRefusal: CEILING_REFUSAL_CODE`. Not in `code`: n8n's credential Test shows an
 * error's code instead of its message when it has one, and the message says what to correct.
 */
export function ceilingRefusalError(refusal: CeilingRefusal): Error {
	const error = new Error(`${refusal.message}. ${refusal.description}`) as Error & { paycashlessRefusal: string; refusal: CeilingRefusal };
	error.paycashlessRefusal = CEILING_REFUSAL_CODE;
	error.refusal = refusal;
	return error;
}

/** The refusal carried by `error` or one of its causes (n8n wraps what `authenticate` throws), if any. */
export function ceilingRefusalOf(error: unknown): CeilingRefusal | undefined {
	const seen = new Set<unknown>();
	let level: unknown = error;
	while (typeof level === 'object' && level !== null && !seen.has(level)) {
		seen.add(level);
		const found = level as { paycashlessRefusal?: unknown; refusal?: CeilingRefusal; cause?: unknown };
		if (found.paycashlessRefusal === CEILING_REFUSAL_CODE && found.refusal) return found.refusal;
		level = found.cause;
	}
	return undefined;
}
