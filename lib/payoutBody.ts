/**
 * The one reader of a payout: what the credential's payout ceiling (./payoutCeiling.ts), the
 * node's Money Limits and the payout create's "found again" comparison read as a payout, written
 * once. Two questions, both answered here:
 *
 * What a payout create body asks for (`readPayoutBody`, `POST /v1/payouts`). It reads the body as
 * it is signed and sent: a string or Buffer as those bytes, an object as `canonicalJson` (what the
 * credential sends for it). It answers the payout's money, or why the body cannot be read for
 * sure, i.e. why Paycashless might read it otherwise than we do:
 * - not UTF-8, not JSON, not a JSON object;
 * - a key twice in one object, anywhere, also when the two differ only in letter case or Unicode
 *   form (`amount` and `Amount`): JavaScript keeps the last, other parsers the first or either;
 * - a key that is one of the payout's field names spelled otherwise (`Amount`, `bankID`);
 * - `amount` not an object `{ value, currency }` (the API takes that shape only; a bare number
 *   is refused by the emulator and its meaning to the API is not documented);
 * - `amount.value` not written as a whole non-negative number of kobo or cents (`1e5`, `100.0`
 *   are refused: another parser may read them otherwise), or not a safe integer;
 * - `amount.currency` missing (the emulator then assumes NGN) or not exactly `NGN` or `USD`;
 * - a top-level `currency` beside it that is not the same;
 * - reference, destination account number or bank ID not text.
 *
 * Which requests are payouts (`readPayoutRequest`): judged by what the request would do, not only
 * by where it goes. A Paycashless signature covers the path, the body and the time (not the
 * method, the host or the query string), so
 * - a request whose signed path is /v1/payouts (as a lenient server might route it) with a body,
 *   whatever its method, or a POST there, is a payout create, read as above;
 * - a request to any other path whose body carries a destination account and an amount (keys
 *   naming an account number and an amount, in any case or spelling, at any depth: nested, in a
 *   list, in JSON written inside a text value, in a body that is not JSON, in a form) carries
 *   payouts: each object holding both is read as above, and anything less certain is unreadable;
 * - a query string that names an account number and an amount (or at /v1/payouts any payout
 *   field) is unreadable: its values are text, never read for sure.
 * Pure: no n8n, no I/O.
 */
import { canonicalJson, signingPath } from './signing';

/** The field names of a payout create body, written once. */
export const PAYOUT_FIELDS = {
	reference: 'reference',
	amount: 'amount',
	currency: 'currency',
	accountNumber: 'destinationAccountNumber',
	bankId: 'bankId',
} as const;

/** The field names inside `amount`. */
const AMOUNT_FIELDS = { value: 'value', currency: 'currency' } as const;

export const PAYOUT_CURRENCIES = ['NGN', 'USD'] as const;
export type PayoutCurrency = (typeof PAYOUT_CURRENCIES)[number];

/** What a payout create asks for. */
export interface PayoutMoney {
	reference: string;
	/** `amount.value`: kobo or cents. */
	minor: number;
	currency: PayoutCurrency;
	accountNumber: string;
	bankId: string;
}

export type PayoutBodyReading = { money: PayoutMoney } | { unreadable: string };

type JsonObject = Record<string, unknown>;

function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(object: JsonObject, key: string): unknown {
	return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** A key as a lenient parser might match it: Unicode compatibility form, lower case. */
function fold(key: string): string {
	return key.normalize('NFKC').toLowerCase();
}

/** A key named in a message: quoted, at most 40 characters. */
function named(text: string): string {
	const shown = JSON.stringify(text);
	return shown.length > 42 ? `${shown.slice(0, 40)}…"` : shown;
}

class Ambiguous extends Error {}

/**
 * Walks JSON text that `JSON.parse` accepted: throws `Ambiguous` at a key found twice in one
 * object (after `fold`), and returns the literal text of every number by its path
 * (`["amount","value"]` → `100000`), keyed by `JSON.stringify(path)`.
 */
function scanJson(text: string): Map<string, string> {
	const literals = new Map<string, string>();
	let at = 0;
	const space = () => {
		while (at < text.length && ' \t\n\r'.includes(text[at])) at++;
	};
	const stringToken = (): string => {
		const start = at;
		at++;
		while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
		at++;
		return JSON.parse(text.slice(start, at)) as string;
	};
	const value = (path: string[]): void => {
		space();
		const first = text[at];
		if (first === '{') {
			at++;
			const seen = new Set<string>();
			space();
			if (text[at] === '}') {
				at++;
				return;
			}
			for (;;) {
				space();
				const key = stringToken();
				const folded = fold(key);
				if (seen.has(folded)) throw new Ambiguous(`its JSON names the key ${named(key)} twice in one object${path.length > 0 ? ` (in ${path.join('.')})` : ''}`);
				seen.add(folded);
				space();
				at++; // ':'
				value([...path, key]);
				space();
				if (text[at++] === '}') return;
			}
		}
		if (first === '[') {
			at++;
			space();
			if (text[at] === ']') {
				at++;
				return;
			}
			for (let index = 0; ; index++) {
				value([...path, String(index)]);
				space();
				if (text[at++] === ']') return;
			}
		}
		if (first === '"') {
			stringToken();
			return;
		}
		const start = at;
		while (at < text.length && !',]} \t\n\r'.includes(text[at])) at++;
		literals.set(JSON.stringify(path), text.slice(start, at));
	};
	value([]);
	return literals;
}

/** The text that is signed and sent for `body`, or why there is none to read. */
function sentText(body: unknown): string | { unreadable: string } {
	if (body === undefined || body === null || body === '') return { unreadable: 'it has no body' };
	if (Buffer.isBuffer(body)) {
		const text = body.toString('utf8');
		return Buffer.from(text, 'utf8').equals(body) ? text : { unreadable: 'its body is not UTF-8 text' };
	}
	if (typeof body === 'string') return body;
	if (typeof body === 'object') return canonicalJson(body);
	return String(body);
}

/** The text of `body` as JSON: the parsed value and the literal of every number, or why it is not JSON for sure. */
function parsedJson(text: string): { value: unknown; literals: Map<string, string> } | { unreadable: string } {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return { unreadable: 'its body is not JSON' };
	}
	try {
		return { value, literals: scanJson(text) };
	} catch (error) {
		return { unreadable: error instanceof Ambiguous ? error.message : 'its JSON could not be read to the end' };
	}
}

/** A field name spelled otherwise: a parser that matches names loosely would read it. */
function misspelled(object: JsonObject, names: readonly string[], where: string): { unreadable: string } | undefined {
	for (const key of Object.keys(object)) {
		const meant = names.find((name) => fold(name) === fold(key) && name !== key);
		if (meant) return { unreadable: `it spells ${where}${meant} as ${named(key)}` };
	}
	return undefined;
}

/** One payout object at `path` of a parsed body, read for sure or not (the rules in the header). */
function readPayoutObject(parsed: JsonObject, path: string[], literals: Map<string, string>): PayoutBodyReading {
	const topLevel = misspelled(parsed, Object.values(PAYOUT_FIELDS), '');
	if (topLevel) return topLevel;

	const amount = own(parsed, PAYOUT_FIELDS.amount);
	if (typeof amount === 'number') {
		return { unreadable: 'its amount is a bare number: the API takes amount as {"value": kobo or cents, "currency": "NGN" or "USD"}' };
	}
	if (!isJsonObject(amount)) return { unreadable: 'it has no amount object with value and currency' };
	const inAmount = misspelled(amount, Object.values(AMOUNT_FIELDS), 'amount.');
	if (inAmount) return inAmount;
	const value = own(amount, AMOUNT_FIELDS.value);
	const literal = literals.get(JSON.stringify([...path, PAYOUT_FIELDS.amount, AMOUNT_FIELDS.value]));
	if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || literal === undefined || !/^(0|[1-9]\d*)$/.test(literal)) {
		return { unreadable: 'its amount.value is not a whole number of kobo or cents written in digits' };
	}
	const currency = own(amount, AMOUNT_FIELDS.currency);
	if (currency === undefined || currency === null) return { unreadable: 'it names no currency in amount.currency' };
	if (!(PAYOUT_CURRENCIES as readonly unknown[]).includes(currency)) return { unreadable: 'its amount.currency is not exactly NGN or USD' };
	if (Object.prototype.hasOwnProperty.call(parsed, PAYOUT_FIELDS.currency) && own(parsed, PAYOUT_FIELDS.currency) !== currency) {
		return { unreadable: 'it names two different currencies (currency and amount.currency)' };
	}
	const texts = [PAYOUT_FIELDS.reference, PAYOUT_FIELDS.accountNumber, PAYOUT_FIELDS.bankId] as const;
	for (const field of texts) {
		if (typeof own(parsed, field) !== 'string') return { unreadable: `its ${field} is not text` };
	}
	return {
		money: {
			reference: own(parsed, PAYOUT_FIELDS.reference) as string,
			minor: value,
			currency: currency as PayoutCurrency,
			accountNumber: own(parsed, PAYOUT_FIELDS.accountNumber) as string,
			bankId: own(parsed, PAYOUT_FIELDS.bankId) as string,
		},
	};
}

/**
 * The money of a payout create body as it will be signed and sent (string, Buffer, or an object
 * sent as `canonicalJson`), or the reason it cannot be read for sure.
 */
export function readPayoutBody(body: unknown): PayoutBodyReading {
	const text = sentText(body);
	if (typeof text !== 'string') return text;
	const json = parsedJson(text);
	if ('unreadable' in json) return json;
	if (!isJsonObject(json.value)) return { unreadable: 'its body is not a JSON object' };
	return readPayoutObject(json.value, [], json.literals);
}

/** The money of a readable payout body, or `undefined`. */
export function payoutMoneyOf(body: unknown): PayoutMoney | undefined {
	const reading = readPayoutBody(body);
	return 'money' in reading ? reading.money : undefined;
}

// Which requests are payouts --------------------------------------------------------------------

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
