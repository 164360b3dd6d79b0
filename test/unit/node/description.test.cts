import { readFileSync } from 'fs';
import { join } from 'path';

import type { INodeProperties, INodePropertyOptions, INodeTypeDescription, UsableAsToolDescription } from 'n8n-workflow';

import { findOperation, operationPairs, registry, resources } from '../../../nodes/Paycashless/actions/registry';
import { LISTED_OBJECTS } from '../../../nodes/Paycashless/catalog/objects';
import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { PaycashlessPollTrigger } from '../../../nodes/Paycashless/PaycashlessPollTrigger.node';

const node = new Paycashless();
const { description } = node;
/** Shown only in the tool variant ("Paycashless Tool", n8n's `@tool` display option): tested in tool.test.ts. */
const toolOnly = (p: INodeProperties) => (p.displayOptions?.show?.['@tool'] as boolean[] | undefined)?.includes(true) === true;
const properties = description.properties.filter((p) => !toolOnly(p));

function optionNames(property: INodeProperties): string[] {
	return (property.options as INodePropertyOptions[]).map((option) => option.name);
}

function sorted(names: string[]): string[] {
	return [...names].sort((a, b) => a.localeCompare(b));
}

/** Every property, nested ones included. */
function allProperties(list: INodeProperties[]): INodeProperties[] {
	const out: INodeProperties[] = [];
	for (const property of list) {
		out.push(property);
		for (const option of (property.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>) {
			if ('type' in option && 'name' in option && 'default' in option) out.push(...allProperties([option as INodeProperties]));
			if ('values' in option && option.values) out.push(...allProperties(option.values));
		}
	}
	return out;
}

const resourceProperty = properties.find((p) => p.name === 'resource') as INodeProperties;
const operationProperties = properties.filter((p) => p.name === 'operation');

describe('node description', () => {
	it('has the n8n node basics', () => {
		expect(description.name).toBe('paycashless');
		// The tool variant lists the same fields, its own first (n8n keeps the first of each name in the types it gives AI builders).
		const asTool = (description.usableAsTool as UsableAsToolDescription).replacements as unknown as Pick<INodeTypeDescription, 'properties'>;
		expect(asTool.properties).toHaveLength(description.properties.length);
		expect(new Set(asTool.properties)).toEqual(new Set(description.properties));
		expect(description.subtitle).toMatch(/^=\{\{ .* \}\}$/);
		expect(description.icon).toEqual({ light: 'file:paycashless.svg', dark: 'file:paycashless.dark.svg' });
		expect(description.inputs).toEqual(['main']);
		expect(description.outputs).toEqual(['main']);
		expect(description.credentials).toEqual([{ name: 'paycashlessApi', required: true }]);
	});

	it('the Poll Trigger shows the chosen Event\'s name as its subtitle ("Payment Succeeded")', () => {
		const poll = new PaycashlessPollTrigger().description;
		const body = String(poll.subtitle).replace(/^=\{\{/, '').replace(/\}\}$/, '');
		const subtitle = (resource: string, event: string) => new Function('$parameter', `return ${body};`)({ resource, event }) as string;
		expect(subtitle('payment', 'succeeded')).toBe('Payment Succeeded');
		expect(subtitle('payout', 'failedOrReversed')).toBe('Payout Failed or Reversed');
		expect(subtitle('dedicatedAccount', 'created')).toBe('New Dedicated Account');
	});

	it('shows a subtitle in the words of its menus ("Look Up: Bank Account")', () => {
		// The expression is plain JavaScript over $parameter, as n8n evaluates it on the canvas.
		const body = String(description.subtitle).replace(/^=\{\{/, '').replace(/\}\}$/, '');
		const subtitle = (resource: string, operation: string) =>
			new Function('$parameter', `return ${body};`)({ resource, operation }) as string;
		expect(subtitle('bankAccount', 'lookUp')).toBe('Look Up: Bank Account');
		expect(subtitle('payout', 'create')).toBe('Create: Payout');
		for (const operation of operationProperties) {
			const resource = (operation.displayOptions?.show?.resource as string[])[0];
			const resourceName = optionNames(resourceProperty)[(resourceProperty.options as INodePropertyOptions[]).findIndex((o) => o.value === resource)];
			for (const option of operation.options as INodePropertyOptions[]) {
				expect(subtitle(resource, String(option.value))).toBe(`${option.name}: ${resourceName}`);
			}
		}
	});

	it('a filter added to a list filters nothing until a value is chosen; statuses offer "Any Status" and the documented values', () => {
		const filters = properties.filter((p) => p.name === 'filters');
		expect(filters.length).toBeGreaterThanOrEqual(4);
		for (const collection of filters) {
			for (const filter of (collection.options ?? []) as INodeProperties[]) {
				expect({ filter: filter.name, default: filter.default }).toEqual({ filter: filter.name, default: filter.type === 'boolean' ? false : '' });
				if (filter.name !== 'status') continue;
				const options = filter.options as INodePropertyOptions[];
				expect(options[0]).toEqual({ name: 'Any Status', value: '' });
				expect(options.length).toBeGreaterThan(1);
			}
		}
		const accounts = filters.find((p) => (p.displayOptions?.show?.resource as string[]).includes('dedicatedAccount'))!;
		const accountStatus = (accounts.options as INodeProperties[]).find((p) => p.name === 'status')!;
		expect(accountStatus.description).toMatch(/switch this field to Expression/);
	});

	it('Amount starts empty (its placeholder shows) and says its unit under the field', () => {
		const amounts = allProperties(properties).filter((p) => p.name === 'amount');
		expect(amounts.length).toBeGreaterThan(0);
		for (const amount of amounts) {
			expect(amount.default).toBeNull();
			expect(amount.placeholder).toBe('1500.50');
			expect(amount.hint).toMatch(/naira or dollars/);
		}
	});

	it('lists every resource of the registry alphabetically, each with its operations alphabetically and an action', () => {
		const names = Object.values(resources).map((resource) => resource.displayName);
		expect(names).toEqual(expect.arrayContaining(['Bank Account', 'Callback', 'Payout', 'Tax Rate']));
		expect(optionNames(resourceProperty)).toEqual(sorted(names));
		expect(operationProperties).toHaveLength(names.length);
		for (const operation of operationProperties) {
			expect(optionNames(operation)).toEqual(sorted(optionNames(operation)));
			for (const option of operation.options as INodePropertyOptions[]) {
				expect(option.action).toMatch(/^[A-Z]/);
				expect(option.description).toBeTruthy();
			}
			expect(operation.noDataExpression).toBe(true);
		}
	});

	it('has a handler for each operation in the lists, and no handler without an option', () => {
		const offered: string[] = [];
		for (const operation of operationProperties) {
			const [resource] = operation.displayOptions?.show?.resource as string[];
			for (const option of operation.options as INodePropertyOptions[]) {
				offered.push(`${resource}.${String(option.value)}`);
				expect(findOperation(resource, String(option.value))).toBeDefined();
			}
		}
		const handled = Object.entries(registry).flatMap(([resource, ops]) => Object.keys(ops).map((op) => `${resource}.${op}`));
		expect(sorted(offered)).toEqual(sorted(handled));
		expect(offered).toHaveLength(operationPairs().length);
		expect(findOperation('payout', 'delete')).toBeUndefined();
		expect(findOperation('payout', 'toString')).toBeUndefined();
	});

	it('shows every operation field for exactly one resource and operation', () => {
		// The shared Request Options and Requests in Parallel are shown for sets of operations;
		// test/unit/transport/policy.test.cts and test/unit/node/concurrency.test.cts check those sets.
		for (const property of properties) {
			// Money Limits and the notices of a limit added empty show with Money Limits.
			if (['resource', 'operation', 'requestOptions', 'concurrency', 'moneyLimits'].includes(property.name) || property.name.endsWith('EmptyNotice')) continue;
			const show = property.displayOptions?.show ?? {};
			expect({ name: property.name, resources: show.resource?.length, operations: show.operation?.length }).toEqual({
				name: property.name,
				resources: 1,
				operations: 1,
			});
		}
	});

	it('gives every Get Many "Return All" and a "Limit" of at least 1 (default 50)', () => {
		const getManys = operationProperties.map((p) => (p.displayOptions?.show?.resource as string[])[0]).filter((r) =>
			findOperation(r, 'getAll'),
		);
		expect(getManys).toEqual(expect.arrayContaining(['dedicatedAccount', 'invoice', 'payment', 'payout']));
		for (const resource of getManys) {
			const shown = properties.filter(
				(p) => p.displayOptions?.show?.resource?.[0] === resource && p.displayOptions?.show?.operation?.[0] === 'getAll',
			);
			const limit = shown.find((p) => p.name === 'limit') as INodeProperties;
			expect(shown.find((p) => p.name === 'returnAll')?.default).toBe(false);
			expect(limit.default).toBe(50);
			expect(limit.typeOptions?.minValue).toBe(1);
			expect(limit.typeOptions?.maxValue).toBeUndefined();
			expect(limit.displayOptions?.show?.returnAll).toEqual([false]);
			// The objects with statuses and creation dates (the catalog's listed objects) are filtered by them.
			if (!(resource in LISTED_OBJECTS)) continue;
			const filters = shown.find((p) => p.name === 'filters') as INodeProperties;
			const filterNames = (filters.options as INodeProperties[]).map((f) => f.name);
			expect(filterNames).toEqual(expect.arrayContaining(['createdAfter', 'createdBefore', 'createdOnOrAfter', 'createdOnOrBefore', 'status']));
			const status = (filters.options as INodeProperties[]).find((f) => f.name === 'status') as INodeProperties;
			expect(status.type).toBe('options');
		}
	});

	it('Invoice → Create names its required description "Invoice Description" (each line item has a "Description" too)', () => {
		const invoiceCreate = properties.filter((p) => p.displayOptions?.show?.resource?.[0] === 'invoice' && p.displayOptions?.show?.operation?.[0] === 'create');
		const field = invoiceCreate.find((p) => p.name === 'invoiceDescription') as INodeProperties;
		expect(field).toMatchObject({ displayName: 'Invoice Description', required: true });
		expect(invoiceCreate.filter((p) => p.displayName === 'Description')).toEqual([]);
	});

	it('tells users to paste the Trigger production URL into every callback URL field', () => {
		const callbackFields = allProperties(properties).filter((p) => p.name === 'callbackUrl');
		// Invoice, dedicated account, transfer payment, checkout link, payout.
		expect(callbackFields.length).toBe(5);
		for (const field of callbackFields) {
			expect(field.description).toMatch(/Production URL of a Paycashless Trigger/);
		}
	});

	it('says amounts are main units in and smallest units out', () => {
		const amounts = allProperties(properties).filter((p) => p.name === 'amount' || p.name === 'price');
		// Transfer payment, checkout link and payout amounts; invoice item price (payout three times: Create, Create and Wait, Check Batch; invoice twice).
		expect(amounts.length).toBe(7);
		for (const field of amounts) expect(field.description).toMatch(/smallest unit/);
		const bankId = properties.find((p) => p.name === 'bankId') as INodeProperties;
		expect(bankId.hint).toMatch(/\$json\.bank\.id/);
		expect(bankId.description).toMatch(/Bank Account → Look Up/);
	});

	it('offers ID modes with prefix checks on every resource locator', () => {
		const locators = properties.filter((p) => p.type === 'resourceLocator');
		const prefixes = new Map<string, string>();
		for (const locator of locators) {
			const idMode = locator.modes?.find((m) => m.name === 'id');
			const listMode = locator.modes?.find((m) => m.name === 'list');
			expect(listMode?.typeOptions?.searchListMethod).toBeDefined();
			expect(node.methods.listSearch).toHaveProperty(listMode?.typeOptions?.searchListMethod as string);
			const regex = (idMode?.validation?.[0] as unknown as { properties: { regex: string } }).properties.regex;
			prefixes.set(locator.name, regex);
		}
		expect(Object.fromEntries(prefixes)).toEqual({
			dedicatedAccountId: '^va_[A-Za-z0-9_-]+$',
			invoiceId: '^inv_[A-Za-z0-9_-]+$',
			paymentId: '^pi_[A-Za-z0-9_-]+$',
			payoutId: '^po_[A-Za-z0-9_-]+$',
		});
	});

	it('has a codex file in Finance & Accounting', () => {
		const codex = JSON.parse(readFileSync(join(__dirname, '../../../nodes/Paycashless/Paycashless.node.json'), 'utf8'));
		expect(codex.node).toBe('n8n-nodes-paycashless.paycashless');
		expect(codex.categories).toEqual(['Finance & Accounting']);
		// Its links go to this package's own pages (every node's and the credential's: test/tooling/repo/docs.test.cts).
		expect(codex.resources.primaryDocumentation[0].url).toBe('https://github.com/paycashless/n8n-nodes-paycashless/blob/main/docs/operations.md');
		expect(codex.resources.credentialDocumentation[0].url).toBe('https://github.com/paycashless/n8n-nodes-paycashless/blob/main/README.md#credentials');
	});
});

describe('Money Limits fields read the way a person sets them (issue 43)', () => {
	const limits = (resource: string) =>
		new Paycashless().description.properties.find(
			(property) => property.name === 'moneyLimits' && (property.displayOptions?.show?.resource as string[] | undefined)?.includes(resource) && !(property.displayOptions?.show?.['@tool'] as boolean[] | undefined)?.includes(true),
		)!;

	it('in the order one sets them: currency, per item, per execution, per period, who may be paid (n8n shows added limits in this order)', () => {
		expect((limits('payout').options as INodeProperties[]).map((option) => option.name)).toEqual([
			'currency',
			'maxAmount',
			'maxCount',
			'maxTotal',
			'periodTotal',
			'periodCount',
			'period',
			'allowedAccounts',
			'expectedAccountName',
			'beneficiaryBankCode',
			'allowMiddleNames',
		]);
		expect((limits('invoice').options as INodeProperties[]).map((option) => option.name)).toEqual(['currency', 'maxAmount', 'maxCount', 'maxTotal']);
	});

	it('amounts: no forced .00 (3000000, not 3000000.00), and a hint in naira with thousands separators', () => {
		for (const option of (limits('payout').options as INodeProperties[]).filter((o) => ['maxAmount', 'maxTotal', 'periodTotal'].includes(o.name))) {
			expect({ name: option.name, precision: option.typeOptions?.numberPrecision }).toEqual({ name: option.name, precision: undefined });
			expect(option.hint).toMatch(/^In naira \(main units of the Limits Currency, NGN unless added\): .*\d+ is NGN \d{1,3}(,\d{3})+ \(\w+ million\)/);
		}
	});
});
