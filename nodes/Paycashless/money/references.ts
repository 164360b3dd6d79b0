/**
 * The payouts Paycashless has under a batch's references (`GET /v1/payouts/verify/<reference>`),
 * asked side by side: Check Batch and All or Nothing (./batch.ts) need every row's answer before
 * they check the rows in order, so the questions go out together (`IN_FLIGHT` at a time, as many
 * as Create sends by default) rather than one row after the other; the account's payout history
 * answers the references it shows (./payeeHistory.ts) with no request.
 *
 * "No payout under this reference" is kept for the rest of the execution (n8n's execution context,
 * `getContext('flow')`, saved with it: only this file writes it, only from Paycashless's 404),
 * with the credential that asked and when, and stands for a new question for `ABSENT_FOR_MS` after
 * the check that asked ended (`settle`: a check of 10,000 rows takes longer than that): the All or
 * Nothing of the Create that pays the batch right after its Check Batch asks again only what Check
 * Batch did not answer. After a longer wait (an approval), every reference is asked again at
 * the moment of payment. A payout create sent under a reference drops what was kept of it
 * (`sendingUnder`): a later check in the same execution asks again. Whatever the answer, Paycashless
 * keeps one payout per reference: a create under a reference taken since is found again, or
 * refused, never paid twice (./step.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { PAYOUT } from '../catalog/objects';
import { isObject } from '../helpers/body';
import type { PaycashlessApi } from '../transport';
import type { PayeeHistory } from './payeeHistory';
import type { MoneyRun } from './run';

/** Where the execution's context keeps the references Paycashless had no payout under. */
const STORE_KEY = 'paycashlessNoPayoutUnder';

/** How long "no payout under it" stands after its check ended: a batch's check and its payment, not an approval's wait. */
const ABSENT_FOR_MS = 10 * 60_000;

/** How many questions go out at once. */
const IN_FLIGHT = 100;

export type Answer = { found: IDataObject | undefined } | { error: unknown };

/** What Paycashless has under each reference a batch names, asked once per reference. */
export interface ReferenceAnswers {
	/** The payout under `reference`, or undefined when Paycashless has none (404); rejects with any other failure. */
	found(reference: string): Promise<IDataObject | undefined>;
	/** Asks for all of `references` at once (`IN_FLIGHT` at a time, as many as Create sends by default); a failure is the answer of its reference. */
	askAll(references: Iterable<string>): Promise<void>;
	/** The check that asked has ended: "no payout under it" stands from now (`ABSENT_FOR_MS`) for what it asked Paycashless. */
	settle(): void;
}

/**
 * What Paycashless has under `reference`, asked through `api`: its payout, none (404), or the error
 * of a read that gave no clear answer (the one read by reference of money/: ./questions.ts asks it too).
 */
export async function payoutUnder(api: PaycashlessApi, reference: string): Promise<Answer> {
	try {
		const found = await api.request(PAYOUT.byReference(reference));
		return isObject(found) ? { found } : { error: new Error(`Paycashless answered the payout under "${reference}" with no payout`) };
	} catch (error) {
		return error instanceof NodeApiError && String(error.httpCode) === '404' ? { found: undefined } : { error };
	}
}

function absentStore(run: MoneyRun): Record<string, number> {
	const flow = run.context.getContext('flow');
	if (!isObject(flow[STORE_KEY])) flow[STORE_KEY] = {};
	return flow[STORE_KEY] as Record<string, number>;
}

/** A payout create goes out under `reference`: "no payout under it" stands no more in this execution. */
export async function sendingUnder(run: MoneyRun, reference: string): Promise<void> {
	const absent = run.context.getContext('flow')[STORE_KEY];
	// No walk over what is kept (Object.keys per create cost O(rows²)); the account key is kept per node run.
	if (isObject(absent)) delete absent[`${(await run.accountKey()).slice(0, 16)}:${reference}`];
}

/** The references of this execution's batch, answered by `history` where it shows them, else by Paycashless through `api`. */
export async function referenceAnswers(run: MoneyRun, api: PaycashlessApi, history?: PayeeHistory): Promise<ReferenceAnswers> {
	const absent = absentStore(run);
	const account = (await run.accountKey()).slice(0, 16);
	const answers = new Map<string, Promise<Answer>>();
	const askedAbsent: string[] = [];
	const answer = (reference: string): Promise<Answer> => {
		let known = answers.get(reference);
		if (!known) {
			const read = history?.byReference.get(reference);
			const at = absent[`${account}:${reference}`];
			const age = typeof at === 'number' ? Date.now() - at : -1;
			known =
				read !== undefined
					? Promise.resolve({ found: read })
					: age >= 0 && age < ABSENT_FOR_MS
						? Promise.resolve({ found: undefined })
						: payoutUnder(api, reference).then((got) => {
								if ('found' in got && got.found === undefined) {
									absent[`${account}:${reference}`] = Date.now();
									askedAbsent.push(`${account}:${reference}`);
								}
								return got;
							});
			answers.set(reference, known);
		}
		return known;
	};
	return {
		found: async (reference) => {
			const got = await answer(reference);
			if ('error' in got) throw got.error;
			return got.found;
		},
		askAll: async (references) => {
			const queue = [...new Set(references)];
			const worker = async () => {
				for (let reference = queue.shift(); reference !== undefined; reference = queue.shift()) await answer(reference);
			};
			await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, queue.length) }, worker));
		},
		settle: () => {
			const now = Date.now();
			// A create sent under one of them since dropped it (`sendingUnder`): it stays dropped.
			for (const key of askedAbsent) if (key in absent) absent[key] = now;
		},
	};
}
