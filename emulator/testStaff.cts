/**
 * Test staff for a payroll of your own: 12 people in the payroll example's CSV columns, each paid
 * into an account whose holder the emulator names (banks.cts accountName), so Look Up and Expected
 * Account Name agree, none of them the example's people. The Pay page (`GET /`) links the CSV
 * (`GET /test-staff.csv`); every amount fits the example's Money Limits (NGN 400,000 a payout).
 */
import { accountName, bankByCode } from './banks.cjs';

export const TEST_STAFF_PATH = '/test-staff.csv';

/** The payroll example's columns, in its order (examples/payroll.csv). */
const COLUMNS = ['staffId', 'name', 'accountNumber', 'bankCode', 'amountNaira', 'reference'] as const;

type StaffRow = Record<(typeof COLUMNS)[number], string>;

/** Account, bank (CBN code) and monthly pay in naira: the holder's name comes from the emulator. */
const STAFF: ReadonlyArray<readonly [staffId: string, accountNumber: string, bankCode: string, amountNaira: string]> = [
	['T001', '3104500001', '044', '385000'],
	['T002', '3104500002', '058', '310000'],
	['T003', '3104500003', '057', '265000.50'],
	['T004', '3104500004', '011', '240000'],
	['T005', '3104500005', '033', '198000'],
	['T006', '3104500006', '035', '175000'],
	['T007', '3104500008', '101', '150000'],
	['T008', '3104500010', '50211', '132500'],
	['T009', '3104500012', '50515', '120000'],
	['T010', '3104500015', '51113', '98000'],
	['T011', '3104500016', '044', '85000'],
	['T012', '3104500017', '058', '70000'],
];

/** `ADEBAYO EMEKA` → `Adebayo Emeka`: how a staff list writes a name (the check ignores case). */
function asWritten(holder: string): string {
	return holder
		.toLowerCase()
		.split(' ')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}

/** The 12 rows, each named as the emulator's Look Up names its account. */
function testStaff(): StaffRow[] {
	return STAFF.map(([staffId, accountNumber, bankCode, amountNaira]) => {
		const bank = bankByCode(bankCode);
		if (!bank) throw new Error(`test staff ${staffId}: no bank ${bankCode}`);
		return { staffId, name: asWritten(accountName(accountNumber, bank.id)), accountNumber, bankCode, amountNaira, reference: `salary-2026-11-${staffId}` };
	});
}

/** The CSV a person downloads from the Pay page. */
export function testStaffCsv(): string {
	return `${[COLUMNS.join(','), ...testStaff().map((row) => COLUMNS.map((column) => row[column]).join(','))].join('\n')}\n`;
}
