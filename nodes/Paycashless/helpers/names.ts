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
 * same name: how one Arabic, Hebrew or Greek name is written in English letters (Ibraheem and
 * Ibrahim: the long i written EE or I), the final vowel Hausa adds (Muhammadu, Abdullahi, Aliyu),
 * the final -AT of Yoruba women's names (Aishat = Aisha), a letter doubled or not (Abdulahi). Never
 * a short form for a full name (SEUN is not OLUWASEUN, OLU not OLUWA, EMEKA not CHUKWUEMEKA) nor
 * the same name in another language (YAKUBU is not JACOB).
 */
export const SAME_NAME: Readonly<Record<string, string>> = {
	MOHAMMED: 'MUHAMMAD',
	MOHAMMAD: 'MUHAMMAD',
	MUHAMMED: 'MUHAMMAD',
	MOHAMED: 'MUHAMMAD',
	MOHAMAD: 'MUHAMMAD',
	MUHAMED: 'MUHAMMAD',
	MUHAMAD: 'MUHAMMAD',
	MUHAMMADU: 'MUHAMMAD',
	MUHAMADU: 'MUHAMMAD',
	MOHAMMADU: 'MUHAMMAD',
	MOHD: 'MUHAMMAD',
	MUHD: 'MUHAMMAD',
	ABUBAKR: 'ABUBAKAR',
	ABUBAKER: 'ABUBAKAR',
	ABDULLAH: 'ABDULLAHI',
	ABDULAHI: 'ABDULLAHI',
	ABDULAH: 'ABDULLAHI',
	AHMED: 'AHMAD',
	AHMADU: 'AHMAD',
	ALIYU: 'ALI',
	IBRAHEEM: 'IBRAHIM',
	ISMAILA: 'ISMAIL',
	ISMAEEL: 'ISMAIL',
	ISAH: 'ISA',
	IDREES: 'IDRIS',
	KAREEM: 'KARIM',
	HAKEEM: 'HAKIM',
	RASHEED: 'RASHID',
	ABDULRASHEED: 'ABDULRASHID',
	AZEEZ: 'AZIZ',
	ABDULAZEEZ: 'ABDULAZIZ',
	HABEEB: 'HABIB',
	LATEEF: 'LATIF',
	WAHEED: 'WAHID',
	HAMEED: 'HAMID',
	RAHEEM: 'RAHIM',
	JAMEEL: 'JAMIL',
	HASAN: 'HASSAN',
	HUSAIN: 'HUSSAINI',
	HUSSAIN: 'HUSSAINI',
	HUSSEIN: 'HUSSAINI',
	HUSAINI: 'HUSSAINI',
	YUSUFF: 'YUSUF',
	YUSSUF: 'YUSUF',
	YOUSUF: 'YUSUF',
	YOUSSUF: 'YUSUF',
	YAHYA: 'YAHAYA',
	MOUSA: 'MUSA',
	MOUSSA: 'MUSA',
	AISHAH: 'AISHA',
	AYISHA: 'AISHA',
	AYESHA: 'AISHA',
	AISHAT: 'AISHA',
	FATIMAH: 'FATIMA',
	FATIMAT: 'FATIMA',
	HALIMAT: 'HALIMA',
	HALIMAH: 'HALIMA',
	KHADIJAT: 'KHADIJA',
	KHADIJAH: 'KHADIJA',
	KADIJAT: 'KHADIJA',
	ZAYNAB: 'ZAINAB',
	UTHMAN: 'USMAN',
	OTHMAN: 'USMAN',
	USMANU: 'USMAN',
	SULAIMAN: 'SULEIMAN',
	SULAYMAN: 'SULEIMAN',
	SULEYMAN: 'SULEIMAN',
	SULAIMON: 'SULEIMAN',
	ABDURRAHMAN: 'ABDULRAHMAN',
	ABDULRAHAMAN: 'ABDULRAHMAN',
	ABDULRAHAMON: 'ABDULRAHMAN',
	MATHEW: 'MATTHEW',
	PHILLIP: 'PHILIP',
	MICHEAL: 'MICHAEL',
	EMANUEL: 'EMMANUEL',
	IMMANUEL: 'EMMANUEL',
	CHRISTIANAH: 'CHRISTIANA',
	ELISABETH: 'ELIZABETH',
	SAMPSON: 'SAMSON',
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
 * (SON = SONS, PROPERTY = PROPERTIES, BOUTIQUE = BOUTIQUES) are read as the form listed here. A
 * short code or abbreviation needs no entry when its shape gives it away (`readsAsName`: no vowel,
 * two letters, three letters ending in a consonant: LTD, BDC, MFB, NG, CO, NIG, ENT, POS, GTB).
 */
export const BUSINESS_WORDS: ReadonlySet<string> = new Set([
	// Company forms, registration and reach.
	'LTD', 'PLC', 'INC', 'LLC', 'LLP', 'CO', 'CORP', 'NIG', 'NG', 'BN', 'RC', 'GTE', 'ENT', 'ENTERPRISES', 'VENTURES', 'GLOBAL',
	'CONCEPTS', 'SERVICES', 'INVESTMENTS', 'HOLDINGS', 'RESOURCES', 'SOLUTIONS', 'INTL', 'INDUSTRIES', 'GROUP', 'PARTNERS',
	'ASSOCIATES', 'INTEGRATED', 'UNLIMITED', 'GENERAL', 'MULTI', 'MULTIBIZ', 'BIZ', 'BUSINESS', 'IMPEX', 'IMPORT', 'EXPORT', 'AND',
	'SONS', 'BROTHERS', 'BROS', 'SISTERS', 'COLLECTIONS', 'NETWORKS', 'SYSTEMS', 'INNOVATIONS', 'CREATIONS', 'DESIGNS', 'PRODUCTS',
	'COMMERCIAL', 'MANAGEMENT', 'CAPITAL', 'FINANCE', 'FINANCIAL', 'INSURANCE', 'TRUST', 'FUND', 'ACCOUNT', 'WORLD', 'PLUS',
	'CITY', 'HUB', 'HOUSE', 'EMPIRE', 'LINKS', 'EXPRESS', 'PARTNERSHIP', 'CONSORTIUM', 'AFRICA', 'WORLDWIDE', 'OVERSEAS',
	'NATIONWIDE', 'CONTINENTAL', 'UNIVERSAL', 'INTERCONTINENTAL', 'PROJECTS', 'INITIATIVES', 'AGENTS', 'DEALERS', 'VENDORS',
	'SUPPLIERS', 'OUTLETS', 'STATION', 'DEPOT', 'WAREHOUSE', 'PLAZA', 'MALL', 'EMPORIUM', 'SUPERSTORE',
	// Trades.
	'TRADING', 'TRADERS', 'TRADE', 'STORES', 'SHOP', 'SHOPPING', 'MART', 'SUPERMARKET', 'MARKET', 'MARKETING', 'MERCHANTS',
	'MERCHANDISE', 'PROVISIONS', 'SUPPLIES', 'SUPPLY', 'COMMODITIES', 'DISTRIBUTORS', 'DISTRIBUTION', 'WHOLESALE', 'AGENCY',
	'LOGISTICS', 'TRANSPORT', 'HAULAGE', 'SHIPPING', 'CARGO', 'COURIER', 'DELIVERY', 'DISPATCH', 'RIDERS', 'MOVERS', 'LINES',
	'TRAVELS', 'TOURS', 'TICKETS', 'TECHNOLOGIES', 'TECH', 'DIGITAL', 'ONLINE', 'MEDIA', 'COMMUNICATIONS', 'TELECOMS', 'DATA',
	'SOFTWARE', 'APPS', 'PRINTS', 'PRINTING', 'PRESS', 'GRAPHICS', 'PHOTOGRAPHY', 'PHOTOS', 'VISUALS', 'FILMS', 'MUSIC', 'SOUNDS',
	'MOBILE', 'PHONES', 'GADGETS', 'COMPUTERS', 'ELECTRONICS', 'ELECTRICALS', 'ELECTRIC', 'SOLAR', 'POWER', 'CABLES', 'PAY',
	'PAYMENTS', 'POS', 'MFB', 'MICROFINANCE', 'BANK', 'BUREAU', 'EXCHANGE', 'FOREX', 'CRYPTO', 'CONSULT', 'CONSULTING',
	'CONSULTANTS', 'CONTRACTORS', 'CONTRACTS', 'CONSTRUCTION', 'ENGINEERING', 'BUILDERS', 'WORKS', 'WORKSHOP', 'BLOCKS', 'CEMENT',
	'STEEL', 'ALUMINIUM', 'PAINTS', 'CHEMICALS', 'PROPERTY', 'ESTATE', 'REALTY', 'HOMES', 'DEVELOPERS', 'DEVELOPMENT', 'SURVEYORS',
	'ARCHITECTS', 'INTERIORS', 'DECOR', 'FURNISHINGS', 'FURNITURE', 'FARMS', 'AGRO', 'AGRIC', 'AGRICULTURE', 'ALLIED', 'POULTRY',
	'FISHERIES', 'LIVESTOCK', 'FEEDS', 'GRAINS', 'MILLS', 'FOODS', 'KITCHEN', 'EATERY', 'RESTAURANT', 'CATERING', 'BAKERY', 'CAKES',
	'PASTRIES', 'SNACKS', 'DRINKS', 'BEVERAGES', 'WATER', 'GARDENS', 'HOTEL', 'SUITES', 'LOUNGE', 'RESORT', 'APARTMENTS', 'SHORTLETS',
	'HOSPITALITY', 'EVENTS', 'ENTERTAINMENT', 'PRODUCTIONS', 'RECORDS', 'STUDIOS', 'RENTALS', 'HIRE', 'LEASING', 'FASHION', 'BOUTIQUE',
	'WEARS', 'TEXTILES', 'FABRICS', 'TAILORING', 'STITCHES', 'COSMETICS', 'BEAUTY', 'SALON', 'SPA', 'HAIR', 'NAILS', 'BARBING',
	'JEWELRY', 'JEWELLERY', 'PHARMACY', 'PHARMA', 'PHARMACEUTICALS', 'CLINIC', 'HOSPITAL', 'MEDICAL', 'MEDICALS', 'HEALTH',
	'HEALTHCARE', 'DIAGNOSTICS', 'DENTAL', 'OPTICAL', 'LABS', 'LABORATORY', 'MOTORS', 'AUTOS', 'GARAGE', 'PARTS', 'SPARES', 'TYRES',
	'OIL', 'GAS', 'PETROLEUM', 'ENERGY', 'PLASTICS', 'PACKAGING', 'CLEANING', 'CLEANERS', 'LAUNDRY', 'SECURITY', 'GUARDS', 'SPORTS',
	'FITNESS', 'GYM', 'GAMING', 'GAMES', 'LOTTO', 'BETS', 'TRAINING', 'TUTORIALS', 'TUTORS', 'LEARNING', 'EDUCATION',
	'NURSERY', 'DAYCARE', 'CHAMBERS', 'LEGAL', 'SOLICITORS', 'ADVOCATES', 'AUDIT', 'ACCOUNTANTS', 'ARTS', 'CRAFTS', 'CREATIVES',
	// Bodies that are not a person.
	'FOUNDATION', 'MINISTRIES', 'CHURCH', 'MOSQUE', 'ASSEMBLY', 'MISSION', 'OUTREACH', 'FELLOWSHIP', 'SCHOOL', 'ACADEMY', 'COLLEGE',
	'INSTITUTE', 'SOCIETY', 'ASSOCIATION', 'COOPERATIVE', 'CLUB', 'CENTRE', 'CENTER', 'NGO', 'UNION', 'COUNCIL', 'COMMITTEE',
	'EMPOWERMENT',
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
 * A made-up trade name, though it is not listed: a business word grown into one word (OBITECH,
 * ADAMART, MULTILINKS, CHIPAY, ADASTORES, EMEKAGLOBAL).
 */
const LOOKS_LIKE_BUSINESS =
	/(?:BIZ|TECH|MART|PAY|HUB|LINKS?|SOFT|TRONICS?|WORLD|PLUS|STORES?|SHOP|FOODS|AUTOS)$|^(?:MULTI|TECHNO|BIZ|AGRO)|ENTERPRI[SZ]|VENTURE|CONCEPT|GLOBAL|NIGERIA|INVEST|PROPERT|LOGISTIC|PHARMA|COLLECTION|FASHION|IMPEX|SOLUTION|SERVICE|CONSULT|SYSTEMS|NETWORK|INTEGRAT|PETROL|ENERGY/;

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

/** Titles dropped from both names (a lookup rarely returns them, a person often writes them). */
const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'DR', 'PROF', 'ENGR', 'BARR', 'CHIEF', 'ALHAJI', 'ALHAJA', 'ALH', 'HAJIA', 'HAJIYA', 'MALLAM', 'MALAM', 'REV', 'PASTOR']);

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
