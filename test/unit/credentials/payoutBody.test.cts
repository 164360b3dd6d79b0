/**
 * The one reader of a payout create body (lib/payoutBody.ts), which the credential's ceiling,
 * Money Limits and the payout create's "found again" comparison share: what it reads, and every
 * shape it refuses because Paycashless might read it otherwise.
 */
import { canonicalJson } from '../../../lib/signing';
import { readPayoutBody } from '../../../lib/payoutBody';

const body = { reference: 'r-1', amount: { value: 150_050, currency: 'NGN' }, destinationAccountNumber: '0123456789', bankId: 'bank_x', narration: 'rent' };
const MONEY = { money: { reference: 'r-1', minor: 150_050, currency: 'NGN', accountNumber: '0123456789', bankId: 'bank_x' } };

describe('readPayoutBody', () => {
	it('reads an object (as canonicalJson sends it), its JSON text and its bytes alike; the same currency at the top level is fine', () => {
		for (const form of [body, canonicalJson(body), JSON.stringify(body, null, 2), Buffer.from(JSON.stringify(body)), { ...body, currency: 'NGN' }]) {
			expect(readPayoutBody(form)).toEqual(MONEY);
		}
		expect(readPayoutBody({ ...body, amount: { value: 0, currency: 'USD' } })).toEqual({ money: { ...MONEY.money, minor: 0, currency: 'USD' } });
	});

	const text = (json: string) => Buffer.from(json);
	const rest = '"reference":"r","destinationAccountNumber":"0123456789","bankId":"bank_x"';

	it.each<[string, unknown, RegExp]>([
		['no body', undefined, /no body/],
		['text that is not JSON', 'amount=1', /not JSON/],
		['bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0x7d]), /not UTF-8/],
		['a JSON array', [body], /not a JSON object/],
		['a key twice (bytes are sent as they are)', text(`{"amount":{"value":1,"currency":"NGN"},"amount":{"value":500000000,"currency":"NGN"},${rest}}`), /the key "amount" twice in one object\)?$/],
		['a key twice deeper in', text(`{"amount":{"value":1,"currency":"NGN","value":500000000},${rest}}`), /the key "value" twice in one object \(in amount\)/],
		['a key twice in metadata', text(`{"amount":{"value":1,"currency":"NGN"},"metadata":{"a":1,"a":2},${rest}}`), /"a" twice in one object \(in metadata\)/],
		['keys that differ only in letter case', text(`{"amount":{"value":1,"currency":"NGN"},"AMOUNT":{"value":500000000,"currency":"NGN"},${rest}}`), /twice in one object/],
		['keys that differ only in escapes', text(`{"amount":{"value":1,"currency":"NGN"},"\\u0061mount":{"value":500000000,"currency":"NGN"},${rest}}`), /"amount" twice/],
		['a field name spelled otherwise', text(`{"Amount":{"value":500000000,"currency":"NGN"},${rest}}`), /spells amount as "Amount"/],
		['a field name in amount spelled otherwise', text(`{"amount":{"Value":500000000,"currency":"NGN"},${rest}}`), /spells amount\.value as "Value"/],
		['a bare number amount', { ...body, amount: 150_050, currency: 'NGN' }, /bare number/],
		['no amount', { ...body, amount: undefined }, /no amount object/],
		['an amount as text', { ...body, amount: { value: '150050', currency: 'NGN' } }, /amount\.value is not a whole number/],
		['a fraction of a kobo', { ...body, amount: { value: 100.5, currency: 'NGN' } }, /amount\.value/],
		['a negative amount', { ...body, amount: { value: -1, currency: 'NGN' } }, /amount\.value/],
		['an amount past safe integers', text(`{"amount":{"value":9007199254740993,"currency":"NGN"},${rest}}`), /amount\.value/],
		['an amount in exponent form', text(`{"amount":{"value":1e5,"currency":"NGN"},${rest}}`), /written in digits/],
		['an amount with a decimal point', text(`{"amount":{"value":100000.0,"currency":"NGN"},${rest}}`), /written in digits/],
		['no currency', { ...body, amount: { value: 1 } }, /no currency in amount\.currency/],
		['a currency in lower case', { ...body, amount: { value: 1, currency: 'ngn' } }, /not exactly NGN or USD/],
		['an unknown currency', { ...body, amount: { value: 1, currency: 'EUR' } }, /not exactly NGN or USD/],
		['a top-level currency that differs', { ...body, currency: 'USD' }, /two different currencies/],
		['a top-level currency null', text(`{"amount":{"value":1,"currency":"NGN"},"currency":null,${rest}}`), /two different currencies/],
		['an account number as a number', { ...body, destinationAccountNumber: 123 }, /destinationAccountNumber is not text/],
		['a bank ID missing', { ...body, bankId: undefined }, /bankId is not text/],
		['no reference', { ...body, reference: undefined }, /reference is not text/],
	])('refuses %s', (_, input, reason) => {
		const reading = readPayoutBody(input);
		expect(reading).toEqual({ unreadable: expect.stringMatching(reason) });
	});

	it('a key named __proto__ or constructor is only a key', () => {
		expect(readPayoutBody(text(`{"__proto__":{"amount":{"value":9,"currency":"USD"}},"amount":{"value":1,"currency":"NGN"},${rest}}`))).toEqual({
			money: { reference: 'r', minor: 1, currency: 'NGN', accountNumber: '0123456789', bankId: 'bank_x' },
		});
		expect(readPayoutBody(text(`{"constructor":1,${rest}}`))).toEqual({ unreadable: expect.stringMatching(/no amount object/) });
	});
});
