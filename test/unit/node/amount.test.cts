import { decimalParts, toSmallestUnit } from '../../../nodes/Paycashless/helpers/amount';
import { InvalidInputError } from '../../../nodes/Paycashless/helpers/validation';

function convert(value: unknown, inSmallestUnit = false, currency = 'NGN'): number {
	return toSmallestUnit(value, { field: 'Amount', currency, inSmallestUnit });
}

function rejection(value: unknown, inSmallestUnit = false): InvalidInputError {
	try {
		convert(value, inSmallestUnit);
	} catch (error) {
		expect(error).toBeInstanceOf(InvalidInputError);
		return error as InvalidInputError;
	}
	throw new Error(`${String(value)} was accepted`);
}

describe('amount conversion to the smallest unit', () => {
	it.each([
		[1500.5, 150050],
		['1500.50', 150050],
		[19.99, 1999],
		['19.99', 1999],
		[0.1, 10],
		[0.01, 1],
		[0.29, 29],
		[1.15, 115],
		[4.35, 435],
		[1.005e2, 10050],
		[100, 10000],
		['100', 10000],
		[' 7.5 ', 750],
		['+3', 300],
		['.5', 50],
		['1500.500', 150050],
		[1e3, 100000],
		['1e3', 100000],
		['1.5e1', 1500],
		['2.5E+2', 25000],
		['1e-2', 1],
		['90071992547409.91', 9007199254740991],
	])('%p main units → %p', (input, expected) => {
		expect(convert(input)).toBe(expected);
	});

	it('does what floating-point multiplication gets wrong', () => {
		// 19.99 * 100 = 1998.9999999999998 and 1.15 * 100 = 114.99999999999999 in binary floating point.
		expect(19.99 * 100).not.toBe(1999);
		expect(convert(19.99)).toBe(1999);
		expect(1.15 * 100).not.toBe(115);
		expect(convert(1.15)).toBe(115);
	});

	it.each([[1.005], ['1.005'], ['0.001'], ['1e-3'], [0.1 + 0.2]])('refuses %p: more than two decimals', (input) => {
		const error = rejection(input);
		expect(error.field).toBe('Amount');
		expect(error.message).toContain('Amount');
		expect(error.message).toContain(String(input));
		expect(error.message).toContain('at most 2 decimals');
	});

	it.each([[0], ['0'], ['0.00'], [-5], ['-5'], [-0.01]])('refuses %p: not greater than zero', (input) => {
		expect(rejection(input).message).toMatch(/greater than 0/);
	});

	it.each([[''], ['abc'], ['1,500.50'], ['NGN 100'], [NaN], [Infinity], [null], [undefined], [{}], ['1e400']])(
		'refuses %p: not a number',
		(input) => {
			expect(rejection(input).message).toMatch(/^Invalid Amount /);
		},
	);

	it('names the thousands separator in "1,000.50" (what an expression or a sheet gives)', () => {
		expect(() => toSmallestUnit('1,000.50', { field: 'Amount', currency: 'NGN' })).toThrow(
			'Invalid Amount "1,000.50": remove the thousands separators (,), e.g. 1000.50; use a number greater than 0',
		);
		// Not for text that is wrong in other ways.
		expect(() => toSmallestUnit('1,000.50 naira', { field: 'Amount', currency: 'NGN' })).toThrow(/^Invalid Amount "1,000.50 naira": use a number/);
	});

	it('refuses amounts beyond the safe integer range', () => {
		expect(rejection('90071992547409.92').message).toMatch(/too large/);
	});

	describe('with "Amount in Smallest Unit"', () => {
		it.each([
			[150050, 150050],
			['150050', 150050],
			[1, 1],
			['1e3', 1000],
			['150050.0', 150050],
		])('%p → %p unchanged', (input, expected) => {
			expect(convert(input, true)).toBe(expected);
		});

		it.each([[1500.5], ['1500.50'], [0], [-1], ['abc']])('refuses %p', (input) => {
			const error = rejection(input, true);
			expect(error.message).toContain('whole number greater than 0 in the smallest unit');
		});
	});

	it('uses the same rule for USD', () => {
		expect(convert('12.34', false, 'USD')).toBe(1234);
	});

	it('reads exponent notation exactly', () => {
		expect(decimalParts('1.23e-5')).toEqual({ negative: false, integer: '', fraction: '0000123' });
		expect(decimalParts('-12.5e3')).toEqual({ negative: true, integer: '12500', fraction: '' });
		expect(decimalParts('e3')).toBeUndefined();
		expect(decimalParts('.')).toBeUndefined();
	});
});
