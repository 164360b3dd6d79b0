/**
 * Money in one unit and within limits a person set (issue 21), against the emulator:
 * - every output with money carries it in main units (`inMainUnits`), and that value typed back
 *   into Amount pays the same amount;
 * - Money Limits refuse before anything is sent (0 requests): Maximum Amount, Maximum Count and
 *   Total per Execution (over runs sharing n8n's per-execution node context), Allowed
 *   Destination Accounts, Expected Account Name;
 * - the tool variant: only operations that work as a tool, no smallest-unit switch, `$fromAI`
 *   with descriptions, its own tool description, refusal without limits, compact output.
 */
import type { IDataObject, INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { namesMatch } from '../../nodes/Paycashless/actions/moneyLimits';
import { registry } from '../../nodes/Paycashless/actions/registry';
import { offeredAsTool } from '../../nodes/Paycashless/actions/tool';
import { Paycashless } from '../../nodes/Paycashless/Paycashless.node';
import { withMainUnits } from '../../nodes/Paycashless/helpers/mainUnits';
import { runNode, type RunResult } from '../helpers/executeContext.cjs';
import { useEmulator } from '../helpers/emulator.cjs';

const emulator = useEmulator();
beforeEach(() => emulator.reset({ payouts: 0, payments: 0, invoices: 0, dedicatedAccounts: 0 }));

const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';
const ACCOUNT = '0123456789';

async function run(parameters: INodeParameters | INodeParameters[], options: { asTool?: boolean; nodeContext?: IDataObject; continueOnFail?: boolean } = {}): Promise<RunResult> {
	return await runNode({ parameters, credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl }, ...options });
}

const payout = (reference: string, amount: number, moneyLimits: INodeParameters = {}, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'payout',
	operation: 'create',
	reference,
	amount,
	currency: 'NGN',
	destinationAccountNumber: ACCOUNT,
	bankId: ACCESS_BANK,
	moneyLimits,
	...extra,
});

const creates = () => emulator.requests.filter((request) => request.method === 'POST');

async function refusal(promise: Promise<RunResult>): Promise<Error & { description?: string }> {
	let thrown: unknown;
	try {
		await promise;
	} catch (error) {
		thrown = error;
	}
	expect(thrown).toBeInstanceOf(Error);
	return thrown as Error & { description?: string };
}

describe('money in main units', () => {
	it('a payout output carries its money in naira, and that value typed into Amount pays the same', async () => {
		const { output } = await run(payout('units-1', 1000.07));
		const json = output[0].json;
		expect(json.amount).toBe(100007);
		expect(json.inMainUnits).toEqual({ currency: 'NGN', amount: 1000.07, fee: (json.fee as number) / 100, vat: (json.vat as number) / 100 });
		const again = await run(payout('units-2', (json.inMainUnits as IDataObject).amount as number));
		expect(again.output[0].json.amount).toBe(100007);
	});

	it('nested objects take the enclosing currency (invoice items); metadata is left alone; no currency, nothing added', () => {
		const invoice = withMainUnits<IDataObject>({ currency: 'USD', amountDue: 150050, items: [{ name: 'A', price: 99 }], metadata: { amount: 5 } });
		expect(invoice.inMainUnits).toEqual({ currency: 'USD', amountDue: 1500.5 });
		expect((invoice.items as IDataObject[])[0].inMainUnits).toEqual({ currency: 'USD', price: 0.99 });
		expect(invoice.metadata).toEqual({ amount: 5 });
		expect(withMainUnits({ amount: 100 })).toEqual({ amount: 100 });
		expect(withMainUnits<IDataObject>({ amount: { value: 250, currency: 'NGN' } }).inMainUnits).toEqual({ currency: 'NGN', amount: 2.5 });
	});
});

describe('Money Limits', () => {
	it('Maximum Amount refuses a larger payout (an amount meant in kobo) with 0 requests', async () => {
		const error = await refusal(run(payout('big-1', 500000, { maxAmount: 100000 })));
		expect(error.message).toBe('Refused: NGN 500,000.00 is above this node\'s Maximum Amount of NGN 100,000.00');
		expect(error.description).toContain('kobo');
		expect(emulator.requests).toHaveLength(0);
		await run(payout('big-2', 100000, { maxAmount: 100000 }));
		expect(creates()).toHaveLength(1);
	});

	it('the amount that is sent counts, also from Additional Body Fields (JSON)', async () => {
		const parameters = payout('json-1', 10, { maxAmount: 100 }, { additionalFields: { additionalBodyJson: '{"amount": {"value": 5000000, "currency": "NGN"}}' } });
		const error = await refusal(run(parameters));
		expect(error.message).toMatch(/NGN 50,000\.00 is above/);
		expect(emulator.requests).toHaveLength(0);
	});

	it('Maximum Count and Total per Execution hold over runs of one execution (shared node context), not across executions', async () => {
		const execution: IDataObject = {};
		const limits = { maxCount: 2, maxTotal: 1500 };
		await run(payout('count-1', 1000, limits), { nodeContext: execution });
		// The same reference again is not a new payout: allowed, and not counted twice.
		await run(payout('count-1', 1000, limits), { nodeContext: execution });
		const total = await refusal(run(payout('count-2', 600, limits), { nodeContext: execution }));
		expect(total.message).toMatch(/would bring this execution's total to NGN 1,600\.00, above the Maximum Total per Execution of NGN 1,500\.00/);
		await run(payout('count-3', 500, limits), { nodeContext: execution });
		const count = await refusal(run(payout('count-4', 1, limits), { nodeContext: execution }));
		expect(count.message).toBe('Refused: this execution already made 2 payouts, the Maximum Count per Execution');
		expect(creates().map((request) => (request.body as IDataObject).reference)).toEqual(['count-1', 'count-1', 'count-3']);
		expect(emulator.list('payouts')).toHaveLength(2);
		// A new execution starts with a new context.
		await run(payout('count-5', 1, limits), { nodeContext: {} });
		expect(emulator.list('payouts')).toHaveLength(3);
	});

	it('items in parallel in one run cannot pass the count together', async () => {
		const items = Array.from({ length: 6 }, (_, k) => payout(`par-${k}`, 10, { maxCount: 3 }, { concurrency: 6 }));
		const { output } = await run(items, { continueOnFail: true });
		expect(output.filter((item) => item.json.message === undefined)).toHaveLength(3);
		expect(output.filter((item) => String(item.json.message).startsWith('Refused: this execution already made 3 payouts'))).toHaveLength(3);
		expect(emulator.list('payouts')).toHaveLength(3);
	});

	it('Allowed Destination Accounts refuses any other account', async () => {
		const error = await refusal(run(payout('allow-1', 10, { allowedAccounts: '1111111111, 2222222222' })));
		expect(error.message).toBe(`Refused: account ${ACCOUNT} is not among this node's Allowed Destination Accounts`);
		expect(emulator.requests).toHaveLength(0);
		await run(payout('allow-2', 10, { allowedAccounts: `1111111111\n${ACCOUNT}` }));
		expect(emulator.list('payouts')).toHaveLength(1);
	});

	it('Expected Account Name: looked up, any order and case; a mismatch or another bank is refused with 0 payouts', async () => {
		const lookup = await run({ resource: 'bankAccount', operation: 'lookUp', accountNumber: ACCOUNT, bankCode: '044' });
		const name = String(lookup.output[0].json.accountName);
		const reversed = name.split(' ').reverse().join(' ').toLowerCase();
		emulator.reset({ payouts: 0 });
		await run(payout('name-1', 10, { expectedAccountName: reversed, beneficiaryBankCode: '044' }));
		expect(emulator.list('payouts')).toHaveLength(1);
		const wrong = await refusal(run(payout('name-2', 10, { expectedAccountName: 'Somebody Else', beneficiaryBankCode: '044' })));
		expect(wrong.message).toBe(`Refused: account ${ACCOUNT} belongs to "${name}", not "Somebody Else"`);
		const otherBank = await refusal(run(payout('name-3', 10, { expectedAccountName: reversed, beneficiaryBankCode: '058' })));
		expect(otherBank.message).toMatch(/was looked up at bank bank_\w+, but the payout goes to bank bank_538ed/);
		expect(emulator.list('payouts')).toHaveLength(1);
		expect(namesMatch('Ada', 'ADA OBI')).toBe(false);
		expect(namesMatch('obi, ada', 'ADA CHIOMA OBI')).toBe(true);
		expect(namesMatch('Ada Obi Obi', 'ADA OBI')).toBe(false);
	});

	it('payments have Maximum Amount too', async () => {
		const error = await refusal(
			run({ resource: 'payment', operation: 'createTransfer', reference: 'pay-1', amount: 5000, currency: 'NGN', customerEmail: 'a@example.com', customerName: 'A B', moneyLimits: { maxAmount: 1000 } }),
		);
		expect(error.message).toMatch(/NGN 5,000\.00 is above this node's Maximum Amount/);
		expect(emulator.requests).toHaveLength(0);
	});
});

describe('the tool variant (Paycashless Tool)', () => {
	const description = new Paycashless().description;
	const asTool = { ...description, name: 'paycashlessTool' };
	const shown = (parameters: INodeParameters, tool: boolean) =>
		description.properties.filter((property) =>
			NodeHelpers.displayParameter(parameters, property, { typeVersion: 1 } as never, tool ? asTool : description),
		);

	it('offers only operations that work as one tool call, with no smallest-unit switch', () => {
		// One Resource field (n8n's node panel lists the actions of every Resource field); Callback has
		// no operation as a tool, only a notice.
		expect(description.properties.filter((p) => p.name === 'resource')).toHaveLength(1);
		const callbackAsTool = shown({ resource: 'callback' }, true);
		expect(callbackAsTool.filter((p) => p.name === 'operation')).toEqual([]);
		expect(callbackAsTool.find((p) => p.type === 'notice')?.displayName).toMatch(/not offered to an AI agent/);
		// The panel and n8n's default node names read the first Operation list of a resource: the regular one.
		const firstPayoutList = description.properties.find((p) => p.name === 'operation' && (p.displayOptions?.show?.resource as string[] | undefined)?.includes('payout'));
		expect(firstPayoutList?.displayOptions?.show?.['@tool']).toEqual([false]);
		const operationsOf = (resource: string, tool: boolean) =>
			(shown({ resource }, tool).find((p) => p.name === 'operation')?.options as INodePropertyOptions[]).map((o) => o.value);
		expect(operationsOf('payout', true)).toEqual(['create', 'get', 'getAll', 'verify']);
		expect(operationsOf('payout', false)).toContain('createAndWait');
		expect(operationsOf('invoice', true)).not.toContain('createAndWait');
		expect(operationsOf('payment', true)).not.toContain('waitForPayment');
		const toolFields = shown({ resource: 'payout', operation: 'create' }, true);
		expect(toolFields.map((p) => p.name)).not.toContain('amountInSmallestUnit');
		expect(shown({ resource: 'payout', operation: 'create' }, false).map((p) => p.name)).toContain('amountInSmallestUnit');
		const byName = (name: string) => toolFields.find((p) => p.name === name) as INodeProperties;
		expect(byName('amount').default).toMatch(/^=\{\{ \$fromAI\('Amount', 'Amount in MAIN units .*naira.*Never kobo/);
		expect(byName('reference').default).toMatch(/same reference never pays twice/);
		expect(byName('bankId').default).toMatch(/look-up tool/);
		expect(String(byName('toolDescription').default)).toMatch(/REAL MONEY leaves/);
		expect(toolFields.map((p) => p.name)).toEqual(expect.arrayContaining(['moneyLimits', 'runWithoutLimits', 'simplify']));
		// The regular node shows none of the tool's own fields.
		expect(shown({ resource: 'payout', operation: 'create' }, false).map((p) => p.name)).not.toEqual(expect.arrayContaining(['toolDescription']));
	});

	it('n8n resolves a tool node\'s parameters to the chosen operation and its fields (the tool lists come before the fields)', () => {
		const resolve = (parameters: INodeParameters) => NodeHelpers.getNodeParameters(asTool.properties, parameters, true, false, { typeVersion: 1 } as never, asTool) ?? {};
		for (const [resource, operations] of Object.entries(registry)) {
			for (const [operation, handler] of Object.entries(operations)) {
				if (!offeredAsTool(handler)) continue;
				expect({ resource, operation: resolve({ resource, operation }).operation }).toEqual({ resource, operation });
			}
		}
		expect(resolve({ resource: 'payout', operation: 'getAll', returnAll: false, limit: 2 })).toMatchObject({ operation: 'getAll', limit: 2, simplify: true });
		expect(resolve({ resource: 'payout', operation: 'create' })).toMatchObject({ amount: expect.stringMatching(/^=\{\{ \$fromAI\('Amount'/) });
	});

	it('"Custom API Call", which n8n\'s editor adds to the list, is refused as a tool with no request', async () => {
		const { output } = await run({ resource: 'payout', operation: '__CUSTOM_API_CALL__' }, { asTool: true });
		expect(output[0].json.message).toMatch(/not supported/);
		expect(emulator.requests).toHaveLength(0);
	});

	it('a money-moving tool without Maximum Amount and Count refuses, and tells the model; the opt-out lets it run', async () => {
		const { output } = await run(payout('tool-1', 10, { maxAmount: 100 }), { asTool: true });
		expect(output[0].json.message).toBe('Refused: this tool moves real money and has no Maximum Count per Execution set');
		expect((output[0].json.error as IDataObject).description).toMatch(/An AI agent cannot change this/);
		expect(emulator.requests).toHaveLength(0);
		const optedOut = await run({ ...payout('tool-2', 10), runWithoutLimits: true }, { asTool: true });
		expect(optedOut.output[0].json).toMatchObject({ reference: 'tool-2', status: 'pending', currency: 'NGN', amount: 'NGN 10.00' });
	});

	it('Simplify: a compact result with money as text in main units; a repeat says nothing was paid', async () => {
		const limits = { maxAmount: 5000, maxCount: 2 };
		const first = await run(payout('tool-3', 1500.5, limits), { asTool: true });
		expect(Object.keys(first.output[0].json).sort()).toEqual(['amount', 'createdAt', 'currency', 'destinationAccountNumber', 'destinationBankId', 'fee', 'id', 'reference', 'status', 'vat']);
		expect(first.output[0].json.amount).toBe('NGN 1,500.50');
		const again = await run(payout('tool-3', 1500.5, limits), { asTool: true });
		expect(again.output[0].json.repeatedReference).toMatch(/nothing new was created or paid/);
		expect(emulator.list('payouts')).toHaveLength(1);
	});
});

describe('inMainUnits sits beside the money, not last', () => {
	it('goes just before the first money field of a long record, and once', async () => {
		const { withMainUnits } = await import('../../nodes/Paycashless/helpers/mainUnits');
		const payment = { id: 'pay_1', reference: 'r1', status: 'succeeded', expectedAmount: 150050, chargedAmount: 150050, currency: 'NGN', customer: { email: 'a@b.c' }, metadata: {}, createdAt: 1 };
		const shown = withMainUnits(payment);
		expect(Object.keys(shown)).toEqual(['id', 'reference', 'status', 'inMainUnits', 'expectedAmount', 'chargedAmount', 'currency', 'customer', 'metadata', 'createdAt']);
		expect(Object.keys(withMainUnits(shown))).toEqual(Object.keys(shown));
		expect(withMainUnits(shown)).toEqual(shown);
	});
});
