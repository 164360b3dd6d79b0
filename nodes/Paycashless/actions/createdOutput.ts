/**
 * One output shape for a create that carries a reference, whatever path it took: created now,
 * found again after a repeated reference, or reconciled after an unclear answer. The item is the
 * full object as Paycashless shows it (as Get or Verify return it) plus the marker
 * `_paycashless: { reconciled, repeated, ... }`, so `{{ $json.amount }}` is set on the first run
 * as on the second, and a repeat is visible as `_paycashless.repeated: true`.
 */
import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../helpers/body';

export const MARKER = '_paycashless';

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
