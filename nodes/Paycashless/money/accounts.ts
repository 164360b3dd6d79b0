/**
 * Which Paycashless account a credential reaches, as far as this running n8n can tell. A credential
 * is named by its account key: a hash of its Base URL, spelled one way (lower-case scheme and host,
 * no trailing dot, slash or default port), and its API key; no key is kept in memory beyond n8n's
 * own. Two keys can reach one account (two API keys of it, or two addresses of one API), and the
 * node cannot see it from the keys: so every credential shares one ledger of payouts in flight
 * (./inFlight.ts), and a payout in flight through one credential counts for a check through another
 * until this running n8n has learned that the two reach different accounts.
 *
 * It learns it from Paycashless, once per pair of credentials: a payout of credential B that B's own
 * reads showed exists (its read-back or its list) is asked for by its reference through credential A
 * (`GET /v1/payouts/verify/<reference>`, ./questions.ts `learnRelations`): the same payout id is one
 * account; "no such payout" (404) or another payout's id is two. A list of A that shows B's payout
 * by its id is one account too, learnt for free. What was learnt holds until n8n restarts.
 */
import { createHash } from 'crypto';


/** What this running n8n knows of two account keys. */
export type Relation = 'same' | 'different' | 'unknown';

const relations = new Map<string, Exclude<Relation, 'unknown'>>();

function pairOf(a: string, b: string): string {
	return a < b ? `${a}\n${b}` : `${b}\n${a}`;
}

/** Whether account keys `a` and `b` reach one Paycashless account, as far as this running n8n knows. */
export function relation(a: string, b: string): Relation {
	return a === b ? 'same' : (relations.get(pairOf(a, b)) ?? 'unknown');
}

/** Records what Paycashless showed about `a` and `b`. */
export function learnt(a: string, b: string, known: Exclude<Relation, 'unknown'>): void {
	if (a !== b) relations.set(pairOf(a, b), known);
}

/** The Base URL spelled one way: lower-case scheme and host, no trailing dot, default port or trailing slash. */
export function sameSpelling(baseUrl: string): string {
	const trimmed = baseUrl.trim().replace(/\/+$/, '');
	try {
		const url = new URL(trimmed);
		const host = url.hostname.replace(/\.+$/, '');
		const path = url.pathname.replace(/\/+$/, '');
		return `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}${path}`;
	} catch {
		return trimmed.toLowerCase();
	}
}

/** The account key of a Base URL and API key. */
export function accountKey(baseUrl: unknown, apiKey: unknown): string {
	return createHash('sha256')
		.update(`${sameSpelling(String(baseUrl ?? ''))}\n${String(apiKey ?? '').trim()}`)
		.digest('hex');
}

/** A payout that exists on its credential's account: what another credential asks for. */
export interface Sample {
	reference: string;
	id: string;
}
