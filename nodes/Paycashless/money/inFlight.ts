/**
 * Payouts in flight per Paycashless account, shared by every execution and every node of this n8n
 * process: a payout is entered the moment its Money Limits pass (before it is sent), so that a
 * period limit checked by another execution at the same moment counts it although Paycashless
 * does not list it yet. Without this, ten webhook executions at once each read the same list and
 * each saw room for one more payout.
 *
 * Memory only narrows the race: Paycashless's list stays the authority (./period.ts). An
 * entry counts until a read of the list that started after its create ended has come back; from
 * then on the list says whether it exists (listed: counted from the list; not listed: it was never
 * made, and the entry is dropped). So nothing is lost or loosened when the process restarts: the
 * payouts it made are on Paycashless's list. Processes do not see each other's entries (queue-mode
 * workers): docs/money.md says how far they can pass a period limit together.
 *
 * The account is the credential's Base URL and API key, kept as a hash: no key is held in memory
 * beyond n8n's own.
 */
import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../../../lib/api';

/** A payout whose limits passed; `sentAt` once its create has ended (answered or not). */
export interface InFlightPayout {
	reference: string;
	/** Smallest unit (kobo or cents). */
	value: number;
	currency: string;
	/** Who receives it: account@bank ID. */
	party?: string;
	/** n8n's clock, ms. */
	reservedAt: number;
	sentAt?: number;
}

/** Longer than any period (a calendar day, 24 hours): an entry older than this counts in none. */
const KEEP_MS = 48 * 3_600_000;

/**
 * A payout sent this long ago is answered for by any read of the list that starts from now on, so
 * only a check whose read started more than an hour ago and is still going could need it: such
 * entries are dropped (at most once a minute per account), so a process that never reads the list
 * (no period limit anywhere) does not keep every payout it made for two days.
 */
const KEEP_SENT_MS = 3_600_000;
const PRUNE_EVERY_MS = 60_000;
const prunedAt = new Map<string, number>();

function prune(account: string, entries: Map<string, InFlightPayout>, now: number): void {
	if (now - (prunedAt.get(account) ?? 0) < PRUNE_EVERY_MS) return;
	prunedAt.set(account, now);
	for (const [reference, entry] of entries) {
		if ((entry.sentAt !== undefined && now - entry.sentAt > KEEP_SENT_MS) || now - entry.reservedAt > KEEP_MS) entries.delete(reference);
	}
}

const accounts = new Map<string, Map<string, InFlightPayout>>();

/** The account key per node run (the credential is read once per run, as in the transport). */
const keys = new WeakMap<object, Promise<string>>();

/** The Paycashless account a node run pays from: a hash of the credential's Base URL and API key. */
export async function accountOf(this: IExecuteFunctions): Promise<string> {
	let key = keys.get(this);
	if (!key) {
		key = this.getCredentials(CREDENTIAL_NAME).then((credentials) =>
			createHash('sha256')
				.update(`${String(credentials?.baseUrl ?? '').replace(/\/+$/, '')}\n${String(credentials?.apiKey ?? '')}`)
				.digest('hex'),
		);
		keys.set(this, key);
		key.catch(() => keys.delete(this));
	}
	return await key;
}

function entriesOf(account: string): Map<string, InFlightPayout> {
	let entries = accounts.get(account);
	if (!entries) {
		entries = new Map();
		accounts.set(account, entries);
	}
	return entries;
}

/**
 * The account's payouts in flight that a read of the list which started at `readStartedAt` (ms,
 * n8n's clock) cannot have shown, apart from those it did show (`listed` references): entered
 * after the read started, or still being sent. Entries the list has answered for are dropped.
 */
export function unlistedInFlight(account: string, listed: { has(reference: string): boolean }, readStartedAt: number, now = Date.now(), prune = true): InFlightPayout[] {
	const entries = accounts.get(account);
	if (!entries) return [];
	const counted: InFlightPayout[] = [];
	for (const [reference, entry] of entries) {
		const answered = entry.sentAt !== undefined && entry.sentAt < readStartedAt;
		if (answered || now - entry.reservedAt > KEEP_MS) {
			// A check only (prune false) leaves the process-wide map as it found it.
			if (prune) entries.delete(reference);
			continue;
		}
		if (!listed.has(reference)) counted.push(entry);
	}
	return counted;
}

/**
 * The entry under `reference` while it is still in flight: being sent, or sent after the read of
 * the list that started at `readStartedAt` (without a read: only while being sent). Once the list
 * has answered for it, the list says what it is.
 */
export function inFlight(account: string, reference: string, readStartedAt?: number): InFlightPayout | undefined {
	const entry = accounts.get(account)?.get(reference);
	if (entry?.sentAt === undefined) return entry;
	return readStartedAt !== undefined && entry.sentAt >= readStartedAt ? entry : undefined;
}

/** What a reservation lets its caller do once the create has ended. */
export interface Reservation {
	/** The create ended (answered, or failed in a way that may have created it), at `at` (ms; default now). */
	sent(at?: number): void;
	/** Paycashless definitely refused it: nothing was created. */
	release(): void;
}

/** Enters a payout; call it in the same synchronous step as the check that let it pass. */
export function reserve(account: string, payout: Omit<InFlightPayout, 'reservedAt' | 'sentAt'>, now = Date.now()): Reservation {
	const entries = entriesOf(account);
	prune(account, entries, now);
	const entry: InFlightPayout = { ...payout, reservedAt: now };
	entries.set(payout.reference, entry);
	return {
		sent: (at = Date.now()) => {
			entry.sentAt = at;
		},
		release: () => {
			if (entries.get(payout.reference) === entry) entries.delete(payout.reference);
		},
	};
}
