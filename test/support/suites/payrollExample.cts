/**
 * The example examples/payroll.json in a real n8n (2.41: test/e2e/payrollExample.test.cts; 1.123:
 * test/e2e-1x/payrollExample.test.cts), imported as `npm start` imports it: its files
 * folder (N8N_RESTRICT_FILE_ACCESS_TO) holds examples/payroll.csv, copied as `npm start` copies it,
 * and the example's path names that folder. Its manual trigger becomes a webhook (so the test can
 * start it); every other node is the example's own. What is checked:
 * - the run reads the CSV, checks the 7 rows (no POST) and waits for the approver's form; a plain
 *   GET of the form link (what a mail scanner does) approves nothing;
 * - Decline pays nothing; Approve (the form posted as n8n's form page posts it) pays the 7 once,
 *   in naira, and the answer is in the execution; a second run approved pays none again;
 * - a CSV row with a wrong name: Check Batch refuses it, Refused Rows lists it before the
 *   approval, and even after Approve, Pay Salaries pays none (the 7 rows are not the 6 approved).
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { copyExampleFiles, EXAMPLES_DIR, loadExampleWorkflows, type WorkflowJson } from '../../../scripts/n8n/examples.cjs';
import { patience, untilEnded } from '../../../scripts/n8n/patience.cjs';
import { executionById, executionIds, selectE2eRuntime, SETUP_TIMEOUT_MS, startE2eLab, TEARDOWN_TIMEOUT_MS, waitFor, webhookNode, type E2eLab, type E2eRuntime, type Execution } from '../e2e/harness.cjs';

/**
 * The payroll example's suite against one runtime, called by a small test file in each project
 * that runs it (test/README.md). The body keeps its indentation from when it was a test file.
 */
export function describePayrollExample(runtime: Partial<E2eRuntime>): void {
selectE2eRuntime(runtime);

jest.setTimeout(SETUP_TIMEOUT_MS);

const NAME = 'Paycashless example: payroll';
const REFERENCES = ['S001', 'S002', 'S003', 'S004', 'S005', 'S006', 'S007'].map((id) => `salary-2026-11-${id}`);
/** examples/payroll.csv's amounts in kobo, in row order. */
const KOBO = [35_000_000, 28_000_000, 18_500_050, 15_000_000, 12_000_000, 9_500_000, 6_500_000];

let lab: E2eLab;
let files: string;
let example: WorkflowJson;
let workflowId: string;
let webhookPath: string;

type RunData = Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> }; metadata?: { resumeFormUrl?: string } }>>;
const runData = (execution: Execution) => (execution.data?.resultData.runData ?? {}) as RunData;
const output = (execution: Execution, node: string) => (runData(execution)[node]?.at(-1)?.data?.main[0] ?? []).map((item) => item.json);

beforeAll(async () => {
	lab = await startE2eLab({
		beforeStart: (config, _emulator, good) => {
			// As npm start: the files folder n8n may read, the CSV copied into it, the example's path rewritten to it.
			fs.mkdirSync(path.join(config.userFolder, 'files'), { recursive: true });
			files = fs.realpathSync(path.join(config.userFolder, 'files'));
			config.env = { ...config.env, N8N_RESTRICT_FILE_ACCESS_TO: files };
			expect(copyExampleFiles(files)).toContain('payroll.csv');
			example = loadExampleWorkflows({ n8nBaseUrl: `http://127.0.0.1:${config.port}`, credential: good, filesFolder: files }).find((wf) => wf.name === NAME)!;
		},
	});
	webhookPath = `payroll-example-${randomUUID().slice(0, 8)}`;
	const start = example.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger')!;
	const webhook = webhookNode(webhookPath);
	const nodes = example.nodes.map((node) => (node === start ? { ...webhook, name: start.name, parameters: { ...webhook.parameters, responseMode: 'onReceived' } } : node));
	workflowId = await lab.createActiveWorkflow(`e2e ${NAME}`, nodes, example.connections, [webhookPath]);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await lab?.close();
}, TEARDOWN_TIMEOUT_MS);

const paid = () => lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith('salary-2026-11-'));
const posts = () => lab.emulator.requests.filter((request) => request.method !== 'GET' && request.path.startsWith('/v1/payouts'));

const byId = (id: string) => executionById(lab, id);

/** Starts the example; returns its execution once it waits for the approver, and the form's link. */
async function runToApproval(): Promise<{ id: string; formUrl: string; waiting: Execution }> {
	const before = new Set(await executionIds(lab, workflowId));
	const response = await fetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
	expect(response.status).toBe(200);
	const waiting = await waitFor(
		'the payroll run to wait for the approver',
		async (saw) => {
			const id = (await executionIds(lab, workflowId)).find((candidate) => !before.has(candidate));
			const found = id === undefined ? undefined : await byId(id);
			saw(found ? `${found.id} ${found.status}` : 'no new execution');
			if (found && !['new', 'running'].includes(found.status)) return found;
			return undefined;
		},
		// Reading the CSV and checking the batch: a few seconds alone (scripts/n8n/patience.cts).
		patience(8_000),
	);
	expect(waiting.status).toBe('waiting');
	// n8n 2.x records the form's address; 1.x does not, and serves it at /form-waiting/<execution id>.
	const formUrl = runData(waiting)['Approve the Batch']?.[0]?.metadata?.resumeFormUrl ?? (runData(waiting)['Approve the Batch'] ? `${lab.n8n.baseUrl}/form-waiting/${waiting.id}` : undefined);
	if (!formUrl) throw new Error(`no form link in the waiting execution: ${JSON.stringify(runData(waiting)).slice(0, 800)}`);
	return { id: String(waiting.id), formUrl, waiting };
}

/** The approver's answer, posted as n8n's form page posts it (multipart, the fields in order, to the page's own URL). */
async function submit(formUrl: string, decision: 'Approve' | 'Decline', approver = 'Funke Adebayo'): Promise<number> {
	const page = await fetch(formUrl);
	expect(page.status).toBe(200);
	const html = await page.text();
	expect(html).toContain('Approve payroll salary-2026-11');
	const form = new FormData();
	form.append('field-0', decision);
	form.append('field-1', approver);
	return (await fetch(formUrl, { method: 'POST', body: form })).status;
}

async function ended(id: string): Promise<Execution> {
	// Seven payouts against the emulator: a few seconds alone.
	return await untilEnded(`the payroll run ${id}`, () => byId(id), patience(8_000));
}

describe('the payroll example (examples/payroll.json), as npm start imports it', () => {
	it('the CSV is in the files folder the example reads, as shipped', () => {
		expect(fs.readFileSync(path.join(files, 'payroll.csv'), 'utf8')).toBe(fs.readFileSync(path.join(EXAMPLES_DIR, 'payroll.csv'), 'utf8'));
		expect(example.nodes.find((node) => node.name === 'Read Payroll CSV')!.parameters.fileSelector).toBe(path.join(files, 'payroll.csv'));
		// A second copy never overwrites the user's file.
		fs.appendFileSync(path.join(files, 'payroll.csv'), '');
		expect(copyExampleFiles(files)).toEqual([]);
	});

	it('checks the 7 rows without paying, waits for one decision; a GET of the form link approves nothing; Decline pays nothing', async () => {
		const postsBefore = posts().length;
		const { id, formUrl, waiting } = await runToApproval();
		const [summary] = output(waiting, 'Check Batch');
		expect(summary).toMatchObject({ fits: true, count: 7, refusedCount: 0, alreadyPaidCount: 0, inMainUnits: { currency: 'NGN', total: 1_245_000.5 } });
		expect((summary.payable as Array<Record<string, unknown>>).map((row) => row.reference)).toEqual(REFERENCES);
		expect(output(waiting, 'Refused Rows')).toEqual([]);
		expect(posts()).toHaveLength(postsBefore);
		// What a mail scanner does with a link: it opens it. The form shows; nothing goes on.
		expect((await fetch(formUrl)).status).toBe(200);
		await fetch(formUrl, { method: 'HEAD' });
		expect((await byId(id))!.status).toBe('waiting');

		expect(await submit(formUrl, 'Decline')).toBe(200);
		const run = await ended(id);
		expect(run.status).toBe('success');
		expect(output(run, 'Approve the Batch')[0]).toMatchObject({ Decision: 'Decline', 'Approved by': 'Funke Adebayo' });
		expect(runData(run)['Pay Salaries']).toBeUndefined();
		expect(paid()).toEqual([]);
		expect(posts()).toHaveLength(postsBefore);
	});

	it('Approve pays the 7 once, in naira, with the approver\'s answer in the execution; a second approved run pays none again', async () => {
		const first = await runToApproval();
		expect(await submit(first.formUrl, 'Approve')).toBe(200);
		const run = await ended(first.id);
		expect(run.status).toBe('success');
		expect(output(run, 'Approve the Batch')[0]).toMatchObject({ Decision: 'Approve', 'Approved by': 'Funke Adebayo' });
		expect(paid().map((payout) => [payout.reference, payout.amount])).toEqual(REFERENCES.map((reference, k) => [reference, KOBO[k]]));
		expect(output(run, 'Pay Salaries').map((item) => (item._paycashless as Record<string, unknown>).repeated)).toEqual(Array(7).fill(false));

		const second = await runToApproval();
		const [summary] = output(second.waiting, 'Check Batch');
		expect(summary).toMatchObject({ fits: true, count: 0, alreadyPaidCount: 7 });
		expect(await submit(second.formUrl, 'Approve')).toBe(200);
		const again = await ended(second.id);
		expect(again.status).toBe('success');
		expect(paid()).toHaveLength(7);
		expect(output(again, 'Pay Salaries').map((item) => (item._paycashless as Record<string, unknown>).repeated)).toEqual(Array(7).fill(true));
	});

	it('a row with a wrong name: Check Batch refuses it, Refused Rows lists it, and after Approve nothing is paid', async () => {
		const csv = path.join(files, 'payroll.csv');
		const shipped = fs.readFileSync(csv, 'utf8');
		// A new month (new references), one name changed.
		fs.writeFileSync(csv, shipped.replace(/salary-2026-11-/g, 'salary-2026-12-').replace('Muhammad Bello', 'Musa Bello'));
		try {
			const { id, formUrl, waiting } = await runToApproval();
			const [summary] = output(waiting, 'Check Batch');
			expect(summary).toMatchObject({ fits: false, count: 6, refusedCount: 1 });
			expect(output(waiting, 'Refused Rows')).toEqual([expect.objectContaining({ item: 2, reference: 'salary-2026-12-S002', code: 'NAME_MISMATCH' })]);
			expect(await submit(formUrl, 'Approve')).toBe(200);
			const run = await ended(id);
			expect(run.status).toBe('error');
			// The approved hash covers the 6 rows that passed; Pay Salaries has the 7: none is sent.
			expect(JSON.stringify(run.data?.resultData.error)).toContain('BATCH_NOT_APPROVED');
			expect(runData(run)['Pay Salaries']).toBeDefined();
			expect(lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith('salary-2026-12-'))).toEqual([]);
		} finally {
			fs.writeFileSync(csv, shipped);
		}
	});
});
}
