/**
 * When a listed record was created, as far as the poll can know: what the window and the memory
 * of events key on (./engine.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_TIMESTAMP_TOLERANCE_SECONDS } from '../../../lib/signing';

/** The clock difference Paycashless accepts between n8n and itself (request signatures). */
export const MAX_CLOCK_SKEW_SECONDS = DEFAULT_TIMESTAMP_TOLERANCE_SECONDS;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The creation time of a record: exact (ms) when it has a date-time `createdAt`; otherwise an
 * upper bound in seconds: the end of the day of a date-only `createdAt` (dedicated accounts), or
 * now plus the accepted clock difference when there is none (invoices have no `createdAt`).
 */
export function creationTime(record: IDataObject, nowSeconds: number): { exactMs?: number; bound: number } {
	const value = record.createdAt;
	if (typeof value === 'string' && value.trim() !== '') {
		const text = value.trim();
		if (DATE_ONLY.test(text)) {
			const dayStart = Date.parse(`${text}T00:00:00Z`);
			if (!Number.isNaN(dayStart)) return { bound: Math.floor(dayStart / 1000) + 86_399 };
		} else {
			const ms = Date.parse(text);
			if (!Number.isNaN(ms)) return { exactMs: ms, bound: Math.floor(ms / 1000) };
		}
	} else if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
		const ms = value < 1e11 ? value * 1000 : value;
		return { exactMs: ms, bound: Math.floor(ms / 1000) };
	}
	return { bound: nowSeconds + MAX_CLOCK_SKEW_SECONDS };
}
