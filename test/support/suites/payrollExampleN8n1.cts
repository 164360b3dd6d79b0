/**
 * The payroll example for n8n 1.x (examples/n8n1/payroll.json) in a real n8n 1.123
 * (test/e2e-1x/payrollExample.test.cts), imported as `npm start` would import it (its files folder
 * holds the example's own CSV). n8n 1.x cannot name an approver: the approval is its Wait form
 * behind Basic Auth (the credential "Payroll approver"), a shared secret, not a person. What is
 * checked, the issue's "Done when" for n8n 1.123: the example's approval cannot be given by a
 * request without the approver's secret, at the form's address (which 1.123 serves with no
 * token): not a GET, not a POST, not a wrong password; with it, the 7 are paid once, each payout's
 * metadata says the approval had no n8n login.
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { copyExampleFiles, EXAMPLES_DIR, exampleFileName, exampleFilesForN8n1, loadExampleWorkflows, type WorkflowJson } from '../../../scripts/n8n/examples.cjs';
import { importIntoN8n } from '../../../scripts/n8n/lab.cjs';
import { patience, untilEnded } from '../../../scripts/n8n/patience.cjs';
import { executionById, executionIds, selectE2eRuntime, SETUP_TIMEOUT_MS, startE2eLab, TEARDOWN_TIMEOUT_MS, waitFor, webhookNode, type E2eLab, type E2eRuntime, type Execution } from '../e2e/harness.cjs';
import { freshFetch } from '../e2e/freshFetch.cjs';

export function describePayrollExampleN8n1(runtime: Partial<E2eRuntime>): void {
	selectE2eRuntime(runtime);
	jest.setTimeout(SETUP_TIMEOUT_MS);

	const REFERENCES = ['S001', 'S002', 'S003', 'S004', 'S005', 'S006', 'S007'].map((id) => `salary-2026-11-${id}`);
	/** The approver's secret: the Basic Auth credential the example's Wait form asks for. */
	const SECRET = { user: 'approver', password: `approve-${randomUUID().slice(0, 12)}` };
	const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

	let lab: E2eLab;
	let example: WorkflowJson;
	let workflowId: string;
	let webhookPath: string;

	type RunData = Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>>;
	const runData = (execution: Execution) => (execution.data?.resultData.runData ?? {}) as RunData;
	const output = (execution: Execution, node: string) => (runData(execution)[node]?.at(-1)?.data?.main[0] ?? []).map((item) => item.json);
	const byId = (id: string) => executionById(lab, id);

	beforeAll(async () => {
		lab = await startE2eLab({
			beforeStart: (config, _emulator, good) => {
				fs.mkdirSync(path.join(config.userFolder, 'files'), { recursive: true });
				const files = fs.realpathSync(path.join(config.userFolder, 'files'));
				config.env = { ...config.env, N8N_RESTRICT_FILE_ACCESS_TO: files };
				copyExampleFiles(files);
				importIntoN8n(config, 'credentials', [{ id: 'payrollApprover1', name: 'Payroll approver', type: 'httpBasicAuth', data: SECRET }]);
				[example] = loadExampleWorkflows({ n8nBaseUrl: `http://127.0.0.1:${config.port}`, credential: good, filesFolder: files, files: exampleFilesForN8n1() });
				expect(example.nodes.find((node) => node.name === 'Read Payroll CSV')!.parameters.fileSelector).toBe(path.join(files, exampleFileName('payroll.csv')));
			},
		});
		// Its manual start becomes a webhook (so the test can start it); every other node is the example's own.
		webhookPath = `payroll-n8n1-${randomUUID().slice(0, 8)}`;
		const start = example.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger')!;
		const webhook = webhookNode(webhookPath);
		const nodes = example.nodes.map((node) => (node === start ? { ...webhook, name: start.name, parameters: { ...webhook.parameters, responseMode: 'onReceived' } } : node));
		workflowId = await lab.createActiveWorkflow(`e2e ${example.name}`, nodes, example.connections, [webhookPath]);
	}, SETUP_TIMEOUT_MS);

	afterAll(async () => {
		await lab?.close();
	}, TEARDOWN_TIMEOUT_MS);

	const paid = () => lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith('salary-2026-11-'));

	async function runToApproval(): Promise<{ id: string; formUrl: string; waiting: Execution }> {
		const before = new Set(await executionIds(lab, workflowId));
		expect((await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
		const waiting = await waitFor(
			'the payroll run to wait for the approver',
			async (saw) => {
				const id = (await executionIds(lab, workflowId)).find((candidate) => !before.has(candidate));
				const found = id === undefined ? undefined : await byId(id);
				saw(found ? `${found.id} ${found.status}` : 'no new execution');
				return found && !['new', 'running'].includes(found.status) ? found : undefined;
			},
			// Reading the CSV and checking the batch: a few seconds alone (scripts/n8n/patience.cts).
			patience(8_000),
		);
		expect(waiting.status).toBe('waiting');
		// n8n 1.123 serves the Wait form at /form-waiting/<execution id>, with no token in the address.
		return { id: String(waiting.id), formUrl: `${lab.n8n.baseUrl}/form-waiting/${waiting.id}`, waiting };
	}

	const answer = (decision: string) => {
		const form = new FormData();
		form.append('field-0', decision);
		return form;
	};

	it("the approval cannot be given by a request without the approver's secret: not a GET, not a POST, not a wrong password", async () => {
		const { id, formUrl, waiting } = await runToApproval();
		expect(output(waiting, 'Check Batch')[0]).toMatchObject({ fits: true, count: 7 });
		expect((await freshFetch(formUrl)).status).toBe(401);
		expect((await freshFetch(formUrl, { method: 'POST', body: answer('Approve') })).status).toBe(401);
		expect((await freshFetch(formUrl, { method: 'POST', body: answer('Approve'), headers: basic(SECRET.user, 'guessed') })).status).toBe(401);
		expect((await freshFetch(formUrl, { method: 'POST', body: answer('Approve'), headers: basic('admin', SECRET.password) })).status).toBe(401);
		expect((await byId(id))!.status).toBe('waiting');
		expect(paid()).toEqual([]);
		// The one who holds the secret sees the rows and decides; Decline pays nothing.
		const page = await freshFetch(formUrl, { headers: basic(SECRET.user, SECRET.password) });
		expect(page.status).toBe(200);
		// Every payee: n8n 1.123 evaluates the Wait form's description (where the example puts Check
		// Batch's approvalHtml, payable rows included), not a Custom HTML field's expression.
		const shown = await page.text();
		expect(shown).toMatch(/7 payouts to approve, NGN [\d.]+ in all: every payee is listed below/);
		for (const reference of REFERENCES) expect(shown).toContain(`<td>${reference}</td>`);
		expect((await freshFetch(formUrl, { method: 'POST', body: answer('Decline'), headers: basic(SECRET.user, SECRET.password) })).status).toBe(200);
		expect((await untilEnded(`the payroll run ${id}`, () => byId(id), patience(8_000))).status).toBe('success');
		expect(paid()).toEqual([]);
	});

	it("with the approver's secret the 7 are paid once; each payout's metadata says the approval had no n8n login; a second run pays none again", async () => {
		for (let round = 0; round < 2; round++) {
			const { id, formUrl } = await runToApproval();
			expect((await freshFetch(formUrl, { method: 'POST', body: answer('Approve'), headers: basic(SECRET.user, SECRET.password) })).status).toBe(200);
			const run = await untilEnded(`the payroll run ${id}`, () => byId(id), patience(8_000));
			expect(run.status).toBe('success');
			expect(output(run, 'Pay Salaries').map((item) => (item._paycashless as Record<string, unknown>).repeated)).toEqual(Array(7).fill(round === 1));
		}
		expect(paid().map((payout) => payout.reference).sort()).toEqual([...REFERENCES].sort());
		for (const payout of paid()) expect(payout.metadata).toMatchObject({ n8nApprovedBy: 'no n8n login (Approve Without Login)', n8nNode: 'Pay Salaries' });
		expect(fs.readFileSync(path.join(EXAMPLES_DIR, 'payroll.csv'), 'utf8').trim().split('\n')).toHaveLength(8);
	});
}
