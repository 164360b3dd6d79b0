/**
 * The Paycashless action node's operations against the emulator (the waits: wait.test.cts), one node run each: in a
 * real n8n 2.41 (test/e2e/n8n.test.cts: single process and queue mode) and in n8n's engine in the
 * test process (test/engine/operations.test.cts: n8n-core 2.41 and 1.123). Registered by the file
 * that imports it, with the lab it runs in.
 */
import { randomUUID } from 'crypto';

import { accountName, BANKS } from '../../../emulator/banks.cjs';
import { paycashlessNode, type E2eLab } from '../e2e/harness.cjs';

/** What the operations need: a node run, the credential, the emulator. */
export type OperationsLab = Pick<E2eLab, 'runNode' | 'good' | 'emulator'>;

const GTB = BANKS.find((bank) => bank.cbnCode === '058')!;

function unique(prefix: string): string {
	return `${prefix}-${randomUUID().slice(0, 12)}`;
}

export function describeOperations(where: string, getLab: () => OperationsLab): void {
	describe(`Paycashless action node: the operations ${where}`, () => {
		let lab: OperationsLab;
		const run = (parameters: Record<string, unknown>) => lab.runNode(paycashlessNode(lab.good, parameters));
		const byId = (value: string) => ({ __rl: true, mode: 'id', value });
		const state: Record<string, string> = {};

		beforeAll(() => {
			lab = getLab();
			lab.emulator.reset({ invoices: 12, payments: 12, payouts: 12, dedicatedAccounts: 12 });
		});

		it('Tax Rate → Create', async () => {
			const name = unique('VAT');
			const [item, ...rest] = await run({ resource: 'taxRate', operation: 'create', name, percentage: 7.5, taxType: 'vat', inclusive: false });
			expect(rest).toHaveLength(0);
			expect(item).toMatchObject({ name, percentage: 7.5, taxType: 'vat', inclusive: false });
			expect(String(item.id)).toMatch(/^txr_/);
			state.taxRateId = String(item.id);
		});

		it('Tax Rate → Update', async () => {
			const name = unique('VAT renamed');
			const [item] = await run({ resource: 'taxRate', operation: 'update', taxRateId: state.taxRateId, updateFields: { name, description: 'e2e update' } });
			expect(item).toMatchObject({ id: state.taxRateId, name, description: 'e2e update', percentage: 7.5 });
			expect(lab.emulator.list('taxRates').find((t) => t.id === state.taxRateId)).toMatchObject({ name });
		});

		it('Invoice → Create (line items in naira, a tax rate) returns hostedInvoiceUrl', async () => {
			const reference = unique('inv');
			const [item] = await run({
				resource: 'invoice',
				operation: 'create',
				reference,
				invoiceDescription: 'E2E consulting',
				currency: 'NGN',
				customerEmail: 'ada@example.com',
				customerName: 'Ada Obi',
				items: { itemValues: [{ name: 'Consulting', description: 'Two hours', quantity: 2, price: 1500.5 }, { name: 'Travel', description: '', quantity: 1, price: 250 }] },
				daysUntilDue: 14,
				additionalFields: { taxRateIds: state.taxRateId },
			});
			expect(item).toMatchObject({ reference, currency: 'NGN', taxRateIds: [state.taxRateId] });
			expect(item.items).toEqual([
				expect.objectContaining({ name: 'Consulting', quantity: 2, price: 150050 }),
				expect.objectContaining({ name: 'Travel', quantity: 1, price: 25000 }),
			]);
			expect(String(item.hostedInvoiceUrl)).toMatch(/^https?:\/\//);
			expect(String(item.id)).toMatch(/^inv_/);
			const stored = lab.emulator.list('invoices').find((invoice) => invoice.id === item.id);
			expect(stored).toMatchObject({ reference, amountDue: item.amountDue });
			state.invoiceId = String(item.id);
			state.invoiceReference = reference;
		});

		it('Invoice → Get', async () => {
			const [item] = await run({ resource: 'invoice', operation: 'get', invoiceId: byId(state.invoiceId) });
			expect(item).toMatchObject({ id: state.invoiceId, reference: state.invoiceReference });
		});

		it('Invoice → Get Many (limit, and a reference filter)', async () => {
			const limited = await run({ resource: 'invoice', operation: 'getAll', returnAll: false, limit: 5 });
			expect(limited).toHaveLength(5);
			expect(limited.every((invoice) => String(invoice.id).startsWith('inv_'))).toBe(true);
			const filtered = await run({ resource: 'invoice', operation: 'getAll', returnAll: true, filters: { reference: state.invoiceReference } });
			expect(filtered.map((invoice) => invoice.id)).toEqual([state.invoiceId]);
		});

		it('Invoice → Cancel', async () => {
			const [item] = await run({ resource: 'invoice', operation: 'cancel', invoiceId: byId(state.invoiceId), cancellationReason: 'E2E: raised in error' });
			expect(item).toMatchObject({ id: state.invoiceId, status: 'cancelled' });
			expect(lab.emulator.list('invoices').find((invoice) => invoice.id === state.invoiceId)).toMatchObject({ status: 'cancelled' });
		});

		it('Payment → Create Transfer Payment', async () => {
			const reference = unique('pay');
			const [item] = await run({
				resource: 'payment',
				operation: 'createTransfer',
				reference,
				amount: 2500.75,
				currency: 'NGN',
				customerEmail: 'bola@example.com',
				customerName: 'Bola Ade',
				expiresIn: 1800,
			});
			expect(item).toMatchObject({ reference, amount: { value: 250075, currency: 'NGN' } });
			expect(String(item.accountNumber)).toMatch(/^\d{10}$/);
			expect(String(item.id)).toMatch(/^pi_/);
			state.paymentId = String(item.id);
			state.paymentReference = reference;
		});

		it('Payment → Create Checkout Link', async () => {
			const reference = unique('chk');
			const [item] = await run({
				resource: 'payment',
				operation: 'createCheckout',
				reference,
				amount: 99.99,
				currency: 'USD',
				customerEmail: 'chi@example.com',
				customerName: 'Chi Eze',
				additionalFields: { returnUrl: 'https://shop.example.com/thanks' },
			});
			expect(item).toMatchObject({ reference, amount: { value: 9999, currency: 'USD' }, returnUrl: 'https://shop.example.com/thanks' });
			expect(String(item.authorizationUrl)).toMatch(/^https?:\/\//);
		});

		it('Payment → Get', async () => {
			const [item] = await run({ resource: 'payment', operation: 'get', paymentId: byId(state.paymentId) });
			expect(item).toMatchObject({ id: state.paymentId, reference: state.paymentReference, expectedAmount: 250075, currency: 'NGN' });
		});

		it('Payment → Verify (by reference)', async () => {
			const [item] = await run({ resource: 'payment', operation: 'verify', reference: state.paymentReference });
			expect(item).toMatchObject({ id: state.paymentId, reference: state.paymentReference });
		});

		it('Payment → Get Many', async () => {
			const items = await run({ resource: 'payment', operation: 'getAll', returnAll: false, limit: 7 });
			expect(items).toHaveLength(7);
			expect(new Set(items.map((payment) => payment.id)).size).toBe(7);
		});

		it('Bank Account → Look Up', async () => {
			const [item] = await run({ resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: GTB.nibssCode });
			expect(item).toMatchObject({ accountNumber: '0123456789', accountName: accountName('0123456789', GTB.id), bank: { id: GTB.id } });
		});

		it('Payout → Create', async () => {
			const reference = unique('po');
			const [item] = await run({
				resource: 'payout',
				operation: 'create',
				reference,
				amount: 1000,
				currency: 'NGN',
				destinationAccountNumber: '0123456789',
				bankId: GTB.id,
				additionalFields: { narration: 'E2E payout' },
			});
			expect(item).toMatchObject({ reference, status: 'pending' });
			expect(String(item.id)).toMatch(/^po_/);
			expect(lab.emulator.list('payouts').find((payout) => payout.reference === reference)).toMatchObject({ amount: 100000, destinationAccountNumber: '0123456789' });
			state.payoutId = String(item.id);
			state.payoutReference = reference;
		});

		it('Payout → Verify (by reference)', async () => {
			const [item] = await run({ resource: 'payout', operation: 'verify', reference: state.payoutReference });
			expect(item).toMatchObject({ id: state.payoutId, reference: state.payoutReference, amount: 100000, currency: 'NGN', destinationAccountNumber: '0123456789', narration: 'E2E payout' });
		});

		it('Payout → Get', async () => {
			const [item] = await run({ resource: 'payout', operation: 'get', payoutId: byId(state.payoutId) });
			expect(item).toMatchObject({ id: state.payoutId, reference: state.payoutReference, amount: 100000 });
		});

		it('Payout → Get Many (filtered by destination account)', async () => {
			const items = await run({ resource: 'payout', operation: 'getAll', returnAll: true, filters: { destinationAccountNumber: '0123456789' } });
			const expected = lab.emulator.list('payouts').filter((payout) => payout.destinationAccountNumber === '0123456789');
			expect(items.map((payout) => payout.id).sort()).toEqual(expected.map((payout) => payout.id).sort());
			expect(items.map((payout) => payout.id)).toContain(state.payoutId);
		});

		it('Dedicated Account → Create (individual)', async () => {
			const [item] = await run({
				resource: 'dedicatedAccount',
				operation: 'create',
				accountType: 'individual',
				currency: 'NGN',
				preferredBank: 'safehaven_mfb',
				email: 'dayo@example.com',
				firstName: 'Dayo',
				lastName: 'Bello',
				phoneNumber: '+2348012345678',
				dateOfBirth: '1990-04-25',
				bvn: '22212345678',
			});
			expect(item).toMatchObject({ status: 'awaiting_customer_consent' });
			expect(String(item.accountRequestCode)).toMatch(/^acc_req_/);
			state.accountRequestCode = String(item.accountRequestCode);
		});

		it('Dedicated Account → Get Request Status', async () => {
			const [pending] = await run({ resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode: state.accountRequestCode });
			expect(pending).toMatchObject({ accountRequestCode: state.accountRequestCode, status: 'awaiting_customer_consent' });
			await lab.emulator.activateAccountRequest(state.accountRequestCode);
			const [active] = await run({ resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode: state.accountRequestCode });
			expect(active).toMatchObject({ accountRequestCode: state.accountRequestCode, account: { currency: 'NGN' } });
			expect(String((active.account as Record<string, unknown>).id)).toMatch(/^va_/);
			state.dedicatedAccountId = String((active.account as Record<string, unknown>).id);
		});

		it('Dedicated Account → Get', async () => {
			const [item] = await run({ resource: 'dedicatedAccount', operation: 'get', dedicatedAccountId: byId(state.dedicatedAccountId) });
			expect(item).toMatchObject({ id: state.dedicatedAccountId, accountRequestCode: state.accountRequestCode });
		});

		it('Dedicated Account → Get Many', async () => {
			const items = await run({ resource: 'dedicatedAccount', operation: 'getAll', returnAll: true });
			expect(items).toHaveLength(lab.emulator.list('dedicatedAccounts').length);
			expect(items.map((account) => account.id)).toContain(state.dedicatedAccountId);
		});

		it('Get Many with Return All over 1,000 records returns exactly 1,000 items, 100 per page', async () => {
			lab.emulator.reset({ payouts: 1000 });
			const items = await run({ resource: 'payout', operation: 'getAll', returnAll: true });
			expect(items).toHaveLength(1000);
			expect(new Set(items.map((payout) => payout.id)).size).toBe(1000);
			const pages = lab.emulator.requests.filter((r) => r.method === 'GET' && r.path === '/v1/payouts');
			expect(pages).toHaveLength(10);
			expect(pages.every((page) => page.query.limit === '100' && page.status === 200)).toBe(true);
		});
	});
}
