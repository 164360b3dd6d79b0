/**
 * What an entry of the run table (./operationRuns.cts) needs in the emulator before its node runs,
 * made there directly: a request to the emulator's API, signed as the credential signs it
 * (`signPaycashlessRequest`), never through the node under test. So each entry runs alone, in any
 * order, on an empty emulator as well as after every other entry. The bodies are the ones the node
 * sends for the run table's parameters (the same objects, the same output schemas).
 */
import type { IDataObject } from 'n8n-workflow';

import { signPaycashlessRequest } from '../../credentials/PaycashlessApi.credentials';
import type { EmulatorHandle } from '../../emulator/types.cjs';

/** Where the emulator sends callbacks in these runs: nothing listens there (the attempt is recorded). */
export const CALLBACK_URL = 'http://127.0.0.1:9/webhook/paycashless';
/** A resume URL as n8n makes one, for a payment a later Wait for Payment waits for. */
export const RESUME_URL = 'http://127.0.0.1:9/webhook-waiting/42?signature=0123abcd';

/** The bank of the payouts: Access Bank, as in Paycashless's docs. */
export const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';

/** One signed POST to the emulator's API; its JSON answer, or an error naming what it refused. */
async function post(emulator: EmulatorHandle, path: string, body: IDataObject): Promise<IDataObject> {
	const signed = signPaycashlessRequest({ apiKey: emulator.apiKey, apiSecret: emulator.apiSecret }, { method: 'POST', baseURL: emulator.baseUrl, url: path, body }, Date.now());
	const response = await fetch(`${emulator.baseUrl}${path}`, { method: 'POST', headers: signed.headers as Record<string, string>, body: signed.body as string });
	const answer = (await response.json()) as IDataObject;
	if (!response.ok) throw new Error(`seeding POST ${path} failed (${response.status}): ${JSON.stringify(answer)}`);
	return answer;
}

/** A payout of NGN 1,500.50 to 0123456789 at Access Bank, narration "Rent", pending. */
export async function seedPayout(emulator: EmulatorHandle, reference: string, callbackUrl = CALLBACK_URL): Promise<IDataObject> {
	return await post(emulator, '/v1/payouts', {
		amount: { currency: 'NGN', value: 150050 },
		bankId: ACCESS_BANK,
		callbackUrl,
		destinationAccountNumber: '0123456789',
		metadata: { category: 'rent' },
		narration: 'Rent',
		receiptEmail: 'payee@example.com',
		reference,
	});
}

/** A transfer payment of NGN 2,500.75 from Bola Ade, waiting to be paid. */
export async function seedTransferPayment(emulator: EmulatorHandle, reference: string, callbackUrl = CALLBACK_URL): Promise<IDataObject> {
	return await post(emulator, '/v1/payments', {
		amount: { currency: 'NGN', value: 250075 },
		callbackUrl,
		customer: { email: 'bola@example.com', name: 'Bola Ade' },
		expiresIn: 1800,
		metadata: { order: '1001' },
		paymentMethod: 'pay_with_transfer',
		reference,
	});
}

/** A checkout link for USD 99.99 to Chi Eze. */
export async function seedCheckout(emulator: EmulatorHandle, reference: string): Promise<IDataObject> {
	return await post(emulator, '/v1/payments/checkout', {
		amount: { currency: 'USD', value: 9999 },
		callbackUrl: CALLBACK_URL,
		customer: { email: 'chi@example.com', name: 'Chi Eze' },
		reference,
		returnUrl: 'https://shop.example.com/thanks',
	});
}

/** Nigerian VAT, 7.5 %, exclusive, active. */
export async function seedTaxRate(emulator: EmulatorHandle, name: string): Promise<IDataObject> {
	return await post(emulator, '/v1/tax_rates', { description: 'Nigerian VAT', inclusive: false, metadata: { k: 'v' }, name, percentage: 7.5, taxType: 'vat' });
}

/** An open invoice to Client Ltd: two hours of consulting and travel, NGN, with the tax rates given. */
export async function seedInvoice(emulator: EmulatorHandle, reference: string, taxRateIds: string[] = []): Promise<IDataObject> {
	return await post(emulator, '/v1/invoices', {
		acceptPartialPayments: false,
		autoFinalize: true,
		callbackUrl: CALLBACK_URL,
		currency: 'NGN',
		customer: { email: 'client@example.com', name: 'Client Ltd' },
		daysUntilDue: 14,
		description: 'May services',
		items: [
			{ description: 'Two hours', name: 'Consulting', price: 150050, quantity: 2 },
			{ name: 'Travel', price: 25000, quantity: 1 },
		],
		metadata: { project: 'p1' },
		reference,
		...(taxRateIds.length > 0 ? { taxRateIds } : {}),
	});
}

/** A dedicated account asked for Tunde Bello (NGN), awaiting his consent: its request code. */
export async function seedAccountRequest(emulator: EmulatorHandle): Promise<string> {
	const answer = await post(emulator, '/v1/dedicated_accounts', {
		accountType: 'individual',
		callbackUrl: CALLBACK_URL,
		currency: 'NGN',
		email: 'tunde@example.com',
		kycProfile: { dateOfBirth: '1990-04-25', firstName: 'Tunde', identities: [{ number: '22212345678', type: 'bvn' }], lastName: 'Bello', phoneNumber: '+2348012345678' },
		preferredBank: 'safehaven_mfb',
	});
	return String(answer.accountRequestCode);
}

/** An active dedicated account: a request, activated (its callback sent); the account. */
export async function seedDedicatedAccount(emulator: EmulatorHandle): Promise<{ id: string; accountRequestCode: string }> {
	const accountRequestCode = await seedAccountRequest(emulator);
	await emulator.activateAccountRequest(accountRequestCode);
	const account = emulator.list('dedicatedAccounts').find((found) => found.accountRequestCode === accountRequestCode);
	if (!account) throw new Error(`seeding: no dedicated account opened for ${accountRequestCode}`);
	return { id: String(account.id), accountRequestCode };
}
