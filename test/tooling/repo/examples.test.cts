/**
 * What users copy from examples/*.json: references come from the input, never from the clock (a
 * second click must not pay or invoice again), and the daily reconciliation reads "yesterday" in
 * Lagos and reports naira. That the examples run and give this output in a real n8n: test/e2e and
 * test/browser.
 */
import { EXAMPLES_DIR, exampleFiles } from '../../../scripts/n8n/examples.cjs';
import * as fs from 'fs';
import * as path from 'path';

interface Node {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
}
interface Workflow {
	name: string;
	nodes: Node[];
	settings?: Record<string, unknown>;
}

const CLOCK = /\$now|\$today|Date\.now|new Date|DateTime\.(now|local|utc)/;
const workflows = exampleFiles().map((file) => ({ file: path.basename(file), wf: JSON.parse(fs.readFileSync(file, 'utf8')) as Workflow }));

/** Every string in `value` with its path. */
function strings(value: unknown, at: string[] = []): Array<{ at: string[]; text: string }> {
	if (typeof value === 'string') return [{ at, text: value }];
	if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, [...at, String(i)]));
	if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, [...at, k]));
	return [];
}

describe('example workflows', () => {
	it.each(workflows.map(({ file, wf }) => [file, wf] as const))('%s reads the clock only in date filters', (_file, wf) => {
		const clockReads = wf.nodes.flatMap((node) =>
			strings(node.parameters)
				.filter(({ text }) => CLOCK.test(text))
				.map(({ at }) => `${node.name}: ${at.join('.')}`),
		);
		expect(clockReads.filter((where) => !/: filters\.createdOn/.test(where))).toEqual([]);
	});

	it('every Paycashless create takes its reference from the input', () => {
		const creates = workflows.flatMap(({ wf }) =>
			wf.nodes.filter((node) => node.type.endsWith('.paycashless') && node.parameters.operation === 'create' && 'reference' in node.parameters),
		);
		expect(creates.length).toBeGreaterThanOrEqual(2);
		for (const node of creates) expect(String(node.parameters.reference)).toMatch(/\$\('[^']+'\)\.item\.json\.\w+|\$json\.\w+/);
	});

	it('payroll (n8n 2.x): an n8n-login form takes the CSV; Check Batch and Create share the limits and the CSV\'s name; the approval page shows the check and is a page only another n8n user\'s approval counts on', () => {
		const { wf } = workflows.find(({ file }) => file === 'payroll.json')!;
		const node = (name: string) => wf.nodes.find((n) => n.name === name)!;
		// No file: the example's own CSV, in the folder npm start rewrites (scripts/n8n/examples.cts `exampleFileName`).
		expect(node('Read Example CSV').parameters.fileSelector).toBe('/home/node/.n8n-files/payroll.csv');
		const rows = fs.readFileSync(path.join(EXAMPLES_DIR, 'payroll.csv'), 'utf8').trim().split('\n');
		expect(rows[0]).toBe('staffId,name,accountNumber,bankCode,amountNaira,reference');
		expect(rows.length - 1).toBeGreaterThanOrEqual(6);
		for (const row of rows.slice(1)) expect(row.split(',')[5]).toBe(`salary-2026-11-${row.split(',')[0]}`);
		const start = node('Start Payroll');
		expect(start).toMatchObject({ type: 'n8n-nodes-base.formTrigger', typeVersion: 2.6, parameters: { authentication: 'n8nUserAuth' } });
		expect(JSON.stringify(start.parameters.options)).not.toContain('includeUserInOutput');
		// A failed lookup goes on to the check (a refused row), never stops the run.
		expect((node('Look Up Account') as Node & { onError?: string }).onError).toBe('continueRegularOutput');
		const check = node('Check Batch').parameters;
		const pay = node('Pay Salaries').parameters;
		expect(check.operation).toBe('checkBatch');
		expect(pay.operation).toBe('create');
		const limits = (p: Record<string, unknown>) => p.moneyLimits as Record<string, unknown>;
		expect({ maxAmount: limits(pay).maxAmount, periodTotal: limits(pay).periodTotal }).toEqual({ maxAmount: limits(check).maxAmount, periodTotal: limits(check).periodTotal });
		// The name to match comes from the CSV row, never from the lookup.
		expect(limits(check).expectedAccountName).toBe("={{ $('Staff Rows').item.json.name }}");
		expect(limits(pay).expectedAccountName).toBe('={{ $json.name }}');
		expect(JSON.stringify([limits(check), limits(pay)])).not.toContain('accountName');
		expect(pay.batchOptions).toEqual({ allOrNothing: true, approvedBatchHash: "={{ $('Check Batch').first().json.batchHash }}", approvalPage: 'Approve Payroll' });
		const approval = node('Approve Payroll');
		expect(approval).toMatchObject({ type: 'n8n-nodes-base.form', parameters: { operation: 'page' } });
		expect(JSON.stringify(approval.parameters.formFields)).toContain("$('Check Batch').first().json.approvalHtml");
		expect(JSON.stringify(node('Approved?').parameters.conditions)).toContain('$json.Decision');
		// The payment's refusals reach the approver's page, never "Problem submitting response".
		expect((node('Pay Salaries') as Node & { onError?: string }).onError).toBe('continueErrorOutput');
	});

	it('payroll (n8n 1.x): the approval form asks for Basic Auth (the approver\'s secret), and the payment says it has no n8n login', () => {
		const wf = JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, 'n8n1', 'payroll.json'), 'utf8')) as Workflow;
		const node = (name: string) => wf.nodes.find((n) => n.name === name)!;
		expect(node('Approve the Batch')).toMatchObject({ type: 'n8n-nodes-base.wait', parameters: { resume: 'form', incomingAuthentication: 'basicAuth', limitWaitTime: true } });
		expect((node('Pay Salaries').parameters.batchOptions as Record<string, unknown>).approveWithoutLogin).toBe(true);
		expect(JSON.stringify(node('Note').parameters.content)).toContain('a shared secret, not a person');
	});

	it('no example asks for approval through links (a mail scanner opens links): send-and-wait answers on a form', () => {
		const all = [...workflows.map(({ wf }) => wf), JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, 'ai-agent', 'agent-pays-claim-with-approval.json'), 'utf8')) as Workflow];
		const waits = all.flatMap((wf) => wf.nodes.filter((node) => node.parameters.operation === 'sendAndWait'));
		expect(waits.length).toBeGreaterThanOrEqual(1);
		for (const node of waits) expect(['customForm', 'freeText']).toContain(node.parameters.responseType);
	});

	it('daily reconciliation: Lagos time, and totals in naira (not kobo)', () => {
		const { wf } = workflows.find(({ file }) => file === 'daily-reconciliation.json')!;
		expect(wf.settings?.timezone).toBe('Africa/Lagos');
		const list = wf.nodes.find((node) => node.parameters.operation === 'getAll')!;
		expect(String((list.parameters.filters as Record<string, unknown>).createdOnOrAfter)).toContain("setZone('Africa/Lagos')");
		const totals = wf.nodes.find((node) => node.name === 'Totals in Naira')!;
		const values = strings(totals.parameters).map(({ text }) => text);
		// Summed from inMainUnits (as the README says to map amounts), rounded to the kobo: no `/ 100`.
		expect(values).toEqual(expect.arrayContaining(['={{ $json.sum_inMainUnits_expectedAmount.round(2) }}', '={{ $json.sum_inMainUnits_chargedAmount.round(2) }}']));
		expect(values.join(' ')).not.toContain('/ 100');
	});
});
