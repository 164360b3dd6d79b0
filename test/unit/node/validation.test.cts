import { compact, mergeAdditionalBody, metadataFromPairs } from '../../../nodes/Paycashless/helpers/body';
import { DateTime } from 'luxon';

import { parseDateTimeMs, toUnixSeconds } from '../../../nodes/Paycashless/helpers/dates';
import {
	idList,
	InvalidInputError,
	parseJsonObject,
	requireCalendarDate,
	requireEmail,
	requireId,
	requireInteger,
} from '../../../nodes/Paycashless/helpers/validation';

function failure(run: () => unknown): InvalidInputError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(InvalidInputError);
		return error as InvalidInputError;
	}
	throw new Error('no error thrown');
}

describe('input checks', () => {
	it('ids need their prefix', () => {
		expect(requireId(' po_abc123 ', 'po_', 'Payout ID')).toBe('po_abc123');
		expect(requireId('acc_req_9f', 'acc_req_', 'Account Request Code')).toBe('acc_req_9f');
		const wrong = failure(() => requireId('pi_abc', 'po_', 'Payout ID'));
		expect(wrong.message).toBe(
			'Invalid Payout ID "pi_abc": use an ID that starts with "po_" followed by letters or digits, e.g. po_abc123',
		);
		expect(failure(() => requireId('', 'po_', 'Payout ID')).message).toBe(
			'Invalid Payout ID (empty): an ID starting with "po_" is required, e.g. po_abc123',
		);
		expect(failure(() => requireId('po_', 'po_', 'Payout ID')).field).toBe('Payout ID');
		expect(failure(() => requireId('po_a/b', 'po_', 'Payout ID')).message).toContain('"po_a/b"');
	});

	it('id lists split on commas and check each id', () => {
		expect(idList('txr_a, txr_b,,', 'txr_', 'Tax Rate IDs')).toEqual(['txr_a', 'txr_b']);
		expect(idList(['txr_a'], 'txr_', 'Tax Rate IDs')).toEqual(['txr_a']);
		expect(idList(undefined, 'txr_', 'Tax Rate IDs')).toEqual([]);
		expect(failure(() => idList('txr_a, tax_b', 'txr_', 'Tax Rate IDs')).message).toContain('"tax_b"');
	});

	it('e-mail addresses', () => {
		expect(requireEmail(' ada@example.com ', 'Customer Email')).toBe('ada@example.com');
		for (const bad of ['ada', 'ada@', '@example.com', 'ada@example', 'a da@example.com']) {
			expect(failure(() => requireEmail(bad, 'Customer Email')).message).toContain(`Invalid Customer Email "${bad}"`);
		}
		expect(failure(() => requireEmail('', 'Customer Email')).message).toContain('(empty)');
	});

	it('dates of birth must be real YYYY-MM-DD dates', () => {
		expect(requireCalendarDate('1990-04-25', 'Date of Birth')).toBe('1990-04-25');
		expect(requireCalendarDate('2000-02-29', 'Date of Birth')).toBe('2000-02-29');
		for (const bad of ['1990-02-30', '1999-02-29', '1990-13-01', '25/04/1990', '1990-4-25', '1850-01-01', '']) {
			expect(failure(() => requireCalendarDate(bad, 'Date of Birth')).message).toContain('YYYY-MM-DD');
		}
	});

	it('integers within bounds', () => {
		expect(requireInteger(30, 'Days Until Due', 1, 1800)).toBe(30);
		expect(requireInteger('1800', 'Days Until Due', 1, 1800)).toBe(1800);
		expect(failure(() => requireInteger(0, 'Days Until Due', 1, 1800)).message).toBe(
			'Invalid Days Until Due 0: use a whole number from 1 to 1800',
		);
		expect(failure(() => requireInteger(1801, 'Days Until Due', 1, 1800)).message).toContain('1801');
		expect(failure(() => requireInteger(2.5, 'Limit', 1)).message).toBe('Invalid Limit 2.5: use a whole number 1 or more');
	});

	it('JSON objects', () => {
		expect(parseJsonObject('{"a": {"b": 1}}', 'X')).toEqual({ a: { b: 1 } });
		expect(parseJsonObject({ a: 1 }, 'X')).toEqual({ a: 1 });
		expect(parseJsonObject('  ', 'X')).toEqual({});
		expect(failure(() => parseJsonObject('{a: 1}', 'Additional Body Fields (JSON)')).message).toMatch(
			/^Invalid Additional Body Fields \(JSON\) "\{a: 1\}": use a JSON object/,
		);
		expect(failure(() => parseJsonObject('[1]', 'X')).message).toContain('use a JSON object');
		expect(failure(() => parseJsonObject('"text"', 'X')).message).toContain('use a JSON object');
	});
});

describe('bodies', () => {
	it('metadata pairs become an object; empty or repeated keys are refused', () => {
		expect(metadataFromPairs({ metadataValues: [{ key: 'a', value: '1' }, { key: ' b ', value: '' }] })).toEqual({ a: '1', b: '' });
		expect(metadataFromPairs({})).toBeUndefined();
		expect(metadataFromPairs(undefined)).toBeUndefined();
		expect(failure(() => metadataFromPairs({ metadataValues: [{ key: '', value: '1' }] })).message).toContain('needs a key');
		expect(failure(() => metadataFromPairs({ metadataValues: [{ key: 'a' }, { key: 'a' }] })).message).toContain('only once');
	});

	it('the JSON escape hatch is merged last, nested objects key by key', () => {
		const body = { amount: { value: 100, currency: 'NGN' }, reference: 'r1' };
		expect(mergeAdditionalBody(body, '{"amount": {"currency": "USD"}, "receiptEmail": "a@b.co"}')).toEqual({
			amount: { value: 100, currency: 'USD' },
			reference: 'r1',
			receiptEmail: 'a@b.co',
		});
		expect(mergeAdditionalBody(body, undefined)).toEqual(body);
	});

	it('compact drops empty members only', () => {
		expect(compact({ a: undefined, b: null, c: '', d: 0, e: false, f: 'x' })).toEqual({ d: 0, e: false, f: 'x' });
	});
});

describe('date-time filters', () => {
	it('reads ISO text with and without a zone', () => {
		expect(toUnixSeconds('2024-05-01T00:00:00Z', 'Created After')).toBe(1714521600);
		expect(toUnixSeconds('2024-05-01T01:00:00+01:00', 'Created After')).toBe(1714521600);
		expect(toUnixSeconds('2024-05-01T00:00:00', 'Created After', 'UTC')).toBe(1714521600);
		expect(toUnixSeconds('2024-05-01', 'Created After')).toBe(1714521600);
		expect(toUnixSeconds('2024-05-01T00:00:00.999Z', 'Created After')).toBe(1714521600);
	});

	it('text fields (issue 43): Unix seconds as text, an expression left as text named with what to do', () => {
		expect(toUnixSeconds('1714521600', 'Created After')).toBe(1714521600);
		expect(toUnixSeconds(' 1714521600000 ', 'Created After')).toBe(1714521600);
		const typed = failure(() => toUnixSeconds('{{ $today }}', 'Created After', 'Africa/Lagos'));
		expect(typed.message).toBe('Invalid Created After "{{ $today }}": this is an expression n8n did not work out: switch the field to Expression (or type = before it), e.g. {{ $today }}');
		expect(failure(() => toUnixSeconds('yesterday', 'Created After')).message).toMatch(/^Invalid Created After "yesterday": use a date \(2024-05-01\)/);
		// What {{ $today }} gives once n8n works it out: a Luxon DateTime at 00:00 in the workflow's zone.
		expect(toUnixSeconds(DateTime.fromISO('2024-05-01T00:00:00', { zone: 'Africa/Lagos' }), 'Created After')).toBe(1714518000);
	});

	it('reads text without a zone in the workflow time zone', () => {
		// Lagos is UTC+1 all year; New York is UTC-4 in May (daylight saving time).
		expect(toUnixSeconds('2024-05-01T01:00:00', 'Created After', 'Africa/Lagos')).toBe(1714521600);
		expect(toUnixSeconds('2024-04-30T20:00:00', 'Created After', 'America/New_York')).toBe(1714521600);
		expect(toUnixSeconds('2024-01-15T07:00:00', 'Created After', 'America/New_York')).toBe(
			Date.UTC(2024, 0, 15, 12) / 1000,
		);
	});

	it('resolves daylight-saving edges the same way east and west of UTC', () => {
		const iso = (text: string, zone: string) => new Date(toUnixSeconds(text, 'Created After', zone) * 1000).toISOString();
		// Spring forward: 02:30 does not exist; both zones move it forward by the gap, to 03:30 summer time.
		expect(iso('2024-03-10T02:30:00', 'America/New_York')).toBe('2024-03-10T07:30:00.000Z'); // 03:30 EDT
		expect(iso('2024-03-31T02:30:00', 'Europe/Berlin')).toBe('2024-03-31T01:30:00.000Z'); // 03:30 CEST
		// Fall back: the repeated hour takes its second instant (standard time) in both zones.
		expect(iso('2024-11-03T01:30:00', 'America/New_York')).toBe('2024-11-03T06:30:00.000Z'); // 01:30 EST
		expect(iso('2024-10-27T02:30:00', 'Europe/Berlin')).toBe('2024-10-27T01:30:00.000Z'); // 02:30 CET
		// Just outside the edges, plain offsets.
		expect(iso('2024-03-10T01:59:00', 'America/New_York')).toBe('2024-03-10T06:59:00.000Z');
		expect(iso('2024-03-31T03:00:00', 'Europe/Berlin')).toBe('2024-03-31T01:00:00.000Z');
	});

	it('reads a space instead of T, compact offsets, and ignores an unknown zone name', () => {
		expect(toUnixSeconds('2024-05-01 00:00:00', 'X', 'UTC')).toBe(1714521600);
		expect(toUnixSeconds('2024-05-01T01:00:00+0100', 'X')).toBe(1714521600);
		expect(toUnixSeconds('2024-05-01T00:00:00', 'X', 'Not/AZone')).toBe(1714521600);
	});

	it('accepts Dates, Luxon DateTimes and Unix numbers', () => {
		expect(toUnixSeconds(DateTime.fromISO('2024-05-01T03:00:00', { zone: 'Africa/Lagos' }), 'X')).toBe(1714528800);
		expect(toUnixSeconds(new Date('2024-05-01T00:00:00Z'), 'X')).toBe(1714521600);
		expect(toUnixSeconds({ toISO: () => '2024-05-01T03:00:00.000+03:00' }, 'X')).toBe(1714521600);
		expect(toUnixSeconds(1714521600, 'X')).toBe(1714521600);
		expect(toUnixSeconds(1714521600123, 'X')).toBe(1714521600);
	});

	it('refuses invalid dates', () => {
		for (const bad of ['2024-02-30T00:00:00', '2024-13-01', 'yesterday', '2024-05-01T25:00:00', '1970-01-01T00:00:00Z', '']) {
			const error = failure(() => toUnixSeconds(bad, 'Created Before'));
			expect(error.message).toContain('Invalid Created Before');
		}
		expect(parseDateTimeMs('2024-05-01T10:00')).toBe(Date.UTC(2024, 4, 1, 10));
	});
});
