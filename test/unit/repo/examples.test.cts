/**
 * What users copy from examples/*.json: references come from the input, never from the clock (a
 * second click must not pay or invoice again), and the daily reconciliation reads "yesterday" in
 * Lagos and reports naira. That the examples run and give this output in a real n8n: test/e2e and
 * test/browser.
 */
import { exampleFiles } from '../../../scripts/n8n/examples.cjs';
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
