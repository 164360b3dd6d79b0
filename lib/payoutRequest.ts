/**
 * Which requests are payouts (`readPayoutRequest`): judged by what the request would do, not only
 * by where it goes. A Paycashless signature covers the path, the body and the time (not the
 * method, the host or the query string), so
 * - a request whose signed path is /v1/payouts (as a lenient server might route it) with a body,
 *   whatever its method, or a POST there, is a payout create, its body read by ./payoutBody.ts;
 * - a request to any other path whose body carries a destination account and an amount (keys
 *   naming an account number and an amount, in any case or spelling, at any depth: nested, in a
 *   list, in JSON written inside a text value, in a body that is not JSON, in a form) carries
 *   payouts: each object holding both is read the same way, and anything less certain is unreadable;
 * - a query string that names an account number and an amount (or at /v1/payouts any payout
 *   field) is unreadable: its values are text, never read for sure.
 * Pure: no n8n, no I/O.
 */
import { fold, isJsonObject, parsedJson, readPayoutBody, readPayoutObject, type JsonObject, type PayoutMoney } from './payoutBody';
import { signingPath } from './signing';

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
 * Whether the request is a payout create by its path: its signed path is the payouts path and it
 * has a body, whatever its method (the signature does not cover the method), or it is a POST.
 */
export function isPayoutCreate(method: string | undefined, url: string, hasBody = false): boolean {
	if (!isPayoutsPath(url)) return false;
	return hasBody || (method ?? 'GET').toUpperCase() === 'POST';
}

/** A key reduced to its letters and digits, as a lenient server might match it (`destination_account_number`). */
function keyLetters(text: string): string {
	return fold(text).replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Keys that name an account to pay (`destinationAccountNumber`, `accountNumber`, `beneficiary_account`, `nuban`). */
const ACCOUNT_KEY = /accountnumber|accountno|nuban|(?:destination|beneficiary|recipient|payee|credit)account/;

/** Keys that name an amount (`amount`, `amountInKobo`, `payoutAmount`; not `acceptedAmountPolicy`). */
function namesAmount(letters: string): boolean {
	return letters.startsWith('amount') || letters.endsWith('amount');
}

/** What a walk of a body or query found: keys naming an account and an amount, and the objects holding both. */
interface Carried {
	account: boolean;
	amount: boolean;
	/** Objects with a key naming an account and one naming an amount, with their paths. */
	payouts: Array<{ object: JsonObject; path: string[] }>;
	/** An account or amount key in an object that is not a payout object, or a payout in JSON written inside text. */
	stray: boolean;
}

/** Deeper than this, a body is not read: a payout could hide below. */
const MAX_DEPTH = 32;

function walk(value: unknown, path: string[], found: Carried, inText: boolean): void {
	if (path.length > MAX_DEPTH) {
		found.account = found.amount = found.stray = true;
		return;
	}
	if (Array.isArray(value)) {
		value.forEach((element, index) => walk(element, [...path, String(index)], found, inText));
		return;
	}
	if (isJsonObject(value)) {
		const keys = Object.keys(value).map(keyLetters);
		const account = keys.some((key) => ACCOUNT_KEY.test(key));
		const amount = keys.some(namesAmount);
		found.account ||= account;
		found.amount ||= amount;
		if (account && amount && !inText) found.payouts.push({ object: value, path });
		else if (account || amount) found.stray = true;
		for (const key of Object.keys(value)) walk(value[key], [...path, key], found, inText);
		return;
	}
	if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
		// JSON written inside a text value: a server that decodes it would read what it carries.
		try {
			walk(JSON.parse(value) as unknown, path, found, true);
		} catch {
			// Text that only starts like JSON.
		}
	}
}

function carried(value: unknown): Carried {
	const found: Carried = { account: false, amount: false, payouts: [], stray: false };
	walk(value, [], found, false);
	return found;
}

/** Whether text (not JSON, or bytes read one byte a letter) spells an account key and an amount key anywhere. */
function spellsPayout(text: string): boolean {
	const letters = keyLetters(text);
	return ACCOUNT_KEY.test(letters) && letters.includes('amount');
}

/** The keys of the query string (in the address and `qs`), as a walk finds them. */
function queryCarried(url: string, query: unknown): Carried {
	const inUrl: Record<string, string> = {};
	const search = /\?([^#]*)/.exec(url)?.[1];
	if (search) for (const [key, value] of new URLSearchParams(search)) inUrl[key] = value;
	return carried({ inUrl, ...(isJsonObject(query) ? { query } : {}) });
}

/** A request as the credential will send it: the method, the full address, the body as signed (`bodyToSign`). */
export interface PayoutRequest {
	method: string;
	url: string;
	body?: string | Buffer;
	/** A form body (`form`, `formData`), when the request has one. */
	form?: unknown;
	/** The query string object (`qs`), when the request has one. */
	query?: unknown;
}

/**
 * What a request would do with money:
 * - `none`: it creates no payout;
 * - `payouts`: the payouts it carries, each read for sure (one for a create at /v1/payouts);
 * - `unreadable`: it carries, or may carry, a payout that cannot be read for sure, and why.
 * `create` says whether its path is the payouts path (then it is a create whatever it carries).
 */
export type PayoutRequestReading =
	| { kind: 'none' }
	| { kind: 'payouts'; create: boolean; payouts: PayoutMoney[] }
	| { kind: 'unreadable'; create: boolean; reason: string };

export function readPayoutRequest(request: PayoutRequest): PayoutRequestReading {
	const method = request.method.toUpperCase();
	const query = queryCarried(request.url, request.query);
	const hasForm = request.form !== undefined;
	if (isPayoutCreate(method, request.url, request.body !== undefined || hasForm)) {
		const unreadable = (reason: string): PayoutRequestReading => ({ kind: 'unreadable', create: true, reason });
		if (hasForm) return unreadable('it is sent as a form, not JSON');
		if (query.account || query.amount) return unreadable('its query string names payout fields');
		const reading = readPayoutBody(request.body);
		return 'money' in reading ? { kind: 'payouts', create: true, payouts: [reading.money] } : unreadable(reading.unreadable);
	}
	const unreadable = (reason: string): PayoutRequestReading => ({ kind: 'unreadable', create: false, reason });
	if (query.account && query.amount) return unreadable('its query string names an account number and an amount');
	if (hasForm) {
		const form = carried(request.form);
		if (form.account && form.amount) return unreadable('it is a form that names an account number and an amount');
	}
	const body = request.body;
	if (body === undefined) return { kind: 'none' };
	if (Buffer.isBuffer(body) && !Buffer.from(body.toString('utf8'), 'utf8').equals(body)) {
		// Not UTF-8: read a byte a letter, so a body in another encoding (UTF-16) still spells its keys.
		return spellsPayout(body.toString('latin1')) ? unreadable('its body is not UTF-8 text and names an account number and an amount') : { kind: 'none' };
	}
	const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
	const json = parsedJson(text);
	if ('unreadable' in json) return spellsPayout(text) ? unreadable(`${json.unreadable}, and it names an account number and an amount`) : { kind: 'none' };
	const found = carried(json.value);
	if (!found.account || !found.amount) return { kind: 'none' };
	if (found.payouts.length === 0) return unreadable('it names an account number and an amount, but not together in one payout object');
	if (found.stray) return unreadable('it names an account number or an amount outside a payout object');
	const payouts: PayoutMoney[] = [];
	for (const [k, { object, path }] of found.payouts.entries()) {
		const reading = readPayoutObject(object, path, json.literals);
		if ('unreadable' in reading) return unreadable(found.payouts.length > 1 ? `payout ${k + 1} of ${found.payouts.length} in it: ${reading.unreadable}` : reading.unreadable);
		payouts.push(reading.money);
	}
	return { kind: 'payouts', create: false, payouts };
}
