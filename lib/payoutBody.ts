/**
 * The one reader of a payout: what the credential's payout ceiling (./payoutCeiling.ts), the
 * node's Money Limits and the payout create's "found again" comparison read as a payout, written
 * once. Two questions, both answered here:
 *
 * What a payout create body asks for (`readPayoutBody`, `POST /v1/payouts`), here. It reads the body as
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
 * Which requests are payouts: ./payoutRequest.ts.
 * Pure: no n8n, no I/O.
 */
import { canonicalJson } from './signing';

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

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(object: JsonObject, key: string): unknown {
	return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** A key as a lenient parser might match it: Unicode compatibility form, lower case. */
export function fold(key: string): string {
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
export function parsedJson(text: string): { value: unknown; literals: Map<string, string> } | { unreadable: string } {
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
export function readPayoutObject(parsed: JsonObject, path: string[], literals: Map<string, string>): PayoutBodyReading {
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
