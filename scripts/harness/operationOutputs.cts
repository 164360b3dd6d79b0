/**
 * Real output items of every operation of the Paycashless node: each operation run by the real
 * node code (./executeContext.cts) against the emulator, waits resumed by the callbacks the
 * emulator really sends. What the output schemas (nodes/Paycashless/__schema__) are derived from
 * (scripts/output-schemas.cts) and checked against (test/unit/node/schemas.test.cts).
 *
 * Each operation is run in the variants a user meets (first run and repeat of a create, a wait
 * while waiting, at its time limit, already settled and resumed, a verified and a refused
 * callback), so the schema holds the fields of every one of them.
 */
import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { startEmulator } from '../../emulator/index.cjs';
import type { EmulatorHandle } from '../../emulator/types.cjs';
import { Paycashless } from '../../nodes/Paycashless/Paycashless.node';
import { PaycashlessTrigger } from '../../nodes/Paycashless/PaycashlessTrigger.node';
import { RESOURCES } from '../../nodes/Paycashless/poll/events';
import { PollHarness } from './pollContext.cjs';
import { createExecuteContext, runNode } from './executeContext.cjs';
import { businessAccountParameters, individualAccountParameters, vatTaxRateParameters } from './fixtures.cjs';
import { runWebhook } from './webhookContext.cjs';

/** `resource/operation` → its output items (json only). */
export type OperationOutputs = Map<string, IDataObject[]>;

/** Every resource/operation pair the node's Operation lists offer (the node's own, not the tool's). */
export function nodeOperations(): Array<{ resource: string; operation: string }> {
	return new Paycashless().description.properties
		.filter((property) => property.name === 'operation' && !(property.displayOptions?.show?.['@tool'] as boolean[] | undefined)?.includes(true))
		.flatMap((property) =>
			((property.displayOptions?.show?.resource as string[] | undefined) ?? []).flatMap((resource) =>
				(property.options as Array<{ value: string }>).map((option) => ({ resource, operation: option.value })),
			),
		);
}

/** Where the emulator sends callbacks in these runs: nothing listens there (the attempt is recorded). */
const RESUME_URL = 'http://127.0.0.1:9/webhook-waiting/42?signature=0123abcd';
const CALLBACK_URL = 'http://127.0.0.1:9/webhook/paycashless';
const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';
const rl = (value: string) => ({ __rl: true, mode: 'id', value });

/** Real outputs of the three nodes: every operation's, the Paycashless Trigger's, and the Poll Trigger's per resource. */
export interface NodeOutputs {
	operations: OperationOutputs;
	/** Paycashless Trigger: one item per callback the emulator sent while the operations ran. */
	trigger: IDataObject[];
	/** Paycashless Poll Trigger: resource → the test events of each of its Events. */
	poll: Map<string, IDataObject[]>;
}

/** Runs every operation against a fresh emulator, then both triggers on what it holds and sent. */
export async function collectNodeOutputs(): Promise<NodeOutputs> {
	const emulator = await startEmulator({ callbackRetries: 0, seed: { payouts: 5, payments: 5, invoices: 5, dedicatedAccounts: 5 } });
	try {
		const operations = await collect(emulator);
		await emulator.callbacksSettled();
		return { operations, trigger: await triggerOutputs(emulator), poll: await pollOutputs(emulator) };
	} finally {
		await emulator.close();
	}
}

/**
 * The Paycashless Trigger fed every callback the emulator signed and sent to CALLBACK_URL (as it
 * was sent: body and headers), with that URL as its Production URL and All Events.
 */
async function triggerOutputs(emulator: EmulatorHandle): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	const trigger = new PaycashlessTrigger();
	for (const attempt of emulator.callbacks.filter((sent) => sent.url === CALLBACK_URL)) {
		const run = await runWebhook(trigger, {
			rawBody: Buffer.from(attempt.body),
			body: JSON.parse(attempt.body) as IDataObject,
			headers: Object.fromEntries(Object.entries(attempt.headers).map(([name, value]) => [name.toLowerCase(), value])),
			requestUrl: new URL(CALLBACK_URL).pathname,
			productionUrl: CALLBACK_URL,
			credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl },
			parameters: {},
		});
		if (run.answer.status !== 200) throw new Error(`the trigger refused a callback the emulator sent (${attempt.event}): ${JSON.stringify(run.answer)}`);
		items.push(...run.items);
	}
	if (items.length === 0) throw new Error('the emulator sent no callback to the trigger');
	return items;
}

/** The Poll Trigger's test event ("Fetch Test Event") for every Event of every resource that has a record. */
async function pollOutputs(emulator: EmulatorHandle): Promise<Map<string, IDataObject[]>> {
	const outputs = new Map<string, IDataObject[]>();
	const credentials = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl };
	for (const [resource, spec] of Object.entries(RESOURCES)) {
		const items: IDataObject[] = [];
		for (const event of spec.events) {
			const parameters: INodeParameters = { resource, event: event.value, statuses: [...(spec.statuses ?? [])], statusNames: '', startFrom: 'now' };
			try {
				items.push(...(await new PollHarness({ parameters, credentials }).manual()));
			} catch {
				// No record for this Event yet ("has no ... to show yet"): the others describe the item.
			}
		}
		if (items.length === 0) throw new Error(`the Poll Trigger found no ${resource} to show`);
		outputs.set(resource, items);
	}
	return outputs;
}

async function collect(emulator: EmulatorHandle): Promise<OperationOutputs> {
	const outputs: OperationOutputs = new Map();
	const credentials = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl };
	const add = (parameters: INodeParameters, items: IDataObject[]) => {
		const key = `${String(parameters.resource)}/${String(parameters.operation)}`;
		outputs.set(key, [...(outputs.get(key) ?? []), ...items]);
		return items;
	};
	const run = async (parameters: INodeParameters, items?: Array<{ json: IDataObject }>) => {
		const { output } = await runNode({ parameters, credentials, items });
		return add(parameters, output.map((item) => item.json));
	};
	/** A wait operation's run: its output, and the item n8n forwards when the time limit passes. */
	const runWait = async (parameters: INodeParameters) => {
		const harness = createExecuteContext({ parameters, credentials });
		const stack = { data: { main: [[{ json: {} }]] } } as { data: { main: Array<Array<{ json: IDataObject }>> } };
		Object.assign(harness.context, {
			evaluateExpression: (expression: string) => (expression === '{{ $execution.resumeUrl }}' ? RESUME_URL : undefined),
			putExecutionToWait: async () => undefined,
			getExecuteData: () => stack,
		});
		const [output] = await new Paycashless().execute.call(harness.context as IExecuteFunctions);
		const timeLimit = stack.data.main[0][0].json;
		return add(parameters, [...output.map((item) => item.json), ...(Object.keys(timeLimit).length > 0 ? [timeLimit] : [])]);
	};
	/** Resumes a wait with the callback the emulator sent for `reference` (the node's webhook). */
	const resume = async (parameters: INodeParameters, reference: string) => {
		await emulator.callbacksSettled();
		const attempt = [...emulator.callbacks].reverse().find((found) => found.url.startsWith(RESUME_URL.split('?')[0]) && found.body.includes(`"${reference}"`));
		if (!attempt) throw new Error(`the emulator sent no callback for ${reference}`);
		const url = new URL(attempt.url);
		const resumed = await runWebhook(new Paycashless(), {
			rawBody: attempt.body,
			headers: attempt.headers,
			requestUrl: `${url.pathname}${url.search}`,
			credentials,
			parameters: { ...parameters, __paycashlessResumeUrl: RESUME_URL, __paycashlessAwaitedReference: reference },
		});
		if (resumed.items.length === 0) throw new Error(`the callback for ${reference} did not resume the wait: ${JSON.stringify(resumed.answer)}`);
		return add(parameters, resumed.items);
	};

	// Bank Account
	await run({ resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: '044' });

	// Payout: create (first run, repeat), get and verify (pending, succeeded, failed), get many; create
	// and wait (waiting, time limit, resumed succeeded and failed, already final).
	const payout: INodeParameters = {
		resource: 'payout',
		operation: 'create',
		reference: 'schema-payout-1',
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
	};
	const [createdPayout] = await run(payout);
	await run(payout);
	const [failedPayout] = await run({ ...payout, reference: 'schema-payout-2' });
	const getAndVerifyPayouts = async () => {
		for (const [found, reference] of [[createdPayout, 'schema-payout-1'], [failedPayout, 'schema-payout-2']] as const) {
			await run({ resource: 'payout', operation: 'get', payoutId: rl(String(found.id)) });
			await run({ resource: 'payout', operation: 'verify', reference });
		}
	};
	await getAndVerifyPayouts();
	await emulator.completePayout('schema-payout-1', 'succeeded');
	await emulator.completePayout('schema-payout-2', 'failed');
	await getAndVerifyPayouts();
	await run({ resource: 'payout', operation: 'getAll', returnAll: true });
	// Check Batch: one already paid, one to pay under a period limit, one refused.
	await run({ ...payout, operation: 'checkBatch' });
	await run({ ...payout, operation: 'checkBatch', reference: 'schema-payout-check', moneyLimits: { maxAmount: 100000, periodTotal: 1000000, maxTotal: 500000, maxCount: 10, periodCount: 100 } });
	await run({ ...payout, operation: 'checkBatch', reference: 'schema-payout-check', moneyLimits: { maxAmount: 1 } });
	for (const [reference, status] of [['schema-payout-wait', 'succeeded'], ['schema-payout-wait-2', 'failed']]) {
		const payoutWait: INodeParameters = { ...payout, operation: 'createAndWait', reference, waitTimeLimit: 1, waitTimeLimitUnit: 'hours' };
		await runWait(payoutWait);
		await emulator.completePayout(reference, status);
		await resume(payoutWait, reference);
		await runWait(payoutWait);
	}

	// Payment: transfer, checkout (first run, repeat), get, verify, get many; wait for payment.
	const payment = (operation: string, reference: string, amount: number, currency: string, additionalFields: INodeParameters): INodeParameters => ({
		resource: 'payment',
		operation,
		reference,
		amount,
		currency,
		customerEmail: 'ada@example.com',
		customerName: 'Ada Obi',
		additionalFields,
	});
	const transfer = payment('createTransfer', 'schema-transfer-1', 7500, 'NGN', { callbackUrl: RESUME_URL, metadata: { metadataValues: [{ key: 'order', value: '1001' }] } });
	const [createdTransfer] = await run(transfer);
	await run(transfer);
	const checkout = payment('createCheckout', 'schema-checkout-1', 250, 'USD', { returnUrl: 'https://shop.example.com/thanks', callbackUrl: CALLBACK_URL });
	const [createdCheckout] = await run(checkout);
	await run(checkout);
	await run({ resource: 'payment', operation: 'getAll', returnAll: true });
	await emulator.completePayment('schema-checkout-1', 'succeeded');
	for (const [found, reference] of [[createdTransfer, 'schema-transfer-1'], [createdCheckout, 'schema-checkout-1']] as const) {
		await run({ resource: 'payment', operation: 'get', paymentId: rl(String(found.id)) });
		await run({ resource: 'payment', operation: 'verify', reference });
	}
	await run({ resource: 'payment', operation: 'getAll', returnAll: true });
	const waitForPayment: INodeParameters = { resource: 'payment', operation: 'waitForPayment', reference: 'schema-transfer-1', waitTimeLimit: 2, waitTimeLimitUnit: 'hours' };
	await runWait(waitForPayment);
	await emulator.completePayment('schema-transfer-1', 'succeeded');
	await resume(waitForPayment, 'schema-transfer-1');
	await runWait(waitForPayment);

	// Tax Rate (updated after the invoices that use it: an inactive rate is refused)
	const [taxRate] = await run({ ...vatTaxRateParameters, additionalFields: { description: 'Nigerian VAT', metadata: { metadataValues: [{ key: 'k', value: 'v' }] } } });

	// Invoice: create (first run, repeat), get, cancel, get many; create and wait.
	const invoice: INodeParameters = {
		resource: 'invoice',
		operation: 'create',
		reference: 'schema-invoice-1',
		invoiceDescription: 'May services',
		currency: 'NGN',
		customerEmail: 'client@example.com',
		customerName: 'Client Ltd',
		items: { itemValues: [{ name: 'Design', description: 'Logo', quantity: 2, price: 1500.5 }] },
		daysUntilDue: 14,
		additionalFields: { callbackUrl: CALLBACK_URL, taxRateIds: String(taxRate.id), metadata: { metadataValues: [{ key: 'project', value: 'p1' }] } },
	};
	const [createdInvoice] = await run(invoice);
	await run(invoice);
	await run({ resource: 'invoice', operation: 'get', invoiceId: rl(String(createdInvoice.id)) });
	await run({ resource: 'invoice', operation: 'cancel', invoiceId: rl(String(createdInvoice.id)), cancellationReason: 'Order withdrawn' });
	await run({ resource: 'invoice', operation: 'getAll', returnAll: true });
	const invoiceWait: INodeParameters = {
		...invoice,
		operation: 'createAndWait',
		reference: 'schema-invoice-wait',
		additionalFields: {},
		waitTimeLimit: 2,
		waitTimeLimitUnit: 'hours',
	};
	await runWait(invoiceWait);
	await emulator.payInvoice('schema-invoice-wait');
	await resume(invoiceWait, 'schema-invoice-wait');
	await runWait(invoiceWait);

	await run({ resource: 'taxRate', operation: 'update', taxRateId: String(taxRate.id), updateFields: { name: 'VAT 2025', active: false } });

	// Dedicated Account: create (individual, business), request status before and after activation, get, get many.
	const [requested] = await run({ ...individualAccountParameters, additionalFields: { callbackUrl: CALLBACK_URL } });
	await run(businessAccountParameters);
	const code = String(requested.accountRequestCode);
	await run({ resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode: code });
	await emulator.activateAccountRequest(code);
	const [status] = await run({ resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode: code });
	await run({ resource: 'dedicatedAccount', operation: 'get', dedicatedAccountId: rl(String((status.account as IDataObject).id)) });
	await run({ resource: 'dedicatedAccount', operation: 'getAll', returnAll: true });

	// Callback → Verify: a genuine callback the emulator sent (verified) and an altered one (flagged).
	// (schema-payout-1 was sent to CALLBACK_URL and completed above.)
	await emulator.callbacksSettled();
	const sent = emulator.callbacks.find((attempt) => attempt.url === CALLBACK_URL && attempt.event.startsWith('PAYOUT_'));
	if (!sent) throw new Error('the emulator sent no payout callback to verify');
	const verify: INodeParameters = { resource: 'callback', operation: 'verify', expectedCallbackUrl: CALLBACK_URL, rawBodyBinaryProperty: '', onInvalid: 'flag' };
	const body = JSON.parse(sent.body) as IDataObject;
	await run(verify, [{ json: { headers: sent.headers, body } }]);
	await run(verify, [{ json: { headers: sent.headers, body: { ...body, data: { ...(body.data as IDataObject), amount: 1 } } } }]);

	return outputs;
}
