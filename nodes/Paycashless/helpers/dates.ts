/**
 * Date-time filters: n8n `dateTime` fields give text such as `2024-05-01T00:00:00` (no zone:
 * the workflow's time zone applies), ISO text with a zone, a Date or a Luxon DateTime from an
 * expression. The API wants Unix seconds. Time zones are resolved by luxon (as n8n itself does):
 * a wall-clock time skipped by a daylight-saving change moves forward by the gap, and a repeated
 * one takes the later of its two instants (standard time), in every zone, east or west of UTC.
 */
import { DateTime } from 'luxon';

import { invalid } from './validation';

/** `YYYY-MM-DD`, optionally with a time (`T` or one space) and a zone; nothing else. */
const ISO_SHAPE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Milliseconds since the epoch of a date-time text, or `undefined` when it is not a real date-time. */
export function parseDateTimeMs(text: string, timeZone?: string): number | undefined {
	const trimmed = text.trim();
	if (!ISO_SHAPE.test(trimmed)) return undefined;
	const iso = trimmed.replace(/^(\d{4}-\d{2}-\d{2}) /, '$1T').replace(/\s+(?=[Zz+-]\S*$)/, '');
	const zone = timeZone && DateTime.local().setZone(timeZone).isValid ? timeZone : 'utc';
	// A zone written in the text decides the instant; the workflow's zone only reads text without one.
	const parsed = DateTime.fromISO(iso, { zone });
	return parsed.isValid ? parsed.toMillis() : undefined;
}

/**
 * Unix seconds (> 0) of a date-time parameter. Text without a zone is read in `timeZone` (the
 * workflow's), or UTC when none is known. A number, or text of digits only, is taken as Unix
 * seconds (10 digits or fewer) or milliseconds. Text holding `{{` is an expression left as text.
 */
export function toUnixSeconds(value: unknown, field: string, timeZone?: string): number {
	const allowed = 'use a date (2024-05-01), a date and time (2024-05-01T00:00:00 or 2024-05-01T00:00:00Z) or Unix seconds, after 1970';
	if (typeof value === 'string' && value.includes('{{')) {
		return invalid(field, value, 'this is an expression n8n did not work out: switch the field to Expression (or type = before it), e.g. {{ $today }}');
	}
	if (typeof value === 'string' && /^\s*\d{1,13}\s*$/.test(value)) value = Number(value);
	let ms: number | undefined;
	if (value instanceof Date) ms = value.getTime();
	else if (DateTime.isDateTime(value)) ms = value.isValid ? value.toMillis() : undefined;
	else if (typeof value === 'number' && Number.isFinite(value)) ms = Math.abs(value) < 1e11 ? value * 1000 : value;
	else if (typeof value === 'string') ms = parseDateTimeMs(value, timeZone);
	else if (value && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		// A DateTime from another copy of luxon (n8n's expressions may hand one over).
		const iso = (value as { toISO: () => string | null }).toISO();
		ms = typeof iso === 'string' ? parseDateTimeMs(iso) : undefined;
	}
	if (ms === undefined || Number.isNaN(ms)) return invalid(field, value, allowed);
	const seconds = Math.floor(ms / 1000);
	if (seconds <= 0) return invalid(field, value, allowed);
	return seconds;
}
