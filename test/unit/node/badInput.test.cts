/**
 * Bad input is refused before anything is sent: a NodeOperationError for the item, naming the
 * field, the value and what is allowed; the emulator receives no request at all.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runNode } from '../../../scripts/harness/executeContext.cjs';
import { individualAccountParameters } from '../../../scripts/harness/fixtures.cjs';
import { useEmulator } from '../../support/emulator.cjs';

const emulator = useEmulator({ seed: { payouts: 2 } });
beforeEach(() => {
	emulator.clearLogs();
});

const id = (value: string) => ({ __rl: true, mode: 'id', value });

const payout: INodeParameters = {
	resource: 'payout',
	operation: 'create',
	reference: 'ref-1',
	amount: 100,
	currency: 'NGN',
	destinationAccountNumber: '0123456789',
	bankId: 'bank_538ed2056326432ba8e6853b613997bb',
};
const transfer: INodeParameters = {
	resource: 'payment',
	operation: 'createTransfer',
	reference: 'order-1',
	amount: 100,
	currency: 'NGN',
	customerEmail: 'ada@example.com',
	customerName: 'Ada',
};
const invoice: INodeParameters = {
	resource: 'invoice',
	operation: 'create',
	reference: 'inv-1',
	invoiceDescription: 'Services',
	currency: 'NGN',
	customerEmail: 'client@example.com',
	customerName: 'Client',
	items: { itemValues: [{ name: 'Work', quantity: 1, price: 100 }] },
	daysUntilDue: 30,
};
const account: INodeParameters = individualAccountParameters;
const payouts: INodeParameters = { resource: 'payout', operation: 'getAll' };

const lookup: INodeParameters = { resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: '058' };

const cases: Array<[string, INodeParameters, string]> = [
	// What reached the API in the hardening review
	['payout currency EUR from an expression', { ...payout, currency: 'EUR' }, 'Invalid Currency "EUR": use one of NGN, USD'],
	['invoice currency from an expression', { ...invoice, currency: 'ngn' }, 'Invalid Currency "ngn": use one of NGN, USD'],
	['narration of 150 characters', { ...payout, additionalFields: { narration: 'x'.repeat(150) } }, 'Invalid Narration "xxxx'],
	['5-digit destination account number', { ...payout, destinationAccountNumber: '12345' }, 'Invalid Destination Account Number "12345": use exactly 10 digits'],
	['account lookup with account 123', { ...lookup, accountNumber: '123' }, 'Invalid Account Number "123": use exactly 10 digits'],
	['account lookup with bank code abc', { ...lookup, bankCode: 'abc' }, 'Invalid Bank Code "abc": use 3 to 6 digits'],
	['payment list status bogus', { resource: 'payment', operation: 'getAll', filters: { status: 'bogus' } }, 'Invalid Status "bogus": use one of awaiting_charge, charged'],
	['payout list status bogus', { ...payouts, filters: { status: 'paid' } }, 'Invalid Status "paid": use one of cancelled, failed'],
	['BVN of 3 digits', { ...account, bvn: '123' }, 'Invalid BVN "123": use exactly 11 digits'],
	['negative amount through Additional Body Fields', { ...payout, additionalFields: { additionalBodyJson: '{"amount":{"value":-1}}' } }, 'Invalid Additional Body Fields (JSON) → amount.value -1: use a whole number 1 or more'],
	['empty reference through Additional Body Fields', { ...payout, additionalFields: { additionalBodyJson: '{"reference":""}' } }, 'Invalid Additional Body Fields (JSON) → reference (empty)'],
	['currency EUR through Additional Body Fields', { ...transfer, additionalFields: { additionalBodyJson: '{"amount":{"currency":"EUR"}}' } }, 'Invalid Additional Body Fields (JSON) → amount.currency "EUR"'],
	['callback URL through Additional Body Fields', { ...invoice, additionalFields: { additionalBodyJson: '{"callbackUrl":"javascript:alert(1)"}' } }, 'Invalid Additional Body Fields (JSON) → callbackUrl "javascript:alert(1)"'],
	['account number through Additional Body Fields', { ...payout, additionalFields: { additionalBodyJson: { destinationAccountNumber: '12' } } }, 'Invalid Additional Body Fields (JSON) → destinationAccountNumber "12"'],
	// Callback and return URLs
	['payout callback URL that is not a URL', { ...payout, additionalFields: { callbackUrl: 'not a url' } }, 'Invalid Callback URL "not a url": use a full URL starting with https://'],
	['payout callback URL with a script scheme', { ...payout, additionalFields: { callbackUrl: 'javascript:alert(1)' } }, 'Invalid Callback URL "javascript:alert(1)"'],
	['checkout return URL over FTP', { ...transfer, operation: 'createCheckout', additionalFields: { returnUrl: 'ftp://example.com/back' } }, 'Invalid Return URL "ftp://example.com/back"'],
	['invoice return URL without a scheme', { ...invoice, additionalFields: { returnUrl: 'shop.example.com/thanks' } }, 'Invalid Return URL "shop.example.com/thanks"'],
	['transfer callback URL with a space', { ...transfer, additionalFields: { callbackUrl: 'https://example.com/a b' } }, 'Invalid Callback URL "https://example.com/a b"'],
	// Amounts
	['amount with three decimals', { ...payout, amount: 1.005 }, 'Invalid Amount 1.005: use a number greater than 0 with at most 2 decimals'],
	['zero amount', { ...payout, amount: 0 }, 'Invalid Amount 0: use a number greater than 0'],
	['negative amount', { ...transfer, amount: -20 }, 'Invalid Amount -20:'],
	['amount that is not a number', { ...transfer, amount: '12abc' }, 'Invalid Amount "12abc":'],
	['decimal amount in the smallest unit', { ...payout, amount: 1500.5, amountInSmallestUnit: true }, 'Invalid Amount 1500.5: use a whole number greater than 0 in the smallest unit'],
	['checkout amount with float noise', { ...transfer, operation: 'createCheckout', amount: 0.1 + 0.2 }, 'Invalid Amount 0.30000000000000004'],
	['invoice item price with three decimals', { ...invoice, items: { itemValues: [{ name: 'A', quantity: 1, price: 9.999 }] } }, 'Invalid Item 1 Price 9.999'],
	['invoice item without a name', { ...invoice, items: { itemValues: [{ name: ' ', quantity: 1, price: 5 }] } }, 'Invalid Item 1 Name " "'],
	['invoice item quantity 0', { ...invoice, items: { itemValues: [{ name: 'A', quantity: 0, price: 5 }] } }, 'Invalid Item 1 Quantity 0: use a whole number 1 or more'],
	['invoice without items', { ...invoice, items: {} }, 'Invalid Items []: add at least one item'],
	// Bounds
	['daysUntilDue 0', { ...invoice, daysUntilDue: 0 }, 'Invalid Days Until Due 0: use a whole number from 1 to 1800'],
	['daysUntilDue 1801', { ...invoice, daysUntilDue: 1801 }, 'Invalid Days Until Due 1801: use a whole number from 1 to 1800'],
	['maxInstallments missing with partial payments', { ...invoice, acceptPartialPayments: true, maxInstallments: '' }, 'Invalid Max Installments (empty): use a whole number 2 or more'],
	['maxInstallments 1', { ...invoice, acceptPartialPayments: true, maxInstallments: 1 }, 'Invalid Max Installments 1: use a whole number 2 or more'],
	['limit 0', { ...payouts, limit: 0 }, 'Invalid Limit 0: use a whole number 1 or more'],
	['limit -5', { ...payouts, limit: -5 }, 'Invalid Limit -5'],
	['limit 2.5', { ...payouts, limit: 2.5 }, 'Invalid Limit 2.5'],
	['expiresIn 0', { ...transfer, expiresIn: 0 }, 'Invalid Expires In (Seconds) 0: use a whole number 1 or more'],
	['tax percentage above 100', { resource: 'taxRate', operation: 'create', name: 'X', percentage: 150, taxType: 'vat' }, 'Invalid Percentage 150: use a number from 0 to 100'],
	// E-mail addresses and dates
	['customer e-mail without a domain', { ...transfer, customerEmail: 'ada@' }, 'Invalid Customer Email "ada@": use an e-mail address such as ada@example.com'],
	['invoice customer e-mail', { ...invoice, customerEmail: 'client.example.com' }, 'Invalid Customer Email "client.example.com"'],
	['dedicated account e-mail', { ...account, email: 'tunde' }, 'Invalid Email "tunde"'],
	['date of birth that does not exist', { ...account, dateOfBirth: '1990-02-30' }, 'Invalid Date of Birth "1990-02-30": use a real date written YYYY-MM-DD'],
	['date of birth in another format', { ...account, dateOfBirth: '25/04/1990' }, 'Invalid Date of Birth "25/04/1990"'],
	['BVN with letters', { ...account, bvn: '2221234567X' }, 'Invalid BVN "2221234567X": use exactly 11 digits'],
	['country code of three letters', { ...account, kycFields: { countryOfOrigin: 'NGA' } }, 'Invalid Country of Origin "NGA": use a two-letter country code'],
	['created-after filter that is not a date', { ...payouts, filters: { createdAfter: '2024-02-30T00:00:00' } }, 'Invalid Created After "2024-02-30T00:00:00"'],
	['created-before filter in words', { ...payouts, resource: 'invoice', filters: { createdBefore: 'last week' } }, 'Invalid Created Before "last week"'],
	// Required ids and references, prefixes
	['empty payout id', { resource: 'payout', operation: 'get', payoutId: id('') }, 'Invalid Payout ID (empty): an ID starting with "po_" is required'],
	['payment id with the payout prefix', { resource: 'payment', operation: 'get', paymentId: id('po_123') }, 'Invalid Payment ID "po_123": use an ID that starts with "pi_"'],
	['invoice id without prefix', { resource: 'invoice', operation: 'get', invoiceId: id('INV-000001') }, 'Invalid Invoice ID "INV-000001": use an ID that starts with "inv_"'],
	['invoice to cancel without reason', { resource: 'invoice', operation: 'cancel', invoiceId: id('inv_1'), cancellationReason: '' }, 'Invalid Cancellation Reason (empty)'],
	['dedicated account id with the request prefix', { resource: 'dedicatedAccount', operation: 'get', dedicatedAccountId: id('acc_req_1') }, 'Invalid Dedicated Account ID "acc_req_1": use an ID that starts with "va_"'],
	['account request code without prefix', { resource: 'dedicatedAccount', operation: 'getRequestStatus', accountRequestCode: 'va_123' }, 'Invalid Account Request Code "va_123": use an ID that starts with "acc_req_"'],
	['tax rate id without prefix', { resource: 'taxRate', operation: 'update', taxRateId: 'vat', updateFields: { name: 'X' } }, 'Invalid Tax Rate ID "vat": use an ID that starts with "txr_"'],
	['tax rate update without fields', { resource: 'taxRate', operation: 'update', taxRateId: 'txr_1', updateFields: {} }, 'Invalid Update Fields {}: choose at least one field to change'],
	['invoice tax rate ids with a wrong one', { ...invoice, additionalFields: { taxRateIds: 'txr_1, vat' } }, 'Invalid Tax Rate IDs "vat"'],
	['payout bank id that is a CBN code', { ...payout, bankId: '058' }, 'Invalid Bank ID "058": use an ID that starts with "bank_"'],
	['payout account number with letters', { ...payout, destinationAccountNumber: '01234abc' }, 'Invalid Destination Account Number "01234abc": use exactly 10 digits'],
	['empty payout reference', { ...payout, reference: '  ' }, 'Invalid Reference "  ": a value is required'],
	['empty reference to verify', { resource: 'payment', operation: 'verify', reference: '' }, 'Invalid Reference (empty)'],
	['empty payout verify reference', { resource: 'payout', operation: 'verify', reference: '' }, 'Invalid Reference (empty)'],
	// A reference the node finds a create again by must survive a URL path (/v1/payouts/verify/..)
	['payout reference ".."', { ...payout, reference: '..' }, 'Invalid Reference "..": use text that is not "." or ".." (also percent-encoded, %2E)'],
	['payout verify reference "."', { resource: 'payout', operation: 'verify', reference: ' . ' }, 'Invalid Reference ".": use text that is not "." or ".."'],
	['payment verify reference ".." percent-encoded', { resource: 'payment', operation: 'verify', reference: '%2E%2e' }, 'Invalid Reference "%2E%2e": use text that is not "." or ".."'],
	['transfer reference with a line break inside', { ...transfer, reference: 'order\n1001' }, 'Invalid Reference "order\\n1001": use text that is not "." or ".." (also percent-encoded, %2E), without control characters'],
	['invoice reference with an unpaired surrogate', { ...invoice, reference: 'inv-\uD800' }, 'Invalid Reference "inv-\\ud800"'],
	['lookup without a bank code', { resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: '' }, 'Invalid Bank Code (empty)'],
	['lookup account number with spaces inside', { resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123 456789', bankCode: '058' }, 'Invalid Account Number "0123 456789"'],
	// JSON escape hatches and metadata
	['malformed additional body JSON', { ...payout, additionalFields: { additionalBodyJson: '{"receiptEmail": ' } }, 'Invalid Additional Body Fields (JSON) "{\\"receiptEmail\\": ": use a JSON object'],
	['additional body JSON that is an array', { ...transfer, additionalFields: { additionalBodyJson: '[1,2]' } }, 'Invalid Additional Body Fields (JSON) "[1,2]"'],
	['business details that are not JSON', { ...account, accountType: 'business', businessDetailsJson: 'name=Acme' }, 'Invalid Business Details (JSON) "name=Acme"'],
	['empty business details', { ...account, accountType: 'business', businessDetailsJson: '{}' }, 'Invalid Business Details (JSON) {}: give the business account details'],
	['amount left empty (its default)', { ...payout, amount: null }, 'Invalid Amount (empty)'],
	['metadata pair without key', { ...payout, additionalFields: { metadata: { metadataValues: [{ key: '', value: 'x' }] } } }, 'Invalid Metadata Key (empty): every metadata pair needs a key'],
];

describe('bad input sends no request', () => {
	it.each(cases)('%s', async (_label, parameters, message) => {
		let thrown: unknown;
		try {
			await runNode({
				parameters,
				credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl },
			});
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(NodeOperationError);
		const error = thrown as NodeOperationError;
		expect(error.message).toContain(message);
		expect(error.context.itemIndex).toBe(0);
		expect(emulator.requests).toEqual([]);
	});

	it('the same parameters, corrected, do reach the API (the checks are not too strict)', async () => {
		const credentials = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl };
		await runNode({
			parameters: [
				{ ...payout, additionalFields: { narration: 'x'.repeat(100), additionalBodyJson: '{"amount":{"value":150050},"metadata":{"claim":"c-1"}}' } },
				transfer,
				invoice,
				account,
				{ ...payouts, limit: 1, filters: { status: 'pending' } },
			],
			credentials,
		});
		// Items run in parallel (Requests in Parallel): which request comes first is not the point.
		const byPath = (a: unknown[], b: unknown[]) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`);
		expect(emulator.requests.map((r) => [r.method, r.path, r.status]).sort(byPath)).toEqual([
			['POST', '/v1/payouts', 202],
			// The payout read for the output (its create answers with id, status and reference only):
			// in a run of several items, from the list of payouts created since the run started.
			['GET', '/v1/payouts', 200],
			['POST', '/v1/payments', 200],
			['POST', '/v1/invoices', 201],
			['POST', '/v1/dedicated_accounts', 202],
			['GET', '/v1/payouts', 200],
		].sort(byPath));
	});

	it('with several items, a bad one stops the run before its own request only', async () => {
		const credentials = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl };
		await expect(
			runNode({ parameters: [{ ...payout, reference: 'first' }, { ...payout, reference: 'second', amount: 1.001 }], credentials }),
		).rejects.toMatchObject({ context: { itemIndex: 1 } });
		expect(emulator.requests.filter((r) => r.method === 'POST').map((r) => (r.body as { reference: string }).reference)).toEqual(['first']);
	});
});
