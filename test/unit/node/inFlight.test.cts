/**
 * The process's ledger of payouts in flight (nodes/Paycashless/money/inFlight.ts) and the account
 * keys and relations it counts by (money/accounts.ts), on their own clock: each reservation is its
 * own entry; an entry counts until a read of the list shows it (by id, or by reference and money),
 * Paycashless says it never happened, or its credential is known to reach another account; no time
 * alone lets it go before that. Through the node and the emulator: test/unit/node/money.test.cts
 * and test/unit/node/ledger.test.cts.
 */
import { accountKey, learnt, relation, sameSpelling } from '../../../nodes/Paycashless/money/accounts';
import { countedFor, listedBy, looked, reserve, underWay, unknownOwners, type InFlightPayout, type ListedPayouts } from '../../../nodes/Paycashless/money/inFlight';
import { lookedFrom } from '../../../nodes/Paycashless/money/questions';
import { isListedAs, type ListedPayout } from '../../../nodes/Paycashless/money/listed';

const HOUR = 3_600_000;
const accounts: string[] = [];
/**
 * A fresh account key, known to reach another account than every earlier one: the ledger is the
 * process's, and another credential's payouts count until that is known.
 */
function freshAccounts(count: number): string[] {
	const fresh = Array.from({ length: count }, (_, k) => `account-${accounts.length + k + 1}`);
	for (const account of fresh) for (const earlier of accounts) learnt(account, earlier, 'different');
	accounts.push(...fresh);
	return fresh;
}
const freshAccount = () => freshAccounts(1)[0];

/** A read of the list through `reader` that started at `readStartedAt` and showed `payouts` (marked listed as a real read does). */
function read(readStartedAt: number, payouts: ListedPayout[] = [], reader?: string): ListedPayouts {
	if (reader !== undefined) listedBy(reader, payouts, readStartedAt + 1);
	return {
		readStartedAt,
		shows: (entry: InFlightPayout) => payouts.some((payout) => isListedAs(entry, payout)),
	};
}

const payout = (reference: string, value: number) => ({ reference, value, currency: 'NGN', party: '0123456789@bank_a' });
const listed = (id: string, reference: string, value: number, createdAt?: number): ListedPayout => ({ id, ...payout(reference, value), ...(createdAt !== undefined ? { createdAt } : {}) });
const references = (counted: { entries(): InFlightPayout[] }) => counted.entries().map((entry) => `${entry.reference}:${entry.value}`).sort();

describe('a payout in flight is counted by what it is, not by its reference', () => {
	it('two creates under one reference are two entries: one refused gives back only its own', () => {
		const account = freshAccount();
		const first = reserve(account, payout('r', 1000), 1_000);
		const second = reserve(account, payout('r', 900_000), 1_001);
		expect(references(countedFor(account, read(0), 2_000))).toEqual(['r:1000', 'r:900000']);
		expect(references({ entries: () => underWay(account, 'r') })).toEqual(['r:1000', 'r:900000']);
		// Paycashless refuses the second (the reference is taken): the first still counts.
		second.release();
		expect(references(countedFor(account, read(0), 2_000))).toEqual(['r:1000']);
		first.sent({ id: 'po_1', confirmed: true }, 2_000);
		expect(references(countedFor(account, read(5_000), 6_000))).toEqual(['r:1000']);
	});

	it('Paycashless answering with a payout another entry already is (found again) counts it once', () => {
		const account = freshAccount();
		reserve(account, payout('twice', 10), 0).sent({ id: 'po_twice', confirmed: true }, 10);
		reserve(account, payout('twice', 10), 20).sent({ id: 'po_twice', confirmed: true }, 30);
		expect(references(countedFor(account, read(0), 40))).toEqual(['twice:10']);
	});
});

describe('a list that lags: an entry counts until a read shows it', () => {
	it('no time alone lets an entry go: only a read that shows it, by id or, before its answer, by reference and money', () => {
		const account = freshAccount();
		// n8n's clock in ms, Paycashless's createdAt in seconds: reserved at 1,000 s.
		const answered = reserve(account, payout('a', 100), 1_000_000);
		reserve(account, payout('b', 200), 1_000_000);
		answered.sent({ id: 'po_a', confirmed: true }, 1_001_000);
		// A read that started long after both creates ended, and shows neither: both still count.
		expect(references(countedFor(account, read(1_060_000), 1_061_000))).toEqual(['a:100', 'b:200']);
		// An older failed payout under b, created before b was reserved, is not b.
		const old = listed('po_old', 'b', 200, 500);
		listedBy(account, [old], 1_061_000);
		expect(references(countedFor(account, read(1_061_000, [old], account), 1_062_000))).toEqual(['a:100', 'b:200']);
		// b before its create answered: the list shows its reference and money, created after it was reserved.
		expect(references(countedFor(account, read(1_061_000, [listed('po_b', 'b', 200, 1_000)], account), 1_062_000))).toEqual(['a:100']);
		// Later reads show b again. The list shows a under another id: not a. Then under its own: a is the list's.
		const b = listed('po_b', 'b', 200, 1_000);
		expect(references(countedFor(account, read(1_062_000, [b, listed('po_other', 'a', 100)], account), 1_063_000))).toEqual(['a:100']);
		expect(references(countedFor(account, read(1_063_000, [b, listed('po_a', 'a', 100)], account), 1_064_000))).toEqual([]);
	});

	it('once a list of its account showed it, it counts only for checks that use an earlier read', () => {
		const account = freshAccount();
		reserve(account, payout('c', 300), 1_000).sent({ id: 'po_c', confirmed: true }, 1_500);
		listedBy(account, [listed('po_c', 'c', 300)], 5_000);
		// A read that started before it was listed may not show it: counted.
		expect(references(countedFor(account, read(4_000), 6_000))).toEqual(['c:300']);
		// A later read of the account shows it (the list counts it): not counted again.
		expect(references(countedFor(account, read(5_500), 6_000))).toEqual([]);
		expect(underWay(account, 'c')).toEqual([]);
	});

	it('Paycashless saying it has no such payout drops it; saying it has it keeps it counted', () => {
		const account = freshAccount();
		reserve(account, payout('gone', 1), 0).sent({ id: 'po_gone', confirmed: true }, 10);
		reserve(account, payout('here', 2), 0).sent({ id: 'po_here', confirmed: true }, 10);
		const [gone, here] = countedFor(account, read(0), 20).entries().sort((a, b) => a.value - b.value);
		looked(gone, false);
		looked(here, true);
		expect(references(countedFor(account, read(0), 30))).toEqual(['here:2']);
	});

	it('kept for memory only while it can matter: 48 hours, or an hour after Paycashless confirmed it when no list showed it', () => {
		const account = freshAccount();
		reserve(account, payout('confirmed', 1), 0).sent({ id: 'po_confirmed', confirmed: true }, 1_000);
		reserve(account, payout('unconfirmed', 1), 0).sent({}, 1_000);
		reserve(account, payout('sending', 1), 0);
		expect(references(countedFor(account, read(0), 2 * HOUR))).toEqual(['sending:1', 'unconfirmed:1']);
		expect(references(countedFor(account, read(0), 49 * HOUR))).toEqual([]);
	});
});

describe('one Paycashless account, one ledger, whichever credential reaches it', () => {
	it('a spelling of the Base URL is the same key; another address or API key is another', () => {
		const key = accountKey('http://127.0.0.1:4010', 'pk_test');
		for (const spelling of ['HTTP://127.0.0.1:4010/', 'http://127.0.0.1:4010//', ' http://127.0.0.1.:4010 ']) expect(accountKey(spelling, 'pk_test')).toBe(key);
		expect(accountKey('https://API.Paycashless.com.:443/', 'k')).toBe(accountKey('https://api.paycashless.com', 'k'));
		expect(sameSpelling('https://API.Paycashless.com.:443/proxy/')).toBe('https://api.paycashless.com/proxy');
		expect(accountKey('http://localhost:4010', 'pk_test')).not.toBe(key);
		expect(accountKey('http://127.0.0.1:4010', 'pk_test_2')).not.toBe(key);
	});

	it('another credential\'s payouts in flight count until it is known to reach another account', () => {
		// Three credentials the process knows nothing of.
		const [mine, other, unrelated] = freshAccounts(3);
		reserve(other, payout('theirs', 500), 0).sent({ id: 'po_theirs', confirmed: true }, 10);
		expect(relation(mine, other)).toBe('unknown');
		expect(references(countedFor(mine, read(100), 200))).toEqual(['theirs:500']);
		// Listed by their own credential's list: a check of mine that read earlier still counts it.
		listedBy(other, [listed('po_theirs', 'theirs', 500)], 300);
		expect(references(countedFor(mine, read(400), 500))).toEqual(['theirs:500']);
		// Known: another account. Its payouts count no more (nor do its later ones).
		learnt(mine, other, 'different');
		reserve(other, payout('theirs-2', 600), 600);
		expect(references(countedFor(mine, read(400), 700))).toEqual([]);
		expect(underWay(mine, 'theirs-2')).toEqual([]);
		// A credential whose list shows a payout's id is that payout's account.
		reserve(unrelated, payout('shared', 7), 800).sent({ id: 'po_shared', confirmed: true }, 810);
		listedBy(mine, [listed('po_shared', 'shared', 7)], 900);
		expect(relation(mine, unrelated)).toBe('same');
		expect(references(countedFor(mine, read(950), 1_000))).toEqual([]);
		expect(references(countedFor(mine, read(850), 1_000))).toEqual(['shared:7']);
	});

	it('a credential none of whose payouts was shown back is asked about payout by payout: "none here" counts it no more for the asker alone', () => {
		const [mine, other, third] = freshAccounts(3);
		// The create ended without an answer (a timeout): no id, nothing Paycashless showed.
		reserve(other, payout('unclear', 500), 0).sent(undefined, 10);
		// Still sending: nothing to ask yet.
		reserve(other, payout('sending', 600), 0);
		expect(unknownOwners(mine).owners.size).toBe(0);
		const [unclear] = unknownOwners(mine).entries;
		expect(unknownOwners(mine).entries.map((entry) => entry.reference)).toEqual(['unclear']);
		// Asked through mine: no such payout here. Either another account, or this one and never made.
		lookedFrom(mine, unclear, null);
		expect(references(countedFor(mine, read(0), 20))).toEqual(['sending:600']);
		expect(unknownOwners(mine).entries).toEqual([]);
		// Nothing was learnt of the pair, and it still counts for the third credential and its own.
		expect(relation(mine, other)).toBe('unknown');
		expect(references(countedFor(third, read(0), 20))).toEqual(['sending:600', 'unclear:500']);
		expect(references(countedFor(other, read(0), 20))).toEqual(['sending:600', 'unclear:500']);
	});

	it('a payout with an id but not shown back: its id asked through another credential tells one account or two', () => {
		const [mine, other, third] = freshAccounts(3);
		reserve(other, payout('accepted', 500), 0).sent({ id: 'po_accepted' }, 10);
		const [accepted] = unknownOwners(mine).entries;
		// Paycashless shows a payout under that reference with no id to compare: it counts on.
		lookedFrom(mine, accepted, {});
		expect(relation(mine, other)).toBe('unknown');
		expect(references(countedFor(mine, read(0), 20))).toEqual(['accepted:500']);
		// Its own id: one account. Another payout under its reference: two.
		lookedFrom(mine, accepted, { id: 'po_accepted' });
		expect(relation(mine, other)).toBe('same');
		lookedFrom(third, accepted, { id: 'po_someone_else' });
		expect(relation(third, other)).toBe('different');
		expect(references(countedFor(third, read(0), 20))).toEqual([]);
	});

	it('a payout its own account showed (its list, or asked by reference) is what other credentials ask for', () => {
		const [mine, other, third] = freshAccounts(3);
		// Accepted (202) with an id, not read back: no payout to ask for yet.
		reserve(other, payout('later', 500), 0).sent({ id: 'po_later' }, 10);
		expect(unknownOwners(mine).owners.size).toBe(0);
		listedBy(other, [listed('po_later', 'later', 500)], 20);
		expect([...unknownOwners(mine).owners.values()]).toEqual([{ reference: 'later', id: 'po_later' }]);
		// Asked by reference through its own credential: the payout it is.
		reserve(third, payout('asked', 700), 0).sent(undefined, 10);
		const [asked] = countedFor(third, read(0), 20).entries().filter((entry) => entry.reference === 'asked');
		looked(asked, true, 'po_asked');
		expect(unknownOwners(mine).owners.get(third)).toEqual({ reference: 'asked', id: 'po_asked' });
	});

	it('a list of another account showing the same reference and money is not this payout', () => {
		const [mine, other] = freshAccounts(2);
		learnt(mine, other, 'different');
		reserve(mine, payout('salary-1', 1000), 0);
		listedBy(other, [listed('po_elsewhere', 'salary-1', 1000)], 10);
		expect(references(countedFor(mine, read(20), 30))).toEqual(['salary-1:1000']);
	});
});
