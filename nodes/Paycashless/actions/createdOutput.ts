/**
 * One output shape for a create that carries a reference, whatever path it took: created now,
 * found again after a repeated reference, or reconciled after an unclear answer. The item is the
 * full object as Paycashless shows it (as Get or Verify return it) plus the marker
 * `_paycashless: { reconciled, repeated, ... }`, so `{{ $json.amount }}` is set on the first run
 * as on the second, and a repeat is visible as `_paycashless.repeated: true`.
 */
import type { IDataObject } from 'n8n-workflow';

import { apiPath, type PaycashlessApi } from '../transport';
import { isObject } from '../helpers/body';

const MARKER = '_paycashless';

export interface CreatedMarker extends IDataObject {
	/** Found by a lookup instead of taken from the create's own answer. */
	reconciled: boolean;
	/** The reference was used before (an earlier run): nothing new was created. */
	repeated: boolean;
}


/** `result` with the marker always present (`reconciled: false, repeated: false` for a new object). */
export function markCreated(result: IDataObject): IDataObject {
	const existing = isObject(result[MARKER]) ? (result[MARKER] as IDataObject) : undefined;
	const marker: CreatedMarker = existing
		? { ...existing, reconciled: existing.reconciled === true, repeated: existing.reason === 'repeatedReference' }
		: { reconciled: false, repeated: false };
	return { ...result, [MARKER]: marker };
}

/**
 * A payout create answers with `{ id, status, reference }` only (202); the node reads the payout
 * by its reference (`GET /v1/payouts/verify/{reference}`) so the item has the same fields as a
 * payout found again. The payout was accepted either way: if that read fails, the short answer is
 * returned with a note, never an error.
 */
export async function fullPayoutAfterCreate(api: PaycashlessApi, reference: string, result: IDataObject): Promise<IDataObject> {
	if (isObject(result[MARKER]) || 'amount' in result) return markCreated(result);
	try {
		const full = await api.request({ method: 'GET', path: apiPath`/v1/payouts/verify/${reference}` });
		if (isObject(full) && (full.reference === undefined || full.reference === reference)) return markCreated({ ...result, ...full });
	} catch {
		// Reported in the note below; the payout itself was accepted.
	}
	const marker: CreatedMarker = {
		reconciled: false,
		repeated: false,
		note: `Paycashless accepted the payout, but its details could not be read just now. Check it with Payout → Verify and the reference "${reference}"; do not send it again.`,
	};
	return { ...result, [MARKER]: marker };
}
