/**
 * The run table: one entry per operation of the Paycashless node, what it runs against the emulator
 * (its parameters, in the variants a user meets), what it seeds or settles there, and what its output
 * must be. Each entry runs alone, in any order: it seeds what it needs in the emulator itself
 * (./seed.cts: signed requests to the emulator's API, not the node), on an empty emulator as well
 * as after every other entry (test/unit/node/runTable.test.cts runs them each alone and all in a
 * shuffled order). Every runtime reads it:
 * - the fake n8n contexts (./operationOutputs.cts): the output schemas the package ships are
 *   generated from what the entries output there (`npm run schemas`, scripts/output-schemas.cts;
 *   test/unit/node/schemas.test.cts checks them), every entry, in this order;
 * - n8n's engine in the test process (test/engine/operations.test.cts, n8n-core 2.41 and 1.123):
 *   every entry, each alone, its waits paused and resumed by the emulator's callback;
 * - a real n8n 2.41 (test/e2e/n8n.test.cts, single process and queue mode): the entries marked
 *   `inN8n`, each saying why (what a real n8n adds to the engine: the package installed by n8n,
 *   the credential from its database, the run through its server, a queue-mode worker).
 *
 * A new operation is one entry here. `expect` is jest's in the tests and the `expect` package's in
 * the script: the checks hold wherever the entry runs.
 */
import { randomUUID } from 'crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { accountName, BANKS } from '../../emulator/banks.cjs';
import type { EmulatorHandle } from '../../emulator/types.cjs';
import { businessAccountParameters, individualAccountParameters } from './fixtures.cjs';
import {
	ACCESS_BANK,
	CALLBACK_URL,
	seedAccountRequest,
	seedCheckout,
	seedDedicatedAccount,
	seedInvoice,
	seedPayout,
	seedTaxRate,
	seedTransferPayment,
} from './seed.cjs';

/** What the emulator holds before the schemas' run and the suites' (each entry needs none of it). */
export const RUN_SEED = { payouts: 5, payments: 5, invoices: 5, dedicatedAccounts: 5 };

const GTB = BANKS.find((bank) => bank.cbnCode === '058')!;
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 12)}`;

/** What every runtime gives an entry. */
export interface RunContext {
	emulator: EmulatorHandle;
	expect: jest.Expect;
	/** One node run over `items` (default: one empty item) with these parameters: its output items. */
	run(parameters: INodeParameters, items?: Array<{ json: IDataObject }>): Promise<IDataObject[]>;
	/** The resume URL this runtime gives a waiting execution (a payment made for Wait for Payment calls it). */
	resumeUrl: string;
	/** A wait operation's run: its output while it waits, and the item n8n forwards when the time limit passes. */
	runWait(parameters: INodeParameters): Promise<IDataObject[]>;
	/** Resumes the wait for `reference` with the callback the emulator sent it (the node's webhook): its output. */
	resume(parameters: INodeParameters, reference: string): Promise<IDataObject[]>;
}

export interface OperationRun {
	resource: string;
	operation: string;
	/** Words after "Resource → Operation" in a test's title. */
	title?: string;
	/** Why it also runs in a real n8n (every entry runs in the fake contexts and n8n's engine). */
	inN8n?: string;
	run(context: RunContext): Promise<void>;
}

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
		inN8n: 'a read with a query, signed without a body by the credential n8n stored',
		async run({ run, expect }) {
			const [item] = await run({ resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: GTB.nibssCode });
			expect(item).toMatchObject({ accountNumber: '0123456789', accountName: accountName('0123456789', GTB.id), bank: { id: GTB.id } });
		},
	},
	{
		resource: 'payout',
		operation: 'create',
		title: '(first run and repeat)',
		inN8n: 'money leaves: a signed body, Money Limits read from the node n8n stored, the repeat found by its reference (on a queue-mode worker too)',
		async run(context) {
			const { run, expect, emulator } = context;
			const reference = unique('po');
			const [item, ...rest] = await run(payoutParameters(reference));
			expect(rest).toHaveLength(0);
			expect(item).toMatchObject({ reference, status: 'pending' });
			expect(String(item.id)).toMatch(/^po_/);
			expect(emulator.list('payouts').find((payout) => payout.reference === reference)).toMatchObject({ amount: 150050, destinationAccountNumber: '0123456789', receiptEmail: 'payee@example.com' });
			await repeated(context, payoutParameters(reference), item);
		},
	},
	{
		resource: 'payout',
		operation: 'verify',
		title: '(by reference)',
		async run({ run, expect, emulator }) {
			const reference = unique('po');
			const payout = await seedPayout(emulator, reference);
			const [item] = await run({ resource: 'payout', operation: 'verify', reference });
			expect(item).toMatchObject({ id: payout.id, reference, amount: 150050, currency: 'NGN', destinationAccountNumber: '0123456789', narration: 'Rent', status: 'pending' });
		},
	},
	{
		resource: 'payout',
		operation: 'get',
		title: '(pending, then final; Verify once final too)',
		async run({ run, expect, emulator }) {
			const payouts = [await seedPayout(emulator, unique('po')), await seedPayout(emulator, unique('po-failed'))];
			const read = async (operation: 'get' | 'verify', payout: IDataObject) =>
				(await run(operation === 'get' ? { resource: 'payout', operation, payoutId: byId(String(payout.id)) } : { resource: 'payout', operation, reference: String(payout.reference) }))[0];
			for (const payout of payouts) expect(await read('get', payout)).toMatchObject({ id: payout.id, reference: payout.reference, amount: 150050, status: 'pending' });
			const statuses = ['succeeded', 'failed'];
			for (const [index, payout] of payouts.entries()) await emulator.completePayout(String(payout.reference), statuses[index]);
			for (const [index, payout] of payouts.entries()) {
				expect(await read('get', payout)).toMatchObject({ id: payout.id, status: statuses[index] });
				expect(await read('verify', payout)).toMatchObject({ id: payout.id, status: statuses[index] });
			}
		},
	},
	{
		resource: 'payout',
		operation: 'getAll',
		title: '(all, and filtered by destination account)',
		async run({ run, expect, emulator }) {
			const payout = await seedPayout(emulator, unique('po'));
			const all = await run({ resource: 'payout', operation: 'getAll', returnAll: true });
			expect(all.map((found) => found.id).sort()).toEqual(emulator.list('payouts').map((found) => found.id).sort());
			const items = await run({ resource: 'payout', operation: 'getAll', returnAll: true, filters: { destinationAccountNumber: '0123456789' } });
			const expected = emulator.list('payouts').filter((found) => found.destinationAccountNumber === '0123456789');
			expect(items.map((found) => found.id).sort()).toEqual(expected.map((found) => found.id).sort());
			expect(items.map((found) => found.id)).toContain(payout.id);
		},
	},
	{
		resource: 'payout',
		operation: 'batchStatus',
		async run({ run, expect, emulator }) {
			// A batch of two, settled on the emulator: one paid, one failed (with how to pay it again); a batch id nobody wrote: nothing, settled.
			const prefix = `${unique('po-batch')}-`;
			await seedPayout(emulator, `${prefix}1`);
			await seedPayout(emulator, `${prefix}2`);
			await emulator.completePayout(`${prefix}1`, 'succeeded');
			await emulator.completePayout(`${prefix}2`, 'failed');
			const [batch] = await run({ resource: 'payout', operation: 'batchStatus', findBatchBy: 'referencePrefix', referencePrefix: prefix });
			expect(batch).toMatchObject({ rows: 2, paid: 1, pending: 0, notPaid: 1, settled: true, failures: [expect.objectContaining({ reference: `${prefix}2`, status: 'failed' })] });
			const [none] = await run({ resource: 'payout', operation: 'batchStatus', findBatchBy: 'batchId', batchId: '0000000000000000' });
			expect(none).toMatchObject({ rows: 0, settled: true });
		},
	},
	{
		resource: 'payout',
		operation: 'checkBatch',
		async run({ run, expect, emulator }) {
			// One already paid, one to pay under a period limit, one refused.
			const paidReference = unique('po');
			await seedPayout(emulator, paidReference);
			const [paid] = await run({ ...payoutParameters(paidReference), operation: 'checkBatch' });
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
			const { run, expect } = context;
			const reference = unique('pay');
			const parameters = payment('createTransfer', reference, 2500.75, 'NGN', ['bola@example.com', 'Bola Ade'], { callbackUrl: CALLBACK_URL, metadata: { metadataValues: [{ key: 'order', value: '1001' }] } });
			const [item] = await run(parameters);
			expect(item).toMatchObject({ reference, amount: { value: 250075, currency: 'NGN' } });
			expect(String(item.accountNumber)).toMatch(/^\d{10}$/);
			expect(String(item.id)).toMatch(/^pi_/);
			await repeated(context, parameters, item);
		},
	},
	{
		resource: 'payment',
		operation: 'createCheckout',
		title: '(first run and repeat)',
		async run(context) {
			const { run, expect } = context;
			const reference = unique('chk');
			const parameters = payment('createCheckout', reference, 99.99, 'USD', ['chi@example.com', 'Chi Eze'], { returnUrl: 'https://shop.example.com/thanks', callbackUrl: CALLBACK_URL });
			const [item] = await run(parameters);
			expect(item).toMatchObject({ reference, amount: { value: 9999, currency: 'USD' }, returnUrl: 'https://shop.example.com/thanks' });
			expect(String(item.authorizationUrl)).toMatch(/^https?:\/\//);
			await repeated(context, parameters, item);
		},
	},
	{
		resource: 'payment',
		operation: 'getAll',
		title: '(a limit, and all)',
		inN8n: 'a list paged by n8n\'s request helper, one output item per record',
		async run({ run, expect, emulator }) {
			while (emulator.list('payments').length < 7) await seedTransferPayment(emulator, unique('pay'));
			const items = await run({ resource: 'payment', operation: 'getAll', returnAll: false, limit: 7 });
			expect(items).toHaveLength(7);
			expect(new Set(items.map((found) => found.id)).size).toBe(7);
			expect(await run({ resource: 'payment', operation: 'getAll', returnAll: true })).toHaveLength(emulator.list('payments').length);
		},
	},
	{
		resource: 'payment',
		operation: 'get',
		title: '(a transfer pending, a checkout paid)',
		async run({ run, expect, emulator }) {
			const transfer = await seedTransferPayment(emulator, unique('pay'));
			const checkout = await seedCheckout(emulator, unique('chk'));
			await emulator.completePayment(String(checkout.reference), 'succeeded');
			const [item] = await run({ resource: 'payment', operation: 'get', paymentId: byId(String(transfer.id)) });
			expect(item).toMatchObject({ id: transfer.id, reference: transfer.reference, expectedAmount: 250075, currency: 'NGN' });
			const [paid] = await run({ resource: 'payment', operation: 'get', paymentId: byId(String(checkout.id)) });
			expect(paid).toMatchObject({ id: checkout.id, reference: checkout.reference, status: 'succeeded' });
		},
	},
	{
		resource: 'payment',
		operation: 'verify',
		title: '(by reference)',
		async run({ run, expect, emulator }) {
			const transfer = await seedTransferPayment(emulator, unique('pay'));
			const checkout = await seedCheckout(emulator, unique('chk'));
			await emulator.completePayment(String(checkout.reference), 'succeeded');
			for (const seeded of [transfer, checkout]) {
				const [item] = await run({ resource: 'payment', operation: 'verify', reference: String(seeded.reference) });
				expect(item).toMatchObject({ id: seeded.id, reference: seeded.reference });
			}
			await run({ resource: 'payment', operation: 'getAll', returnAll: true });
		},
	},
	{
		resource: 'payment',
		operation: 'waitForPayment',
		async run({ runWait, resume, emulator, expect, resumeUrl }) {
			const reference = unique('pay');
			await seedTransferPayment(emulator, reference, resumeUrl);
			const waitForPayment: INodeParameters = { resource: 'payment', operation: 'waitForPayment', reference, waitTimeLimit: 2, waitTimeLimitUnit: 'hours' };
			await runWait(waitForPayment);
			await emulator.completePayment(reference, 'succeeded');
			const [resumed] = await resume(waitForPayment, reference);
			expect(resumed).toMatchObject({ reference });
			await runWait(waitForPayment);
		},
	},
	{
		resource: 'taxRate',
		operation: 'create',
		async run({ run, expect }) {
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
		},
	},
	{
		resource: 'invoice',
		operation: 'create',
		title: '(line items in naira, a tax rate; first run and repeat) returns hostedInvoiceUrl',
		inN8n: 'a create whose answer the node completes: line items in naira, a tax rate seeded before it',
		async run(context) {
			const { run, expect, emulator } = context;
			const taxRateId = String((await seedTaxRate(emulator, unique('VAT'))).id);
			const reference = unique('inv');
			const [item] = await run(invoiceParameters(reference, taxRateId));
			expect(item).toMatchObject({ reference, currency: 'NGN', taxRateIds: [taxRateId] });
			expect(item.items).toEqual([
				expect.objectContaining({ name: 'Consulting', quantity: 2, price: 150050 }),
				expect.objectContaining({ name: 'Travel', quantity: 1, price: 25000 }),
			]);
			expect(String(item.hostedInvoiceUrl)).toMatch(/^https?:\/\//);
			expect(String(item.id)).toMatch(/^inv_/);
			expect(emulator.list('invoices').find((invoice) => invoice.id === item.id)).toMatchObject({ reference, amountDue: item.amountDue });
			await repeated(context, invoiceParameters(reference, taxRateId), item);
		},
	},
	{
		resource: 'invoice',
		operation: 'get',
		async run({ run, expect, emulator }) {
			const invoice = await seedInvoice(emulator, unique('inv'), [String((await seedTaxRate(emulator, unique('VAT'))).id)]);
			const [item] = await run({ resource: 'invoice', operation: 'get', invoiceId: byId(String(invoice.id)) });
			expect(item).toMatchObject({ id: invoice.id, reference: invoice.reference, taxRates: [expect.objectContaining({ percentage: 7.5 })] });
		},
	},
	{
		resource: 'invoice',
		operation: 'cancel',
		async run({ run, expect, emulator }) {
			const invoice = await seedInvoice(emulator, unique('inv'), [String((await seedTaxRate(emulator, unique('VAT'))).id)]);
			const [item] = await run({ resource: 'invoice', operation: 'cancel', invoiceId: byId(String(invoice.id)), cancellationReason: 'Order withdrawn' });
			expect(item).toMatchObject({ id: invoice.id, status: 'cancelled' });
			expect(emulator.list('invoices').find((found) => found.id === invoice.id)).toMatchObject({ status: 'cancelled' });
		},
	},
	{
		resource: 'invoice',
		operation: 'getAll',
		title: '(all, a limit, and a reference filter)',
		async run({ run, expect, emulator }) {
			const invoice = await seedInvoice(emulator, unique('inv'), [String((await seedTaxRate(emulator, unique('VAT'))).id)]);
			while (emulator.list('invoices').length < 5) await seedInvoice(emulator, unique('inv'));
			await run({ resource: 'invoice', operation: 'getAll', returnAll: true });
			const limited = await run({ resource: 'invoice', operation: 'getAll', returnAll: false, limit: 5 });
			expect(limited).toHaveLength(5);
			expect(limited.every((found) => String(found.id).startsWith('inv_'))).toBe(true);
			const filtered = await run({ resource: 'invoice', operation: 'getAll', returnAll: true, filters: { reference: String(invoice.reference) } });
			expect(filtered.map((found) => found.id)).toEqual([invoice.id]);
		},
	},
	{
		resource: 'invoice',
		operation: 'createAndWait',
		async run({ runWait, resume, emulator, expect }) {
			const reference = unique('inv-wait');
			const invoiceWait: INodeParameters = { ...invoiceParameters(reference, ''), operation: 'createAndWait', additionalFields: {}, waitTimeLimit: 2, waitTimeLimitUnit: 'hours' };
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
		title: '(renamed and deactivated)',
		inN8n: 'a PUT: a write one item at a time, as its declaration says, through n8n',
		async run({ run, expect, emulator }) {
			const taxRateId = String((await seedTaxRate(emulator, unique('VAT'))).id);
			const name = unique('VAT renamed');
			const [item] = await run({ resource: 'taxRate', operation: 'update', taxRateId, updateFields: { name, description: 'updated', active: false } });
			expect(item).toMatchObject({ id: taxRateId, name, description: 'updated', percentage: 7.5, active: false });
			expect(emulator.list('taxRates').find((rate) => rate.id === taxRateId)).toMatchObject({ name });
		},
	},
	{
		resource: 'dedicatedAccount',
		operation: 'create',
		title: '(individual, business)',
		async run({ run, expect }) {
			const [item] = await run({ ...individualAccountParameters, additionalFields: { callbackUrl: CALLBACK_URL } });
			expect(item).toMatchObject({ status: 'awaiting_customer_consent' });
			expect(String(item.accountRequestCode)).toMatch(/^acc_req_/);
			const [business] = await run(businessAccountParameters);
			expect(String(business.accountRequestCode)).toMatch(/^acc_req_/);
		},
	},
	{
		resource: 'dedicatedAccount',
		operation: 'getRequestStatus',
		async run({ run, expect, emulator }) {
			const accountRequestCode = await seedAccountRequest(emulator);
			const [pending] = await run({ resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode });
			expect(pending).toMatchObject({ accountRequestCode, status: 'awaiting_customer_consent' });
			await emulator.activateAccountRequest(accountRequestCode);
			const [active] = await run({ resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode });
			expect(active).toMatchObject({ accountRequestCode, account: { currency: 'NGN' } });
			expect(String((active.account as IDataObject).id)).toMatch(/^va_/);
		},
	},
	{
		resource: 'dedicatedAccount',
		operation: 'get',
		async run({ run, expect, emulator }) {
			const account = await seedDedicatedAccount(emulator);
			const [item] = await run({ resource: 'dedicatedAccount', operation: 'get', dedicatedAccountId: byId(account.id) });
			expect(item).toMatchObject(account);
		},
	},
	{
		resource: 'dedicatedAccount',
		operation: 'getAll',
		async run({ run, expect, emulator }) {
			const account = await seedDedicatedAccount(emulator);
			const items = await run({ resource: 'dedicatedAccount', operation: 'getAll', returnAll: true });
			expect(items).toHaveLength(emulator.list('dedicatedAccounts').length);
			expect(items.map((found) => found.id)).toContain(account.id);
		},
	},
	{
		resource: 'callback',
		operation: 'verify',
		title: '(a genuine callback and an altered one)',
		async run({ run, expect, emulator }) {
			// A payout callback the emulator sent to CALLBACK_URL: verified; altered: flagged.
			const reference = unique('po');
			await seedPayout(emulator, reference);
			await emulator.completePayout(reference, 'succeeded');
			await emulator.callbacksSettled();
			const sent = emulator.callbacks.find((attempt) => attempt.url === CALLBACK_URL && attempt.body.includes(`"${reference}"`));
			if (!sent) throw new Error(`the emulator sent no callback for payout ${reference}`);
			const verify: INodeParameters = { resource: 'callback', operation: 'verify', expectedCallbackUrl: CALLBACK_URL, rawBodyBinaryProperty: '', onInvalid: 'flag' };
			const body = JSON.parse(sent.body) as IDataObject;
			const [genuine] = await run(verify, [{ json: { headers: sent.headers, body } }]);
			const [altered] = await run(verify, [{ json: { headers: sent.headers, body: { ...body, data: { ...(body.data as IDataObject), amount: 1 } } } }]);
			expect([genuine.verified, altered.verified]).toEqual([true, false]);
		},
	},
];
