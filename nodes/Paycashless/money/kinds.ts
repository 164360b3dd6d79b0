/**
 * What a create does with money, and so which Money Limits it takes: `payout` (money leaves the
 * account), `payment` (asks a customer to pay now), `invoice` (e-mails a customer a request to pay).
 * Everything that differs between the kinds is one row of `MONEY`: a new kind is a row here and
 * a body reader in lib/.
 */
import type { IDataObject } from 'n8n-workflow';

import { readInvoiceBody } from '../../../lib/invoiceBody';
import { readPaymentBody, type CustomerMoney } from '../../../lib/paymentBody';
import { readPayoutBody } from '../../../lib/payoutBody';
import type { Payee } from './beneficiary';

export const MONEY_KINDS = ['payout', 'payment', 'invoice'] as const;
export type MoneyKind = (typeof MONEY_KINDS)[number];

/** The money of a create body: what the Money Limits check. */
interface BodyMoney {
	/** Smallest unit; undefined when the body carries no amount the limits can read. */
	value?: number;
	currency: string;
	/** Who receives or pays it: one reference asks for one amount from or to one party. */
	party?: string;
	/** Why the body cannot be read for sure (a payout read as the credential reads it). */
	unreadable?: string;
	payee?: Payee;
}

/** The limits a tool of a kind cannot run without (unless "Run Without Limits (Unsafe)"). */
type ToolLimit = 'maxAmount' | 'maxCount' | 'periodTotal';

export interface MoneyKindRules {
	/** "The most this node may <verb> in one execution". */
	verb: string;
	/** What a reference names beside the amount and currency, in a refusal ("account", "customer"). */
	party: string;
	read(body: IDataObject): BodyMoney;
	toolNeeds: readonly ToolLimit[];
	/**
	 * Counted across the account, not only in the execution: Paycashless lists them by period, so
	 * the period limits, the payouts in flight of a running n8n and the payee checks apply.
	 */
	accountWide: boolean;
	/** What the model reads about a create of this kind, after its action (../actions/tool.ts). */
	toolWords: readonly string[];
}

const AMOUNTS_IN_MAIN_UNITS = 'Amount is in main units: naira for NGN, dollars for USD (1500.50 = NGN 1,500.50), never kobo or cents.';
const LIMITS_MAY_REFUSE = 'Limits set by the workflow owner may refuse the call: the result says which and nothing is sent.';

function customerMoney({ minor, currency, customer }: CustomerMoney): BodyMoney {
	return { value: minor, currency, party: customer };
}

export const MONEY: Record<MoneyKind, MoneyKindRules> = {
	payout: {
		verb: 'pay out',
		party: 'account',
		// Read by the credential's reader from the bytes it will send, or why it cannot be read for sure.
		read(body) {
			const reading = readPayoutBody(body);
			if ('unreadable' in reading) return { currency: '', unreadable: reading.unreadable };
			const { minor, currency, accountNumber, bankId } = reading.money;
			return { value: minor, currency, party: `${accountNumber}@${bankId}`, payee: { accountNumber, bankId } };
		},
		toolNeeds: ['maxAmount', 'periodTotal'],
		accountWide: true,
		toolWords: [
			'REAL MONEY leaves the business account when this runs.',
			AMOUNTS_IN_MAIN_UNITS,
			'Use one Reference per real-world payment: the same reference never pays twice, so reuse it to retry; a new reference is a new payment.',
			"Bank_ID comes from the bank account look-up tool's bank.id.",
			LIMITS_MAY_REFUSE,
		],
	},
	payment: {
		verb: 'request',
		party: 'customer',
		read: (body) => customerMoney(readPaymentBody(body)),
		toolNeeds: ['maxAmount', 'maxCount'],
		accountWide: false,
		toolWords: [
			'It asks a customer for money; nothing is paid out.',
			AMOUNTS_IN_MAIN_UNITS,
			'Use one Reference per real-world order: the same reference never creates a second payment.',
			LIMITS_MAY_REFUSE,
		],
	},
	invoice: {
		verb: 'invoice',
		party: 'customer',
		read: (body) => customerMoney(readInvoiceBody(body)),
		toolNeeds: ['maxAmount', 'maxCount'],
		accountWide: false,
		toolWords: [
			"It asks a customer for money: Paycashless e-mails the invoice to the customer's address. Nothing is paid out.",
			'Prices are in main units of the currency, never kobo or cents.',
			'Use one Reference per real-world order: the same reference never creates a second invoice.',
			LIMITS_MAY_REFUSE,
		],
	},
};
