/**
 * Fields read on n8n's data proxy instead of through its expression engine
 * (nodes/Paycashless/money/plainReads.ts): for every stored parameter below, what the proxy read
 * gives is what n8n's own evaluation gives (`Workflow.expression.getParameterValue`, n8n-workflow's
 * code, on the same run data: `$json` and `$('Staff Rows').item` through paired items), and what
 * it does not take goes to n8n. The payroll flow in n8n's engine (test/engine/payeeLookups.test.cts)
 * and in a real n8n (test/e2e/payrollExample.test.cts) pays with it.
 */
import { Workflow, WorkflowDataProxy, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypes, type IRunExecutionData, type IExecuteData } from 'n8n-workflow';

import { readPlainParameter } from '../../../nodes/Paycashless/money/plainReads';

const STAFF: IDataObject[] = [
	{ reference: 'PAY-1', amountNaira: '250000.50', accountNumber: '0234567805', name: 'Ada Chioma Obi', staffId: 'S001', count: 3, active: true, nested: { bank: { id: 'bank_1' } }, empty: '', zero: 0, list: ['x', 'y'] },
	{ reference: 'PAY-2', amountNaira: 1200, accountNumber: '0234567813', name: "O'Neil \"Tunde\"", staffId: 7, count: 0, active: false, nested: { bank: null }, list: ['a', 'b'] },
];
const LOOKUPS: IDataObject[] = [{ bank: { id: 'bank_538ed2056326432ba8e6853b613997bb', name: 'Access' }, accountName: 'ADA CHIOMA OBI' }, { bank: { id: 'bank_2' }, accountName: 'TUNDE' }];

const nodeType = { description: { properties: [], inputs: ['main'], outputs: ['main'] } } as unknown as INodeType;
const nodeTypes: INodeTypes = {
	getByName: () => nodeType,
	getByNameAndVersion: () => nodeType,
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

const node = (name: string, x: number) => ({ id: name, name, type: 'test.noop', typeVersion: 1, position: [x, 0] as [number, number], parameters: {} });
const workflow = new Workflow({
	id: 'w',
	nodes: [node('Staff Rows', 0), node('Look Up Account', 200), node('Check Batch', 400)],
	connections: {
		'Staff Rows': { main: [[{ node: 'Look Up Account', type: 'main', index: 0 }]] },
		'Look Up Account': { main: [[{ node: 'Check Batch', type: 'main', index: 0 }]] },
	},
	active: false,
	nodeTypes,
});

const staffItems: INodeExecutionData[] = STAFF.map((json) => ({ json }));
const lookUpItems: INodeExecutionData[] = LOOKUPS.map((json, i) => ({ json, pairedItem: { item: i } }));
const runExecutionData = {
	resultData: {
		runData: {
			'Staff Rows': [{ startTime: 0, executionTime: 0, source: [], data: { main: [staffItems] } }],
			'Look Up Account': [{ startTime: 0, executionTime: 0, source: [{ previousNode: 'Staff Rows' }], data: { main: [lookUpItems] } }],
		},
	},
} as unknown as IRunExecutionData;
const executeData: IExecuteData = { node: workflow.getNode('Check Batch')!, data: { main: [lookUpItems] }, source: { main: [{ previousNode: 'Look Up Account' }] } };

/** n8n's own evaluation of a stored parameter for item i of Check Batch. */
function n8nValue(stored: unknown, i: number): unknown {
	return workflow.expression.getParameterValue(stored as never, runExecutionData, 0, i, 'Check Batch', lookUpItems, 'manual', {}, executeData);
}

/** A context whose only n8n call is the data proxy, as n8n-core builds it for item i. */
const context = {
	getWorkflowDataProxy: (i: number) => new WorkflowDataProxy(workflow, runExecutionData, 0, i, 'Check Batch', lookUpItems, {}, 'manual', {}, executeData).getDataProxy(),
} as unknown as IExecuteFunctions;

function plain(stored: unknown, i: number) {
	return readPlainParameter.call(context, { field: stored } as IDataObject, 'field', () => context.getWorkflowDataProxy(i) as unknown as IDataObject);
}

const READ_HERE: unknown[] = [
	'={{ $json.accountName }}',
	'={{$json.bank.id}}',
	'={{ $json.bank?.id }}',
	"={{ $json['accountName'] }}",
	'={{ $json["bank"]["id"] }}',
	"={{ $('Staff Rows').item.json.reference }}",
	'={{ $("Staff Rows").item.json.name }}',
	"={{ $('Staff Rows').item.json.staffId }}",
	"={{ $('Staff Rows').item.json.active }}",
	"={{ Number($('Staff Rows').item.json.amountNaira) }}",
	"={{ Number($('Staff Rows').item.json.count) }}",
	"={{ $('Staff Rows').item.json.list[1] }}",
	"=Salary {{ $('Staff Rows').item.json.reference }}",
	"={{ $('Staff Rows').item.json.reference }}-{{ $json.accountName }} ",
	'plain text',
	42,
	true,
	null,
	{ expectedAccountName: "={{ $('Staff Rows').item.json.name }}", maxAmount: 400000, beneficiaryBankCode: '044', nested: { id: '={{ $json.bank.id }}' } },
	['={{ $json.accountName }}', 'x'],
];

const TO_N8N: unknown[] = [
	'={{ $json.missing }}', // undefined
	'={{ $json.bank }}', // an object
	'={{ $json.accountName.toLowerCase() }}',
	'={{ $json.accountName + "x" }}',
	'={{ $json.constructor }}',
	'={{ $json.__proto__ }}',
	'={{ $now }}',
	"={{ $('Staff Rows').first().json.reference }}",
	"={{ Number($('Staff Rows').item.json.name) }}", // NaN
	'={{ Number($json.accountName) + Number($json.bank.id) }}',
	"={{ $('Staff Rows').item.json.reference || 'none' }}",
	'={{ $json.accountName }} {{ $json.bank.id.length }}',
	'=Salary {{ $json.bank }}',
	'=Total {{ $json.count }}', // a number among text: n8n's join
	'=\\{{ $json.accountName }}',
	"={{ $('No Such Node').item.json.reference }}",
	{ a: '={{ $json.accountName }}', b: '={{ $now }}' },
];

describe('a field read on the data proxy', () => {
	it.each(READ_HERE.map((stored) => [JSON.stringify(stored), stored]))('%s: the value n8n gives, on every row', (_name, stored) => {
		for (const i of [0, 1]) {
			const got = plain(stored, i);
			expect(got).toEqual({ read: true, value: n8nValue(stored, i) });
		}
	});

	it.each(TO_N8N.map((stored) => [JSON.stringify(stored), stored]))('%s: goes to n8n (on every row)', (_name, stored) => {
		for (const i of [0, 1]) expect(plain(stored, i)).toEqual({ read: false });
	});

	it('a path through an object on one row and through null on the next: read on the first, n8n on the second', () => {
		const stored = "={{ $('Staff Rows').item.json.nested.bank.id }}";
		expect(plain(stored, 0)).toEqual({ read: true, value: n8nValue(stored, 0) });
		expect(plain(stored, 1)).toEqual({ read: false });
	});

	it('a parameter that is not stored, has a dotted name, or a context without a proxy goes to n8n', () => {
		const proxy = () => context.getWorkflowDataProxy(0) as unknown as IDataObject;
		expect(readPlainParameter.call(context, {}, 'field', proxy)).toEqual({ read: false });
		expect(readPlainParameter.call(context, { a: { b: '={{ $json.accountName }}' } }, 'a.b', proxy)).toEqual({ read: false });
		expect(readPlainParameter.call({} as IExecuteFunctions, { field: '={{ $json.accountName }}' }, 'field', proxy)).toEqual({ read: false });
	});
});
