/**
 * Date-time filters: n8n `dateTime` fields give text such as `2024-05-01T00:00:00` (no zone:
 * the workflow's time zone applies), ISO text with a zone, a Date or a Luxon DateTime from an
 * expression. The API wants Unix seconds.
 */
import { invalid } from './validation';

const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Offset of `timeZone` from UTC at the instant `utcMs`, in milliseconds. */
export function timeZoneOffsetMs(utcMs: number, timeZone: string): number {
	const format = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	});
	const parts: Record<string, number> = {};
	for (const part of format.formatToParts(new Date(utcMs))) {
		if (part.type !== 'literal') parts[part.type] = Number(part.value);
	}
	const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
	return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** The UTC instant of a wall-clock time in `timeZone` (fields as Date.UTC takes them). */
function zonedWallClockToUtcMs(wallClockAsUtcMs: number, timeZone: string): number {
	const first = wallClockAsUtcMs - timeZoneOffsetMs(wallClockAsUtcMs, timeZone);
	// A second pass settles times near a daylight-saving change.
	return wallClockAsUtcMs - timeZoneOffsetMs(first, timeZone);
}

function isValidTimeZone(timeZone: string | undefined): timeZone is string {
	if (!timeZone) return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone });
		return true;
	} catch {
		return false;
	}
}

/** Milliseconds since the epoch of a date-time text, or `undefined` when it is not a real date-time. */
export function parseDateTimeMs(text: string, timeZone?: string): number | undefined {
	const match = ISO_DATE_TIME.exec(text.trim());
	if (!match) return undefined;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const [hour, minute, second] = [Number(match[4] ?? 0), Number(match[5] ?? 0), Number(match[6] ?? 0)];
	const millis = match[7] ? Number(match[7].slice(0, 3).padEnd(3, '0')) : 0;
	if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
	const wallClock = Date.UTC(year, month - 1, day, hour, minute, second, millis);
	const check = new Date(wallClock);
	if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
	const zone = match[8];
	if (zone) {
		if (zone.toUpperCase() === 'Z') return wallClock;
		const sign = zone.startsWith('-') ? -1 : 1;
		const digits = zone.slice(1).replace(':', '');
		const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
		return wallClock - sign * offsetMinutes * 60_000;
	}
	return isValidTimeZone(timeZone) ? zonedWallClockToUtcMs(wallClock, timeZone) : wallClock;
}

/**
 * Unix seconds (> 0) of a date-time parameter. Text without a zone is read in `timeZone` (the
 * workflow's), or UTC when none is known. A number is taken as Unix seconds (10 digits or
 * fewer) or milliseconds.
 */
export function toUnixSeconds(value: unknown, field: string, timeZone?: string): number {
	const allowed = 'use a date and time such as 2024-05-01T00:00:00 (or 2024-05-01T00:00:00Z), after 1970';
	let ms: number | undefined;
	if (value instanceof Date) ms = value.getTime();
	else if (typeof value === 'number' && Number.isFinite(value)) ms = Math.abs(value) < 1e11 ? value * 1000 : value;
	else if (typeof value === 'string') ms = parseDateTimeMs(value, timeZone);
	else if (value && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		const iso = (value as { toISO: () => string | null }).toISO();
		ms = typeof iso === 'string' ? parseDateTimeMs(iso) : undefined;
	}
	if (ms === undefined || Number.isNaN(ms)) return invalid(field, value, allowed);
	const seconds = Math.floor(ms / 1000);
	if (seconds <= 0) return invalid(field, value, allowed);
	return seconds;
}
