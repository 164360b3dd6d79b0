/**
 * The Pay page's test data for a first hour (issue 51): the look-up box tells the holder of any
 * account as Bank Account → Look Up would (the same answer, the same "not found"), the test staff
 * CSV holds 12 people in the payroll example's columns whose names are the emulator's holders and
 * none of the example's, and a failed payout's page ends its failure text with one full stop.
 */
import * as fs from 'fs';
import * as path from 'path';

import { BANKS } from '../../../emulator/banks.cjs';
import { TEST_STAFF_PATH } from '../../../emulator/testStaff.cjs';
import { call, control, payoutBody } from '../../support/emulatorClient.cjs';
import { useEmulator } from '../../support/emulator.cjs';

const emulator = useEmulator();
const EXAMPLES = path.join(__dirname, '../../../examples');

async function page(query = ''): Promise<string> {
	return await (await fetch(`${emulator.baseUrl}/${query}`)).text();
}

/** The answer under the look-up box, its tags removed. */
function answerOf(html: string): string | undefined {
	const found = /<p id="look-up-answer">([\s\S]*?)<\/p>/.exec(html)?.[1];
	return found?.replace(/<[^>]+>/g, '');
}

/** Rows of a CSV (no quoted commas in these files), by column name. */
function csvRows(text: string): Array<Record<string, string>> {
	const [header, ...lines] = text.trim().split('\n');
	const columns = header.split(',');
	return lines.map((line) => Object.fromEntries(line.split(',').map((cell, index) => [columns[index], cell])));
}

describe('the Pay page: look-up box', () => {
	it('offers every test bank, and is linked from the top of the page; nothing is answered before a look-up', async () => {
		const html = await page();
		expect(html).toMatch(/<p id="jump">.*href="#look-up">look up an account<\/a>.*href="\/test-staff\.csv">test staff \(CSV\)<\/a>/);
		expect(html).toContain('<form id="look-up-form" method="get" action="/#look-up">');
		for (const bank of BANKS) expect(html).toContain(`<option value="${bank.cbnCode}"`);
		expect(answerOf(html)).toBeUndefined();
	});

	it('names the holder of any account exactly as Look Up does, and says "not found" where Look Up answers 404 ("refused" for 400)', async () => {
		const cases = [
			{ accountNumber: '3104500001', bankCode: '044' },
			{ accountNumber: '9876543210', bankCode: '50515' },
			{ accountNumber: '0234567802', bankCode: '058' },
			{ accountNumber: '0001234567', bankCode: '058' },
			{ accountNumber: '12345', bankCode: '058' },
			{ accountNumber: '1234567890', bankCode: '999' },
		];
		for (const { accountNumber, bankCode } of cases) {
			const lookUp = await call(emulator, 'GET', '/v1/banks/account_lookup', { query: { accountNumber, bankCode } });
			const answer = answerOf(await page(`?accountNumber=${accountNumber}&bankCode=${bankCode}`));
			if (lookUp.status === 200) {
				expect({ accountNumber, answer }).toEqual({ accountNumber, answer: expect.stringMatching(new RegExp(`^${lookUp.body.accountName}: account ${accountNumber} at ${lookUp.body.bank.name} \\(`)) });
			} else {
				expect({ accountNumber, status: lookUp.status, answer }).toEqual({ accountNumber, status: lookUp.status, answer: expect.stringMatching(new RegExp(`^${lookUp.status === 404 ? 'Not found' : 'Refused'}: .*Look Up answers ${lookUp.status} for it`)) });
			}
		}
		expect(answerOf(await page('?accountNumber=0001234567&bankCode=044'))).toBe('Not found: Account 0001234567 was not found at Access Bank. Look Up answers 404 for it, and a payout to it is refused.');
		// What was typed stays in the form; the answer cannot inject markup.
		const typed = await page('?accountNumber=%3Cb%3E&bankCode=057');
		expect(typed).toContain('value="&#60;b&#62;"');
		expect(typed).toContain('<option value="057" selected>');
	});
});

describe('the Pay page: test staff CSV', () => {
	it('12 people in the payroll example\'s columns, each named as Look Up names their account, none of the example\'s, within its limits', async () => {
		const response = await fetch(`${emulator.baseUrl}${TEST_STAFF_PATH}`);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
		expect(response.headers.get('content-disposition')).toBe('attachment; filename="paycashless-test-staff.csv"');
		const text = await response.text();
		const staff = csvRows(text);
		// The example's CSV (whatever the payroll example calls it), its columns in its order.
		const exampleFile = fs.readdirSync(EXAMPLES).find((name) => /^payroll.*\.csv$/.test(name));
		expect(exampleFile).toBeDefined();
		const example = fs.readFileSync(path.join(EXAMPLES, exampleFile!), 'utf8');
		expect(text.split('\n')[0]).toBe(example.split('\n')[0]);
		expect(staff).toHaveLength(12);
		const exampleNames = csvRows(example).map((row) => row.name.toUpperCase());
		const names = staff.map((row) => row.name.toUpperCase());
		expect(new Set(names).size).toBe(12);
		expect(names.filter((name) => exampleNames.includes(name))).toEqual([]);
		expect(new Set(staff.map((row) => row.reference)).size).toBe(12);
		for (const row of staff) {
			const lookUp = await call(emulator, 'GET', '/v1/banks/account_lookup', { query: { accountNumber: row.accountNumber, bankCode: row.bankCode } });
			expect({ staffId: row.staffId, status: lookUp.status, name: lookUp.body.accountName }).toEqual({ staffId: row.staffId, status: 200, name: row.name.toUpperCase() });
			// The example's Money Limits: NGN 400,000 a payout.
			expect(Number(row.amountNaira)).toBeGreaterThan(0);
			expect(Number(row.amountNaira)).toBeLessThanOrEqual(400_000);
			expect(row.reference).toBe(`salary-2026-11-${row.staffId}`);
		}
		// Linked from the Pay page as a download.
		expect(await page()).toContain(`<a id="test-staff-csv" href="${TEST_STAFF_PATH}" download="paycashless-test-staff.csv">`);
	});
});

describe("a failed payout's page", () => {
	it('ends the failure text with one full stop ("balance." then "Nothing to settle.")', async () => {
		const created = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('page-failed-once') });
		await control(emulator, 'POST', `/__emulator/payouts/${created.body.id}/complete`, { status: 'failed' });
		const html = await (await fetch(`${emulator.baseUrl}/payout/${created.body.id}`)).text();
		const state = [...html.matchAll(/<p class="state">([^<]*)<\/p>/g)].map((match) => match[1]).find((line) => line.startsWith('Status failed'));
		expect(state).toBe('Status failed: The beneficiary bank could not be reached; no money left the balance. Nothing to settle.');
		expect(html).not.toContain('..');
	});
});
