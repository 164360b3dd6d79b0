/**
 * What the approver of a batch reads (Payout → Check Batch's one output item): every row that
 * would be paid with the holder's name Paycashless returns, the bank, the account, the amount in
 * naira and the reference, the flagged rows first (./payeeHistory.ts), what was paid before
 * (paid, with its date) apart from what failed before (not paid, with how to pay it again), what
 * is refused and why, the period and the limits, and the batch hash. The same three ways: fields,
 * `text` (an e-mail), `approvalHtml` (an n8n Form page's Custom HTML: tables only, which n8n's
 * form keeps). Rows are counted as a person counts them: row 1 is the first item.
 *
 * Longer than 250 lines on purpose: the fields, the text and the page of one summary say the same
 * things and are read together.
 */
import type { IDataObject } from 'n8n-workflow';
import { DateTime } from 'luxon';

import type { Currency } from '../helpers/amount';
import { formatMainUnits, fromSmallestUnit } from '../helpers/mainUnits';
import { batchHash, batchIdOf, batchLines, type BatchCheck, type BatchPayout, type FoundRow } from './batchRows';
import { NOT_PAID_STATUSES, repayReference } from './repay';
import { readLimits } from './limitFields';
import { periodWindow } from './period';
import type { MoneyRun } from './run';

/** Rows the approval page lists in full; past it, the page says where the rest is. */
const APPROVAL_PAGE_ROWS = 1000;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const show = (kobo: number, currency: Currency) => formatMainUnits(fromSmallestUnit(kobo, currency), currency);
const dayOf = (iso?: string) => (iso ? (DateTime.fromISO(iso).toISODate() ?? iso) : undefined);
const rowOf = (payout: BatchPayout) => payout.item + 1;

/** How a person pays a failed row again. */
function payAgainAdvice(reference: string): string {
	return `To pay it again: turn on Additional Fields → Pay Again If Failed in Check Batch and the Create that pays (it is paid under ${repayReference(reference, 1)}, once), or give the row a new reference`;
}

function listed(payout: BatchPayout): IDataObject {
	const { item, flags, repays, ...rest } = payout;
	return { row: item + 1, ...rest, ...(repays ? { repays: { ...repays } } : {}), ...(flags ? { flags: flags.map((flag) => ({ ...flag })) } : {}) };
}

function listedFound(payout: FoundRow, paid: boolean): IDataObject {
	const { found, ...rest } = payout;
	const base = listed(rest);
	return {
		...base,
		...(found.id ? { id: found.id } : {}),
		status: found.status ?? 'found again',
		...(paid ? (found.createdAt ? { paidAt: found.createdAt } : {}) : { ...(found.createdAt ? { madeAt: found.createdAt } : {}), ...(found.failure ? { failure: found.failure } : {}), payAgain: payAgainAdvice(payout.reference) }),
	};
}

/** Each currency's count and total of the new payouts (the limits currency first). */
function byCurrency(payouts: BatchPayout[], first: Currency): Array<{ currency: Currency; count: number; total: number }> {
	const sums = new Map<Currency, { currency: Currency; count: number; total: number }>([[first, { currency: first, count: 0, total: 0 }]]);
	for (const payout of payouts) {
		const sum = sums.get(payout.currency) ?? { currency: payout.currency, count: 0, total: 0 };
		sum.count += 1;
		sum.total += payout.amount;
		sums.set(payout.currency, sum);
	}
	return [...sums.values()];
}

// The page --------------------------------------------------------------------------------------

const escape = (text: unknown) =>
	String(text ?? '')
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');

function table(head: string[], rows: string[][]): string {
	const cells = (row: string[], tag: 'td' | 'th') => `<tr>${row.map((cell) => `<${tag}>${cell}</${tag}>`).join('')}</tr>`;
	return `<table><thead>${cells(head, 'th')}</thead><tbody>${rows.map((row) => cells(row, 'td')).join('')}</tbody></table>`;
}

function payoutCells(payout: BatchPayout): string[] {
	return [
		String(rowOf(payout)),
		payout.holder ? escape(payout.holder) : '<i>not looked up</i>',
		escape(payout.bankName ?? payout.bankId),
		escape(payout.destinationAccountNumber),
		escape(show(payout.amount, payout.currency)),
		escape(payout.reference),
	];
}

const HEAD = ['Row', 'Holder (as Paycashless names it)', 'Bank', 'Account', 'Amount', 'Reference'];

function approvalHtml(check: BatchCheck, heading: string, refusedLines: string[]): string {
	const flagged = check.payable.filter((payout) => payout.flags);
	const parts = [`<p><b>${escape(heading)}</b></p>`];
	if (check.refused.length > 0) {
		parts.push(`<h3>Refused: ${plural(check.refused.length, 'row')}, so this batch cannot be paid as it is</h3>`, `<ul>${refusedLines.map((line) => `<li>${escape(line)}</li>`).join('')}</ul>`);
	}
	if (flagged.length > 0) {
		parts.push(
			`<h3>Look at these first: ${plural(flagged.length, 'row')}</h3>`,
			table(
				[...HEAD, 'Why'],
				flagged.slice(0, APPROVAL_PAGE_ROWS).map((payout) => [...payoutCells(payout), (payout.flags ?? []).map((flag) => escape(flag.message)).join('<br>')]),
			),
		);
	}
	// The rest of the payouts (all of them when none is flagged), up to what a page holds.
	const others = check.payable.filter((payout) => !payout.flags);
	const room = Math.max(0, APPROVAL_PAGE_ROWS - flagged.length);
	if (others.length > 0) {
		const heading = flagged.length > 0 ? `The other payouts: ${plural(others.length, 'row')}` : `Every payout to make: ${plural(others.length, 'row')}`;
		parts.push(`<h3>${heading}</h3>`, table(HEAD, others.slice(0, room).map(payoutCells)));
	}
	const unshown = Math.max(0, flagged.length - APPROVAL_PAGE_ROWS) + Math.max(0, others.length - room);
	if (unshown > 0) parts.push(`<p>${unshown} more rows are not shown here: Check Batch's output in this execution lists every row (payable).</p>`);
	if (check.notPaid.length > 0) {
		parts.push(
			`<h3>Failed before, NOT paid: ${plural(check.notPaid.length, 'row')}</h3>`,
			table(
				[...HEAD, 'What happened'],
				check.notPaid.map((payout) => [...payoutCells(payout), escape(`${payout.found.status ?? 'failed'}${payout.found.failure ? `: ${payout.found.failure}` : ''}`)]),
			),
		);
	}
	if (check.alreadyPaid.length > 0) {
		parts.push(
			`<h3>Paid before, not paid again: ${plural(check.alreadyPaid.length, 'row')}</h3>`,
			table(
				[...HEAD, 'Status'],
				check.alreadyPaid.map((payout) => [...payoutCells(payout), escape(`${payout.found.status ?? 'found again'}${dayOf(payout.found.createdAt) ? ` (${dayOf(payout.found.createdAt)})` : ''}`)]),
			),
		);
	}
	return parts.join('\n');
}

// The summary -----------------------------------------------------------------------------------

/** What an approver reads: one record for the whole batch (amounts in kobo, and in naira under `inMainUnits`). */
export function batchSummary(run: MoneyRun, check: BatchCheck, firstItem: number): IDataObject {
	const limits = readLimits(run, firstItem);
	const currency = limits.currency;
	const naira = (kobo: number) => fromSmallestUnit(kobo, currency);
	const sums = byCurrency(check.payable, currency);
	const { count, total } = sums[0];
	const fits = check.refused.length === 0;
	const hash = batchHash(batchLines(check));
	const batchId = batchIdOf(hash);
	const flagged = check.payable.filter((payout) => payout.flags);
	const refusedLines = check.refused.map(
		(refusal) => `Row ${refusal.item + 1}${refusal.reference ? ` (${refusal.reference})` : ''}: ${refusal.code}: ${refusal.message}${refusal.description ? ` ${refusal.description}` : ''}`,
	);
	const summary: IDataObject = {
		fits,
		batchId,
		count,
		total,
		currency,
		inMainUnits: { currency, total: naira(total) },
		...(sums.length > 1 ? { byCurrency: sums.map((sum) => ({ ...sum, inMainUnits: { currency: sum.currency, total: fromSmallestUnit(sum.total, sum.currency) } })) } : {}),
		flaggedCount: flagged.length,
		refusedCount: check.refused.length,
		alreadyPaidCount: check.alreadyPaid.length,
		notPaidCount: check.notPaid.length,
		flagged: flagged.map((payout) => ({ row: rowOf(payout), reference: payout.reference, flags: (payout.flags ?? []).map((flag) => ({ ...flag })) })),
		payable: check.payable.map(listed),
		alreadyPaid: check.alreadyPaid.map((payout) => listedFound(payout, true)),
		notPaid: check.notPaid.map((payout) => listedFound(payout, false)),
		refused: check.refused.map(({ item, reference, code, message, description }) => ({ row: item + 1, ...(reference !== undefined ? { reference } : {}), code, message, ...(description ? { description } : {}) })),
	};
	const money = sums.map((sum) => show(sum.total, sum.currency)).join(' and ');
	const heading = `${plural(count + (sums.length > 1 ? sums.slice(1).reduce((n, sum) => n + sum.count, 0) : 0), 'payout')} to make, ${money} in all (batch ${batchId}).`;
	const lines = [heading];
	if (flagged.length > 0) {
		lines.push(`${plural(flagged.length, 'row')} to look at first:`);
		for (const payout of flagged.slice(0, 20)) lines.push(`- Row ${rowOf(payout)} (${payout.reference}): ${(payout.flags ?? []).map((flag) => flag.message).join('; ')}`);
		if (flagged.length > 20) lines.push(`- … and ${flagged.length - 20} more flagged rows (flagged).`);
	}
	if (check.alreadyPaid.length > 0) {
		const last = check.alreadyPaid.map((payout) => dayOf(payout.found.createdAt)).filter((when): when is string => when !== undefined).sort().at(-1);
		const underWay = check.alreadyPaid.filter((payout) => payout.found.status !== undefined && payout.found.status !== 'succeeded').length;
		lines.push(`${plural(check.alreadyPaid.length, 'row')} paid before, not paid again${last ? ` (the last made on ${last})` : ''}${underWay > 0 ? `; ${underWay} of them not settled yet` : ''}.`);
	}
	if (check.notPaid.length > 0) {
		lines.push(`${plural(check.notPaid.length, 'row')} failed before and ${check.notPaid.length === 1 ? 'is' : 'are'} NOT paid:`);
		for (const payout of check.notPaid.slice(0, 20)) {
			lines.push(`- Row ${rowOf(payout)} (${payout.reference}): ${payout.found.status ?? 'failed'}${payout.found.failure ? `: ${payout.found.failure}` : ''}. ${payAgainAdvice(payout.reference)}.`);
		}
	}
	const repaid = check.payable.filter((payout) => payout.repays);
	if (repaid.length > 0) lines.push(`${plural(repaid.length, 'row')} failed before and ${repaid.length === 1 ? 'is' : 'are'} paid again: ${repaid.map((payout) => `row ${rowOf(payout)} under ${payout.reference}`).join(', ')}.`);
	if (check.history) {
		const since = DateTime.fromSeconds(check.history.since).toISODate();
		summary.history = { since, payoutsRead: check.history.read, complete: check.history.complete };
	}
	const left: IDataObject = {};
	if (limits.maxAmount !== undefined) left.maxAmount = naira(limits.maxAmount);
	if (limits.maxTotal !== undefined) left.maxTotalPerExecution = { limit: naira(limits.maxTotal), leftAfter: naira(limits.maxTotal - total) };
	if (limits.maxCount !== undefined) left.maxCountPerExecution = { limit: limits.maxCount, leftAfter: limits.maxCount - check.payable.length };
	const before = check.periodBefore;
	const after = check.periodAfter;
	if (before && after) {
		const period: IDataObject = { label: before.label, paidSoFar: before.total, countSoFar: before.count };
		const inMainUnits: IDataObject = { currency, paidSoFar: naira(before.total) };
		lines.push(`${periodSentence(check, before.label, limits.period, run.context.getTimezone(), currency, before.total, before.count)}`);
		if (limits.periodTotal !== undefined) {
			Object.assign(period, { limit: limits.periodTotal, left: limits.periodTotal - before.total, leftAfter: limits.periodTotal - after.total });
			Object.assign(inMainUnits, { limit: naira(limits.periodTotal), left: naira(limits.periodTotal - before.total), leftAfter: naira(limits.periodTotal - after.total) });
			lines.push(`Maximum Total per Period: ${show(limits.periodTotal - before.total, currency)} left before this batch, ${show(limits.periodTotal - after.total, currency)} after it (it counts the whole account's payouts, not this batch's alone).`);
		}
		if (limits.periodCount !== undefined) Object.assign(period, { countLimit: limits.periodCount, countLeft: limits.periodCount - before.count, countLeftAfter: limits.periodCount - after.count });
		period.inMainUnits = inMainUnits;
		summary.period = period;
	}
	summary.limits = { currency, ...left };
	for (const line of refusedLines.slice(0, 10)) lines.push(line);
	if (check.refused.length > 10) lines.push(`… and ${check.refused.length - 10} more refused rows (refused).`);
	lines.push(fits ? 'The batch fits: every row passes every check.' : `The batch does not fit: ${plural(check.refused.length, 'row')} refused. Correct or remove them, then check again.`);
	summary.text = lines.join('\n');
	summary.approvalHtml = approvalHtml(check, heading, refusedLines);
	summary.batchHash = hash;
	return summary;
}

/**
 * The period so far in one sentence, counts and totals of one currency together: the limits
 * currency's total with its own count (from the payouts read for the flags, when they cover the
 * period), the other currencies apart, and the count of every currency the count limit uses.
 */
function periodSentence(check: BatchCheck, label: string, period: Parameters<typeof periodWindow>[0], timezone: string, currency: Currency, total: number, countAll: number): string {
	const history = check.history;
	const start = periodWindow(period, timezone).since;
	if (!history || history.since > start || !history.complete) {
		return `Payouts ${label} as the limits count them: ${show(total, currency)} in ${currency}; ${plural(countAll, 'payout')} in every currency (the count limit counts them all).`;
	}
	const others = new Map<Currency, { count: number; total: number }>();
	let own = 0;
	for (const record of history.byReference.values()) {
		const created = typeof record.createdAt === 'string' ? DateTime.fromISO(record.createdAt).toSeconds() : NaN;
		if (!(created >= start) || NOT_PAID_STATUSES.has(String(record.status))) continue;
		const recordCurrency = String(record.currency ?? '') as Currency;
		if (recordCurrency === currency) {
			own += 1;
			continue;
		}
		const sum = others.get(recordCurrency) ?? { count: 0, total: 0 };
		sum.count += 1;
		sum.total += typeof record.amount === 'number' ? record.amount : 0;
		others.set(recordCurrency, sum);
	}
	const rest = [...others.entries()].map(([other, sum]) => `${plural(sum.count, 'payout')} in ${other}, ${show(sum.total, other)}`);
	// The total counts the payouts in flight that the list does not show yet, so does this count.
	own = Math.max(own, countAll - [...others.values()].reduce((sum, other) => sum + other.count, 0));
	return `Payouts ${label} as the limits count them: ${show(total, currency)} (${plural(own, `${currency} payout`)})${rest.length > 0 ? `; also ${rest.join('; ')} (the count limit counts every currency: ${countAll} in all)` : ''}.`;
}
