/**
 * Account lookups shared by one execution: Bank Account → Look Up and the payee checks of Money
 * Limits (./beneficiary.ts: Allowed Destination Accounts, Expected Account Name) look an account
 * up through `lookUpAccount`, and what Paycashless answered is kept for the rest of the execution,
 * so the payroll flow (Look Up → Check Batch → Create with All or Nothing) looks each payee up
 * once, not four times.
 *
 * - Where: n8n's execution context (`getContext('flow')`), which n8n saves with the execution, so
 *   an answer follows it through a Wait and into another n8n of a queue-mode setup; it starts empty in
 *   every execution (each chat message, webhook call, MCP call).
 * - What: the holder's name and the bank id Paycashless answered for one account number and bank
 *   code, with the credential that asked (a hash of its Base URL and API key: a sandbox key's answer
 *   never stands for a live one's) and when it answered. Only this file writes it, only from an
 *   answer Paycashless gave: no expression, input item or AI model can plant an answer (a tool's
 *   model chooses what to look up, not what Paycashless says).
 * - How long: an answer is reused for `REUSE_FOR_MS` after it came back (by the clock of the
 *   n8n reading it; an answer from the future is not reused). Older, as after a long approval
 *   wait, the account is looked up again at the moment of payment.
 * - A failed lookup, or one without a bank, is never kept.
 * Memory holds only the lookups under way (keyed by the execution's context object), so items
 * checked side by side share one request: it narrows nothing but the number of requests.
 */
import type { IDataObject } from 'n8n-workflow';

import { BANK } from '../catalog/objects';
import { isObject } from '../helpers/body';
import type { PaycashlessApi } from '../transport';
import type { MoneyRun } from './run';

/** Where the execution's context keeps the answers. */
const STORE_KEY = 'paycashlessAccountLookups';

/** How long an answer stands for a new lookup: a payroll's checks and payments, not a wait of days. */
export const REUSE_FOR_MS = 60 * 60_000;

/** One kept answer: the holder's name, the bank id, when it came back (ms). */
type Kept = [name: string, bankId: string, at: number];


/** Lookups under way, per execution context object: items checked side by side share one. */
const underWay = new WeakMap<object, Map<string, Promise<IDataObject>>>();

function storeOf(run: MoneyRun): { kept: Record<string, Kept>; pending: Map<string, Promise<IDataObject>> } {
	const flow = run.context.getContext('flow');
	if (!isObject(flow[STORE_KEY])) flow[STORE_KEY] = {};
	let pending = underWay.get(flow);
	if (!pending) {
		pending = new Map();
		underWay.set(flow, pending);
	}
	return { kept: flow[STORE_KEY] as unknown as Record<string, Kept>, pending };
}

function keptAnswer(kept: Kept | undefined, now: number): { name: string; bankId: string } | undefined {
	if (!Array.isArray(kept) || typeof kept[0] !== 'string' || typeof kept[1] !== 'string' || kept[1] === '' || typeof kept[2] !== 'number') return undefined;
	const age = now - kept[2];
	return age >= 0 && age < REUSE_FOR_MS ? { name: kept[0], bankId: kept[1] } : undefined;
}

function bankIdOf(found: IDataObject): string {
	return isObject(found.bank) && typeof found.bank.id === 'string' ? found.bank.id : '';
}

/**
 * Paycashless's account lookup of `accountNumber` at `bankCode`, kept for this execution. With
 * `reuse` (the payee checks), an answer kept in the last `REUSE_FOR_MS` is returned without a
 * request; without it (Bank Account → Look Up, whose output is the lookup's whole answer), the
 * account is looked up and the answer kept. Throws what the request throws.
 */
export async function lookUpAccount(run: MoneyRun, api: PaycashlessApi, accountNumber: string, bankCode: string, reuse: boolean): Promise<IDataObject> {
	const key = `${await run.lookupKey()}:${accountNumber}@${bankCode}`;
	const { kept, pending } = storeOf(run);
	if (reuse) {
		const known = keptAnswer(kept[key], Date.now());
		if (known) return { accountNumber, accountName: known.name, bank: { id: known.bankId } };
		const asking = pending.get(key);
		if (asking) return await asking;
	}
	const asking = api.request(BANK.accountLookup(accountNumber, bankCode)).then((found) => {
		const bankId = bankIdOf(found);
		if (bankId !== '') kept[key] = [String(found.accountName ?? ''), bankId, Date.now()];
		return found;
	});
	pending.set(key, asking);
	try {
		return await asking;
	} finally {
		if (pending.get(key) === asking) pending.delete(key);
	}
}
