/**
 * The first hour, round four (issue 51), as far as the node's description and runs show it (what
 * n8n's editor draws of it: test/browser/firstHour.test.cts):
 * - a Money Limit added from "Add Limit" is empty, not 0, and a notice under Money Limits says it
 *   refuses every item until it is typed in (it still refuses: a limit never switches itself off);
 *   All or Nothing added from "Add Option" is on;
 * - actions are short, as n8n's own, and n8n names a node added with one after it; every `$('…')`
 *   the node shows a person names such a node;
 * - Get Many: the fields a person reads first come first, one way to say "from" (Created From),
 *   Reference and Reference Starts With applied after the read where Paycashless's list has no
 *   such filter.
 * n8n's editor adds a collection option with a copy of its default (CollectionParameter.vue:
 * `deepCopy(option.default)`) and shows a field or notice as n8n-workflow's `displayParameterPath`
 * says: both are n8n-workflow's own functions here.
 */
import type { IDataObject, INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { deepCopy, NodeHelpers } from 'n8n-workflow';

import { CHECK_BATCH_ACTION } from '../../../nodes/Paycashless/actions/payout/batchOptions';
import { registry, resources } from '../../../nodes/Paycashless/actions/registry';
import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { runNode, type RunResult } from '../../../scripts/harness/executeContext.cjs';
import { call } from '../../support/emulatorClient.cjs';
import { useEmulator } from '../../support/emulator.cjs';
import { ACCESS_BANK } from '../../support/reliability.cjs';
import { refusal } from '../../support/nodeRuns.cjs';

const description: INodeTypeDescription = new Paycashless().description;
const properties = description.properties;
const node = { id: 'n', name: 'Paycashless', type: 'n8n-nodes-paycashless.paycashless', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

const emulator = useEmulator();

async function run(parameters: INodeParameters): Promise<RunResult> {
	return await runNode({ parameters, credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl } });
}


/** Whether n8n's editor shows `property` (top level) for these parameters. */
const shownTopLevel = (property: INodeProperties, parameters: INodeParameters) => NodeHelpers.displayParameterPath(parameters, property, '', node, description);

/** The Money Limits collection and the notices shown for one create. */
function limitsOf(resource: string, operation: string): { collection: INodeProperties; notices: INodeProperties[] } {
	const base = { resource, operation };
	const collection = properties.find((p) => p.name === 'moneyLimits' && shownTopLevel(p, base))!;
	const notices = properties.filter((p) => p.name.endsWith('EmptyNotice'));
	return { collection, notices };
}

const NUMBER_LIMITS = { payout: ['maxAmount', 'maxCount', 'maxTotal', 'periodTotal', 'periodCount'], payment: ['maxAmount', 'maxCount', 'maxTotal'], invoice: ['maxAmount', 'maxCount', 'maxTotal'] };
const CREATES = { payout: ['payout', 'create'], payment: ['payment', 'createCheckout'], invoice: ['invoice', 'create'] } as const;

describe('a Money Limit added from "Add Limit" is empty, and the panel says what that does', () => {
	it.each(Object.entries(NUMBER_LIMITS))('%s: every amount and count limit is added empty (not 0 or 1), with an example in its placeholder', (kind, names) => {
		const [resource, operation] = CREATES[kind as keyof typeof CREATES];
		const { collection } = limitsOf(resource, operation);
		const numbers = (collection.options as INodeProperties[]).filter((option) => option.type === 'number');
		expect(numbers.map((option) => option.name).sort()).toEqual([...names].sort());
		for (const option of numbers) {
			// What the editor stores when the limit is added (CollectionParameter: a copy of the default).
			expect({ limit: option.name, added: deepCopy(option.default) }).toEqual({ limit: option.name, added: null });
			expect(option.placeholder).toMatch(/^e\.g\. \d+$/);
		}
	});

	it.each(Object.entries(NUMBER_LIMITS))('%s: a notice under Money Limits while a limit is added but empty (or 0), gone once it is typed in or removed', (kind, names) => {
		const [resource, operation] = CREATES[kind as keyof typeof CREATES];
		const { notices } = limitsOf(resource, operation);
		const shown = (moneyLimits?: IDataObject) =>
			notices.filter((notice) => shownTopLevel(notice, { resource, operation, ...(moneyLimits ? { moneyLimits } : {}) } as INodeParameters)).map((notice) => notice.displayName);
		expect(shown()).toEqual([]);
		expect(shown({})).toEqual([]);
		for (const name of names) {
			const [notice] = shown({ [name]: null });
			expect(notice).toMatch(new RegExp(`^Money Limits → .+ is empty: every ${kind} is refused until you type (an amount above 0|a number) \\(or remove this limit\\)$`));
			expect(shown({ [name]: 5 })).toEqual([]);
			if (!name.endsWith('Count')) expect(shown({ [name]: 0 })).toEqual([notice]);
		}
		// Two empty limits, two notices; the other kinds' notices never show here.
		expect(shown({ maxAmount: null, maxTotal: null })).toHaveLength(2);
		expect(notices.filter((notice) => shownTopLevel(notice, { resource: 'payout', operation: 'getAll', moneyLimits: { maxAmount: null } }))).toEqual([]);
	});

	it('an empty limit still refuses every item at run time (a limit never switches itself off), nothing sent', async () => {
		emulator.reset({});
		const payout = { resource: 'payout', operation: 'create', reference: 'empty-limit-1', amount: 1000, currency: 'NGN', destinationAccountNumber: '0123456789', bankId: ACCESS_BANK };
		const empty = await refusal(run({ ...payout, moneyLimits: { maxAmount: 50_000, periodTotal: null } }));
		expect(empty.message).toBe('Refused: Money Limits → Maximum Total per Period is set but is (empty)');
		expect(emulator.requests).toHaveLength(0);
		const count = await refusal(run({ ...payout, moneyLimits: { maxCount: null } }));
		expect(count.message).toBe('Refused: Money Limits → Maximum Count per Execution is set but is (empty)');
		expect(emulator.requests).toHaveLength(0);
		// Typed in, it pays.
		await run({ ...payout, moneyLimits: { maxAmount: 50_000, periodTotal: 3_000_000 } });
		expect(emulator.list('payouts').map((p) => p.reference)).toEqual(['empty-limit-1']);
	});

	it('All or Nothing, added under Batch Options, is on', () => {
		const batch = properties.find((p) => p.name === 'batchOptions')!;
		const allOrNothing = (batch.options as INodeProperties[]).find((option) => option.name === 'allOrNothing')!;
		expect(deepCopy(allOrNothing.default)).toBe(true);
	});
});

/** Every Operation option of the node's own menus (not the tool variant's). */
const actionOptions = properties
	.filter((p) => p.name === 'operation' && !(p.displayOptions?.show?.['@tool'] as boolean[] | undefined)?.includes(true))
	.flatMap((p) => (p.options as INodePropertyOptions[]).map((option) => ({ resource: (p.displayOptions!.show!.resource as string[])[0], option })));

describe('actions short, as n8n names its own; every node named as the panel names it', () => {
	it('each action is a short sentence in n8n\'s form ("Create a payout", "Get many payouts")', () => {
		expect(actionOptions.length).toBeGreaterThan(20);
		for (const { resource, option } of actionOptions) {
			const action = option.action!;
			expect({ resource, operation: option.value, action, short: action.length <= 31 && action.split(' ').length <= 6 }).toEqual({ resource, operation: option.value, action, short: true });
			expect(action).toMatch(/^[A-Z][a-z]+( up| for)? (a|an|many) [a-z]/);
			if (option.value === 'getAll') expect(action).toMatch(/^Get many [a-z ]+s$/);
		}
		expect(actionOptions.map(({ option }) => option.action)).toEqual(expect.arrayContaining(['Create a payout', 'Get many payouts', 'Check a payout batch', 'Create a payout and wait']));
	});

	it("n8n names a node added with an action after the action (n8n-workflow's makeNodeName, which the editor bundles); its tool \"… in Paycashless\"", () => {
		for (const { resource, option } of actionOptions) {
			expect(NodeHelpers.makeNodeName({ resource, operation: option.value as string }, description)).toBe(option.action);
		}
		expect(NodeHelpers.makeNodeName({ resource: 'payout', operation: 'checkBatch' }, description)).toBe(CHECK_BATCH_ACTION);
	});

	it("every $('…') a person reads in the panel (placeholder, hint, description, notice) names a node as the panel names it", () => {
		const actions = new Set(actionOptions.map(({ option }) => option.action));
		const named: Array<{ where: string; node: string }> = [];
		const walk = (list: INodeProperties[], where: string) => {
			for (const property of list) {
				for (const text of [property.placeholder, property.hint, property.description, property.displayName, typeof property.default === 'string' ? property.default : undefined]) {
					for (const match of String(text ?? '').matchAll(/\$\(\s*['"`]([^'"`]+)['"`]\s*\)/g)) named.push({ where: `${where}${property.name}`, node: match[1] });
				}
				const nested = (property.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>;
				walk(nested.filter((option): option is INodeProperties => 'type' in option), `${where}${property.name} → `);
				for (const option of nested) if ('values' in option && option.values) walk(option.values, `${where}${property.name} → `);
			}
		};
		walk(properties, '');
		expect(named).toContainEqual({ where: 'batchOptions → approvedBatchHash', node: 'Check a payout batch' });
		expect(named.filter((entry) => !actions.has(entry.node))).toEqual([]);
		const hash = ((properties.find((p) => p.name === 'batchOptions')!.options as INodeProperties[]).find((o) => o.name === 'approvedBatchHash')!).placeholder;
		expect(hash).toBe("{{ $('Check a payout batch').item.json.batchHash }}");
	});

	it("every $('…') an AI builder reads (hints, the look-up-then-pay pattern) names a node as the panel names it, or the user's own data", () => {
		const actions = new Set(actionOptions.map(({ option }) => option.action));
		const everything = JSON.stringify(description);
		const named = [...everything.matchAll(/\$\(\s*\\?['"`]([^'"`\\]+)\\?['"`]\s*\)/g)].map((match) => match[1]);
		expect(named).toEqual(expect.arrayContaining(['Look up a bank account', 'Orders']));
		// 'Orders': the pattern's stand-in for the user's own rows.
		expect([...new Set(named)].filter((name) => !actions.has(name) && name !== 'Orders')).toEqual([]);
		expect(everything).toContain("name: 'Look up a bank account'");
		expect(everything).toContain("name: 'Create a payout'");
	});

	it('the tool variant still tells a model the status it reads in full, though the action is short', () => {
		expect(registry.dedicatedAccount.getRequestStatus.option.action).toBe('Get a dedicated account request');
		const tool = (description.usableAsTool as { replacements: { properties: INodeProperties[] } }).replacements.properties;
		const toolDescriptions = tool.filter((p) => p.name === 'toolDescription').map((p) => String(p.default));
		expect(toolDescriptions).toContainEqual(expect.stringMatching(/^Get the status of a Paycashless dedicated account request, and the account once it is ready\. It only reads/));
		expect(resources.dedicatedAccount.caption).toMatch(/virtual bank account/);
	});
});

/** The filters a person can add to a Get Many ("Add Filter"), given what the collection holds. */
function offeredFilters(resource: string, filters: IDataObject = {}): string[] {
	const collection = properties.find((p) => p.name === 'filters' && shownTopLevel(p, { resource, operation: 'getAll' }))!;
	const parameters = { resource, operation: 'getAll', filters } as INodeParameters;
	return (collection.options as INodeProperties[])
		.filter((option) => !(option.name in filters) && NodeHelpers.displayParameterPath(parameters, option, 'filters', node, description))
		.map((option) => option.displayName);
}

/** The filters the panel shows as added, given what the collection holds. */
function shownFilters(resource: string, filters: IDataObject): string[] {
	const collection = properties.find((p) => p.name === 'filters' && shownTopLevel(p, { resource, operation: 'getAll' }))!;
	const parameters = { resource, operation: 'getAll', filters } as INodeParameters;
	return (collection.options as INodeProperties[])
		.filter((option) => option.name in filters && NodeHelpers.displayParameterPath(parameters, option, 'filters', node, description))
		.map((option) => option.name);
}

describe('Get Many: what a person reads first, one way to say "from", a reference filter', () => {
	beforeAll(() => emulator.reset({ payouts: 3, payments: 3, invoices: 3, dedicatedAccounts: 3 }));

	it.each([
		['payout', ['reference', 'status', 'inMainUnits', 'destinationAccountNumber', 'destinationBankId', 'createdAt']],
		['payment', ['reference', 'status', 'inMainUnits', 'customerId', 'createdAt']],
		['invoice', ['reference', 'number', 'status', 'inMainUnits', 'customerId', 'dueDate']],
		['dedicatedAccount', ['accountNumber', 'accountName', 'bankName', 'status', 'currency', 'createdAt']],
	])('%s: the first keys (n8n\'s table view makes its columns in key order) are %j', async (resource, first) => {
		const { output } = await run({ resource, operation: 'getAll', returnAll: true });
		expect(output.length).toBeGreaterThan(0);
		for (const item of output) expect(Object.keys(item.json).slice(0, first.length)).toEqual(first);
		// Nothing lost: every field Paycashless gave is still there, the naira beside the kobo.
		if (resource === 'payout') expect(output[0].json).toMatchObject({ amount: expect.any(Number), inMainUnits: { amount: (output[0].json.amount as number) / 100 } });
	});

	it.each(['payout', 'payment', 'invoice', 'dedicatedAccount'])('%s: "Add Filter" offers Created From and Created Before, not Created After or Created On or Before', (resource) => {
		const offered = offeredFilters(resource);
		expect(offered).toEqual(expect.arrayContaining(['Created From', 'Created Before']));
		expect(offered).not.toContain('Created After');
		expect(offered).not.toContain('Created On or Before');
		if (resource !== 'dedicatedAccount') expect(offered).toEqual(expect.arrayContaining(['Reference', 'Reference Starts With']));
	});

	it('a stored Created After or Created On or Before still shows and still filters (createdAt.gt / createdAt.lte)', async () => {
		const stored = { createdAfter: '2000-01-01T00:00:00Z', createdOnOrBefore: '2100-01-01T00:00:00Z' };
		expect(shownFilters('payout', stored).sort()).toEqual(['createdAfter', 'createdOnOrBefore']);
		// Added and left empty, it shows neither, and filters nothing.
		expect(shownFilters('payout', { createdAfter: '' })).toEqual([]);
		emulator.clearLogs();
		await run({ resource: 'payout', operation: 'getAll', returnAll: true, filters: stored });
		expect(emulator.requests[0].query).toMatchObject({ 'createdAt.gt': '946684800', 'createdAt.lte': '4102444800' });
		emulator.clearLogs();
		await run({ resource: 'payout', operation: 'getAll', returnAll: true, filters: { createdOnOrAfter: '2000-01-01T00:00:00Z', createdBefore: '2100-01-01T00:00:00Z' } });
		expect(emulator.requests[0].query).toMatchObject({ 'createdAt.gte': '946684800', 'createdAt.lt': '4102444800' });
	});

	it('payouts: Reference Starts With keeps the matching payouts, read page by page until Limit of them, never sent to Paycashless', async () => {
		emulator.reset({});
		// 150 payouts, newest first in the list: every third one of the November payroll.
		for (let n = 0; n < 150; n++) {
			const reference = n % 3 === 0 ? `salary-2026-11-S${String(n).padStart(3, '0')}` : `supplier-${n}`;
			const created = await call(emulator, 'POST', '/v1/payouts', { body: { reference, amount: { value: 100_00, currency: 'NGN' }, destinationAccountNumber: '0123456789', bankId: ACCESS_BANK } });
			expect(created.status).toBe(202);
		}
		emulator.clearLogs();
		const { output } = await run({ resource: 'payout', operation: 'getAll', returnAll: false, limit: 40, filters: { referencePrefix: 'salary-2026-11-' } });
		expect(output).toHaveLength(40);
		expect(output.every((item) => String(item.json.reference).startsWith('salary-2026-11-'))).toBe(true);
		const lists = emulator.requests.filter((request) => request.path === '/v1/payouts');
		expect(lists).toHaveLength(2);
		for (const request of lists) {
			expect(request.query.limit).toBe('100');
			expect(Object.keys(request.query).filter((name) => /reference/i.test(name))).toEqual([]);
		}
		// Return All: all 50 of them; the exact Reference: the one.
		expect((await run({ resource: 'payout', operation: 'getAll', returnAll: true, filters: { referencePrefix: 'salary-2026-11-' } })).output).toHaveLength(50);
		const one = await run({ resource: 'payout', operation: 'getAll', returnAll: true, filters: { reference: 'salary-2026-11-S003' } });
		expect(one.output.map((item) => item.json.reference)).toEqual(['salary-2026-11-S003']);
		// No match: no item, the whole list read.
		expect((await run({ resource: 'payout', operation: 'getAll', returnAll: false, limit: 5, filters: { referencePrefix: 'salary-2026-12-' } })).output).toEqual([]);
	});

	it('invoices: the Reference is sent (Paycashless\'s invoice list takes it) and checked again; Reference Starts With after the read', async () => {
		emulator.reset({ invoices: 5 });
		emulator.clearLogs();
		const listed = await run({ resource: 'invoice', operation: 'getAll', returnAll: true, filters: { referencePrefix: 'no-such-' } });
		expect(listed.output).toEqual([]);
		expect(emulator.requests[0].query).not.toHaveProperty('referencePrefix');
		const [seeded] = emulator.list('invoices');
		emulator.clearLogs();
		const exact = await run({ resource: 'invoice', operation: 'getAll', returnAll: true, filters: { reference: String(seeded.reference) } });
		expect(exact.output.map((item) => item.json.reference)).toEqual([seeded.reference]);
		expect(emulator.requests[0].query).toMatchObject({ reference: seeded.reference });
	});

	it('each reference filter says where it applies, in the words of its list', () => {
		const payouts = properties.find((p) => p.name === 'filters' && shownTopLevel(p, { resource: 'payout', operation: 'getAll' }))!;
		const byName = Object.fromEntries((payouts.options as INodeProperties[]).map((option) => [option.name, option.description]));
		expect(byName.reference).toMatch(/Paycashless's payouts list has no reference filter: the node reads the list page by page/);
		expect(byName.reference).toMatch(/Payout → Verify reads it directly/);
		expect(byName.referencePrefix).toMatch(/salary-2026-11-/);
		expect(byName.createdOnOrAfter).toMatch(/the moment included/);
		expect(byName.createdBefore).toMatch(/for all of June, 2025-07-01/);
	});
});
