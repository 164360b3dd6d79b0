/**
 * What the Paycashless credential refuses to sign, written once.
 *
 * The credential signs every request made with it: this package's nodes, n8n's HTTP Request node
 * with the predefined credential type, an agent's HTTP Request tool. A signature covers the path
 * from /v1 on, the body and the time, not the method nor the host: whoever receives a signed
 * request can send its headers and body to Paycashless for 5 minutes. So the credential
 * - signs only requests to its Base URL's origin (scheme, host, port): any other address is
 *   refused before signing (`signedHostRefusal`);
 * - treats as a payout what ../lib/payoutBody.ts `readPayoutRequest` says would pay: any request
 *   with a body to /v1/payouts (any method, any spelling of the path) or a POST there, and a body
 *   to any other path that carries a destination account and an amount (each payout in it). Such
 *   a request is refused before it is signed or sent when
 *   - its Payouts setting or a Maximum Payout is set but cannot be read (not Allowed or Off; not
 *     a plain non-negative amount): the settings fail closed, every payout is refused
 *     (`readPayoutSettings`; the credential's Test says why, `settingsRefusal`), or
 *   - payouts are switched off in the credential, or
 *   - a ceiling is set and an amount is above the ceiling of its currency, or its currency has no
 *     ceiling while another has (a ceiling names its currency), or
 *   - a ceiling is set and the payout, as it will be sent, cannot be read for sure.
 * Pure: no n8n, no I/O. Messages name the refused amount in main units and which setting refused
 * it, never a setting's value (whoever reads a refusal, also an AI agent's HTTP Request tool,
 * learns that a ceiling holds, not where) nor the credential's secrets.
 */
import { PAYOUT_CURRENCIES, type PayoutCurrency } from './payoutBody';
import { readPayoutRequest } from './payoutRequest';
import { bodyToSign } from './signing';

const CEILING_CURRENCIES = PAYOUT_CURRENCIES;
type CeilingCurrency = PayoutCurrency;

/** The credential's fields this module reads, as n8n hands them over (an import or an expression may give any value). */
export interface PayoutCeilingSettings {
	/** `off`: every payout is refused; `allowed` (the default, also when absent): up to the ceilings. */
	payouts?: unknown;
	/** Largest payout in naira; 0 or empty = no ceiling. */
	maxPayoutNgn?: unknown;
	/** Largest payout in dollars; 0 or empty = no ceiling. */
	maxPayoutUsd?: unknown;
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
	qs?: unknown;
}

const MINOR_UNITS_PER_MAIN = 100;

const FIELD_LABELS = { payouts: 'Payouts', maxPayoutNgn: 'Maximum Payout (NGN)', maxPayoutUsd: 'Maximum Payout (USD)' } as const;
const CEILING_FIELDS: Record<CeilingCurrency, 'maxPayoutNgn' | 'maxPayoutUsd'> = { NGN: 'maxPayoutNgn', USD: 'maxPayoutUsd' };

/** The payout settings as read: payouts off, and the ceiling (main units) of each currency that has one. */
export type PayoutSettings = { off: boolean; ceilings: Partial<Record<CeilingCurrency, number>> } | { unreadable: string };

/** A ceiling in main units: a plain non-negative number with at most two decimals (0 = none), or why not. */
function ceilingOf(value: unknown): number | undefined | { unreadable: true } {
	if (value === undefined || value === null || value === '') return undefined;
	const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d{1,2})?\s*$/.test(value) ? Number(value) : Number.NaN;
	const minor = number * MINOR_UNITS_PER_MAIN;
	if (!Number.isFinite(number) || number < 0 || Math.abs(minor - Math.round(minor)) > 1e-6 || Math.round(minor) > Number.MAX_SAFE_INTEGER) return { unreadable: true };
	return number > 0 ? number : undefined;
}

/**
 * The credential's payout settings, failing closed: Payouts absent or empty is Allowed (the
 * default); any value but `allowed` or `off`, or a Maximum Payout that is set but is not a plain
 * non-negative amount in main units (text, a negative number, a fraction of a kobo, an object),
 * is unreadable, and then every payout is refused.
 */
export function readPayoutSettings(settings: PayoutCeilingSettings): PayoutSettings {
	const payouts = settings.payouts;
	if (payouts !== undefined && payouts !== null && payouts !== '' && payouts !== 'allowed' && payouts !== 'off') {
		return { unreadable: `its ${FIELD_LABELS.payouts} setting is neither Allowed nor Off` };
	}
	const ceilings: Partial<Record<CeilingCurrency, number>> = {};
	for (const currency of CEILING_CURRENCIES) {
		const field = CEILING_FIELDS[currency];
		const ceiling = ceilingOf(settings[field]);
		if (typeof ceiling === 'object') {
			return { unreadable: `its ${FIELD_LABELS[field]} is set but is not an amount in ${currency === 'NGN' ? 'naira' : 'dollars'}` };
		}
		if (ceiling !== undefined) ceilings[currency] = ceiling;
	}
	return { off: payouts === 'off', ceilings };
}

/** Where a refusal says the limit lives. */
const WHERE = 'Nothing was sent. The limit is in the Paycashless credential (Payouts, Maximum Payout); only a person who may edit that credential can change it.';

/** The refusal of unreadable settings: every payout, and the credential's Test. */
export function settingsRefusal(reason: string): CeilingRefusal {
	return {
		message: `Refused by the Paycashless credential: ${reason}, so it refuses every payout`,
		description: `${WHERE} Set Payouts to Allowed or Off, and each Maximum Payout to a number of naira or dollars (0: no ceiling), then test the credential again.`,
	};
}

/** `NGN 1,500.50` from 150050 kobo (integer arithmetic: no float on the way). */
function showMinor(minor: number, currency: string): string {
	const whole = Math.floor(minor / MINOR_UNITS_PER_MAIN);
	const cents = String(minor % MINOR_UNITS_PER_MAIN).padStart(2, '0');
	return `${currency} ${whole.toLocaleString('en-US')}.${cents}`;
}

/**
 * Why the credential refuses this request, or `undefined` when it may be signed and sent. Only a
 * request that would pay is ever refused. `url` is the full address (base URL joined);
 * `request.body` is the body as n8n hands it over: it is read as the credential will send it
 * (`bodyToSign`).
 */
export function payoutCeilingRefusal(settings: PayoutCeilingSettings, request: OutgoingRequest, url: string): CeilingRefusal | undefined {
	const read = readPayoutSettings(settings);
	// Payouts allowed without a ceiling: nothing to hold a payout to, and no body is read.
	if (!('unreadable' in read) && !read.off && Object.keys(read.ceilings).length === 0) return undefined;
	const method = (request.method ?? 'GET').toUpperCase();
	const form = request.form ?? request.formData;
	const reading = readPayoutRequest({ method, url, body: bodyToSign(method, request.body), form, query: request.qs });
	if (reading.kind === 'none') return undefined;
	const why = reading.create
		? method === 'POST'
			? ''
			: ` (a ${method} with a body to /v1/payouts is signed as a payout: the signature does not cover the method)`
		: ' (its body carries a destination account and an amount: a payout, wherever it is sent)';
	if ('unreadable' in read) {
		const refusal = settingsRefusal(read.unreadable);
		return { message: `${refusal.message}${why}`, description: refusal.description };
	}
	if (read.off) return { message: `Refused by the Paycashless credential: payouts are switched off${why}`, description: WHERE };
	if (reading.kind === 'unreadable') {
		return {
			message: `Refused by the Paycashless credential: this payout's amount cannot be checked against its Maximum Payout (${reading.reason})${why}`,
			description: `${WHERE} Send the payout as a JSON body with amount.value in kobo or cents and amount.currency NGN or USD, each key once.`,
		};
	}
	for (const [k, payout] of reading.payouts.entries()) {
		const which = reading.payouts.length > 1 ? ` (payout ${k + 1} of ${reading.payouts.length} in the body)` : '';
		const ceiling = read.ceilings[payout.currency];
		if (ceiling === undefined) {
			return {
				message: `Refused by the Paycashless credential: it sets no Maximum Payout for ${payout.currency}${which}${why}`,
				description: `${WHERE} A ceiling names its currency: payouts in a currency without one are refused once any ceiling is set.`,
			};
		}
		// Compared in kobo/cents: the ceiling (main units, up to 2 decimals) rounded to whole kobo.
		const ceilingMinor = Math.round(ceiling * MINOR_UNITS_PER_MAIN);
		if (payout.minor > ceilingMinor) {
			return {
				message: `Refused by the Paycashless credential: ${showMinor(payout.minor, payout.currency)} is above its Maximum Payout (${payout.currency})${which}${why}`,
				description: `${WHERE} Amounts in the API body are in kobo or cents: ${payout.minor} is ${showMinor(payout.minor, payout.currency)}.`,
			};
		}
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
