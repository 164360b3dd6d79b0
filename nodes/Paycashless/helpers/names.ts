/**
 * The name rule of Money Limits → Expected Account Name (docs/money.md, "Who may be paid"): a
 * holder's name from Paycashless's account lookup against the name a person expects, for
 * Nigerian account names (order, case, initials, accents, titles, business suffixes). Pure.
 */

/** Spellings of one business word, read as the first (LIMITED = LTD). */
const SAME_WORD: Record<string, string> = {
	LIMITED: 'LTD',
	NIGERIA: 'NIG',
	COMPANY: 'CO',
	INTERNATIONAL: 'INTL',
	ENTERPRISE: 'ENTERPRISES',
	ENTERPRIZES: 'ENTERPRISES',
	VENTURE: 'VENTURES',
	CONCEPT: 'CONCEPTS',
	SERVICE: 'SERVICES',
	INVESTMENT: 'INVESTMENTS',
	STORE: 'STORES',
	TECHNOLOGY: 'TECHNOLOGIES',
	MERCHANT: 'MERCHANTS',
};

/** Words that make an account name a business's (after SAME_WORD): never an extra word of a person's name. */
const BUSINESS_WORDS = new Set([
	'LTD', 'PLC', 'INC', 'LLC', 'LLP', 'CO', 'NIG', 'BN', 'RC', 'ENT', 'ENTERPRISES', 'VENTURES', 'GLOBAL', 'CONCEPTS', 'SERVICES',
	'INVESTMENTS', 'HOLDINGS', 'RESOURCES', 'SOLUTIONS', 'INTL', 'INDUSTRIES', 'TRADING', 'STORES', 'AGENCY', 'AGENCIES', 'LOGISTICS',
	'TECHNOLOGIES', 'TECH', 'CONSULT', 'CONSULTING', 'CONSULTANTS', 'MERCHANTS', 'PROPERTIES', 'FARMS', 'FOODS', 'SONS', 'GROUP',
	'PARTNERS', 'ASSOCIATES', 'NETWORK', 'INTEGRATED', 'CONSTRUCTION', 'ENGINEERING', 'MFB', 'BANK', 'FOUNDATION', 'MINISTRIES',
	'CHURCH', 'SCHOOL', 'SCHOOLS', 'ACADEMY', 'HOTEL', 'HOTELS', 'PHARMACY', 'MOTORS', 'EMPIRE', 'LINKS', 'SUPERMARKET', 'ACCOUNT',
]);

/** Titles dropped from both names (a lookup rarely returns them, a person often writes them). */
const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'DR', 'PROF', 'ENGR', 'BARR', 'CHIEF', 'ALHAJI', 'ALHAJA', 'ALH', 'HAJIA', 'REV', 'PASTOR']);

/**
 * The words of a name for comparison: accents dropped (Ọ → O, Ẹ → E, Ṣ → S, à → A), upper case,
 * `&` read as AND, apostrophes removed, any other non-letter a space, business words in one
 * spelling (LIMITED → LTD), titles (MR, MRS, DR, CHIEF, ALHAJI…) left out.
 */
function nameWords(name: string): string[] {
	return name
		.normalize('NFD')
		.replace(/\p{M}+/gu, '')
		.toUpperCase()
		.replace(/&/g, ' AND ')
		.replace(/['’`]/g, '')
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.split(' ')
		.filter((word) => word !== '')
		.map((word) => SAME_WORD[word] ?? word)
		.filter((word) => !TITLES.has(word));
}

/** At most this many words of the holder's name may be left over (middle names). */
const EXTRA_PERSONAL_WORDS = 2;

/**
 * The name rule of Expected Account Name, `expected` against the holder's name `actual` (both
 * through nameWords; order ignored). It passes when:
 * 1. every expected word is matched by its own word of the holder's name: the same word, or an
 *    initial (one letter) and a word starting with that letter, either way round;
 * 2. at least two matches are the same word (one when the holder's name is one word), so an
 *    initial never stands in for a whole first name ("A. Obi" does not pass ADA OBI);
 * 3. the holder's words left over are at most two, none a business word ("Ada Obi" passes
 *    ADA CHIOMA OBI, not ADA OBI VENTURES LTD: a business account is not the person's).
 * The table of cases in docs/money.md is run by test/unit/node/beneficiary.test.cts.
 */
export function namesMatch(expected: string, actual: string): boolean {
	const want = nameWords(expected);
	const have = nameWords(actual);
	if (want.length === 0 || have.length === 0) return false;
	const free = have.map(() => true);
	const take = (fits: (word: string) => boolean): boolean => {
		const at = have.findIndex((word, k) => free[k] && fits(word));
		if (at >= 0) free[at] = false;
		return at >= 0;
	};
	const initial = (word: string) => word.length === 1;
	let same = 0;
	// Same words first, so an initial never takes a word another expected word needs whole.
	const rest = want.filter((word) => {
		if (!take((candidate) => candidate === word)) return true;
		same += 1;
		return false;
	});
	for (const word of rest) {
		const matched = initial(word)
			? take((candidate) => candidate.startsWith(word))
			: take((candidate) => initial(candidate) && word.startsWith(candidate));
		if (!matched) return false;
	}
	if (same < Math.min(2, have.length)) return false;
	const left = have.filter((_, k) => free[k]);
	return left.length <= EXTRA_PERSONAL_WORDS && !left.some((word) => BUSINESS_WORDS.has(word));
}
