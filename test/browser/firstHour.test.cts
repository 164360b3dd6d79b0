/**
 * The first hour, round four (issue 51), walked as a new user walks it in n8n's real editor in a
 * real browser (scripts/browser/editor.cts): the lab n8n with this package installed, the emulator
 * seeded as on a fresh `npm start`, the owner logged in through the sign-in form. Each item leaves
 * a screenshot in .tmp/browser-artifacts/ (the folder the browser tests keep their artifacts in,
 * kept by CI), named `first-hour-<item>-….png`:
 * 1. a Money Limit added is empty and a notice says it refuses until typed in (cleared, the editor
 *    removes it); All or Nothing is on;
 * 2. the panel's actions are short, a node added with one is named after it, and Approved Batch
 *    Hash's placeholder names the Check Batch node as the canvas shows it;
 * 3. the emulator's Pay page looks up any account's holder and gives a test staff CSV;
 * 4. Get Many: the table's first columns are reference, status, naira, account, date; "Add
 *    Filter" offers Created From (not Created After, which a stored workflow still shows);
 *    Reference Starts With keeps the matching payouts;
 * 6. Check Batch's period sentence: a dollar payout of today said in dollars beside the naira
 *    total and its own count;
 * 7. the failed payout's page ends its text with one full stop.
 * (5, the docs, is test/tooling/repo/userDocs.test.cts; the MCP node search is
 * test/engine/nodeSearch.test.cts.)
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import type { Locator, Page } from 'playwright-core';

import { BANKS } from '../../emulator/banks.cjs';
import { freshStartEmulatorOptions } from '../../scripts/n8n/fresh-start.cjs';
import { NODE_TYPE_ACTION } from '../../scripts/n8n/lab.cjs';
import { ARTIFACTS, canvasNode, clickToRun, closeNode, newWorkflowThenAdd, openEditor, openNode, openWorkflow, packageErrors, pickPaycashlessAction, step, type Editor } from '../../scripts/browser/editor.cjs';
import { patience } from '../../scripts/n8n/patience.cjs';
import { call, control } from '../support/emulatorClient.cjs';
import { SETUP_TIMEOUT_MS, startE2eLab, TEARDOWN_TIMEOUT_MS, type E2eLab } from '../support/e2e/harness.cjs';

// A test takes up to 20 s alone (scripts/n8n/patience.cts); playwright's waits take editor.cts's.
jest.setTimeout(patience(20_000));

const ACCESS = BANKS.find((bank) => bank.cbnCode === '044')!;
let lab: E2eLab;
let editor: Editor;
let page: Page;

async function screenshot(name: string, target: Page = page): Promise<void> {
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	await target.screenshot({ path: path.join(ARTIFACTS, `first-hour-${name}.png`) });
}

/** "Add Limit" / "Add Option" / "Add Filter" of a collection in the open panel (the `nth` with that label), then one option. */
async function addToCollection(label: string, option: string, nth = 0): Promise<void> {
	const add = page
		.getByTestId('ndv')
		.getByTestId('collection-parameter-add')
		.filter({ has: page.locator(`input[placeholder="${label}"]`) })
		.nth(nth);
	await add.scrollIntoViewIfNeeded();
	await add.click();
	await choose(option);
}

/**
 * Clicks an option of the open "Add …" list and waits for the list to close: on a busy machine the
 * list is still on screen for a while and covers the next "Add …" (its options catch the click).
 */
async function choose(option: string): Promise<void> {
	const item = page.getByRole('option', { name: option, exact: true });
	await item.click();
	await page.getByRole('option').filter({ visible: true }).first().waitFor({ state: 'hidden' });
}

/** The options a collection's "Add …" list offers, then closed again. */
async function offeredBy(label: string): Promise<string[]> {
	const add = page.getByTestId('ndv').getByTestId('collection-parameter-add').filter({ has: page.locator(`input[placeholder="${label}"]`) }).first();
	await add.scrollIntoViewIfNeeded();
	await add.click();
	const options = page.getByRole('option').filter({ visible: true });
	await options.first().waitFor();
	return (await options.allInnerTexts()).map((text) => text.trim());
}

function input(name: string): Locator {
	return page.getByTestId('ndv').getByTestId(`parameter-input-${name}`);
}

beforeAll(async () => {
	lab = await startE2eLab({ emulator: freshStartEmulatorOptions(Date.now()) });
	editor = await openEditor(lab.n8n.baseUrl);
	page = editor.page;
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await editor?.close();
	await lab?.close();
}, TEARDOWN_TIMEOUT_MS);

describe('the first hour, round four, in n8n’s editor in Chromium', () => {
	it('1. a Money Limit added is empty, and the panel says it refuses every payout until typed in; All or Nothing, added, is on', async () => {
		await step(page, 'first-hour-1-limits', async () => {
			await newWorkflowThenAdd(page, lab.n8n.baseUrl);
			await pickPaycashlessAction(page, 'Create a payout');
			// Maximum Total per Period: an empty field with its example, and the notice under Money Limits.
			await addToCollection('Add Limit', 'Maximum Total per Period');
			const periodTotal = input('periodTotal').locator('input').first();
			await periodTotal.scrollIntoViewIfNeeded();
			expect(await periodTotal.inputValue()).toBe('');
			expect(await periodTotal.getAttribute('placeholder')).toBe('e.g. 3000000');
			const notice = page.getByTestId('ndv').getByText('Money Limits → Maximum Total per Period is empty: every payout is refused until you type an amount above 0 (or remove this limit)');
			await notice.waitFor();
			await screenshot('1-limit-added-empty');
			// Typed in, the notice goes.
			await periodTotal.fill('3000000');
			await page.keyboard.press('Tab');
			await notice.waitFor({ state: 'hidden' });
			expect(await periodTotal.inputValue()).toBe('3000000');
			await screenshot('1-limit-typed');
			// Cleared, n8n's editor removes the limit from Money Limits (not a limit left empty): the
			// field goes, so does the notice, and "Add Limit" offers it again. What shows is what is set.
			await periodTotal.fill('');
			await page.keyboard.press('Tab');
			await input('periodTotal').waitFor({ state: 'detached' });
			expect(await notice.count()).toBe(0);
			expect(await offeredBy('Add Limit')).toContain('Maximum Total per Period');
			await choose('Maximum Total per Period');
			const typedAgain = input('periodTotal').locator('input').first();
			await typedAgain.fill('3000000');
			// Blurred, not tabbed away: Tab puts the focus on the next "Add …" list, which n8n may open,
			// and that open list covers "Add Option" below.
			await typedAgain.blur();
			// All or Nothing: the first "Add Option" is Batch Options'; added, the switch is on.
			await addToCollection('Add Option', 'All or Nothing');
			const allOrNothing = input('allOrNothing').locator('.el-switch').first();
			await allOrNothing.scrollIntoViewIfNeeded();
			expect(await allOrNothing.getAttribute('class')).toContain('is-checked');
			await screenshot('1-all-or-nothing-on');
			await closeNode(page);
		});
	});

	it('2. short actions; a node added with one is named after it; Approved Batch Hash names the Check Batch node as the canvas does', async () => {
		await step(page, 'first-hour-2-names', async () => {
			await newWorkflowThenAdd(page, lab.n8n.baseUrl);
			await page.getByTestId('node-creator-search-bar').fill('Paycashless');
			await page.getByTestId('node-creator-item-name').filter({ hasText: /^Paycashless$/ }).first().click();
			const actions = page.getByTestId('node-creator').getByTestId('node-creator-item-name');
			await actions.filter({ hasText: /^Check a payout batch$/ }).waitFor();
			const listed = (await actions.allInnerTexts()).map((text) => text.trim()).filter((text) => text !== 'Paycashless');
			expect(listed).toEqual(expect.arrayContaining(['Create a payout', 'Get many payouts', 'Check a payout batch', 'Create a payout and wait', 'Create an invoice and wait', 'Get a dedicated account request']));
			for (const action of listed) expect({ action, short: action.length <= 31 }).toEqual({ action, short: true });
			await screenshot('2-actions');
			await actions.filter({ hasText: /^Check a payout batch$/ }).click();
			await page.getByTestId('ndv').waitFor();
			await closeNode(page);
			await canvasNode(page, 'Check a payout batch').waitFor();
			// The next node, after it: Create a payout, Batch Options → Approved Batch Hash.
			await page.locator('[data-node-name="Check a payout batch"] [data-test-id="canvas-handle-plus"]').click();
			await pickPaycashlessAction(page, 'Create a payout');
			await addToCollection('Add Option', 'Approved Batch Hash');
			const hash = input('approvedBatchHash').locator('input, textarea').first();
			await hash.scrollIntoViewIfNeeded();
			expect(await hash.getAttribute('placeholder')).toBe("{{ $('Check a payout batch').item.json.batchHash }}");
			await screenshot('2-approved-batch-hash');
			await closeNode(page);
			const names = await page.getByTestId('canvas-node').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node-name')));
			expect(names).toEqual(expect.arrayContaining(['Check a payout batch', 'Create a payout']));
			await screenshot('2-canvas-names');
		});
	});

	it("3. the Pay page tells the holder of any account, says \"not found\" for 000…, and gives a CSV of 12 test staff named as Look Up names them", async () => {
		const payPage = await editor.context.newPage();
		try {
			await step(payPage, 'first-hour-3-pay-page', async () => {
				await payPage.goto(`${lab.emulator.baseUrl}/`);
				await payPage.getByRole('link', { name: 'look up an account' }).click();
				await payPage.getByLabel('Account number').fill('3104500001');
				await payPage.getByLabel('Bank').selectOption(ACCESS.cbnCode);
				await payPage.getByRole('button', { name: 'Look up' }).click();
				const answer = payPage.locator('#look-up-answer');
				await answer.waitFor();
				const lookUp = await call(lab.emulator, 'GET', '/v1/banks/account_lookup', { query: { accountNumber: '3104500001', bankCode: ACCESS.cbnCode } });
				expect(await answer.innerText()).toMatch(new RegExp(`^${lookUp.body.accountName}: account 3104500001 at Access Bank \\(044\\)`));
				await payPage.locator('#look-up').scrollIntoViewIfNeeded();
				await screenshot('3-look-up', payPage);
				await payPage.getByLabel('Account number').fill('0001234567');
				await payPage.getByRole('button', { name: 'Look up' }).click();
				await payPage.locator('#look-up-answer', { hasText: 'Not found' }).waitFor();
				await screenshot('3-look-up-not-found', payPage);
				// The test staff CSV, downloaded as a person downloads it.
				const [download] = await Promise.all([payPage.waitForEvent('download'), payPage.locator('#test-staff-csv').click()]);
				expect(download.suggestedFilename()).toBe('paycashless-test-staff.csv');
				const file = path.join(ARTIFACTS, 'first-hour-3-test-staff.csv');
				fs.mkdirSync(ARTIFACTS, { recursive: true });
				await download.saveAs(file);
				const [header, ...rows] = fs.readFileSync(file, 'utf8').trim().split('\n');
				expect(header).toBe('staffId,name,accountNumber,bankCode,amountNaira,reference');
				expect(rows).toHaveLength(12);
				const [staffId, name, accountNumber, bankCode] = rows[0].split(',');
				const holder = await call(lab.emulator, 'GET', '/v1/banks/account_lookup', { query: { accountNumber, bankCode } });
				expect({ staffId, name: name.toUpperCase() }).toEqual({ staffId: 'T001', name: holder.body.accountName });
				await payPage.locator('#test-staff').scrollIntoViewIfNeeded();
				await screenshot('3-test-staff', payPage);
			});
		} finally {
			await payPage.close();
		}
	});

	it('4. Get Many: reference, status, naira, account, date first in the table; Created From offered, Created After only where stored; Reference Starts With keeps the matching payouts', async () => {
		const month = `salary-${randomUUID().slice(0, 6)}-`;
		for (const [n, reference] of [`${month}S001`, 'supplier-a', `${month}S002`, 'supplier-b'].entries()) {
			const created = await call(lab.emulator, 'POST', '/v1/payouts', {
				body: { reference, amount: { value: 150_050 + n, currency: 'NGN' }, destinationAccountNumber: '0123456789', bankId: ACCESS.id },
			});
			expect(created.status).toBe(202);
		}
		const getMany = (name: string, filters: Record<string, unknown>) => ({
			id: randomUUID(),
			name,
			type: NODE_TYPE_ACTION,
			typeVersion: 1,
			position: [240, 0],
			parameters: { resource: 'payout', operation: 'getAll', returnAll: true, filters },
			credentials: { paycashlessApi: lab.good },
		});
		const created = await lab.session.api<{ id: string }>('POST', '/workflows', {
			name: 'browser: first hour, get many payouts',
			settings: { executionOrder: 'v1' },
			connections: { Start: { main: [[{ node: 'Get many payouts', type: 'main', index: 0 }]] } },
			nodes: [
				{ id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				getMany('Get many payouts', { referencePrefix: month }),
				// A workflow saved when "Created After" was offered.
				{ ...getMany('Payouts Since (stored)', { createdAfter: '2020-01-01' }), position: [240, 200] },
			],
		});
		await step(page, 'first-hour-4-get-many', async () => {
			await openWorkflow(page, lab.n8n.baseUrl, created.id);
			await openNode(page, 'Get many payouts');
			const output = page.getByTestId('output-panel');
			await clickToRun(page.getByTestId('node-execute-button'), 'execute Get many payouts', async () => (await output.getByText(`${month}S002`).count()) > 0);
			await output.getByText(`${month}S002`).first().waitFor();
			await output.getByRole('radio', { name: 'Table' }).click().catch(() => undefined);
			// The table is drawn a moment after the switch: read its headers once the first is there.
			await output.locator('th', { hasText: 'reference' }).first().waitFor();
			const headers = (await output.locator('th').allInnerTexts()).map((text) => text.trim()).filter((text) => text !== '');
			expect(headers.slice(0, 6)).toEqual(['reference', 'status', 'inMainUnits', 'destinationAccountNumber', 'destinationBankId', 'createdAt']);
			// Only the payroll's two, newest first, their naira beside them.
			const text = await output.innerText();
			expect(text).toContain(`${month}S001`);
			expect(text).not.toContain('supplier-a');
			await screenshot('4-get-many-table');
			const offered = await offeredBy('Add Filter');
			expect(offered).toEqual(expect.arrayContaining(['Created From', 'Created Before', 'Reference']));
			expect(offered).not.toContain('Created After');
			expect(offered).not.toContain('Created On or Before');
			await screenshot('4-get-many-add-filter');
			await page.keyboard.press('Escape');
			await closeNode(page);
			// The stored Created After shows (and can be removed).
			await openNode(page, 'Payouts Since (stored)');
			const stored = input('createdAfter').locator('input').first();
			await stored.scrollIntoViewIfNeeded();
			expect(await stored.inputValue()).toBe('2020-01-01');
			await screenshot('4-stored-created-after');
			await closeNode(page);
		});
	});

	it('6. Check Batch\'s period sentence keeps counts and totals of one currency together: a USD payout today is said in USD', async () => {
		const usd = await call(lab.emulator, 'POST', '/v1/payouts', {
			body: { reference: `first-hour-usd-${randomUUID().slice(0, 8)}`, amount: { value: 12_500, currency: 'USD' }, destinationAccountNumber: '0123456789', bankId: ACCESS.id },
		});
		expect(usd.status).toBe(202);
		const created = await lab.session.api<{ id: string }>('POST', '/workflows', {
			name: 'browser: first hour, mixed currencies',
			settings: { executionOrder: 'v1' },
			connections: { Start: { main: [[{ node: 'Check Batch', type: 'main', index: 0 }]] } },
			nodes: [
				{ id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: randomUUID(),
					name: 'Check Batch',
					type: NODE_TYPE_ACTION,
					typeVersion: 1,
					position: [240, 0],
					parameters: {
						resource: 'payout',
						operation: 'checkBatch',
						reference: `first-hour-ngn-${randomUUID().slice(0, 8)}`,
						amount: 1500.5,
						currency: 'NGN',
						destinationAccountNumber: '0123456789',
						bankId: ACCESS.id,
						moneyLimits: { maxAmount: 100_000, periodTotal: 5_000_000 },
						// One day of history: the whole of today, read in one page.
						approverView: { historyDays: 1 },
					},
					credentials: { paycashlessApi: lab.good },
				},
			],
		});
		await step(page, 'first-hour-6-mixed-currencies', async () => {
			await openWorkflow(page, lab.n8n.baseUrl, created.id);
			await openNode(page, 'Check Batch');
			const output = page.getByTestId('output-panel');
			await clickToRun(page.getByTestId('node-execute-button'), 'execute Check Batch', async () => (await output.getByText(/as the limits count them/).count()) > 0);
			// The summary's `text` in n8n's table view (one column per field, the whole text in its cell).
			await output.getByRole('radio', { name: 'Table' }).click();
			const sentence = output.getByText(/as the limits count them/).first();
			await sentence.waitFor();
			await sentence.scrollIntoViewIfNeeded();
			const text = (await sentence.innerText()).replace(/\s+/g, ' ');
			// The naira total beside the count of naira payouts; the dollar payout with its own total.
			expect(text).toMatch(/Payouts today \(since 00:00 [^)]+\) as the limits count them: NGN [\d,.]+ \(\d+ NGN payouts?\); also \d+ payouts? in USD, USD [\d,.]+/);
			await screenshot('6-mixed-currencies');
			await closeNode(page);
		});
	});

	it('7. a failed payout\'s page ends its failure text with one full stop', async () => {
		const created = await call(lab.emulator, 'POST', '/v1/payouts', {
			body: { reference: `first-hour-fail-${randomUUID().slice(0, 8)}`, amount: { value: 250_000, currency: 'NGN' }, destinationAccountNumber: '0123456789', bankId: ACCESS.id },
		});
		await control(lab.emulator, 'POST', `/__emulator/payouts/${created.body.id}/complete`, { status: 'failed' });
		const payoutPage = await editor.context.newPage();
		try {
			await step(payoutPage, 'first-hour-7-failed-payout', async () => {
				await payoutPage.goto(`${lab.emulator.baseUrl}/payout/${created.body.id}`);
				const state = await payoutPage.locator('p.state').allInnerTexts();
				expect(state).toContain('Status failed: The beneficiary bank could not be reached; no money left the balance. Nothing to settle.');
				await screenshot('7-failed-payout', payoutPage);
			});
		} finally {
			await payoutPage.close();
		}
	});

	it('the package logs no console error in the editor', () => {
		expect(packageErrors(editor.consoleErrors)).toEqual([]);
	});
});
