/**
 * The period limits of payouts (Maximum Total and Maximum Count per Period): what the Paycashless
 * account paid out in the period, read from Paycashless's own payout list (`createdAt.gte` the
 * period's start), so the limit holds across executions, workers, restarts, MCP calls, other
 * workflows and anything else that uses the same API key. Nothing is kept between executions:
 * Paycashless's record is the authority.
 *
 * Within one run of the node the list is read once in full and then only from shortly before the
 * last read (payouts are only ever added), and items waiting for a read share it.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { PAYOUT } from '../catalog/objects';
import type { Currency } from '../helpers/amount';
import { isObject } from '../helpers/body';
import type { PaycashlessApi } from '../transport';

export const PERIODS = ['day', 'rolling24h'] as const;
export type Period = (typeof PERIODS)[number];

/** Payouts that ended without the money arriving (every final status but success) do not count. */
const NOT_PAID = new Set(PAYOUT.finalStatuses.filter((status) => status !== 'succeeded'));

/** How far back a later read of the same run starts before the last one (clock differences, late listing). */
const OVERLAP_SECONDS = 300;

export interface PeriodPayout {
	reference: string;
	value: number;
	currency: string;
	paid: boolean;
}

export interface PeriodWindow {
	/** Unix seconds of the period's start. */
	since: number;
	/** How messages name it, e.g. "today (since 00:00 Africa/Lagos)". */
	label: string;
}

/** The current period: the calendar day in the workflow's time zone, or the last 24 hours. */
export function periodWindow(period: Period, timezone: string, now: DateTime = DateTime.now()): PeriodWindow {
	if (period === 'rolling24h') return { since: Math.floor(now.toSeconds()) - 86_400, label: 'the last 24 hours' };
	const zoned = now.setZone(timezone);
	const start = (zoned.isValid ? zoned : now.setZone('UTC')).startOf('day');
	return { since: Math.floor(start.toSeconds()), label: `today (since 00:00 ${start.zoneName ?? 'UTC'})` };
}

interface View {
	since: number;
	/** Unix seconds (n8n's clock) of the last read that finished. */
	readAt?: number;
	byId: Map<string, PeriodPayout>;
	reading?: Promise<void>;
}

/** One view per node run (the context object lives for one run; see transport/index.ts's base URLs). */
const views = new WeakMap<object, View>();

function asPayout(record: IDataObject): [string, PeriodPayout] | undefined {
	const amount = isObject(record.amount) ? record.amount : { value: record.amount, currency: record.currency };
	if (typeof record.id !== 'string' || typeof amount.value !== 'number') return undefined;
	return [
		record.id,
		{
			reference: String(record.reference ?? ''),
			value: amount.value,
			currency: String(amount.currency ?? '').toUpperCase(),
			paid: !NOT_PAID.has(String(record.status ?? '')),
		},
	];
}

async function read(view: View, api: PaycashlessApi): Promise<void> {
	const startedAt = Math.floor(DateTime.now().toSeconds());
	const from = view.readAt === undefined ? view.since : Math.max(view.since, view.readAt - OVERLAP_SECONDS);
	const records = await api.paginate({ path: PAYOUT.path, qs: { 'createdAt.gte': from } }, { returnAll: true, limit: 0, incomplete: 'fail' });
	for (const record of records) {
		const entry = asPayout(record);
		if (entry) view.byId.set(...entry);
	}
	view.readAt = startedAt;
}

/** Paycashless's payouts of the period, read fresh for this check (one read at a time per node run). */
export async function payoutsInPeriod(this: IExecuteFunctions, window: PeriodWindow, api: PaycashlessApi): Promise<PeriodPayout[]> {
	let view = views.get(this);
	if (!view || view.since !== window.since) {
		view = { since: window.since, byId: new Map() };
		views.set(this, view);
	}
	// Items that ask while a read is under way use that read (it started moments before they
	// asked; their own run's payouts are in the execution's ledger anyway); otherwise they start one.
	if (!view.reading) {
		const current = view;
		current.reading = read(current, api).finally(() => {
			current.reading = undefined;
		});
	}
	const current = view;
	await current.reading;
	return [...current.byId.values()];
}

/** Total and count of what was paid (not failed) in `currency`, from the period's payouts. */
export function paidInPeriod(payouts: PeriodPayout[], currency: Currency): { total: number; count: number; references: Set<string> } {
	let total = 0;
	let count = 0;
	const references = new Set<string>();
	for (const payout of payouts) {
		references.add(payout.reference);
		if (!payout.paid || payout.currency !== currency) continue;
		total += payout.value;
		count += 1;
	}
	return { total, count, references };
}
