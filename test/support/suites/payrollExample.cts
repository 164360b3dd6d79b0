/**
 * The payroll example examples/payroll.json in a real n8n 2.41 (test/e2e/payrollExample.test.cts)
 * with two n8n users, imported as `npm start` imports it (its files folder holds the example's own
 * CSV, under this clone's name), driven as their browsers drive n8n's forms (HTTP: sign-in through
 * n8n's OAuth2 and consent, each page's token; the browser test test/browser/payroll.test.cts does
 * it in Chromium). What is checked, the "Done when" for n8n 2.41:
 * - the form and the approval page open only with an n8n login; without one, nothing is paid;
 * - the preparer approving their own batch pays nothing, and is told why on the page;
 * - another n8n user approves: the 7 are paid once, each payout's metadata names the workflow,
 *   the execution, the batch, the preparer and the approver; a second approved run pays none again;
 * - a salary redirected to an account never paid before is flagged on the approver's page;
 * - an account that does not exist is a refused row (with its reference), and the batch is not
 *   sent for approval: the preparer sees why;
 * - after settling some and failing one on the emulator, the payroll status example gives the
 *   batch exactly; the check reports the failed one failed, never paid; it is paid again once.
 * The example's shape: test/tooling/repo/examples.test.cts. On n8n 1.123: payrollExampleN8n1.cts.
 */
import * as fs from 'fs';
import * as path from 'path';

import { accountName } from '../../../emulator/banks.cjs';
import { copyExampleFiles, EXAMPLES_DIR, exampleFileName, loadExampleWorkflows, type WorkflowJson } from '../../../scripts/n8n/examples.cjs';
import { LAB_OWNER } from '../../../scripts/n8n/lab.cjs';
import { patience } from '../../../scripts/n8n/patience.cjs';
import { executionById, executionIds, selectE2eRuntime, SETUP_TIMEOUT_MS, startE2eLab, TEARDOWN_TIMEOUT_MS, waitFor, type E2eLab, type E2eRuntime, type Execution } from '../e2e/harness.cjs';
import { addMember, FormBrowser } from '../e2e/n8nForms.cjs';

export function describePayrollExample(runtime: Partial<E2eRuntime>): void {
	selectE2eRuntime(runtime);
	jest.setTimeout(SETUP_TIMEOUT_MS);

	const NAME = 'Paycashless example: payroll';
	const STATUS = 'Paycashless example: payroll status';
	const REFERENCES = ['S001', 'S002', 'S003', 'S004', 'S005', 'S006', 'S007'].map((id) => `salary-2026-11-${id}`);
	/** examples/payroll.csv's amounts in kobo, in row order. */
	const KOBO = [35_000_000, 28_000_000, 18_500_050, 15_000_000, 12_000_000, 9_500_000, 6_500_000];
	const SHIPPED = fs.readFileSync(path.join(EXAMPLES_DIR, 'payroll.csv'), 'utf8');

	let lab: E2eLab;
	let files: string;
	let examples: WorkflowJson[];
	const ids: Record<string, string> = {};
	let preparer: FormBrowser;
	let approver: FormBrowser;
	let approverEmail: string;

	type RunData = Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> }; metadata?: { resumeFormUrl?: string } }>>;
	const runData = (execution: Execution) => (execution.data?.resultData.runData ?? {}) as RunData;
	const output = (execution: Execution, node: string, branch = 0) => (runData(execution)[node]?.at(-1)?.data?.main[branch] ?? []).map((item) => item.json);
	const byId = (id: string) => executionById(lab, id);

	beforeAll(async () => {
		lab = await startE2eLab({
			beforeStart: (config, _emulator, good) => {
				// As npm start: the files folder n8n may read, the example's CSV copied into it under this clone's name.
				fs.mkdirSync(path.join(config.userFolder, 'files'), { recursive: true });
				files = fs.realpathSync(path.join(config.userFolder, 'files'));
				config.env = { ...config.env, N8N_RESTRICT_FILE_ACCESS_TO: files };
				// Another clone's payroll.csv in the same folder: never read by this clone's example.
				fs.writeFileSync(path.join(files, 'payroll.csv'), SHIPPED.replace('350000', '9350000'));
				expect(copyExampleFiles(files)).toEqual([exampleFileName('payroll.csv')]);
				examples = loadExampleWorkflows({ n8nBaseUrl: `http://127.0.0.1:${config.port}`, credential: good, filesFolder: files }).filter((wf) => [NAME, STATUS].includes(wf.name));
			},
		});
		for (const wf of examples) {
			const made = await lab.session.api<{ id: string }>('POST', '/workflows', { name: wf.name, nodes: wf.nodes, connections: wf.connections, settings: wf.settings });
			await lab.session.api('POST', `/workflows/${made.id}/activate`);
			ids[wf.name] = made.id;
		}
		const member = await addMember(lab.session);
		approverEmail = member.user.email;
		preparer = new FormBrowser(lab.n8n.baseUrl, lab.session.login);
		approver = new FormBrowser(lab.n8n.baseUrl, member.session.login);
		await waitFor('the payroll form', async () => ((await preparer.open(`${lab.n8n.baseUrl}/form/paycashless-payroll`)).status === 200 ? true : undefined), patience(5_000));
	}, SETUP_TIMEOUT_MS);

	afterAll(async () => {
		await lab?.close();
	}, TEARDOWN_TIMEOUT_MS);

	const FORM = () => `${lab.n8n.baseUrl}/form/paycashless-payroll`;
	const payouts = (prefix = 'salary-2026-11-') => lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix));

	/** The run the form just started, once it stops moving (waits for a page, or ended). */
	async function nextRun(before: Set<string>, workflow = NAME): Promise<Execution> {
		return await waitFor(
			`the run of "${workflow}" to reach a page`,
			async (saw) => {
				const id = (await executionIds(lab, ids[workflow])).find((candidate) => !before.has(candidate));
				const found = id === undefined ? undefined : await byId(id);
				saw(found ? `${found.id} ${found.status} ${Object.keys(runData(found)).join(', ')}` : 'no new execution');
				return found && !['new', 'running'].includes(found.status) ? found : undefined;
			},
			// Reading the CSV, 7 lookups, the check: a few seconds alone (scripts/n8n/patience.cts).
			patience(8_000),
		);
	}

	/** The preparer submits the form (a CSV, or none: the example's own); the run, and the page the preparer's browser goes to next. */
	async function startPayroll(csv?: string): Promise<{ run: Execution; next: string }> {
		const before = new Set(await executionIds(lab, ids[NAME]));
		const form = await preparer.open(FORM());
		expect(form.status).toBe(200);
		const answer = await preparer.submit(FORM(), await form.text(), csv === undefined ? {} : { 'field-0': new Blob([csv], { type: 'text/csv' }) });
		expect(answer.status).toBe(200);
		const { formWaitingUrl } = (await answer.json()) as { formWaitingUrl: string };
		return { run: await nextRun(before), next: formWaitingUrl };
	}

	/** What a browser shows at `url` once the run has got there (the page n8n serves it). */
	async function pageAt(browser: FormBrowser, url: string): Promise<{ status: number; html: string }> {
		const response = await browser.go(url);
		return { status: response.status, html: await response.text() };
	}

	/** A user decides on the approval page; the run once it reached its last page, and that page as the user sees it. */
	async function decide(browser: FormBrowser, url: string, decision: 'Approve' | 'Decline', id: string): Promise<{ run: Execution; page: string }> {
		const page = await pageAt(browser, url);
		expect(page.status).toBe(200);
		expect((await browser.submit(url, page.html, { 'field-1': decision })).status).toBe(200);
		const run = await waitFor(
			'the run to reach its last page',
			async (saw) => {
				const found = await byId(id);
				const last = ['Paid', 'Not Paid', 'Declined'].find((node) => found && runData(found)[node]);
				saw(found ? `${found.status} ${Object.keys(runData(found)).join(', ')}` : 'none');
				return last ? found : undefined;
			},
			// Seven payouts against the emulator: a few seconds alone.
			patience(8_000),
		);
		return { run, page: (await pageAt(browser, url)).html };
	}

	const approvalUrl = (run: Execution) => runData(run)['Approve Payroll']?.[0]?.metadata?.resumeFormUrl ?? '';

	it("reads the example's own CSV in the files folder (this clone's name), never another clone's payroll.csv", async () => {
		const read = examples.find((wf) => wf.name === NAME)!.nodes.find((node) => node.name === 'Read Example CSV')!;
		expect(read.parameters.fileSelector).toBe(path.join(files, exampleFileName('payroll.csv')));
		expect(fs.readFileSync(path.join(files, exampleFileName('payroll.csv')), 'utf8')).toBe(SHIPPED);
		// A second copy never overwrites the user's file.
		expect(copyExampleFiles(files)).toEqual([]);
	});

	it('without an n8n login: the form sends to the sign-in, the approval page too, a submitted approval is refused; nothing is paid', async () => {
		const nobody = new FormBrowser(lab.n8n.baseUrl);
		// n8n sends the browser to its sign-in (its OAuth2 authorize and consent), which refuses without a login.
		expect((await nobody.go(FORM())).headers.get('location')).toMatch(/\/oauth\/authorize\?/);
		const form = await nobody.open(FORM());
		expect(form.status).toBe(401);
		expect(await form.text()).not.toContain('Start payroll');
		const { run } = await startPayroll();
		const url = approvalUrl(run);
		expect(url).toMatch(/\/form-waiting\/\d+\?signature=/);
		expect((await nobody.go(url)).headers.get('location')).toMatch(/^\/signin\?redirect=/);
		// A hand-made POST, with no login: refused before the run goes on.
		expect((await nobody.submit(url, '', { 'field-1': 'Approve' })).status).toBe(401);
		// Without the address's signature, even a logged-in user gets nothing.
		expect((await approver.go(url.split('?')[0])).status).toBe(401);
		expect((await byId(String(run.id)))!.status).toBe('waiting');
		expect(runData((await byId(String(run.id)))!)['Pay Salaries']).toBeUndefined();
		expect(payouts()).toEqual([]);
		// Declined by the approver: nothing paid, and it says so.
		const { page } = await decide(approver, url, 'Decline', String(run.id));
		expect(page).toContain('Nothing was paid.');
		expect(payouts()).toEqual([]);
	});

	it('the preparer approving their own batch pays nothing, and the page tells them why', async () => {
		const { run, next } = await startPayroll();
		// The preparer's browser goes on to the approval page, which says whose approval counts.
		expect(next).toBe(approvalUrl(run));
		const [summary] = output(run, 'Check Batch');
		expect(summary).toMatchObject({ fits: true, count: 7, refusedCount: 0, inMainUnits: { currency: 'NGN', total: 1_245_000.5 } });
		const page = await pageAt(preparer, next);
		expect(page.html).toMatch(/Only another n8n user(&#39;|&#x27;|')s approval pays/);
		const { run: ended, page: told } = await decide(preparer, next, 'Approve', String(run.id));
		expect(output(ended, 'Pay Salaries', 1).map((item) => (item.error as Record<string, unknown>).code)).toEqual(Array(7).fill('APPROVER_IS_PREPARER'));
		expect(told).toContain('prepared this batch and approved it too, so nothing was sent');
		expect(payouts()).toEqual([]);
	});

	it("another n8n user approves: the 7 are paid once, each payout's metadata names the workflow, execution, batch, preparer and approver; a second run pays none again", async () => {
		const { run } = await startPayroll(SHIPPED);
		const [summary] = output(run, 'Check Batch');
		const page = await pageAt(approver, approvalUrl(run));
		// The approver sees every payout: the holder's name Paycashless returns, bank, account, amount, reference.
		for (const reference of REFERENCES) expect(page.html).toContain(`<td>${reference}</td>`);
		expect(page.html).toContain('<td>ADA OBI</td>');
		expect(page.html).toContain('<td>NGN 185,000.50</td>');
		const { run: ended, page: done } = await decide(approver, approvalUrl(run), 'Approve', String(run.id));
		expect(done).toContain('7 salaries sent now, 0 found again');
		// All or Nothing sends the reserved batch at Requests in Parallel: in any order.
		expect(payouts().map((payout) => [payout.reference, payout.amount]).sort()).toEqual(REFERENCES.map((reference, k) => [reference, KOBO[k]]).sort());
		for (const payout of payouts()) {
			expect(payout.metadata).toMatchObject({
				n8nWorkflowId: ids[NAME],
				n8nWorkflowName: NAME,
				n8nExecutionId: String(ended.id),
				n8nNode: 'Pay Salaries',
				n8nBatch: summary.batchId,
				n8nPreparedBy: `${LAB_OWNER.firstName} ${LAB_OWNER.lastName} (${LAB_OWNER.email})`,
				n8nApprovedBy: `Funke Adebayo (${approverEmail})`,
			});
		}

		// n8n's Executions list tells this run, which paid, from a re-run that paid nothing (the execution's custom data).
		expect((await byId(String(ended.id)) as Execution & { customData?: Record<string, string> })?.customData).toMatchObject({
			paycashless_Pay_Salaries: '7 payouts new, 0 found again (made before: not made twice), 0 refused or failed',
		});
		const again = await startPayroll(SHIPPED);
		expect(output(again.run, 'Check Batch')[0]).toMatchObject({ fits: true, count: 0, alreadyPaidCount: 7 });
		const second = await decide(approver, approvalUrl(again.run), 'Approve', String(again.run.id));
		expect(second.page).toContain('0 salaries sent now, 7 found again');
		expect(payouts()).toHaveLength(7);
	});

	it("a salary redirected to an account never paid before is flagged on the approver's page", async () => {
		// December: S003's salary goes to another account, its holder's name written in the name column.
		const redirected = '0299988877';
		const csv = SHIPPED.replace(/salary-2026-11-/g, 'salary-2026-12-').replace('Abubakar Yetunde,3021458801,057', `${accountName(redirected, 'bank_538ed2056326432ba8e6853b613997bb')},${redirected},044`);
		const { run } = await startPayroll(csv);
		const [summary] = output(run, 'Check Batch');
		expect(summary).toMatchObject({ fits: true, count: 7, flaggedCount: 1 });
		expect((summary.flagged as Array<Record<string, unknown>>)[0]).toMatchObject({ row: 3, flags: [expect.objectContaining({ code: 'NEW_PAYEE' }), expect.objectContaining({ code: 'ACCOUNT_CHANGED' })] });
		const page = (await pageAt(approver, approvalUrl(run))).html;
		expect(page).toContain('Look at these first: 1 row');
		expect(page).toMatch(new RegExp(`<td>${redirected}</td>.*?New payee: this account at this bank was never paid`));
		expect(page).toMatch(/Account changed: S003 was last paid into 3021458801 \(salary-2026-11-S003, \d{4}-\d\d-\d\d\)/);
		await decide(approver, approvalUrl(run), 'Decline', String(run.id));
		expect(payouts('salary-2026-12-')).toEqual([]);
	});

	it('an account that does not exist is a refused row with its reference; the batch is not sent for approval and the preparer sees why', async () => {
		const csv = SHIPPED.replace(/salary-2026-11-/g, 'salary-2027-01-').replace('3021458804', '0001234567');
		const { run, next } = await startPayroll(csv);
		expect(runData(run)['Approve Payroll']).toBeUndefined();
		expect(output(run, 'Check Batch')[0]).toMatchObject({ fits: false, refusedCount: 1, refused: [expect.objectContaining({ row: 6, reference: 'salary-2027-01-S006', code: 'LOOKUP_FAILED' })] });
		const page = (await pageAt(preparer, next)).html;
		expect(page).toContain('Not sent for approval');
		expect(page).toContain('Row 6 (salary-2027-01-S006): LOOKUP_FAILED');
		expect(payouts('salary-2027-01-')).toEqual([]);
	});

	it('after settling some and failing one: the payroll status is exact, the failed one is reported failed (never paid) and is paid again once', async () => {
		for (const reference of REFERENCES.slice(0, 5)) await lab.emulator.completePayout(reference, 'succeeded');
		await lab.emulator.completePayout(REFERENCES[5], 'failed', { failureCode: 'account_closed', failureMessage: 'Beneficiary account closed' });
		// The finance manager's view: the status form, by reference prefix.
		const statusForm = `${lab.n8n.baseUrl}/form/paycashless-payroll-status`;
		const before = new Set(await executionIds(lab, ids[STATUS]));
		const opened = await approver.open(statusForm);
		const answer = await approver.submit(statusForm, await opened.text(), { 'field-0': 'salary-2026-11-' });
		const { formWaitingUrl } = (await answer.json()) as { formWaitingUrl: string };
		const statusRun = await nextRun(before, STATUS);
		const [status] = output(statusRun, 'Status by Reference Prefix');
		expect(status).toMatchObject({ rows: 7, paid: 5, pending: 1, notPaid: 1, settled: false });
		expect(status.failures).toEqual([expect.objectContaining({ reference: REFERENCES[5], status: 'failed', failure: 'Beneficiary account closed' })]);
		expect(status.byStatus).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ outcome: 'paid', count: 5, inMainUnits: { currency: 'NGN', total: 1_085_000.5 } }),
				expect.objectContaining({ outcome: 'notPaid', count: 1, inMainUnits: { currency: 'NGN', total: 95_000 } }),
				expect.objectContaining({ outcome: 'pending', count: 1, inMainUnits: { currency: 'NGN', total: 65_000 } }),
			]),
		);
		expect((await pageAt(approver, formWaitingUrl)).html).toContain('Paid: 5 (NGN 1,085,000.50). Pending: 1 (NGN 65,000.00). Not paid: 1 (NGN 95,000.00).');

		// The payroll again: the failed salary is reported failed and not paid, never "already paid".
		const { run } = await startPayroll(SHIPPED);
		const [summary] = output(run, 'Check Batch');
		expect(summary).toMatchObject({ count: 0, alreadyPaidCount: 6, notPaidCount: 1, notPaid: [expect.objectContaining({ row: 6, reference: REFERENCES[5], status: 'failed', failure: 'Beneficiary account closed' })] });
		await decide(approver, approvalUrl(run), 'Decline', String(run.id));

		// Pay Again If Failed, turned on in the check and the payment: paid once under its -repay-1 reference.
		const workflow = await lab.session.api<{ nodes: Array<{ name: string; parameters: Record<string, unknown> }> }>('GET', `/workflows/${ids[NAME]}`);
		for (const node of workflow.nodes.filter((candidate) => ['Check Batch', 'Pay Salaries'].includes(candidate.name))) {
			node.parameters.additionalFields = { ...(node.parameters.additionalFields as Record<string, unknown>), payAgainIfFailed: true };
		}
		const shipped = examples.find((wf) => wf.name === NAME)!;
		await lab.session.api('PUT', `/workflows/${ids[NAME]}`, { name: NAME, nodes: workflow.nodes, connections: shipped.connections, settings: shipped.settings });
		await lab.session.api('POST', `/workflows/${ids[NAME]}/activate`);
		for (let round = 0; round < 2; round++) {
			const repay = await startPayroll(SHIPPED);
			expect(output(repay.run, 'Check Batch')[0]).toMatchObject(round === 0 ? { count: 1, payable: [expect.objectContaining({ row: 6, reference: `${REFERENCES[5]}-repay-1` })] } : { count: 0, notPaidCount: 0 });
			await decide(approver, approvalUrl(repay.run), 'Approve', String(repay.run.id));
		}
		expect(payouts().map((payout) => payout.reference).sort()).toEqual([...REFERENCES, `${REFERENCES[5]}-repay-1`].sort());
	});
}
