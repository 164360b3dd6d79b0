/**
 * The payouts in flight of this running n8n: one ledger for every execution, node and credential.
 * A payout is entered the moment its Money Limits pass (before it is sent), so that a period limit
 * checked by another execution at the same moment counts it although Paycashless does not list it
 * yet. Each reservation is its own entry: no create replaces or gives back another's.
 *
 * An entry counts for a check made through a credential (its account key, ./accounts.ts) until
 * - a read of that credential's list that the check uses shows it (by its id, or, before its create
 *   answered, by its reference and money): from then on the list counts it; Paycashless answers a
 *   create `202 Accepted` and its list may show the payout seconds later, so no time stands in for it;
 * - Paycashless says it never happened: a definite refusal of its create (`release`), or, asked by
 *   its reference because it alone stood between a payout and its refusal, no such payout (`gone`);
 * - this running n8n knows the two credentials reach different Paycashless accounts (./accounts.ts);
 * - it cannot be in any period any more (48 hours), or Paycashless confirmed it an hour ago and no
 *   list has shown it since (this running n8n does not keep every payout it made when nothing reads the
 *   list: docs/money.md says what that assumes).
 * Once a list of its account has shown it, an entry is kept a while longer for the checks that use
 * an earlier read (a read that started before it was listed), then dropped.
 *
 * Memory only narrows the race: Paycashless's list stays the authority (./period.ts), and after a
 * restart the payouts made are on it. Other processes (queue-mode workers, main) keep their own
 * ledgers: docs/money.md says how far they can pass a period limit together.
 *
 * Longer than 250 lines on purpose: the entries, the sums a check reads and what each answer of
 * Paycashless does to an entry are one ledger, read whole.
 */
import { learnt, relation, type Sample } from './accounts';
import { isListedAs, type ListedPayout, type PayoutMoney } from './listed';

export interface InFlightPayout extends PayoutMoney {
	/** The account key of the credential that sends it. */
	readonly account: string;
	readonly reference: string;
	/** n8n's clock, ms. */
	readonly reservedAt: number;
	/** Its create ended (answered or not). */
	sentAt?: number;
	/** Paycashless's id of it, from its create's answer. */
	id?: string;
	/** When a read through its own account showed that it exists (its read-back, or a lookup). */
	confirmedAt?: number;
	/** When a list of its account first showed it (the end of that read). */
	listedAt?: number;
	/** Paycashless refused it, or said it has no such payout: it counts nowhere. */
	gone?: boolean;
	/**
	 * Account keys of credentials whose Paycashless account has no payout under its reference (asked
	 * while this running n8n could not tell whether they reach its account): it counts not for them.
	 */
	notIn?: Set<string>;
}

/** A read of the list a period check uses: whether it shows a payout in flight. */
export interface ListedPayouts {
	/** n8n's clock (ms) when the read behind it started. */
	readStartedAt: number;
	shows(entry: InFlightPayout): boolean;
}

/** Longer than any period (a calendar day, 24 hours): an entry older than this counts in none. */
const KEEP_MS = 48 * 3_600_000;
/** A payout Paycashless confirmed this long ago and no list showed: dropped (see the header). */
const KEEP_CONFIRMED_MS = 3_600_000;
/** How long an entry a list showed is kept for checks that use an earlier read. */
const KEEP_LISTED_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 10_000;

interface Owner {
	/** Entries no list of their account has shown yet, in the order they were reserved. */
	pending: Set<InFlightPayout>;
	/** Their count and totals per currency, kept as they change (a check reads them, not the entries). */
	pendingSums: { count: number; totals: Map<string, number> };
	/** Entries a list of their account showed, in the order it did. */
	listed: InFlightPayout[];
	/** The latest of its payouts that Paycashless confirmed: what another credential asks for. */
	sample?: Sample;
}

const owners = new Map<string, Owner>();
const byReference = new Map<string, Set<InFlightPayout>>();
const byId = new Map<string, InFlightPayout>();
let prunedAt = 0;

function ownerOf(account: string): Owner {
	let owner = owners.get(account);
	if (!owner) {
		owner = { pending: new Set(), pendingSums: { count: 0, totals: new Map() }, listed: [] };
		owners.set(account, owner);
	}
	return owner;
}

function addPending(owner: Owner, entry: InFlightPayout): void {
	owner.pending.add(entry);
	owner.pendingSums.count += 1;
	owner.pendingSums.totals.set(entry.currency, (owner.pendingSums.totals.get(entry.currency) ?? 0) + entry.value);
}

function removePending(owner: Owner | undefined, entry: InFlightPayout): void {
	if (!owner?.pending.delete(entry)) return;
	owner.pendingSums.count -= 1;
	owner.pendingSums.totals.set(entry.currency, (owner.pendingSums.totals.get(entry.currency) ?? 0) - entry.value);
}

/** A read through the entry's own account showed it, as payout `id`: it exists, and another credential can ask for it. */
function confirm(entry: InFlightPayout, id: string, now: number): void {
	entry.confirmedAt ??= now;
	ownerOf(entry.account).sample = { reference: entry.reference, id };
}

function forget(entry: InFlightPayout): void {
	entry.gone = true;
	removePending(owners.get(entry.account), entry);
	const same = byReference.get(entry.reference);
	same?.delete(entry);
	if (same?.size === 0) byReference.delete(entry.reference);
	if (entry.id !== undefined && byId.get(entry.id) === entry) byId.delete(entry.id);
}

function prune(now: number): void {
	if (now - prunedAt < PRUNE_EVERY_MS) return;
	prunedAt = now;
	for (const owner of owners.values()) {
		for (const entry of owner.pending) {
			const confirmedLongAgo = entry.confirmedAt !== undefined && now - entry.confirmedAt > KEEP_CONFIRMED_MS;
			if (now - entry.reservedAt > KEEP_MS || confirmedLongAgo) forget(entry);
		}
		const kept = owner.listed.findIndex((entry) => now - (entry.listedAt ?? 0) <= KEEP_LISTED_MS);
		const dropped = kept === -1 ? owner.listed : owner.listed.slice(0, kept);
		for (const entry of dropped) forget(entry);
		owner.listed = kept === -1 ? [] : owner.listed.slice(kept);
	}
}

/** The payouts in flight that count for a check: how many, and their total per currency. */
export interface InFlightCount {
	count: number;
	/** Smallest unit. */
	total(currency: string): number;
	/** The entries themselves (what a refusal asks Paycashless about). */
	entries(): InFlightPayout[];
}

/**
 * The payouts in flight that count for a check made through `account` with the read `listed`:
 * every entry of a credential that may reach the same account, unless the read shows it; of those
 * a list of their account already showed, only the ones listed after `listed` started. A read
 * through a credential of the same account marks what it shows as listed (`listedBy`), so the
 * entries no list has shown are counted from their sums, not one by one.
 */
export function countedFor(account: string, listed: ListedPayouts, now = Date.now()): InFlightCount {
	prune(now);
	const sums: Array<{ count: number; totals: Map<string, number> }> = [];
	const each: InFlightPayout[] = [];
	const whole: Owner[] = [];
	for (const [key, owner] of owners) {
		const known = relation(account, key);
		if (known === 'different') continue;
		if (known === 'same') {
			sums.push(owner.pendingSums);
			whole.push(owner);
		} else for (const entry of owner.pending) if (!entry.notIn?.has(account) && !listed.shows(entry)) each.push(entry);
		// Listed by a list of their own account: a read that started later shows them (same account),
		// or they are not this account's (learnt once, ./accounts.ts); until then they count.
		for (let k = owner.listed.length - 1; k >= 0; k--) {
			const entry = owner.listed[k];
			if (known === 'same' && (entry.listedAt ?? 0) < listed.readStartedAt) break;
			if (!entry.gone && !entry.notIn?.has(account) && !listed.shows(entry)) each.push(entry);
		}
	}
	return {
		count: sums.reduce((count, sum) => count + sum.count, 0) + each.length,
		total: (currency) => sums.reduce((total, sum) => total + (sum.totals.get(currency) ?? 0), 0) + each.reduce((total, entry) => total + (entry.currency === currency ? entry.value : 0), 0),
		entries: () => [...whole.flatMap((owner) => [...owner.pending]), ...each],
	};
}

/** What a check through `account` asks Paycashless before it counts other credentials' payouts in flight. */
export interface Unknown {
	/** Credentials with payouts in flight whose account `account` may share, and a payout of each their own account showed. */
	owners: Map<string, Sample>;
	/**
	 * Payouts in flight of credentials that have no such payout yet (none of their creates was
	 * shown back): each is asked for by its reference, once its create ended (the oldest 20).
	 */
	entries: InFlightPayout[];
}

/** The credentials and payouts in flight whose account `account` may share, and that can be asked about. */
export function unknownOwners(account: string): Unknown {
	const unknown: Unknown = { owners: new Map(), entries: [] };
	for (const [key, owner] of owners) {
		if ((owner.pending.size === 0 && owner.listed.length === 0) || relation(account, key) !== 'unknown') continue;
		if (owner.sample) unknown.owners.set(key, owner.sample);
		else for (const entry of owner.pending) if (entry.sentAt !== undefined && !entry.notIn?.has(account) && unknown.entries.length < 20) unknown.entries.push(entry);
	}
	return unknown;
}

/** Paycashless, asked through credential `account`, has no payout under the entry's reference: it counts not for `account`. */
export function notFor(entry: InFlightPayout, account: string): void {
	entry.notIn ??= new Set();
	entry.notIn.add(account);
}

/** Entries under `reference` no list of their account (nor `listed`) shows, of credentials that may reach `account`'s account. */
export function underWay(account: string, reference: string, listed?: ListedPayouts): InFlightPayout[] {
	const found: InFlightPayout[] = [];
	for (const entry of byReference.get(reference) ?? []) {
		if (entry.listedAt !== undefined || relation(account, entry.account) === 'different') continue;
		if (!listed?.shows(entry)) found.push(entry);
	}
	return found;
}

/** The entry a listed payout is, found by its reference and money (an entry without an id yet). */
function byMoney(payout: ListedPayout): InFlightPayout | undefined {
	for (const entry of byReference.get(payout.reference) ?? []) if (isListedAs(entry, payout)) return entry;
	return undefined;
}

/** A list read through `reader` showed `payouts` (`now`: when the read ended). */
export function listedBy(reader: string, payouts: Iterable<ListedPayout>, now = Date.now()): void {
	for (const payout of payouts) {
		const entry = byId.get(payout.id) ?? byMoney(payout);
		if (!entry || entry.listedAt !== undefined) continue;
		// Paycashless's ids are its own: a list that shows the id is the account that made it.
		if (entry.id === payout.id) learnt(reader, entry.account, 'same');
		if (relation(reader, entry.account) !== 'same') continue;
		const owner = ownerOf(entry.account);
		removePending(owner, entry);
		entry.listedAt = now;
		confirm(entry, payout.id, now);
		owner.listed.push(entry);
	}
}

/**
 * Paycashless answered, asked by reference through the entry's own account (./questions.ts): it
 * exists, as payout `id` (counted on until listed), or was never made.
 */
export function looked(entry: InFlightPayout, exists: boolean, id?: unknown, now = Date.now()): void {
	if (!exists) return forget(entry);
	entry.confirmedAt = now;
	if (typeof id === 'string' && id !== '') confirm(entry, id, now);
}

/** What a reservation lets its caller do once the create has ended. */
export interface Reservation {
	/** The create ended (answered, or failed in a way that may have created it), with its answer when there is one. */
	sent(answer?: { id?: unknown; confirmed?: boolean; paid?: boolean }, at?: number): void;
	/** Paycashless definitely refused it: nothing was created. */
	release(): void;
}

/** Enters a payout; call it in the same synchronous step as the check that let it pass. */
export function reserve(account: string, payout: PayoutMoney & { reference: string }, now = Date.now()): Reservation {
	prune(now);
	const entry: InFlightPayout = { ...payout, account, reservedAt: now };
	addPending(ownerOf(account), entry);
	let same = byReference.get(entry.reference);
	if (!same) {
		same = new Set();
		byReference.set(entry.reference, same);
	}
	same.add(entry);
	return {
		sent: (answer, at = Date.now()) => {
			entry.sentAt = at;
			if (typeof answer?.id === 'string' && answer.id !== '' && entry.id === undefined) {
				const earlier = byId.get(answer.id);
				// Paycashless answered with a payout another entry already is (found again): counted there.
				if (earlier && !earlier.gone) return forget(entry);
				entry.id = answer.id;
				byId.set(answer.id, entry);
			}
			// Found again as a payout that failed (or was reversed or cancelled): it moved no money.
			if (answer?.paid === false) return forget(entry);
			if (answer?.confirmed && entry.id !== undefined) confirm(entry, entry.id, at);
		},
		release: () => forget(entry),
	};
}
