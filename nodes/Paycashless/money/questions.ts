/**
 * What the ledger of payouts in flight (./inFlight.ts) asks Paycashless, by reference
 * (`GET /v1/payouts/verify/<reference>`), and only when an answer can change a check:
 * - `learnRelations`: whether two credentials reach one account, once per pair (./accounts.ts);
 * - `askAbout`: whether the payouts in flight a refusal counts exist. Before a period limit refuses,
 *   the oldest payouts in flight (20 at most) whose create ended but that no list has shown are asked
 *   for (each again after `ASK_AGAIN_MS` at the earliest):
 *   Paycashless has one, and it counts on until its list shows it; or it has none under its
 *   reference (or another payout), or the payout failed, so it counts no more.
 * A question that gets no clear answer (a failed read) changes nothing: the payout stays counted.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PaycashlessApi } from '../transport';
import { learnt, relation } from './accounts';
import { looked, notFor, type InFlightPayout, type Unknown } from './inFlight';
import { readListedPayout, sameMoney } from './listed';
import { payoutUnder } from './references';

/** How long one answer about a payout in flight (or a pair) holds before it is asked again (ms). */
const ASK_AGAIN_MS = 10_000;

const pairsAsked = new Map<string, { at: number; answer: Promise<void> }>();
/** One question about a payout in flight: when it was asked, its answer, and whether that answer came (`done`). */
interface Question {
	at: number;
	answer: Promise<void>;
	done: boolean;
}
/** Each entry's last question, by the account key of the credential that asked (its own account's: `entry.account`). */
const entriesAsked = new WeakMap<InFlightPayout, Map<string, Question>>();

/** The last question about `entry` asked through `asker`, when it still holds (being asked, or answered lately). */
function stillHolds(entry: InFlightPayout, asker: string, now: number): Question | undefined {
	const earlier = entriesAsked.get(entry)?.get(asker);
	return earlier && (!earlier.done || now - earlier.at < ASK_AGAIN_MS) ? earlier : undefined;
}

/** Asks, through `api` (credential `asker`), for the payout under `entry`'s reference, unless that still holds: `learn` takes the answer. */
async function ask(entry: InFlightPayout, asker: string, api: PaycashlessApi, now: number, learn: (found: IDataObject | null) => void): Promise<void> {
	const earlier = stillHolds(entry, asker, now);
	if (earlier) return await earlier.answer;
	const question: Question = { at: now, answer: Promise.resolve(), done: false };
	question.answer = byReference(api, entry.reference).then((found) => {
		question.done = true;
		if (found !== undefined) learn(found);
	});
	let asked = entriesAsked.get(entry);
	if (!asked) entriesAsked.set(entry, (asked = new Map()));
	asked.set(asker, question);
	await question.answer;
}

/** The payout under `reference` through `api`: its record, `null` when Paycashless has none, undefined when the read failed. */
async function byReference(api: PaycashlessApi, reference: string): Promise<IDataObject | null | undefined> {
	const answer = await payoutUnder(api, reference);
	return 'error' in answer ? undefined : (answer.found ?? null);
}

/**
 * Paycashless, asked through credential `account` for the payout under `entry`'s reference
 * (`entry` of a credential whose account `account` may share), answered `found` (its id), or none.
 * None: its account is another, or it is this one and the payout was never made; either way it does
 * not count for `account`. Its own id: one account. Another payout: two (Paycashless keeps one payout
 * per reference in an account). A payout and no id to compare: it counts on, until a list shows it.
 */
export function lookedFrom(account: string, entry: InFlightPayout, found: { id?: unknown } | null): void {
	if (found === null) notFor(entry, account);
	else if (entry.id !== undefined && typeof found.id === 'string') learnt(account, entry.account, found.id === entry.id ? 'same' : 'different');
}

/**
 * Asks, through `api` (credential `account`), for a payout of each credential in `others.owners`
 * whose relation to `account` is unknown: one request per pair, shared by the checks that wait for
 * it; and for each payout in flight of `others.entries` (credentials none of whose payouts was shown
 * back yet): once per payout and credential asking.
 */
export async function learnRelations(account: string, others: Unknown, api: PaycashlessApi, now = Date.now()): Promise<void> {
	const answers = others.entries.map(async (entry) => await ask(entry, account, api, now, (found) => lookedFrom(account, entry, found)));
	for (const [other, sample] of others.owners) {
		if (relation(account, other) !== 'unknown') continue;
		const pair = `${account}\n${other}`;
		const earlier = pairsAsked.get(pair);
		if (earlier && now - earlier.at < ASK_AGAIN_MS) {
			answers.push(earlier.answer);
			continue;
		}
		const answer = byReference(api, sample.reference).then((found) => {
			// "No such payout" (404) or another payout: another account. A failed read teaches nothing.
			if (found !== undefined) learnt(account, other, found !== null && found.id === sample.id ? 'same' : 'different');
		});
		pairsAsked.set(pair, { at: now, answer });
		answers.push(answer);
	}
	await Promise.all(answers);
}

/**
 * Whether Paycashless's record under the entry's reference is the entry's payout, and the money
 * left or is leaving (a failed, reversed or cancelled one counts no more: the list will show it so).
 */
function paidAsEntry(entry: InFlightPayout, found: IDataObject): boolean {
	const payout = readListedPayout(found);
	if (typeof payout === 'string') return true;
	const same = entry.id !== undefined ? found.id === entry.id : sameMoney(payout, entry);
	return same && payout.live;
}

/**
 * The entries worth asking about: ended (answered or not), of `account`'s own account, not asked
 * lately or asked and not answered yet (a check at the same moment waits for that answer rather
 * than refuse on a payout that may not exist); the oldest first.
 */
export function askable(account: string, entries: InFlightPayout[], now = Date.now()): InFlightPayout[] {
	return entries.filter((entry) => {
		const asked = entriesAsked.get(entry)?.get(entry.account);
		return entry.sentAt !== undefined && !entry.gone && relation(account, entry.account) === 'same' && (!asked || !asked.done || now - asked.at >= ASK_AGAIN_MS);
	});
}

/**
 * Asks Paycashless, through `api`, for the oldest 20 of `entries` by their references (an entry
 * asked about in the last `ASK_AGAIN_MS`, or still being asked about, is not asked again: checks at
 * the same moment share its answer).
 */
export async function askAbout(entries: InFlightPayout[], api: PaycashlessApi, now = Date.now()): Promise<void> {
	await Promise.all(
		entries.slice(0, 20).map(async (entry) => await ask(entry, entry.account, api, now, (found) => looked(entry, found !== null && paidAsEntry(entry, found), found?.id))),
	);
}
