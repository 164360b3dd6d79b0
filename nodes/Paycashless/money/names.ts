/**
 * The name rule of Money Limits → Expected Account Name (docs/money.md, "Who may be paid"): a
 * holder's name from Paycashless's account lookup against the name a person expects, for
 * Nigerian account names (order, case, initials, accents, titles, spellings of one name, business
 * words). Pure.
 */

import { BUSINESS_WORDS, JOINED, LOOKS_LIKE_BUSINESS, SAME_NAME, SAME_WORD, TITLES } from './nameLists';

/** The listed form of a business word in any of its singular and plural forms, or undefined. */
function businessForm(word: string): string | undefined {
	const forms = [word, `${word}S`, `${word}ES`];
	if (word.endsWith('S')) forms.push(word.slice(0, -1));
	if (word.endsWith('ES')) forms.push(word.slice(0, -2));
	if (word.endsWith('IES')) forms.push(`${word.slice(0, -3)}Y`);
	if (word.endsWith('Y')) forms.push(`${word.slice(0, -1)}IES`);
	return forms.find((form) => BUSINESS_WORDS.has(form));
}

/** Letters that make a syllable; a word without one is an abbreviation (LTD, BDC, MFB). */
const VOWELS = /[AEIOUY]/;

/**
 * Whether a word of a holder's name reads as a person's name, not as what a business adds to one:
 * letters only (no number: RC 123456, 2GO), with a vowel (LTD, BDC, MFB, PLC are abbreviations), of
 * three letters or more (CO, NG, BN are codes), and a three-letter word ending in a vowel (OBI, ADA,
 * EZE, IBE, OLA, UDO, ALI, ISA; NIG, ENT, INC, HUB, POS, ABC, GTB are codes), and not a business
 * word or a made-up trade name (`BUSINESS_WORDS`, `LOOKS_LIKE_BUSINESS`). Kept out, by the same
 * shapes: a few short given names that end in a consonant (BEN, DAN, SAM): write them in Expected
 * Account Name and they match as words. A single letter is an initial, not a word (`isInitial`).
 */
export function readsAsName(word: string): boolean {
	if (!/^\p{L}+$/u.test(word) || !VOWELS.test(word) || word.length < 3) return false;
	if (word.length === 3 && !VOWELS.test(word[2])) return false;
	return businessForm(word) === undefined && !LOOKS_LIKE_BUSINESS.test(word);
}

/** A single letter: the initial of a name. */
function isInitial(word: string): boolean {
	return word.length === 1 && /\p{L}/u.test(word);
}

/**
 * The words of a name for comparison: accents dropped (Ọ → O, Ẹ → E, Ṣ → S, à → A), upper case,
 * `&` read as AND, apostrophes removed, any other non-letter a space, a name written as two words
 * joined (ABU BAKR → ABUBAKAR), spellings of one name or business word in one spelling
 * (MOHAMMED → MUHAMMAD, LIMITED → LTD, PROPERTIES → PROPERTY), titles (MR, MRS, DR, CHIEF,
 * ALHAJI…) left out.
 */
function nameWords(name: string): string[] {
	const split = name
		.normalize('NFD')
		.replace(/\p{M}+/gu, '')
		.toUpperCase()
		.replace(/&/g, ' AND ')
		.replace(/['’`]/g, '')
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.split(' ')
		.filter((word) => word !== '');
	const joined: string[] = [];
	for (let k = 0; k < split.length; k++) {
		const pair = JOINED[`${split[k]} ${split[k + 1]}`];
		joined.push(pair ?? split[k]);
		if (pair !== undefined) k += 1;
	}
	return joined
		.map((word) => SAME_NAME[word] ?? SAME_WORD[word] ?? word)
		.map((word) => businessForm(word) ?? word)
		.filter((word) => !TITLES.has(word));
}

/** With Allow Middle Names: at most this many words of the holder's name may be left over. */
const MIDDLE_NAMES = 2;

export interface NameRuleOptions {
	/** Money Limits → Allow Middle Names in Account Name: up to two personal words of the holder's name left over. */
	allowMiddleNames?: boolean;
}

/**
 * The name rule of Expected Account Name, `expected` against the holder's name `actual` (both
 * through nameWords; order ignored). It passes when:
 * 1. every expected word is matched by its own word of the holder's name: the same word, or an
 *    initial (one letter) and a word that starts with that letter and reads as a name
 *    (`readsAsName`), either way round: an initial never stands for a business word ("Ada C. Obi"
 *    does not pass ADA OBI COLLECTIONS);
 * 2. at least two matches are the same word (one when the holder's name is one word), so an
 *    initial never stands in for a whole first name ("A. Obi" does not pass ADA OBI);
 * 3. no word of the holder's name is left over ("Ada Obi" does not pass ADA CHIOMA OBI nor ADA OBI
 *    FASHION HOUSE); with `allowMiddleNames`, at most two are, each a word that reads as a person's
 *    name or one initial ("Ada Obi" passes ADA CHIOMA OBI and ADA C OBI, not ADA OBI VENTURES, ADA
 *    OBI NIG, ADA OBI BDC, ADA OBI A.B, ADA OBI OBITECH nor ADA OBI 2).
 * The table of cases in docs/money.md is run by test/unit/node/beneficiary.test.cts.
 */
export function namesMatch(expected: string, actual: string, options: NameRuleOptions = {}): boolean {
	const want = nameWords(expected);
	const have = nameWords(actual);
	if (want.length === 0 || have.length === 0) return false;
	const free = have.map(() => true);
	const take = (fits: (word: string) => boolean): boolean => {
		const at = have.findIndex((word, k) => free[k] && fits(word));
		if (at >= 0) free[at] = false;
		return at >= 0;
	};
	let same = 0;
	// Same words first, so an initial never takes a word another expected word needs whole.
	const rest = want.filter((word) => {
		if (!take((candidate) => candidate === word)) return true;
		same += 1;
		return false;
	});
	for (const word of rest) {
		const matched = isInitial(word)
			? take((candidate) => candidate.startsWith(word) && readsAsName(candidate))
			: readsAsName(word) && take((candidate) => isInitial(candidate) && word.startsWith(candidate));
		if (!matched) return false;
	}
	if (same < Math.min(2, have.length)) return false;
	const left = have.filter((_, k) => free[k]);
	if (left.length === 0) return true;
	if (options.allowMiddleNames !== true || left.length > MIDDLE_NAMES) return false;
	// One initial is a middle name's; letters standing alone are how a business abbreviates (A.B.C).
	return left.filter(isInitial).length <= 1 && left.every((word) => isInitial(word) || readsAsName(word));
}
