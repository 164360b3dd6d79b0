/**
 * Payout → Get Batch Status: a batch's payouts in one read (Paycashless's payout list since a
 * number of days, 100 a request), found by the batch id Payout → Create writes into each payout's
 * metadata (`n8nBatch`, Check Batch's `batchId`) or by a reference prefix. Each row is the row's
 * reference with its payments again (`-repay-N`, Pay Again If Failed): the row's status is its
 * last payment's. It gives counts and totals per status (in naira under `inMainUnits`), each
 * failed row with Paycashless's reason and how to pay it again, and what is still pending; with
 * Wait Until Settled it reads again until nothing is pending or the time limit passes.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { PAYOUT } from '../../catalog/objects';
import { CURRENCIES, type Currency } from '../../helpers/amount';
import { formatMainUnits, fromSmallestUnit } from '../../helpers/mainUnits';
import { requireInteger, requireText } from '../../helpers/validation';
import { NOT_PAID_STATUSES, repayReference } from '../../money/repay';
import type { PaycashlessApi } from '../../transport';
import { READ, type OperationOption } from '../types';
import { CHECK_BATCH_ACTION } from './batchOptions';

export const description: INodeProperties[] = [
	{
		displayName: 'Find Batch By',
		name: 'findBatchBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Batch ID', value: 'batchId', description: "The batchId of Payout → Check Batch, written into each payout's metadata (n8nBatch) by Payout → Create" },
			{ name: 'Reference Prefix', value: 'referencePrefix', description: 'Every payout whose reference starts with it, e.g. salary-2026-11-' },
		],
		default: 'batchId',
	},
	{
		displayName: 'Batch ID',
		name: 'batchId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '9f3a1c2b7d4e5f60',
		// The name n8n's editor gives a Check Batch node added from the panel (its action).
		hint: `After Payout → Check Batch: {{ $('${CHECK_BATCH_ACTION}').first().json.batchId }}`,
		displayOptions: { show: { findBatchBy: ['batchId'] } },
		description: 'The 16 characters of Check Batch\'s batchId (the n8nBatch of each payout\'s metadata)',
	},
	{
		displayName: 'Reference Prefix',
		name: 'referencePrefix',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'salary-2026-11-',
		displayOptions: { show: { findBatchBy: ['referencePrefix'] } },
		description: 'Every payout whose reference starts with this text belongs to the batch',
	},
	{
		displayName: 'Look Back (Days)',
		name: 'lookBackDays',
		type: 'number',
		default: 31,
		typeOptions: { minValue: 1, maxValue: 366 },
		description: 'How many days of payouts are read to find the batch',
	},
	{
		displayName: 'Wait Until Settled',
		name: 'waitUntilSettled',
		type: 'boolean',
		default: false,
		description: 'Whether to read the batch again until no payout of it is pending or sent, or the time limit passes (the output says which)',
	},
	{
		displayName: 'Time Limit (Minutes)',
		name: 'settleTimeLimit',
		type: 'number',
		default: 60,
		typeOptions: { minValue: 1, maxValue: 1440 },
		displayOptions: { show: { waitUntilSettled: [true] } },
		description: 'How long to wait for the batch to settle before giving its status as it is',
	},
	{
		displayName: 'Check Every (Seconds)',
		name: 'settleInterval',
		type: 'number',
		default: 60,
		typeOptions: { minValue: 5, maxValue: 3600 },
		displayOptions: { show: { waitUntilSettled: [true] } },
		description: 'How often the batch is read while waiting',
	},
];

export const option: OperationOption = {
	name: 'Get Batch Status',
	description: 'A batch of payouts in one read: paid, pending and failed, with totals and reasons',
	action: 'Get a payout batch status',
};

export const declaration = READ;

/** What became of a row: paid, still on its way, or not paid. */
const outcomeOf = (status: string) => (status === 'succeeded' ? 'paid' : NOT_PAID_STATUSES.has(status) ? 'notPaid' : 'pending');

interface Attempt {
	reference: string;
	rowReference: string;
	repay: number;
	record: IDataObject;
}

/** The row a reference belongs to, and which payment again it is (0: the first payment). */
function rowOf(reference: string): { rowReference: string; repay: number } {
	const match = /^(.*)-repay-(\d+)$/.exec(reference);
	return match ? { rowReference: match[1], repay: Number(match[2]) } : { rowReference: reference, repay: 0 };
}

async function readBatch(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const by = this.getNodeParameter('findBatchBy', i) as string;
	const value = requireText(this.getNodeParameter(by === 'batchId' ? 'batchId' : 'referencePrefix', i), by === 'batchId' ? 'Batch ID' : 'Reference Prefix');
	const days = requireInteger(this.getNodeParameter('lookBackDays', i, 31), 'Look Back (Days)', 1, 366);
	const since = Math.floor(Date.now() / 1000) - days * 86_400;
	const records = await api.paginate({ path: PAYOUT.path, qs: { 'createdAt.gte': since } }, { returnAll: true, limit: 0 });
	const inBatch = (record: IDataObject) => {
		const metadata = record.metadata !== null && typeof record.metadata === 'object' ? (record.metadata as IDataObject) : {};
		return by === 'batchId' ? metadata.n8nBatch === value : String(record.reference ?? '').startsWith(value);
	};
	// Each row's last payment (the highest -repay-N) decides its status.
	const rows = new Map<string, Attempt>();
	let payouts = 0;
	for (const record of records.filter(inBatch)) {
		payouts += 1;
		const reference = String(record.reference ?? '');
		const attempt = { reference, ...rowOf(reference), record };
		const earlier = rows.get(attempt.rowReference);
		if (!earlier || attempt.repay > earlier.repay) rows.set(attempt.rowReference, attempt);
	}
	const totals = new Map<string, { outcome: string; currency: Currency; count: number; total: number }>();
	const failures: IDataObject[] = [];
	const pending: IDataObject[] = [];
	const counts = { paid: 0, pending: 0, notPaid: 0 };
	for (const attempt of [...rows.values()].sort((a, b) => a.rowReference.localeCompare(b.rowReference))) {
		const status = String(attempt.record.status ?? 'pending');
		const outcome = outcomeOf(status);
		counts[outcome as keyof typeof counts] += 1;
		const amount = typeof attempt.record.amount === 'number' ? attempt.record.amount : 0;
		const currency = (CURRENCIES as readonly string[]).includes(String(attempt.record.currency)) ? (attempt.record.currency as Currency) : 'NGN';
		const key = `${outcome}:${currency}`;
		const sum = totals.get(key) ?? { outcome, currency, count: 0, total: 0 };
		sum.count += 1;
		sum.total += amount;
		totals.set(key, sum);
		const row = { reference: attempt.reference, ...(attempt.repay > 0 ? { rowReference: attempt.rowReference } : {}), status, amount, currency, id: attempt.record.id };
		if (outcome === 'notPaid') {
			const reason = attempt.record.failureMessage ?? attempt.record.failureCode;
			failures.push({ ...row, ...(reason ? { failure: reason } : {}), payAgain: `Pay Again If Failed pays it under ${repayReference(attempt.rowReference, attempt.repay + 1)}, once` });
		} else if (outcome === 'pending') pending.push(row);
	}
	const byStatus = [...totals.values()].map((sum) => ({ ...sum, inMainUnits: { currency: sum.currency, total: fromSmallestUnit(sum.total, sum.currency) } }));
	const show = (outcome: string) =>
		byStatus
			.filter((sum) => sum.outcome === outcome)
			.map((sum) => formatMainUnits(fromSmallestUnit(sum.total, sum.currency), sum.currency))
			.join(' and ') || 'nothing';
	const settled = counts.pending === 0;
	const lines = [
		`Batch ${by === 'batchId' ? value : `"${value}…"`}: ${rows.size} rows (${payouts} payouts, payments again included) since ${DateTime.fromSeconds(since).toISODate()}.`,
		`Paid: ${counts.paid} (${show('paid')}). Pending: ${counts.pending} (${show('pending')}). Not paid: ${counts.notPaid} (${show('notPaid')}).`,
		...failures.map((failure) => `Not paid: ${String(failure.reference)}: ${String(failure.status)}${failure.failure ? `: ${String(failure.failure)}` : ''}. ${String(failure.payAgain)}.`),
		settled ? 'Settled: no payout of the batch is pending.' : `Not settled: ${counts.pending} pending.`,
	];
	return { batch: { [by]: value }, settled, rows: rows.size, payouts, ...counts, byStatus, failures, pendingPayouts: pending, text: lines.join('\n') };
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const wait = this.getNodeParameter('waitUntilSettled', i, false) === true;
	let status = await readBatch.call(this, i, api);
	if (!wait) return status;
	const limitMs = requireInteger(this.getNodeParameter('settleTimeLimit', i, 60), 'Time Limit (Minutes)', 1, 1440) * 60_000;
	const everyMs = requireInteger(this.getNodeParameter('settleInterval', i, 60), 'Check Every (Seconds)', 5, 3600) * 1000;
	const until = Date.now() + limitMs;
	const signal = typeof this.getExecutionCancelSignal === 'function' ? this.getExecutionCancelSignal() : undefined;
	while (status.settled !== true && Date.now() + everyMs <= until) {
		await sleep(everyMs, signal);
		status = await readBatch.call(this, i, api);
	}
	return { ...status, timeLimitReached: status.settled !== true };
}

/** Not an AI agent's tool: Wait Until Settled can hold a call for an hour (Get Many lists payouts for an agent). */
export const asTool = false;

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: "A batch's payouts in one read (by Check Batch's `batchId` or a reference prefix): counts and naira totals per status, failures with reasons, what is pending; Wait Until Settled ([Payroll](payroll.md))" };
