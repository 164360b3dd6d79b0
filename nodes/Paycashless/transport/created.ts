/**
 * The one output shape of a create that carries a reference, whatever path it took: created
 * now, found again after a repeated reference, or reconciled after an unclear answer. The item is
 * the full object as Paycashless shows it (as Get or Verify return it) plus the marker
 * `_paycashless: { reconciled, repeated, ... }`, so `{{ $json.amount }}` is set on the first run
 * as on the second, and a repeat is visible as `_paycashless.repeated: true`.
 *
 * Made here once, for every request sent under a create policy (request.ts), from that policy:
 * the operations never mark their results, and an object whose create answers short (a payout:
 * `{ id, status, reference }`) is read back by the policy's own lookup when it declares `readBack`
 * (the retry loop sends that read right after the create, retry.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { findWithWords, type FoundByReference } from './types';

/** Key of the marker on every create's output. */
export const MARKER = '_paycashless';

/** How an object was found again by its reference instead of taken from the create's answer. */
export interface FoundAgain {
	/**
	 * `repeatedReference`: Paycashless said the reference was used before (409); this is the
	 * object created earlier (e.g. by a previous run). `uncertainOutcome`: the create got no clear
	 * answer; this is the object it made.
	 */
	reason: 'repeatedReference' | 'uncertainOutcome';
	/** How it was found (the policy's name for its lookup: `verify`, `invoiceList`). */
	via: string;
	/** What the user should know about the object returned (from the policy). */
	note?: string;
}

/**
 * The marker: `{ reconciled, repeated }`, and for an object found again `reason`, `via` and
 * `note` (see FoundAgain); `note` also when a short answer could not be read back.
 */
interface CreatedMarker extends IDataObject {
	/** Found by a lookup instead of taken from the create's own answer. */
	reconciled: boolean;
	/** The reference was used before (an earlier run): nothing new was created. */
	repeated: boolean;
}

function marked(object: IDataObject, marker: CreatedMarker): IDataObject {
	return { ...object, [MARKER]: marker };
}

/** An object found again by its reference, marked. */
export function foundAgainOutput(object: IDataObject, found: FoundAgain): IDataObject {
	const { reason, via, note } = found;
	return marked(object, { reconciled: true, reason, via, ...(note ? { note } : {}), repeated: reason === 'repeatedReference' });
}

/**
 * The output of a create's own answer, marked; merged with the object read back when there was a
 * read-back (`readBack`: its answer, `null` when it failed). The create was accepted either way:
 * if the read failed, the short answer is returned with a note, never an error.
 */
export function createdOutput(
	policy: FoundByReference,
	reference: string | undefined,
	answer: IDataObject,
	readBack?: IDataObject | null,
): IDataObject {
	const fresh: CreatedMarker = { reconciled: false, repeated: false };
	if (readBack === undefined) return marked(answer, fresh);
	if (readBack !== null && (readBack.reference === undefined || readBack.reference === reference)) {
		// The object's own field order (as a repeat, found by reference, returns it), then anything
		// only the create's answer had.
		const onlyInAnswer = Object.fromEntries(Object.entries(answer).filter(([key]) => !(key in readBack)));
		return marked({ ...readBack, ...onlyInAnswer }, fresh);
	}
	return marked(answer, {
		...fresh,
		note: `Paycashless accepted the ${policy.object}, but its details could not be read just now. Check it with ${findWithWords(policy, reference ?? '')}; do not send it again.`,
	});
}
