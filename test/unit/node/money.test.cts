/**
 * Money in one unit and within limits a person set, against the emulator:
 * - every output with money carries it in main units (`inMainUnits`), and that value typed back
 *   into Amount pays the same amount;
 * - Money Limits refuse before anything is sent (0 requests): Maximum Amount, Maximum Count and
 *   Total per Execution (over runs sharing n8n's per-execution node context); who may be paid is
 *   test/unit/node/beneficiary.test.cts;
 * - the tool variant: only operations that work as a tool, no smallest-unit switch, `$fromAI`
 *   with descriptions, its own tool description, refusal without limits, compact output.
 */
import type { IDataObject, INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription, UsableAsToolDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { registry } from '../../../nodes/Paycashless/actions/registry';
import { offeredAsTool } from '../../../nodes/Paycashless/actions/tool';
import { moneyKind } from '../../../nodes/Paycashless/actions/types';
import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { withMainUnits } from '../../../nodes/Paycashless/helpers/mainUnits';
import { createExecuteContext, runNode, type RunResult } from '../../../scripts/harness/executeContext.cjs';
import { useEmulator } from '../../support/emulator.cjs';
import { ACCESS_BANK } from '../../support/reliability.cjs';
import { ACCOUNT, payoutCreate as payout, refusal } from '../../support/nodeRuns.cjs';

const emulator = useEmulator();
beforeEach(() => emulator.reset({ payouts: 0, payments: 0, invoices: 0, dedicatedAccounts: 0 }));


async function run(parameters: INodeParameters | INodeParameters[], options: { asTool?: boolean; nodeContext?: IDataObject; continueOnFail?: boolean } = {}): Promise<RunResult> {
	return await runNode({ parameters, credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl }, ...options });
}


/** Invoice → Create of one line item (price in naira) to a@example.com. */
const invoiceCreate = (reference: string, item: { name: string; quantity: number; price: number }, moneyLimits: INodeParameters): INodeParameters => ({
	resource: 'invoice',
	operation: 'create',
	reference,
	invoiceDescription: 'Order',
	currency: 'NGN',
	customerEmail: 'a@example.com',
	customerName: 'A B',
	items: { itemValues: [item] },
	daysUntilDue: 7,
	moneyLimits,
});

const creates = () => emulator.requests.filter((request) => request.method === 'POST');


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

	it('n8n resolves a tool node\'s parameters to the chosen operation and its fields (every Operation list comes before the fields)', () => {
		// n8n runs the tool from the node's own properties (regular fields first); the tool variant's
		// description lists its own fields first: both orders resolve the same.
		const toolOrder = ((description.usableAsTool as UsableAsToolDescription).replacements as unknown as Pick<INodeTypeDescription, 'properties'>).properties;
		for (const properties of [asTool.properties, toolOrder]) {
			const resolve = (parameters: INodeParameters) => NodeHelpers.getNodeParameters(properties, parameters, true, false, { typeVersion: 1 } as never, asTool) ?? {};
			for (const [resource, operations] of Object.entries(registry)) {
				for (const [operation, handler] of Object.entries(operations)) {
					if (!offeredAsTool(handler)) continue;
					expect({ resource, operation: resolve({ resource, operation }).operation }).toEqual({ resource, operation });
				}
			}
			expect(resolve({ resource: 'payout', operation: 'getAll', returnAll: false, limit: 2 })).toMatchObject({ operation: 'getAll', limit: 2, simplify: true });
			expect(resolve({ resource: 'payout', operation: 'create' })).toMatchObject({ amount: expect.stringMatching(/^=\{\{ \$fromAI\('Amount'/) });
		}
	});

	it('Bank Account → Look Up as a tool: whether the account exists and its bank, the holder\'s name only when Show Account Name to the Model is on', async () => {
		const lookUp = { resource: 'bankAccount', operation: 'lookUp', accountNumber: ACCOUNT, bankCode: '044' };
		const regular = (await run(lookUp)).output[0].json;
		const holder = String(regular.accountName);
		expect(holder).toMatch(/^[A-Z]+ [A-Z]+$/);
		expect(regular).not.toHaveProperty('note');

		// Off by default, with Simplify on or off: no name, a note saying so; the bank stays.
		for (const simplify of [true, false]) {
			const hidden = (await run({ ...lookUp, simplify }, { asTool: true })).output[0].json;
			expect(hidden).not.toHaveProperty('accountName');
			expect(hidden).toMatchObject({ accountNumber: ACCOUNT, bank: expect.objectContaining({ id: ACCESS_BANK }), note: expect.stringMatching(/holder's name is not shown to the AI model/) });
			for (const word of holder.split(' ')) expect(JSON.stringify(hidden)).not.toContain(word);
		}
		// Only a literal true typed by a person shows it: an expression counts as off.
		const byModel = (await run({ ...lookUp, showAccountName: "={{ $fromAI('Show_Name', '', 'boolean') }}" }, { asTool: true })).output[0].json;
		expect(byModel).not.toHaveProperty('accountName');
		const shownName = (await run({ ...lookUp, showAccountName: true }, { asTool: true })).output[0].json;
		expect(shownName).toMatchObject({ accountName: holder, bank: expect.objectContaining({ id: ACCESS_BANK }) });
		expect(shownName).not.toHaveProperty('note');
		// The regular node's output is the lookup's answer, whatever the (tool-only) field says.
		expect((await run({ ...lookUp, showAccountName: false })).output[0].json).toEqual(regular);

		// The field is the tool's only, typed in; the model reads that the name may be left out.
		expect(shown({ resource: 'bankAccount', operation: 'lookUp' }, false).map((p) => p.name)).not.toContain('showAccountName');
		const toolFields = shown({ resource: 'bankAccount', operation: 'lookUp' }, true);
		expect(toolFields.find((p) => p.name === 'showAccountName')).toMatchObject({ type: 'boolean', default: false, noDataExpression: true });
		expect(String(toolFields.find((p) => p.name === 'toolDescription')?.default)).toMatch(/whether a bank account exists.*holder's name is returned only if the workflow owner allowed it/);
	});

	it('"Custom API Call", which n8n\'s editor adds to the list, is refused as a tool with no request', async () => {
		const { output } = await run({ resource: 'payout', operation: '__CUSTOM_API_CALL__' }, { asTool: true });
		expect(output[0].json.message).toMatch(/not supported/);
		expect(emulator.requests).toHaveLength(0);
	});

	it('a payout tool without Maximum Amount and Maximum Total per Period refuses, and tells the model; the opt-out runs and every result says limits were off', async () => {
		const { output } = await run(payout('tool-1', 10, { maxAmount: 100, maxCount: 5 }), { asTool: true });
		expect(output[0].json.message).toBe('Refused: this tool moves real money and has no Maximum Total per Period set');
		expect(output[0].json.error).toMatchObject({ type: 'money_limit', code: 'LIMIT_NOT_SET', description: expect.stringMatching(/An AI agent cannot change this/) });
		expect(emulator.requests).toHaveLength(0);
		const optedOut = await run({ ...payout('tool-2', 10), runWithoutLimits: true }, { asTool: true });
		expect(optedOut.output[0].json).toMatchObject({ reference: 'tool-2', status: 'pending', currency: 'NGN', amount: 'NGN 10.00', moneyLimits: expect.stringMatching(/Money Limits were off/) });
		// Only a literal true typed by a person opts out: an expression does not.
		const fromModel = await run({ ...payout('tool-3', 10), runWithoutLimits: "={{ $fromAI('off', '', 'boolean') }}" }, { asTool: true });
		expect(fromModel.output[0].json.message).toMatch(/^Refused: this tool moves real money and has no Maximum Amount and Maximum Total per Period set/);
		expect(emulator.list('payouts')).toHaveLength(1);
	});

	it('a payment tool needs Maximum Amount and Maximum Count per Execution; the notice shows while limits are off', async () => {
		const transfer = { resource: 'payment', operation: 'createTransfer', reference: 'tool-pay-1', amount: 50, currency: 'NGN', customerEmail: 'a@example.com', customerName: 'A B' };
		const { output } = await run({ ...transfer, moneyLimits: { maxAmount: 100 } }, { asTool: true });
		expect(output[0].json.message).toBe('Refused: this tool moves real money and has no Maximum Count per Execution set');
		const notice = shown({ resource: 'payout', operation: 'create', runWithoutLimits: true }, true).find((p) => p.name === 'runWithoutLimitsNotice');
		expect(notice?.displayName).toMatch(/Limits are off/);
		expect(shown({ resource: 'payout', operation: 'create', runWithoutLimits: false }, true).map((p) => p.name)).not.toContain('runWithoutLimitsNotice');
	});

	it('the amount and count limits and the opt-out take no expressions: n8n offers no "let the model define this" on them', () => {
		const limitFields = description.properties.filter((p) => p.name === 'moneyLimits');
		expect(limitFields.map((p) => p.displayOptions?.show?.resource).flat().sort()).toEqual(['invoice', 'payment', 'payout']);
		for (const collection of limitFields) {
			for (const option of collection.options as INodeProperties[]) {
				if (['allowedAccounts', 'expectedAccountName', 'beneficiaryBankCode'].includes(option.name)) continue;
				expect({ name: option.name, noDataExpression: option.noDataExpression }).toEqual({ name: option.name, noDataExpression: true });
			}
		}
		expect(description.properties.find((p) => p.name === 'runWithoutLimits')?.noDataExpression).toBe(true);
	});

	it('an operation not offered as a tool is refused when the tool runs, whatever its stored parameters say', async () => {
		const { output } = await run({ ...payout('tool-wait-1', 10, { maxAmount: 100, periodTotal: 1000 }), operation: 'createAndWait' }, { asTool: true });
		expect(output[0].json.message).toBe('Refused: "createAndWait" of "payout" is not offered to an AI agent');
		expect(emulator.requests).toHaveLength(0);
	});

	it('each offered operation says what it does to money or people: an invoice is e-mailed, a tax rate changes later invoices', () => {
		const toolText = (resource: string, operation: string) => String(shown({ resource, operation }, true).find((p) => p.name === 'toolDescription')?.default);
		expect(toolText('invoice', 'create')).toMatch(/e-mails the invoice to the customer's address/);
		expect(toolText('taxRate', 'update')).toMatch(/Every later invoice that uses this tax rate follows the change/);
		expect(toolText('invoice', 'cancel')).toMatch(/can no longer pay/);
		expect(toolText('dedicatedAccount', 'create')).toMatch(/bank account number to pay into/);
		// Invoices take Money Limits like payments.
		expect(shown({ resource: 'invoice', operation: 'create' }, true).map((p) => p.name)).toEqual(expect.arrayContaining(['moneyLimits', 'runWithoutLimits']));
	});

	it('Simplify: a compact result with money as text in main units; a repeat says nothing was paid', async () => {
		const limits = { maxAmount: 5000, periodTotal: 10000 };
		const first = await run(payout('tool-3', 1500.5, limits), { asTool: true });
		expect(Object.keys(first.output[0].json).sort()).toEqual(['amount', 'createdAt', 'currency', 'destinationAccountNumber', 'destinationBankId', 'fee', 'id', 'reference', 'status', 'vat']);
		expect(first.output[0].json.amount).toBe('NGN 1,500.50');
		const again = await run(payout('tool-3', 1500.5, limits), { asTool: true });
		expect(again.output[0].json.repeatedReference).toMatch(/nothing new was created or paid/);
		expect(emulator.list('payouts')).toHaveLength(1);
	});
});

describe('Money Limits that nobody downstream can loosen', () => {
	const refusedWith = async (moneyLimits: INodeParameters, code: string, message: RegExp) => {
		const { output } = await run(payout(`odd-${code}-${Math.random().toString(36).slice(2, 8)}`, 10, moneyLimits), { continueOnFail: true });
		expect(output[0].json.message).toMatch(message);
		expect(output[0].json.error).toMatchObject({ type: 'money_limit', code });
	};

	it('a limit stored as an expression ($fromAI or item data) is refused whatever it resolves to, with 0 requests', async () => {
		await refusedWith({ maxAmount: "={{ $fromAI('Max', '', 'number') }}" }, 'LIMIT_EXPRESSION', /^Refused: Money Limits → Maximum Amount is an expression$/);
		await refusedWith({ periodTotal: '={{ $json.limit }}', maxAmount: 100 }, 'LIMIT_EXPRESSION', /Maximum Total per Period is an expression/);
		await refusedWith({ currency: '={{ $json.currency }}' }, 'LIMIT_EXPRESSION', /Limits Currency is an expression/);
		expect(emulator.requests).toHaveLength(0);
	});

	it('a limit that is set but 0, empty, null, text or a list refuses the item instead of switching itself off', async () => {
		for (const value of [0, '', null, 'abc', [5], -1]) {
			await refusedWith({ maxAmount: value as never }, 'LIMIT_INVALID', /^Refused: Money Limits → Maximum Amount is set but is /);
		}
		await refusedWith({ maxCount: 2.5 }, 'LIMIT_INVALID', /Maximum Count per Execution is set but is 2\.5/);
		await refusedWith({ periodTotal: 0, maxAmount: 100 }, 'LIMIT_INVALID', /Maximum Total per Period is set but is 0/);
		expect(emulator.requests).toHaveLength(0);
	});

	it('limits name their currency: a USD payout under NGN limits is refused, also when Additional Body Fields switch it', async () => {
		const usd = await run(payout('usd-1', 10, { maxAmount: 200000 }, { currency: 'USD' }), { continueOnFail: true });
		expect(usd.output[0].json.message).toBe('Refused: this payout is in USD, and this node\'s Money Limits are in NGN');
		expect(usd.output[0].json.error).toMatchObject({ code: 'CURRENCY_NOT_LIMITED' });
		const switched = await run(payout('usd-2', 10, { maxAmount: 200000 }, { additionalFields: { additionalBodyJson: '{"amount": {"value": 1000, "currency": "USD"}}' } }), { continueOnFail: true });
		expect(switched.output[0].json.error).toMatchObject({ code: 'CURRENCY_NOT_LIMITED' });
		expect(emulator.list('payouts')).toHaveLength(0);
		await run(payout('usd-3', 10, { maxAmount: 100, currency: 'USD' }, { currency: 'USD' }));
		expect(emulator.list('payouts')).toHaveLength(1);
	});

	it('a payout body read two ways is refused as AMOUNT_UNREADABLE, naming why, with 0 requests: the Money Limits read the bytes the credential sends', async () => {
		const refusedWith = async (json: string) => {
			const { output } = await run(payout(`two-${json.length}`, 10, { maxAmount: 200000 }, { additionalFields: { additionalBodyJson: json } }), { continueOnFail: true });
			expect(output[0].json.error).toMatchObject({ code: 'AMOUNT_UNREADABLE' });
			return String(output[0].json.message);
		};
		// amount.currency NGN (read by the limits before) beside a top-level USD (read by others).
		expect(await refusedWith('{"currency": "USD"}')).toBe("Refused: the payout's amount cannot be read for sure (it names two different currencies (currency and amount.currency))");
		expect(await refusedWith('{"Amount": {"value": 500000000, "currency": "NGN"}}')).toMatch(/^Refused: the payout's amount cannot be read for sure \(its JSON names the key "amount" twice in one object\)$/i);
		expect(await refusedWith('{"amount": {"value": 1000, "currency": "NGN", "VALUE": 500000000}}')).toMatch(/cannot be read for sure \(its JSON names the key "value" twice in one object \(in amount\)\)/i);
		expect(emulator.requests).toHaveLength(0);
		// The same currency beside amount.currency is one reading: paid.
		await run(payout('one-currency', 10, { maxAmount: 200000 }, { additionalFields: { additionalBodyJson: '{"currency": "NGN"}' } }));
		expect(emulator.list('payouts')).toEqual([expect.objectContaining({ reference: 'one-currency', amount: 1000, currency: 'NGN' })]);
	});
});

describe('a counted reference is the same payout', () => {
	it('the same reference with another amount or account is refused; the same payout again passes and is not counted twice', async () => {
		const execution: IDataObject = {};
		const limits = { maxTotal: 1000 };
		await run(payout('same-1', 600, limits), { nodeContext: execution });
		const bigger = await refusal(run(payout('same-1', 5000, limits), { nodeContext: execution }));
		expect(bigger.message).toBe('Refused: the reference "same-1" was already used in this execution for a different payout');
		expect(bigger.description).not.toMatch(/600|5,000|0123456789/);
		const otherAccount = await refusal(run(payout('same-1', 600, limits, { destinationAccountNumber: '0987654321' }), { nodeContext: execution }));
		expect(otherAccount.message).toMatch(/already used in this execution for a different payout/);
		await run(payout('same-1', 600, limits), { nodeContext: execution });
		// The total was not lifted by the attempts: 600 counted once, 400 left.
		const over = await refusal(run(payout('same-2', 401, limits), { nodeContext: execution }));
		expect(over.message).toMatch(/total to NGN 1,001\.00/);
		expect(emulator.list('payouts')).toHaveLength(1);
	});

	it('a payout Paycashless definitely refused (400) frees its place; the next one can use it', async () => {
		const execution: IDataObject = {};
		const limits = { maxTotal: 1000, maxCount: 1 };
		const refused = await refusal(run(payout('free-1', 900, limits, { bankId: 'bank_00000000000000000000000000000000' }), { nodeContext: execution }));
		expect(refused.message).toMatch(/Invalid bank/);
		await run(payout('free-2', 900, limits), { nodeContext: execution });
		expect(emulator.list('payouts').map((p) => p.reference)).toEqual(['free-2']);
	});

	it('an unclear answer (the connection dropped after Paycashless created it) keeps the place', async () => {
		const execution: IDataObject = {};
		const limits = { maxCount: 1 };
		// Paycashless answers 503 to the create and to every lookup: whether it paid stays unknown.
		emulator.setFaults({ error5xxRate: 1, match: '/v1/payouts' });
		const unclear = await refusal(run(payout('kept-1', 10, limits, { requestOptions: { maxAttempts: 1, retryDelay: 0 } }), { nodeContext: execution }));
		expect(unclear.message).not.toMatch(/^Refused/);
		emulator.clearFaults();
		const next = await refusal(run(payout('kept-2', 10, limits), { nodeContext: execution }));
		expect(next.message).toMatch(/already made 1 payout, the Maximum Count per Execution/);
	});
});

describe('period limits hold across executions, from Paycashless\'s own record', () => {
	const limits = { maxAmount: 200000, periodTotal: 500000, periodCount: 5 };

	it('three executions (new node context each): the third is refused; failed payouts and other workflows\' payouts count as Paycashless lists them', async () => {
		await run(payout('day-1', 200000, limits), { nodeContext: {} });
		await run(payout('day-2', 200000, limits), { nodeContext: {} });
		const third = await refusal(run(payout('day-3', 200000, limits), { nodeContext: {} }));
		expect(third.message).toMatch(/^Refused: NGN 200,000\.00 would bring the payouts of today \(since 00:00 UTC\) to NGN 600,000\.00, above the Maximum Total per Period of NGN 500,000\.00$/);
		expect(emulator.list('payouts')).toHaveLength(2);
		// A failed payout moved no money: its amount is free again.
		await emulator.completePayout('day-2', 'failed');
		await run(payout('day-3', 200000, limits), { nodeContext: {} });
		// A payout made outside this node (another workflow, the dashboard) counts too.
		await run(payout('elsewhere-1', 100000), { nodeContext: {} });
		const fourth = await refusal(run(payout('day-4', 100, limits), { nodeContext: {} }));
		expect(fourth.message).toMatch(/to NGN 500,100\.00, above/);
		// A reference Paycashless already has is found again, not paid again, and not refused.
		const again = await run(payout('day-1', 200000, limits), { nodeContext: {} });
		expect(again.output[0].json.reference).toBe('day-1');
		expect(emulator.list('payouts')).toHaveLength(4);
	});

	it('a batch in one run cannot pass the period total together (items in parallel)', async () => {
		const items = Array.from({ length: 8 }, (_, k) => payout(`batch-${k}`, 100000, { maxAmount: 200000, periodTotal: 500000 }, { concurrency: 8 }));
		const { output } = await run(items, { continueOnFail: true });
		expect(output.filter((item) => item.json.message === undefined)).toHaveLength(5);
		expect(output.filter((item) => (item.json.error as IDataObject | undefined)?.code === 'MAX_TOTAL_PERIOD')).toHaveLength(3);
		expect(emulator.list('payouts')).toHaveLength(5);
		// One full read, then reads from shortly before the last: far fewer list requests than items.
		const lists = emulator.requests.filter((request) => request.method === 'GET' && request.path === '/v1/payouts');
		expect(lists.length).toBeLessThanOrEqual(items.length);
	});

	it('the count per period and a period without Maximum Amount', async () => {
		for (let k = 0; k < 2; k++) await run(payout(`cnt-${k}`, 1, { maxAmount: 10, periodCount: 2 }), { nodeContext: {} });
		const third = await refusal(run(payout('cnt-2', 1, { maxAmount: 10, periodCount: 2 }), { nodeContext: {} }));
		expect(third.message).toMatch(/^Refused: 2 payouts were already made today/);
		const noMax = await refusal(run(payout('cnt-3', 1, { periodTotal: 10 }), { nodeContext: {} }));
		expect(noMax.message).toBe('Refused: Maximum Total per Period is set without a Maximum Amount');
	});
});

describe('period limits when executions race, and what Paycashless lists', () => {
	const limits = { maxAmount: 1000, periodTotal: 1500 };
	const reasonOf = (item: { json: IDataObject }) => (item.json.error as IDataObject | undefined)?.code;

	it('ten executions at once (each its own node context) pay once under a total that fits one', async () => {
		// Every answer 150 ms late, so that all ten read the list before any payout is listed.
		emulator.setFaults({ latencyMs: 150 });
		const runs = await Promise.all(
			Array.from({ length: 10 }, (_, k) => run(payout(`race-${k}`, 1000, limits), { nodeContext: {}, continueOnFail: true })),
		);
		emulator.clearFaults();
		const refused = runs.filter(({ output }) => reasonOf(output[0]) === 'MAX_TOTAL_PERIOD');
		expect(refused).toHaveLength(9);
		expect(emulator.list('payouts')).toHaveLength(1);
		// Two payout nodes in one execution (separate node contexts, separate ledgers) race the same way.
		emulator.reset({ payouts: 0 });
		const [first, second] = await Promise.all([
			run(payout('node-a', 1000, limits), { nodeContext: {}, continueOnFail: true }),
			run(payout('node-b', 1000, limits), { nodeContext: {}, continueOnFail: true }),
		]);
		expect([first, second].filter(({ output }) => reasonOf(output[0]) === 'MAX_TOTAL_PERIOD')).toHaveLength(1);
		expect(emulator.list('payouts')).toHaveLength(1);
	});

	it('a payout refused by Paycashless frees its place at once; one that was made is counted from the list after it', async () => {
		// 0001234567 does not resolve in the emulator: Paycashless refuses the create (400).
		const refused = await run(payout('gone-1', 1000, limits, { destinationAccountNumber: '0001234567' }), { nodeContext: {}, continueOnFail: true });
		expect(refused.output[0].json.message).toMatch(/could not be resolved/);
		await run(payout('made-1', 1000, limits), { nodeContext: {} });
		const next = await run(payout('made-2', 500, limits), { nodeContext: {} });
		expect(next.output[0].json.reference).toBe('made-2');
		expect(emulator.list('payouts')).toHaveLength(2);
	});

	it('a listed reference skips no check when that payout failed, or when it asks for another amount or account', async () => {
		await run(payout('listed-1', 1000, limits), { nodeContext: {} });
		// The same live payout again: found again, not refused, not paid again.
		const again = await run(payout('listed-1', 1000, limits), { nodeContext: {} });
		expect(again.output[0].json.reference).toBe('listed-1');
		// Another amount under the listed reference is checked as a new payout: it would pass the total.
		const other = await refusal(run(payout('listed-1', 900, limits), { nodeContext: {} }));
		expect(other.message).toMatch(/would bring the payouts of today .* to NGN 1,900\.00/);
		// A failed payout under the reference no longer counts, and is no pass either.
		await emulator.completePayout('listed-1', 'failed');
		await run(payout('other-1', 1000, limits), { nodeContext: {} });
		const failedAgain = await refusal(run(payout('listed-1', 1000, limits), { nodeContext: {} }));
		expect(failedAgain.message).toMatch(/would bring the payouts of today .* to NGN 2,000\.00/);
		expect(emulator.list('payouts')).toHaveLength(2);
	});

	it('a failed reference asked again in the process that sent it is checked too (its entry in flight does not stand in for it)', async () => {
		// The same process sent it (queue mode: the same worker); a payout with no period limit
		// (so no read of the list in this process) was made in between.
		await run(payout('again-1', 1000, limits), { nodeContext: {} });
		await emulator.completePayout('again-1', 'failed');
		await run(payout('between-1', 1000, { maxAmount: 1000 }), { nodeContext: {} });
		emulator.clearLogs();
		const again = await refusal(run(payout('again-1', 1000, limits), { nodeContext: {} }));
		expect(again.message).toMatch(/to NGN 2,000\.00/);
		expect(emulator.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
	});

	it('a listed payout the limits cannot read refuses the payout (PERIOD_UNREADABLE)', async () => {
		await run(payout('odd-1', 10, limits), { nodeContext: {} });
		(emulator.list('payouts')[0] as IDataObject).amount = '1000';
		const error = await refusal(run(payout('odd-2', 10, limits), { nodeContext: {} }));
		expect(error.message).toMatch(/^Refused: Paycashless lists a payout of today .* that the period limits cannot read$/);
		expect(error.description).toMatch(/has no amount in whole kobo or cents \(it lists "1000"\)/);
		// A failed one moved nothing: it is left out, whatever its amount says.
		(emulator.list('payouts')[0] as IDataObject).status = 'failed';
		await run(payout('odd-2', 10, limits), { nodeContext: {} });
		expect(emulator.list('payouts')).toHaveLength(2);
	});

	it('the count per period counts every currency, and needs a Maximum Amount', async () => {
		await run({ ...payout('usd-1', 1, {}), currency: 'USD' }, { nodeContext: {} });
		const error = await refusal(run(payout('ngn-1', 1, { maxAmount: 10, periodCount: 1 }), { nodeContext: {} }));
		expect(error.message).toMatch(/^Refused: 1 payouts were already made today/);
		expect(error.description).toMatch(/in every currency/);
		const noMax = await refusal(run(payout('ngn-2', 900000, { periodCount: 5 }), { nodeContext: {} }));
		expect(noMax.message).toBe('Refused: Maximum Count per Period is set without a Maximum Amount');
		expect(emulator.list('payouts')).toHaveLength(1);
	});

	it('a tool learns that the period limit was reached, not the account\'s total or what is left', async () => {
		await run(payout('tool-day-1', 1000, limits), { nodeContext: {} });
		const { output } = await run(payout('tool-day-2', 1000, limits), { asTool: true, nodeContext: {} });
		const error = output[0].json.error as IDataObject;
		expect(error.code).toBe('MAX_TOTAL_PERIOD');
		expect(error.message).toBe('Refused: this payout would pass the Maximum Total per Period');
		expect(JSON.stringify(output)).not.toMatch(/1,000|1,500|2,000|500\.00/);
		// The person (the regular node) is told the figures and what to do.
		const person = await refusal(run(payout('tool-day-2', 1000, limits), { nodeContext: {} }));
		expect(person.message).toMatch(/to NGN 2,000\.00, above the Maximum Total per Period of NGN 1,500\.00/);
		expect(person.description).toMatch(/Running the same input again later is safe/);
	});

	it('a tool with its limits off says so on refused and failed items too', async () => {
		const { output } = await run({ ...payout('off-1', 10), destinationAccountNumber: '0001234567', runWithoutLimits: true }, { asTool: true });
		expect((output[0].json.error as IDataObject).moneyLimits).toMatch(/Money Limits were off for this tool/);
	});

	it('one run at Requests in Parallel 1: one list request per payout at most, not a re-read of the whole batch', async () => {
		const items = Array.from({ length: 120 }, (_, k) => payout(`seq-${k}`, 1, { maxAmount: 10, periodTotal: 1000 }, { concurrency: 1 }));
		await run(items);
		expect(emulator.list('payouts')).toHaveLength(120);
		const lists = emulator.requests.filter((request) => request.method === 'GET' && request.path === '/v1/payouts');
		expect(lists.length).toBeLessThanOrEqual(120 + 2);
	});
});

describe('money kinds', () => {
	it('an invoice takes Maximum Amount on its items\' total (before tax)', async () => {
		const invoice = invoiceCreate('inv-limit-1', { name: 'Rice', quantity: 3, price: 4000 }, { maxAmount: 10000 });
		const error = await refusal(run(invoice));
		expect(error.message).toBe("Refused: NGN 12,000.00 is above this node's Maximum Amount of NGN 10,000.00");
		expect(emulator.requests).toHaveLength(0);
	});

	it('a create that moves money of a kind the limits do not know fails loudly', () => {
		const declaration = { kind: 'create', findsAgain: { object: 'refund', movesMoney: true } } as never;
		expect(() => moneyKind(declaration)).toThrow(/Money Limits know no refund/);
	});
});

describe('inMainUnits sits beside the money, not last', () => {
	it('goes just before the first money field of a long record, and once', async () => {
		const { withMainUnits } = await import('../../../nodes/Paycashless/helpers/mainUnits');
		const payment = { id: 'pay_1', reference: 'r1', status: 'succeeded', expectedAmount: 150050, chargedAmount: 150050, currency: 'NGN', customer: { email: 'a@b.c' }, metadata: {}, createdAt: 1 };
		const shown = withMainUnits(payment);
		expect(Object.keys(shown)).toEqual(['id', 'reference', 'status', 'inMainUnits', 'expectedAmount', 'chargedAmount', 'currency', 'customer', 'metadata', 'createdAt']);
		expect(Object.keys(withMainUnits(shown))).toEqual(Object.keys(shown));
		expect(withMainUnits(shown)).toEqual(shown);
	});
});

describe('the money step: body → check → send', () => {
	/** Where a waiting execution resumes (n8n gives it; the fake context takes it as a parameter, as test/unit/wait does). */
	const RESUME_URL = 'http://127.0.0.1:5678/webhook-waiting/41';
	/** One money-moving create of each operation, for an amount above a Maximum Amount of 1. */
	const OVER_LIMIT: Record<string, INodeParameters> = {
		'payout.create': payout('step-po', 5, { maxAmount: 1 }),
		'payout.createAndWait': { ...payout('step-po-wait', 5, { maxAmount: 1 }), operation: 'createAndWait' },
		'payment.createTransfer': { resource: 'payment', operation: 'createTransfer', reference: 'step-pay', amount: 5, currency: 'NGN', customerEmail: 'a@example.com', customerName: 'A B', moneyLimits: { maxAmount: 1 } },
		'payment.createCheckout': { resource: 'payment', operation: 'createCheckout', reference: 'step-co', amount: 5, currency: 'NGN', customerEmail: 'a@example.com', customerName: 'A B', moneyLimits: { maxAmount: 1 } },
		'invoice.create': invoiceCreate('step-inv', { name: 'Rice', quantity: 1, price: 5 }, { maxAmount: 1 }),
	};
	OVER_LIMIT['invoice.createAndWait'] = { ...OVER_LIMIT['invoice.create'], reference: 'step-inv-wait', operation: 'createAndWait' };

	it('every operation that moves money or asks for it is refused by its Money Limits with 0 requests', async () => {
		const { moneyPairs } = await import('../../../nodes/Paycashless/actions/registry');
		const pairs = (['payout', 'payment', 'invoice'] as const).flatMap((kind) => moneyPairs(kind).map(({ resource, operation }) => `${resource}.${operation}`));
		// A new money operation must be added here: then this test shows it passes its money step.
		expect(pairs.sort()).toEqual(Object.keys(OVER_LIMIT).sort());
		for (const [pair, parameters] of Object.entries(OVER_LIMIT)) {
			// A Create and Wait reads its resume URL from n8n before it sends (scripts/harness/operationOutputs.cts does the same).
			const harness = createExecuteContext({ parameters, credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl }, continueOnFail: true });
			Object.assign(harness.context, {
				evaluateExpression: (expression: string) => (expression === '{{ $execution.resumeUrl }}' ? RESUME_URL : undefined),
				putExecutionToWait: async () => undefined,
				getExecuteData: () => ({ data: { main: [[{ json: {} }]] } }),
			});
			const [output] = await new Paycashless().execute.call(harness.context);
			expect([pair, (output[0].json.error as IDataObject | undefined)?.code]).toEqual([pair, 'MAX_AMOUNT']);
		}
		expect(emulator.requests).toHaveLength(0);
	});

	it('a money operation\'s API refuses a body that did not pass the step; reads go through', async () => {
		const { moneyApi } = await import('../../../nodes/Paycashless/money/step');
		const sent: unknown[] = [];
		// The run is not reached: nothing here goes through the money step.
		const api = moneyApi({} as never, {
			request: async (request) => {
				sent.push(request);
				return {};
			},
			paginate: async () => [],
			page: async () => ({ data: [], hasMore: false }),
		});
		await expect(api.request({ method: 'POST', path: '/v1/payouts', body: { reference: 'x' } })).rejects.toThrow(/did not pass the Money Limits step/);
		await expect(api.request({ method: 'PUT', path: '/v1/payouts', body: {} })).rejects.toThrow(/Nothing was sent/);
		await api.request({ method: 'GET', path: '/v1/payouts/verify/x' });
		expect(sent).toHaveLength(1);
	});

	it('a payment reference used again in one execution must ask the same customer', async () => {
		const execution: IDataObject = {};
		const transfer = (email: string) => ({ resource: 'payment', operation: 'createTransfer', reference: 'cust-1', amount: 50, currency: 'NGN', customerEmail: email, customerName: 'A B', moneyLimits: { maxAmount: 100 } });
		await run(transfer('a@example.com'), { nodeContext: execution });
		await run(transfer('A@Example.com'), { nodeContext: execution });
		const other = await refusal(run(transfer('b@example.com'), { nodeContext: execution }));
		expect(other.message).toBe('Refused: the reference "cust-1" was already used in this execution for a different payment');
		expect(emulator.list('payments')).toHaveLength(1);
	});
});
