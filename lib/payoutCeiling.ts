/**
 * The payout ceiling of the Paycashless credential, written once.
 *
 * The credential signs every request made with it: this package's nodes, n8n's HTTP Request node
 * with the predefined credential type, an agent's HTTP Request tool. So a limit checked where it
 * signs holds for all of them. It looks at one kind of request only, the one that sends money
 * out: `POST /v1/payouts`. Such a request is refused before it is signed or sent when
 * - payouts are switched off in the credential, or
 * - a ceiling is set and the body's amount is above the ceiling of its currency, or its currency
 *   has no ceiling while another has (a ceiling names its currency), or
 * - a ceiling is set and the body cannot be read for sure: not JSON, no whole-number amount in
 *   kobo or cents, no currency or two different ones, a form instead of a JSON body.
 * Pure: no n8n, no I/O. Messages name amounts in main units, never the credential's secrets.
 */
import { signingPath } from './signing';

const CEILING_CURRENCIES = ['NGN', 'USD'] as const;
type CeilingCurrency = (typeof CEILING_CURRENCIES)[number];

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

/** Whether the request creates a payout (any letter case, trailing slash, encoded letters, doubled slashes). */
export function isPayoutCreate(method: string | undefined, url: string): boolean {
	if ((method ?? 'GET').toUpperCase() !== 'POST') return false;
	let path = signingPath(url);
	try {
		path = decodeURIComponent(path).toLowerCase();
	} catch {
		// Not decodable: compared as it is.
	}
	return path.replace(/\/{2,}/g, '/').replace(/\/+$/, '') === '/v1/payouts';
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

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as an object, or a reason it cannot be read. */
function readBody(body: unknown): Record<string, unknown> | string {
	let parsed: unknown = body;
	if (Buffer.isBuffer(body)) parsed = body.toString('utf8');
	if (typeof parsed === 'string') {
		try {
			parsed = JSON.parse(parsed);
		} catch {
			return 'its body is not JSON';
		}
	}
	return isObject(parsed) ? parsed : 'its body is not a JSON object';
}

/** Amount in kobo/cents and currency of a payout body, or a reason they cannot be read for sure. */
function readAmount(body: Record<string, unknown>): { minor: number; currency: string } | string {
	const nested = isObject(body.amount) ? body.amount : undefined;
	const value = nested ? nested.value : body.amount;
	if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
		return 'its amount is not a whole number of kobo or cents (amount.value)';
	}
	// The API reads amount.currency; a missing one may default (to NGN in the emulator), so it is
	// required here, and a top-level currency that says otherwise makes the body ambiguous.
	if (nested && (nested.currency === undefined || nested.currency === null)) return 'it names no currency in amount.currency';
	const currencies = [nested?.currency, body.currency].filter((currency) => currency !== undefined && currency !== null);
	const named = [...new Set(currencies.map((currency) => (typeof currency === 'string' ? currency.trim().toUpperCase() : '?')))];
	if (named.length !== 1 || !(CEILING_CURRENCIES as readonly string[]).includes(named[0])) {
		return named.length > 1 ? 'it names two different currencies' : 'it names no currency NGN or USD';
	}
	return { minor: value, currency: named[0] };
}

/**
 * Why the credential refuses this request, or `undefined` when it may be signed and sent. Only a
 * payout create is ever refused. `url` is the full address (base URL joined).
 */
export function payoutCeilingRefusal(settings: PayoutCeilingSettings, request: OutgoingRequest, url: string): CeilingRefusal | undefined {
	if (!isPayoutCreate(request.method, url)) return undefined;
	const where = 'Nothing was sent. The limit is in the Paycashless credential (Payouts, Maximum Payout); only a person who may edit that credential can change it.';
	if (settings.payouts === 'off') {
		return { message: 'Refused by the Paycashless credential: payouts are switched off', description: where };
	}
	const ceilings: Partial<Record<CeilingCurrency, number>> = {};
	for (const currency of CEILING_CURRENCIES) {
		const ceiling = ceilingOf(currency === 'NGN' ? settings.maxPayoutNgn : settings.maxPayoutUsd);
		if (ceiling !== undefined) ceilings[currency] = ceiling;
	}
	if (Object.keys(ceilings).length === 0) return undefined;
	const unreadable = (reason: string) => ({
		message: `Refused by the Paycashless credential: this payout's amount cannot be checked against its Maximum Payout (${reason})`,
		description: `${where} Send the payout as a JSON body with amount.value in kobo or cents and amount.currency NGN or USD.`,
	});
	if (request.form !== undefined || request.formData !== undefined) return unreadable('it is sent as a form, not JSON');
	const body = readBody(request.body);
	if (typeof body === 'string') return unreadable(body);
	const amount = readAmount(body);
	if (typeof amount === 'string') return unreadable(amount);
	const ceiling = ceilings[amount.currency as CeilingCurrency];
	if (ceiling === undefined) {
		return {
			message: `Refused by the Paycashless credential: it sets no Maximum Payout for ${amount.currency}`,
			description: `${where} A ceiling names its currency: payouts in a currency without one are refused once any ceiling is set.`,
		};
	}
	// Compared in kobo/cents: the ceiling (main units, up to 2 decimals) rounded to whole kobo.
	const ceilingMinor = Math.round(ceiling * MINOR_UNITS_PER_MAIN);
	if (amount.minor > ceilingMinor) {
		return {
			message: `Refused by the Paycashless credential: ${showMinor(amount.minor, amount.currency)} is above its Maximum Payout of ${showMain(ceiling, amount.currency)}`,
			description: `${where} Amounts in the API body are in kobo or cents: ${amount.minor} is ${showMinor(amount.minor, amount.currency)}.`,
		};
	}
	return undefined;
}

export interface CeilingRefusal {
	message: string;
	description: string;
}

/**
 * The error a refusal throws where the credential signs: the whole text in `message` (what the
 * HTTP Request node shows), the parts in `refusal`, and `code` CEILING_REFUSAL_CODE.
 */
export function ceilingRefusalError(refusal: CeilingRefusal): Error {
	const error = new Error(`${refusal.message}. ${refusal.description}`) as Error & { code: string; refusal: CeilingRefusal };
	error.code = CEILING_REFUSAL_CODE;
	error.refusal = refusal;
	return error;
}

/** The refusal carried by `error` or one of its causes (n8n wraps what `authenticate` throws), if any. */
export function ceilingRefusalOf(error: unknown): CeilingRefusal | undefined {
	const seen = new Set<unknown>();
	let level: unknown = error;
	while (typeof level === 'object' && level !== null && !seen.has(level)) {
		seen.add(level);
		const found = level as { code?: unknown; refusal?: CeilingRefusal; cause?: unknown };
		if (found.code === CEILING_REFUSAL_CODE && found.refusal) return found.refusal;
		level = found.cause;
	}
	return undefined;
}
