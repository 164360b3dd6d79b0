/**
 * Memory of the deliveries the trigger accepted, kept in the workflow's static data so that an
 * exact replay (the same signed data again, inside the timestamp window) does not start the
 * workflow a second time.
 *
 * What n8n guarantees (read in n8n 2.41.1's source, packages/cli/src/webhooks/live-webhooks.ts
 * and workflow-static-data.service.ts): for a production webhook, the workflow row (with its
 * static data) is read from the database for every request, and static data changed inside
 * `webhook()` is written back, whole, once the webhook has been answered with a started
 * execution (for "respond at once" triggers the execution is created before the answer).
 * When `webhook()` throws or the execution cannot be started, nothing is saved, so a delivery
 * that got a non-2xx answer is not remembered and Paycashless's retry is accepted.
 * It lives in the database, so it holds in queue mode too (the webhook process writes it).
 *
 * What it does not guarantee: the write replaces the whole static data (last writer wins) and
 * there is no lock, so two deliveries handled at the same moment can both pass, and one of two
 * simultaneous writes can be lost (a later replay of that one is then accepted). The memory is
 * a best-effort guard against replays, not an exactly-once guarantee; keep Remove Duplicates on
 * `deliveryId` when acting twice would matter.
 */
import type { IDataObject } from 'n8n-workflow';

/** Static data key of this node (n8n gives each node its own static data object). */
export const REPLAY_MEMORY_KEY = 'acceptedDeliveries';

/** Most deliveries remembered; the oldest are forgotten first (each entry is about 45 bytes). */
export const MAX_REMEMBERED = 500;

/** Remembered at least this long after acceptance, when the timestamp window is off. */
const WINDOW_OFF_SECONDS = 24 * 60 * 60;
/** Paycashless retries 3 times a minute apart, possibly keeping the first timestamp. */
const RETRY_SPAN_SECONDS = 4 * 60;

/** How long an accepted delivery is remembered: the window both ways plus the retry span. */
export function rememberSeconds(toleranceSeconds: number): number {
	return toleranceSeconds > 0 ? 2 * toleranceSeconds + RETRY_SPAN_SECONDS : WINDOW_OFF_SECONDS;
}

function entries(staticData: IDataObject): Record<string, number> {
	const stored = staticData[REPLAY_MEMORY_KEY];
	if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {};
	return stored as Record<string, number>;
}

/** When the delivery was accepted before and is still remembered: its time (Unix seconds). */
export function acceptedBefore(staticData: IDataObject, deliveryId: string, nowSeconds: number, keepSeconds: number): number | undefined {
	const at = entries(staticData)[deliveryId];
	if (typeof at !== 'number' || nowSeconds - at > keepSeconds) return undefined;
	return at;
}

/**
 * Records an accepted delivery, dropping expired entries and the oldest beyond MAX_REMEMBERED.
 * Assigns a new object to the key so n8n notices the change.
 */
export function rememberAccepted(staticData: IDataObject, deliveryId: string, nowSeconds: number, keepSeconds: number): void {
	const kept = Object.entries(entries(staticData)).filter(
		([id, at]) => id !== deliveryId && typeof at === 'number' && nowSeconds - at <= keepSeconds,
	);
	kept.push([deliveryId, nowSeconds]);
	kept.sort((a, b) => a[1] - b[1]);
	staticData[REPLAY_MEMORY_KEY] = Object.fromEntries(kept.slice(-MAX_REMEMBERED));
}
