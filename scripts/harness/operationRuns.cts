/**
 * The run table: one entry per operation of the Paycashless node, what it runs against the emulator
 * (its parameters, in the variants a user meets), what it seeds or settles there, and what its output
 * must be. Every runtime reads it, in this order (later entries use what earlier ones made):
 * - the output schemas: scripts/output-schemas.cts and test/unit/node/schemas.test.cts, through
 *   ./operationOutputs.cts (the node's code in fake n8n contexts, the checks included);
 * - real n8n: test/support/suites/operations.cts, in n8n's engine (test/engine/, n8n-core 2.41 and
 *   1.123) and in a real n8n 2.41 (test/e2e/n8n.test.cts, single process and queue mode).
 * An entry marked `inProcess` needs what only the fake contexts give (a wait resumed by the callback
 * the emulator sent, input items): real n8n runs those operations in their own suites (wait.cts,
 * callbackVerify, checkBatch), which the checklist test finds by title.
 *
 * A new operation is one entry here. `expect` is jest's in the tests and the `expect` package's in
 * the script: the checks hold wherever the entry runs.
 */
import { randomUUID } from 'crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { accountName, BANKS } from '../../emulator/banks.cjs';
import type { EmulatorHandle } from '../../emulator/types.cjs';
import { businessAccountParameters, individualAccountParameters } from './fixtures.cjs';

/** Where the emulator sends callbacks in these runs: nothing listens there (the attempt is recorded). */
export const RESUME_URL = 'http://127.0.0.1:9/webhook-waiting/42?signature=0123abcd';
export const CALLBACK_URL = 'http://127.0.0.1:9/webhook/paycashless';
/** What the emulator holds before the first entry. */
export const RUN_SEED = { payouts: 5, payments: 5, invoices: 5, dedicatedAccounts: 5 };

const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';
const GTB = BANKS.find((bank) => bank.cbnCode === '058')!;
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 12)}`;

/** What every runtime gives an entry. */
export interface RunContext {
	emulator: EmulatorHandle;
	expect: jest.Expect;
	/** What earlier entries made (IDs, references), for the later ones. */
	state: Record<string, string>;
	/** One node run over one item with these parameters: its output items. */
	run(parameters: INodeParameters): Promise<IDataObject[]>;
}

/** What the fake contexts give besides: input items, and waits. */
export interface InProcessContext extends RunContext {
	run(parameters: INodeParameters, items?: Array<{ json: IDataObject }>): Promise<IDataObject[]>;
	/** A wait operation's run: its output, and the item n8n forwards when the time limit passes. */
	runWait(parameters: INodeParameters): Promise<IDataObject[]>;
	/** Resumes a wait with the callback the emulator sent for `reference` (the node's webhook). */
	resume(parameters: INodeParameters, reference: string): Promise<IDataObject[]>;
}

interface Entry {
	resource: string;
	operation: string;
	/** Words after "Resource → Operation" in a test's title. */
	title?: string;
}

export type OperationRun = Entry & ({ inProcess?: false; run(context: RunContext): Promise<void> } | { inProcess: true; run(context: InProcessContext): Promise<void> });

const payoutParameters = (reference: string): INodeParameters => ({
	resource: 'payout',
	operation: 'create',
	reference,
	amount: 1500.5,
	currency: 'NGN',
	destinationAccountNumber: '0123456789',
	bankId: ACCESS_BANK,
	additionalFields: {
		narration: 'Rent',
		callbackUrl: CALLBACK_URL,
		metadata: { metadataValues: [{ key: 'category', value: 'rent' }] },
		additionalBodyJson: '{"receiptEmail": "payee@example.com"}',
	},
});

const payment = (operation: string, reference: string, amount: number, currency: string, customer: [string, string], additionalFields: INodeParameters): INodeParameters => ({
	resource: 'payment',
	operation,
	reference,
	amount,
	currency,
	customerEmail: customer[0],
	customerName: customer[1],
	additionalFields,
});

const invoiceParameters = (reference: string, taxRateId: string): INodeParameters => ({
	resource: 'invoice',
	operation: 'create',
	reference,
	invoiceDescription: 'May services',
	currency: 'NGN',
	customerEmail: 'client@example.com',
	customerName: 'Client Ltd',
	items: { itemValues: [{ name: 'Consulting', description: 'Two hours', quantity: 2, price: 1500.5 }, { name: 'Travel', description: '', quantity: 1, price: 250 }] },
	daysUntilDue: 14,
	additionalFields: { callbackUrl: CALLBACK_URL, taxRateIds: taxRateId, metadata: { metadataValues: [{ key: 'project', value: 'p1' }] } },
});

/** A create run a second time: the same record found by its reference, nothing created again. */
async function repeated(context: RunContext, parameters: INodeParameters, first: IDataObject): Promise<void> {
	const [again, ...rest] = await context.run(parameters);
	context.expect(rest).toHaveLength(0);
	context.expect(again).toMatchObject({ id: first.id, _paycashless: { repeated: true } });
}

export const OPERATION_RUNS: OperationRun[] = [
	{
		resource: 'bankAccount',
		operation: 'lookUp',
		async run({ run, expect }) {
			const [item] = await run({ resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: GTB.nibssCode });
			expect(item).toMatchObject({ accountNumber: '0123456789', accountName: accountName('0123456789', GTB.id), bank: { id: GTB.id } });
		},
	},
	{
		resource: 'payout',
		operation: 'create',
		title: '(first run and repeat)',
		async run(context) {
			const { run, expect, emulator, state } = context;
			for (const [key, prefix] of [['payout', 'po'], ['failedPayout', 'po-failed']]) {
				const reference = unique(prefix);
				const [item, ...rest] = await run(payoutParameters(reference));
				expect(rest).toHaveLength(0);
				expect(item).toMatchObject({ reference, status: 'pending' });
				expect(String(item.id)).toMatch(/^po_/);
				expect(emulator.list('payouts').find((payout) => payout.reference === reference)).toMatchObject({ amount: 150050, destinationAccountNumber: '0123456789', receiptEmail: 'payee@example.com' });
				if (key === 'payout') await repeated(context, payoutParameters(reference), item);
				state[`${key}Id`] = String(item.id);
				state[`${key}Reference`] = reference;
			}
		},
	},
	{
		resource: 'payout',
		operation: 'verify',
		title: '(by reference)',
		async run({ run, expect, state }) {
			const [item] = await run({ resource: 'payout', operation: 'verify', reference: state.payoutReference });
			expect(item).toMatchObject({ id: state.payoutId, reference: state.payoutReference, amount: 150050, currency: 'NGN', destinationAccountNumber: '0123456789', narration: 'Rent' });
			const [failed] = await run({ resource: 'payout', operation: 'verify', reference: state.failedPayoutReference });
			expect(failed).toMatchObject({ id: state.failedPayoutId, status: 'pending' });
		},
	},
	{
		resource: 'payout',
		operation: 'get',
		title: '(pending, then final; Verify once final too)',
		async run({ run, expect, state, emulator }) {
			const read = async (operation: 'get' | 'verify', key: string) =>
				(await run(operation === 'get' ? { resource: 'payout', operation, payoutId: byId(state[`${key}Id`]) } : { resource: 'payout', operation, reference: state[`${key}Reference`] }))[0];
			expect(await read('get', 'payout')).toMatchObject({ id: state.payoutId, reference: state.payoutReference, amount: 150050 });
			expect(await read('get', 'failedPayout')).toMatchObject({ id: state.failedPayoutId, status: 'pending' });
			await emulator.completePayout(state.payoutReference, 'succeeded');
			await emulator.completePayout(state.failedPayoutReference, 'failed');
			for (const [key, status] of [['payout', 'succeeded'], ['failedPayout', 'failed']]) {
				expect(await read('get', key)).toMatchObject({ id: state[`${key}Id`], status });
				expect(await read('verify', key)).toMatchObject({ id: state[`${key}Id`], status });
			}
		},
	},
	{
		resource: 'payout',
		operation: 'getAll',
		title: '(all, and filtered by destination account)',
		async run({ run, expect, emulator, state }) {
			const all = await run({ resource: 'payout', operation: 'getAll', returnAll: true });
			expect(all.map((payout) => payout.id).sort()).toEqual(emulator.list('payouts').map((payout) => payout.id).sort());
			const items = await run({ resource: 'payout', operation: 'getAll', returnAll: true, filters: { destinationAccountNumber: '0123456789' } });
			const expected = emulator.list('payouts').filter((payout) => payout.destinationAccountNumber === '0123456789');
			expect(items.map((payout) => payout.id).sort()).toEqual(expected.map((payout) => payout.id).sort());
			expect(items.map((payout) => payout.id)).toContain(state.payoutId);
		},
	},
	{
		resource: 'payout',
		operation: 'batchStatus',
		async run({ run, expect, state }) {
			// The payouts settled above: one paid, one failed (with how to pay it again); a batch id nobody wrote: nothing, settled.
			const [paid] = await run({ resource: 'payout', operation: 'batchStatus', findBatchBy: 'referencePrefix', referencePrefix: state.payoutReference });
			expect(paid).toMatchObject({ rows: 1, paid: 1, pending: 0, notPaid: 0, settled: true });
			const [failed] = await run({ resource: 'payout', operation: 'batchStatus', findBatchBy: 'referencePrefix', referencePrefix: state.failedPayoutReference });
			expect(failed).toMatchObject({ rows: 1, notPaid: 1, failures: [expect.objectContaining({ reference: state.failedPayoutReference, status: 'failed' })] });
			const [none] = await run({ resource: 'payout', operation: 'batchStatus', findBatchBy: 'batchId', batchId: '0000000000000000' });
			expect(none).toMatchObject({ rows: 0, settled: true });
		},
	},
	{
		resource: 'payout',
		operation: 'checkBatch',
		inProcess: true,
		async run({ run, expect, state }) {
			// One already paid, one to pay under a period limit, one refused.
			const [paid] = await run({ ...payoutParameters(state.payoutReference), operation: 'checkBatch' });
			expect(paid).toMatchObject({ count: 0, alreadyPaidCount: 1, refusedCount: 0 });
			const reference = unique('po-check');
			const [toPay] = await run({ ...payoutParameters(reference), operation: 'checkBatch', moneyLimits: { maxAmount: 100000, periodTotal: 1000000, maxTotal: 500000, maxCount: 10, periodCount: 100 } });
			expect(toPay).toMatchObject({ fits: true, count: 1, alreadyPaidCount: 0, refusedCount: 0 });
			const [refused] = await run({ ...payoutParameters(reference), operation: 'checkBatch', moneyLimits: { maxAmount: 1 } });
			expect(refused).toMatchObject({ fits: false, refusedCount: 1 });
		},
	},
	{
		resource: 'payout',
		operation: 'createAndWait',
		inProcess: true,
		async run({ runWait, resume, emulator, expect }) {
			for (const status of ['succeeded', 'failed']) {
				const reference = unique('po-wait');
				const payoutWait: INodeParameters = { ...payoutParameters(reference), operation: 'createAndWait', waitTimeLimit: 1, waitTimeLimitUnit: 'hours' };
				await runWait(payoutWait);
				await emulator.completePayout(reference, status);
				const [resumed] = await resume(payoutWait, reference);
				expect(resumed).toMatchObject({ reference, status });
				await runWait(payoutWait);
			}
		},
	},
	{
		resource: 'payment',
		operation: 'createTransfer',
		title: '(first run and repeat)',
		async run(context) {
			const { run, expect, state } = context;
			const reference = unique('pay');
			const parameters = payment('createTransfer', reference, 2500.75, 'NGN', ['bola@example.com', 'Bola Ade'], { callbackUrl: RESUME_URL, metadata: { metadataValues: [{ key: 'order', value: '1001' }] } });
			const [item] = await run(parameters);
			expect(item).toMatchObject({ reference, amount: { value: 250075, currency: 'NGN' } });
			expect(String(item.accountNumber)).toMatch(/^\d{10}$/);
			expect(String(item.id)).toMatch(/^pi_/);
			await repeated(context, parameters, item);
			state.paymentId = String(item.id);
			state.paymentReference = reference;
		},
	},
	{
		resource: 'payment',
		operation: 'createCheckout',
		title: '(first run and repeat)',
		async run(context) {
			const { run, expect, state } = context;
			const reference = unique('chk');
			const parameters = payment('createCheckout', reference, 99.99, 'USD', ['chi@example.com', 'Chi Eze'], { returnUrl: 'https://shop.example.com/thanks', callbackUrl: CALLBACK_URL });
			const [item] = await run(parameters);
			expect(item).toMatchObject({ reference, amount: { value: 9999, currency: 'USD' }, returnUrl: 'https://shop.example.com/thanks' });
			expect(String(item.authorizationUrl)).toMatch(/^https?:\/\//);
			await repeated(context, parameters, item);
			state.checkoutId = String(item.id);
			state.checkoutReference = reference;
		},
	},
	{
		resource: 'payment',
		operation: 'getAll',
		async run({ run, expect }) {
			const items = await run({ resource: 'payment', operation: 'getAll', returnAll: false, limit: 7 });
			expect(items).toHaveLength(7);
			expect(new Set(items.map((found) => found.id)).size).toBe(7);
			await run({ resource: 'payment', operation: 'getAll', returnAll: true });
		},
	},
	{
		resource: 'payment',
		operation: 'get',
		title: '(the transfer pending, the checkout paid)',
		async run({ run, expect, state, emulator }) {
			await emulator.completePayment(state.checkoutReference, 'succeeded');
			const [item] = await run({ resource: 'payment', operation: 'get', paymentId: byId(state.paymentId) });
			expect(item).toMatchObject({ id: state.paymentId, reference: state.paymentReference, expectedAmount: 250075, currency: 'NGN' });
			const [paid] = await run({ resource: 'payment', operation: 'get', paymentId: byId(state.checkoutId) });
			expect(paid).toMatchObject({ id: state.checkoutId, reference: state.checkoutReference });
		},
	},
	{
		resource: 'payment',
		operation: 'verify',
		title: '(by reference)',
		async run({ run, expect, state }) {
			for (const key of ['payment', 'checkout']) {
				const [item] = await run({ resource: 'payment', operation: 'verify', reference: state[`${key}Reference`] });
				expect(item).toMatchObject({ id: state[`${key}Id`], reference: state[`${key}Reference`] });
			}
			await run({ resource: 'payment', operation: 'getAll', returnAll: true });
		},
	},
	{
		resource: 'payment',
		operation: 'waitForPayment',
		inProcess: true,
		async run({ runWait, resume, emulator, expect, state }) {
			const waitForPayment: INodeParameters = { resource: 'payment', operation: 'waitForPayment', reference: state.paymentReference, waitTimeLimit: 2, waitTimeLimitUnit: 'hours' };
			await runWait(waitForPayment);
			await emulator.completePayment(state.paymentReference, 'succeeded');
			const [resumed] = await resume(waitForPayment, state.paymentReference);
			expect(resumed).toMatchObject({ reference: state.paymentReference });
			await runWait(waitForPayment);
		},
	},
	{
		resource: 'taxRate',
		operation: 'create',
		async run({ run, expect, state }) {
			const name = unique('VAT');
			const [item, ...rest] = await run({
				resource: 'taxRate',
				operation: 'create',
				name,
				percentage: 7.5,
				taxType: 'vat',
				inclusive: false,
				additionalFields: { description: 'Nigerian VAT', metadata: { metadataValues: [{ key: 'k', value: 'v' }] } },
			});
			expect(rest).toHaveLength(0);
			expect(item).toMatchObject({ name, percentage: 7.5, taxType: 'vat', inclusive: false, description: 'Nigerian VAT' });
			expect(String(item.id)).toMatch(/^txr_/);
			state.taxRateId = String(item.id);
		},
	},
	{
		resource: 'invoice',
		operation: 'create',
		title: '(line items in naira, a tax rate; first run and repeat) returns hostedInvoiceUrl',
		async run(context) {
			const { run, expect, emulator, state } = context;
			const reference = unique('inv');
			const [item] = await run(invoiceParameters(reference, state.taxRateId));
			expect(item).toMatchObject({ reference, currency: 'NGN', taxRateIds: [state.taxRateId] });
			expect(item.items).toEqual([
				expect.objectContaining({ name: 'Consulting', quantity: 2, price: 150050 }),
				expect.objectContaining({ name: 'Travel', quantity: 1, price: 25000 }),
			]);
			expect(String(item.hostedInvoiceUrl)).toMatch(/^https?:\/\//);
			expect(String(item.id)).toMatch(/^inv_/);
			expect(emulator.list('invoices').find((invoice) => invoice.id === item.id)).toMatchObject({ reference, amountDue: item.amountDue });
			await repeated(context, invoiceParameters(reference, state.taxRateId), item);
			state.invoiceId = String(item.id);
			state.invoiceReference = reference;
		},
	},
	{
		resource: 'invoice',
		operation: 'get',
		async run({ run, expect, state }) {
			const [item] = await run({ resource: 'invoice', operation: 'get', invoiceId: byId(state.invoiceId) });
			expect(item).toMatchObject({ id: state.invoiceId, reference: state.invoiceReference });
		},
	},
	{
		resource: 'invoice',
		operation: 'cancel',
		async run({ run, expect, emulator, state }) {
			const [item] = await run({ resource: 'invoice', operation: 'cancel', invoiceId: byId(state.invoiceId), cancellationReason: 'Order withdrawn' });
			expect(item).toMatchObject({ id: state.invoiceId, status: 'cancelled' });
			expect(emulator.list('invoices').find((invoice) => invoice.id === state.invoiceId)).toMatchObject({ status: 'cancelled' });
		},
	},
	{
		resource: 'invoice',
		operation: 'getAll',
		title: '(all, a limit, and a reference filter)',
		async run({ run, expect, state }) {
			await run({ resource: 'invoice', operation: 'getAll', returnAll: true });
			const limited = await run({ resource: 'invoice', operation: 'getAll', returnAll: false, limit: 5 });
			expect(limited).toHaveLength(5);
			expect(limited.every((invoice) => String(invoice.id).startsWith('inv_'))).toBe(true);
			const filtered = await run({ resource: 'invoice', operation: 'getAll', returnAll: true, filters: { reference: state.invoiceReference } });
			expect(filtered.map((invoice) => invoice.id)).toEqual([state.invoiceId]);
		},
	},
	{
		resource: 'invoice',
		operation: 'createAndWait',
		inProcess: true,
		async run({ runWait, resume, emulator, expect, state }) {
			const reference = unique('inv-wait');
			const invoiceWait: INodeParameters = { ...invoiceParameters(reference, state.taxRateId), operation: 'createAndWait', additionalFields: {}, waitTimeLimit: 2, waitTimeLimitUnit: 'hours' };
			await runWait(invoiceWait);
			await emulator.payInvoice(reference);
			const [resumed] = await resume(invoiceWait, reference);
			expect(resumed).toMatchObject({ reference });
			await runWait(invoiceWait);
		},
	},
	{
		resource: 'taxRate',
		operation: 'update',
		title: '(after the invoices that use it: an inactive rate is refused)',
		async run({ run, expect, emulator, state }) {
			const name = unique('VAT renamed');
			const [item] = await run({ resource: 'taxRate', operation: 'update', taxRateId: state.taxRateId, updateFields: { name, description: 'updated', active: false } });
			expect(item).toMatchObject({ id: state.taxRateId, name, description: 'updated', percentage: 7.5, active: false });
			expect(emulator.list('taxRates').find((rate) => rate.id === state.taxRateId)).toMatchObject({ name });
		},
	},
	{
		resource: 'dedicatedAccount',
		operation: 'create',
		title: '(individual, business)',
		async run({ run, expect, state }) {
			const [item] = await run({ ...individualAccountParameters, additionalFields: { callbackUrl: CALLBACK_URL } });
			expect(item).toMatchObject({ status: 'awaiting_customer_consent' });
			expect(String(item.accountRequestCode)).toMatch(/^acc_req_/);
			state.accountRequestCode = String(item.accountRequestCode);
			const [business] = await run(businessAccountParameters);
			expect(String(business.accountRequestCode)).toMatch(/^acc_req_/);
		},
	},
	{
		resource: 'dedicatedAccount',
		operation: 'getRequestStatus',
		async run({ run, expect, emulator, state }) {
			const [pending] = await run({ resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode: state.accountRequestCode });
			expect(pending).toMatchObject({ accountRequestCode: state.accountRequestCode, status: 'awaiting_customer_consent' });
			await emulator.activateAccountRequest(state.accountRequestCode);
			const [active] = await run({ resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode: state.accountRequestCode });
			expect(active).toMatchObject({ accountRequestCode: state.accountRequestCode, account: { currency: 'NGN' } });
			expect(String((active.account as IDataObject).id)).toMatch(/^va_/);
			state.dedicatedAccountId = String((active.account as IDataObject).id);
		},
	},
	{
		resource: 'dedicatedAccount',
		operation: 'get',
		async run({ run, expect, state }) {
			const [item] = await run({ resource: 'dedicatedAccount', operation: 'get', dedicatedAccountId: byId(state.dedicatedAccountId) });
			expect(item).toMatchObject({ id: state.dedicatedAccountId, accountRequestCode: state.accountRequestCode });
		},
	},
	{
		resource: 'dedicatedAccount',
		operation: 'getAll',
		async run({ run, expect, emulator, state }) {
			const items = await run({ resource: 'dedicatedAccount', operation: 'getAll', returnAll: true });
			expect(items).toHaveLength(emulator.list('dedicatedAccounts').length);
			expect(items.map((account) => account.id)).toContain(state.dedicatedAccountId);
		},
	},
	{
		resource: 'callback',
		operation: 'verify',
		title: '(a genuine callback and an altered one)',
		inProcess: true,
		async run({ run, expect, emulator }) {
			// A payout callback the emulator sent to CALLBACK_URL (Payout → Create, completed above): verified; altered: flagged.
			await emulator.callbacksSettled();
			const sent = emulator.callbacks.find((attempt) => attempt.url === CALLBACK_URL && attempt.event.startsWith('PAYOUT_'));
			if (!sent) throw new Error('the emulator sent no payout callback to verify');
			const verify: INodeParameters = { resource: 'callback', operation: 'verify', expectedCallbackUrl: CALLBACK_URL, rawBodyBinaryProperty: '', onInvalid: 'flag' };
			const body = JSON.parse(sent.body) as IDataObject;
			const [genuine] = await run(verify, [{ json: { headers: sent.headers, body } }]);
			const [altered] = await run(verify, [{ json: { headers: sent.headers, body: { ...body, data: { ...(body.data as IDataObject), amount: 1 } } } }]);
			expect([genuine.verified, altered.verified]).toEqual([true, false]);
		},
	},
];
