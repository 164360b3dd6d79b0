/**
 * The name rule of Money Limits → Expected Account Name (docs/money.md, "Who may be paid"): a
 * holder's name from Paycashless's account lookup against the name a person expects, for
 * Nigerian account names (order, case, initials, accents, titles, spellings of one name, business
 * words). Pure.
 */

/** Spellings of one business word, read as the second (LIMITED = LTD). */
const SAME_WORD: Record<string, string> = {
	LIMITED: 'LTD',
	NIGERIA: 'NIG',
	NIGERIAN: 'NIG',
	COMPANY: 'CO',
	INTERNATIONAL: 'INTL',
	INCORPORATED: 'INC',
	CORPORATION: 'CORP',
	ENTERPRIZES: 'ENTERPRISES',
	ENTERPRIZE: 'ENTERPRISES',
	ENTS: 'ENT',
	TECHNOLOGY: 'TECHNOLOGIES',
};

/**
 * Spellings of one personal name, read as the second (MOHAMMED = MUHAMMAD). Only spellings of the
 * same name: never a short form for a full name (SEUN is not OLUWASEUN).
 */
const SAME_NAME: Record<string, string> = {
	MOHAMMED: 'MUHAMMAD',
	MOHAMMAD: 'MUHAMMAD',
	MUHAMMED: 'MUHAMMAD',
	MOHAMED: 'MUHAMMAD',
	MOHAMAD: 'MUHAMMAD',
	MUHAMED: 'MUHAMMAD',
	MUHAMAD: 'MUHAMMAD',
	MOHD: 'MUHAMMAD',
	MUHD: 'MUHAMMAD',
	ABUBAKR: 'ABUBAKAR',
	ABUBAKER: 'ABUBAKAR',
	IBRAHEEM: 'IBRAHIM',
	YUSUFF: 'YUSUF',
	YUSSUF: 'YUSUF',
	YOUSUF: 'YUSUF',
	YOUSSUF: 'YUSUF',
	AISHAH: 'AISHA',
	AYISHA: 'AISHA',
	AYESHA: 'AISHA',
	FATIMAH: 'FATIMA',
	UTHMAN: 'USMAN',
	OTHMAN: 'USMAN',
	SULAIMAN: 'SULEIMAN',
	SULAYMAN: 'SULEIMAN',
	SULEYMAN: 'SULEIMAN',
	ABDURRAHMAN: 'ABDULRAHMAN',
	ABDULRAHAMAN: 'ABDULRAHMAN',
	MATHEW: 'MATTHEW',
	PHILLIP: 'PHILIP',
};

/** A name written as two words (ABU-BAKR, ABDUL RAHMAN), read as its one-word spelling. */
const JOINED: Record<string, string> = {
	'ABU BAKR': 'ABUBAKAR',
	'ABU BAKAR': 'ABUBAKAR',
	'ABU BAKER': 'ABUBAKAR',
	'ABDUL RAHMAN': 'ABDULRAHMAN',
	'ABDUR RAHMAN': 'ABDULRAHMAN',
	'ABDUL RAHAMAN': 'ABDULRAHMAN',
};

/**
 * Words that make an account name a business's, each in one form: its singular and plural
 * (SON = SONS, PROPERTY = PROPERTIES, BOUTIQUE = BOUTIQUES) are read as the form listed here.
 */
const BUSINESS_WORDS = new Set([
	// Company forms and registration.
	'LTD', 'PLC', 'INC', 'LLC', 'LLP', 'CO', 'CORP', 'NIG', 'NG', 'BN', 'RC', 'GTE', 'ENT', 'ENTERPRISES', 'VENTURES', 'GLOBAL',
	'CONCEPTS', 'SERVICES', 'INVESTMENTS', 'HOLDINGS', 'RESOURCES', 'SOLUTIONS', 'INTL', 'INDUSTRIES', 'GROUP', 'PARTNERS',
	'ASSOCIATES', 'INTEGRATED', 'UNLIMITED', 'GENERAL', 'MULTI', 'MULTIBIZ', 'BIZ', 'IMPEX', 'IMPORT', 'EXPORT', 'AND', 'SONS',
	'BROTHERS', 'BROS', 'SISTERS', 'COLLECTIONS', 'NETWORKS', 'SYSTEMS', 'INNOVATIONS', 'CREATIONS', 'DESIGNS', 'PRODUCTS',
	'COMMERCIAL', 'MANAGEMENT', 'CAPITAL', 'FINANCE', 'FINANCIAL', 'INSURANCE', 'TRUST', 'FUND', 'ACCOUNT', 'WORLD', 'PLUS',
	'CITY', 'HUB', 'HOUSE', 'EMPIRE', 'LINKS', 'EXPRESS',
	// Trades.
	'TRADING', 'TRADERS', 'STORES', 'SHOP', 'SHOPPING', 'MART', 'SUPERMARKET', 'MARKET', 'MARKETING', 'MERCHANTS', 'SUPPLIES',
	'DISTRIBUTORS', 'DISTRIBUTION', 'WHOLESALE', 'AGENCY', 'LOGISTICS', 'TRANSPORT', 'HAULAGE', 'SHIPPING', 'CARGO', 'COURIER',
	'DELIVERY', 'TRAVELS', 'TOURS', 'TECHNOLOGIES', 'TECH', 'DIGITAL', 'ONLINE', 'MEDIA', 'COMMUNICATIONS', 'PRINTS', 'PRINTING',
	'PRESS', 'MOBILE', 'PHONES', 'GADGETS', 'COMPUTERS', 'ELECTRONICS', 'ELECTRICALS', 'PAY', 'PAYMENTS', 'POS', 'MFB',
	'MICROFINANCE', 'BANK', 'CONSULT', 'CONSULTING', 'CONSULTANTS', 'CONTRACTORS', 'CONSTRUCTION', 'ENGINEERING', 'BUILDERS',
	'PROPERTY', 'ESTATE', 'REALTY', 'HOMES', 'FARMS', 'AGRO', 'FOODS', 'KITCHEN', 'EATERY', 'RESTAURANT', 'CATERING', 'BAKERY',
	'GARDENS', 'HOTEL', 'SUITES', 'LOUNGE', 'EVENTS', 'ENTERTAINMENT', 'PRODUCTIONS', 'RECORDS', 'STUDIOS', 'FASHION', 'BOUTIQUE',
	'WEARS', 'TEXTILES', 'FABRICS', 'COSMETICS', 'BEAUTY', 'SALON', 'SPA', 'PHARMACY', 'PHARMA', 'PHARMACEUTICALS', 'CLINIC',
	'HOSPITAL', 'LABS', 'MOTORS', 'AUTOS', 'OIL', 'GAS', 'PETROLEUM', 'ENERGY', 'FURNITURE', 'PLASTICS', 'PACKAGING', 'CLEANING',
	'LAUNDRY', 'SECURITY', 'SPORTS', 'FITNESS',
	// Bodies that are not a person.
	'FOUNDATION', 'MINISTRIES', 'CHURCH', 'MOSQUE', 'SCHOOL', 'ACADEMY', 'COLLEGE', 'INSTITUTE', 'SOCIETY', 'ASSOCIATION', 'COOPERATIVE', 'CLUB', 'CENTRE', 'CENTER',
]);

/** The listed form of a business word in any of its singular and plural forms, or undefined. */
function businessForm(word: string): string | undefined {
	const forms = [word, `${word}S`, `${word}ES`];
	if (word.endsWith('S')) forms.push(word.slice(0, -1));
	if (word.endsWith('ES')) forms.push(word.slice(0, -2));
	if (word.endsWith('IES')) forms.push(`${word.slice(0, -3)}Y`);
	if (word.endsWith('Y')) forms.push(`${word.slice(0, -1)}IES`);
	return forms.find((form) => BUSINESS_WORDS.has(form));
}

/**
 * A word that looks like a business's though it is not listed: a number (RC 123456), or a made-up
 * trade name (OBITECH, ADAMART, MULTILINKS, CHIPAY).
 */
const LOOKS_LIKE_BUSINESS = /\d|(?:BIZ|TECH|MART|PAY|HUB|LINKS?|SOFT|TRONICS?|WORLD|PLUS)$|^(?:MULTI|TECHNO|BIZ)|ENTERPRI[SZ]|VENTURE|CONCEPT|GLOBAL|NIGERIA|INVEST|PROPERT|LOGISTIC|PHARMA|COLLECTION|FASHION|IMPEX/;

/** Titles dropped from both names (a lookup rarely returns them, a person often writes them). */
const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'DR', 'PROF', 'ENGR', 'BARR', 'CHIEF', 'ALHAJI', 'ALHAJA', 'ALH', 'HAJIA', 'REV', 'PASTOR']);

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
 *    initial (one letter) and a word starting with that letter, either way round;
 * 2. at least two matches are the same word (one when the holder's name is one word), so an
 *    initial never stands in for a whole first name ("A. Obi" does not pass ADA OBI);
 * 3. no word of the holder's name is left over ("Ada Obi" does not pass ADA CHIOMA OBI nor ADA OBI
 *    FASHION HOUSE); with `allowMiddleNames`, at most two are, and none is a business word or
 *    looks like one ("Ada Obi" passes ADA CHIOMA OBI, not ADA OBI VENTURES nor ADA OBI OBITECH).
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
	if (left.length === 0) return true;
	if (options.allowMiddleNames !== true || left.length > MIDDLE_NAMES) return false;
	return !left.some((word) => BUSINESS_WORDS.has(word) || LOOKS_LIKE_BUSINESS.test(word));
}
