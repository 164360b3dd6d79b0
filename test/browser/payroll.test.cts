/**
 * The payroll example (examples/payroll.json) in a real Chromium against a real n8n 2.41 with two
 * n8n users, each signed in through n8n's sign-in form in a browser of their own, imported and
 * published as `npm start` imports and publishes it. The preparer opens the payroll form (n8n's
 * consent, then the form), uploads the CSV and lands on the approval page; the approver opens that
 * page's address in their own browser. Screenshots of the pages go to .tmp/browser-artifacts/
 * (payroll-*.png); the time the approver's page takes to show 1,000 rows goes to
 * payroll-timings.json.
 * - the preparer's own approval pays nothing, and the page they land on says why;
 * - the approver's approval pays the 7 salaries once, and the page says what was sent;
 * - a salary redirected to an account never paid before is on top of the approver's page, flagged;
 * - 1,000 rows: the flagged rows first, every row on the page, readable (screenshot);
 * - no page's form card is overflowed sideways (the batch named by its 16-character id).
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import * as fs from 'fs';
import * as path from 'path';

import type { Page } from 'playwright-core';

import { accountName, BANKS } from '../../emulator/banks.cjs';
import { ARTIFACTS, openEditor, step, type Editor } from '../../scripts/browser/editor.cjs';
import { copyExampleFiles, EXAMPLES_DIR, loadExampleWorkflows, type WorkflowJson } from '../../scripts/n8n/examples.cjs';
import { importIntoN8n } from '../../scripts/n8n/lab.cjs';
import { patience } from '../../scripts/n8n/patience.cjs';
import { SETUP_TIMEOUT_MS, startE2eLab, TEARDOWN_TIMEOUT_MS, waitFor, type E2eLab } from '../support/e2e/harness.cjs';
import { addMember } from '../support/e2e/n8nForms.cjs';

// A test takes up to 30 s alone (the 1,000 rows: 60 s) (scripts/n8n/patience.cts).
jest.setTimeout(patience(30_000));

const SHIPPED = fs.readFileSync(path.join(EXAMPLES_DIR, 'payroll.csv'), 'utf8');
const ACCESS_BANK = BANKS.find((bank) => bank.cbnCode === '044')!;
const timings: Record<string, number> = {};
let lab: E2eLab;
let preparer: Editor;
let approver: Editor;
let payroll: WorkflowJson;
let loadedPayrollExamples: WorkflowJson[] = [];
let uploads: string;

beforeAll(async () => {
	lab = await startE2eLab({
		beforeStart: (config, _emulator, good) => {
			const files = path.join(config.userFolder, 'files');
			fs.mkdirSync(files, { recursive: true });
			config.env = { ...config.env, N8N_RESTRICT_FILE_ACCESS_TO: fs.realpathSync(files) };
			copyExampleFiles(fs.realpathSync(files));
			// As npm start: imported with the credential, its forms published (they ask for an n8n login).
			const examples = loadExampleWorkflows({ n8nBaseUrl: `http://127.0.0.1:${config.port}`, credential: good, filesFolder: fs.realpathSync(files) }).filter((wf) => /payroll/.test(wf.name));
			loadedPayrollExamples = examples;
			importIntoN8n(config, 'workflow', examples);
			payroll = examples.find((wf) => wf.name === 'Paycashless example: payroll')!;
		},
	});
	// Published as `npm start` publishes them (there with n8n's CLI before the start), without a CLI run of n8n each.
	for (const wf of loadedPayrollExamples) await lab.session.api('POST', `/workflows/${wf.id}/activate`);
	const member = await addMember(lab.session);
	preparer = await openEditor(lab.n8n.baseUrl);
	approver = await openEditor(lab.n8n.baseUrl, member.user);
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	uploads = fs.mkdtempSync(path.join(ARTIFACTS, 'payroll-uploads-'));
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await preparer?.close();
	await approver?.close();
	await lab?.close();
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	fs.writeFileSync(path.join(ARTIFACTS, 'payroll-timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
}, TEARDOWN_TIMEOUT_MS);

const payouts = (prefix: string) => lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix));
/** How far the page's form card is overflowed sideways, in pixels (0: everything fits in it; 51.7: a batch hash overflowed it). */
const overflow = async (page: Page) => await page.locator('.card').first().evaluate((card) => card.scrollWidth - card.clientWidth);
const shot = async (page: Page, name: string) => await page.screenshot({ path: path.join(ARTIFACTS, `payroll-${name}.png`), fullPage: false });

/** The preparer opens the payroll form (n8n's consent the first time), uploads `csv` and submits: the approval page's address. */
async function startPayroll(csv: string, name: string): Promise<string> {
	const page = preparer.page;
	return await step(page, `payroll-start-${name}`, async () => {
		await page.goto(`${lab.n8n.baseUrl}/form/paycashless-payroll`);
		const form = page.getByText('Start payroll').first();
		const consent = page.getByTestId('consent-allow-button');
		await form.or(consent).first().waitFor();
		if (await consent.isVisible()) {
			await shot(page, 'consent');
			await consent.click();
			await form.waitFor();
		}
		const file = path.join(uploads, `${name}.csv`);
		fs.writeFileSync(file, csv);
		await page.locator('input[type=file]').setInputFiles(file);
		await page.getByRole('button', { name: 'Check the batch' }).click();
		// Checking the batch (a few seconds alone; 1,000 rows: up to 40 s), then the next page.
		await page.waitForURL(/\/form-waiting\/\d+\?signature=/, { timeout: patience(40_000) });
		await page.getByText(/Approve payroll|Not sent for approval/).first().waitFor({ timeout: patience(40_000) });
		return page.url();
	});
}

/** `who` decides on the approval page at `url`; the text of the page they land on. */
async function decide(who: Editor, url: string, decision: 'Approve' | 'Decline', name: string): Promise<string> {
	const page = who.page;
	return await step(page, `payroll-decide-${name}`, async () => {
		if (page.url() !== url) await page.goto(url);
		await page.getByText('Approve payroll').first().waitFor();
		await page.getByLabel('Decision').selectOption(decision);
		await page.getByRole('button', { name: 'Submit decision' }).click();
		const last = page.getByText(/Payroll sent|Not paid|Declined/).first();
		// Seven payouts against the emulator: a few seconds alone.
		await last.waitFor({ timeout: patience(10_000) });
		await shot(page, `${name}-after`);
		expect(await overflow(page)).toBe(0);
		return await page.locator('body').innerText();
	});
}

describe('payroll with two n8n users, in Chromium', () => {
	it('the preparer approving their own batch pays nothing, and the page they land on says why', async () => {
		const url = await startPayroll(SHIPPED, 'own');
		await shot(preparer.page, 'approval-page-preparer');
		expect(await preparer.page.locator('body').innerText()).toContain("Only another n8n user's approval pays");
		const text = await decide(preparer, url, 'Approve', 'own');
		expect(text).toContain('prepared this batch and approved it too, so nothing was sent');
		expect(payouts('salary-2026-11-')).toEqual([]);
	});

	it("another n8n user approves on their own login: the 7 salaries are paid once, and the page says what was sent", async () => {
		const url = await startPayroll(SHIPPED, 'approved');
		await step(approver.page, 'payroll-approver-page', async () => {
			await approver.page.goto(url);
			await approver.page.getByText('Approve payroll').first().waitFor();
			// Every payout: the holder's name Paycashless returns, the bank, the account, naira, the reference.
			for (const cell of ['ADA OBI', 'Access Bank', '0234567801', 'NGN 350,000.00', 'salary-2026-11-S001']) await approver.page.getByRole('cell', { name: cell, exact: true }).first().waitFor();
		});
		await shot(approver.page, 'approval-page-approver');
		expect(await overflow(approver.page)).toBe(0);
		const text = await decide(approver, url, 'Approve', 'approved');
		expect(text).toContain('7 salaries sent now, 0 found again');
		expect(payouts('salary-2026-11-')).toHaveLength(7);
		for (const payout of payouts('salary-2026-11-')) expect(payout.metadata).toMatchObject({ n8nApprovedBy: expect.stringContaining('Funke Adebayo'), n8nWorkflowId: payroll.id });
	});

	it("a salary redirected to an account never paid before is on top of the approver's page, flagged", async () => {
		const redirected = '0299988877';
		const csv = SHIPPED.replace(/salary-2026-11-/g, 'salary-2026-12-').replace('Abubakar Yetunde,3021458801,057', `${accountName(redirected, ACCESS_BANK.id)},${redirected},044`);
		const url = await startPayroll(csv, 'redirected');
		const text = await step(approver.page, 'payroll-flagged', async () => {
			await approver.page.goto(url);
			await approver.page.getByText('Look at these first: 1 row').waitFor();
			return await approver.page.locator('body').innerText();
		});
		await shot(approver.page, 'approval-page-flagged');
		expect(text.indexOf('Look at these first: 1 row')).toBeLessThan(text.indexOf('The other payouts: 6 rows'));
		expect(text).toMatch(new RegExp(`3\\s+\\S.*\\s+Access Bank\\s+${redirected}\\s+NGN 185,000\\.50\\s+salary-2026-12-S003\\s+New payee: this account at this bank was never paid`));
		expect(text).toMatch(/Account changed: S003 was last paid into 3021458801/);
		await decide(approver, url, 'Decline', 'redirected');
		expect(payouts('salary-2026-12-')).toEqual([]);
	});

	it("1,000 rows: the approver's page shows the flagged rows first and every row, readable", async () => {
		const rows = Array.from({ length: 1000 }, (_, k) => {
			const account = String(4_100_000_000 + k * 7919);
			return `P${k + 1},${accountName(account, ACCESS_BANK.id)},${account},044,8000,bulk-2026-11-P${k + 1}`;
		});
		const url = await startPayroll(['staffId,name,accountNumber,bankCode,amountNaira,reference', ...rows].join('\n'), 'thousand');
		const started = Date.now();
		const text = await step(approver.page, 'payroll-thousand', async () => {
			await approver.page.goto(url);
			await approver.page.getByRole('cell', { name: 'bulk-2026-11-P1000', exact: true }).waitFor({ timeout: patience(20_000) });
			return await approver.page.locator('body').innerText();
		});
		timings.approverPageOf1000RowsMs = Date.now() - started;
		await shot(approver.page, 'approval-page-1000-rows');
		// The end of the page: the last rows and the decision (a full-page picture of 1,000 rows is too big to take).
		await approver.page.getByLabel('Decision').scrollIntoViewIfNeeded();
		await shot(approver.page, 'approval-page-1000-rows-end');
		expect(text).toContain('1000 payouts to make');
		expect(text).toContain('Look at these first: 1000 rows');
		const rowsShown = await approver.page.locator('.form-group.html tbody tr').count();
		expect(rowsShown).toBe(1000);
		expect(await overflow(approver.page)).toBe(0);
		await decide(approver, url, 'Decline', 'thousand');
		expect(payouts('bulk-2026-11-')).toEqual([]);
		await waitFor('nothing paid', async () => (payouts('bulk-2026-11-').length === 0 ? true : undefined), patience(1_000));
	});
});
