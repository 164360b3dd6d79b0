/**
 * Limits a person sets on the operations that move money or ask customers for it (payouts,
 * payments, invoices), checked on the body that is about to be sent (after expressions and
 * Additional Body Fields), before anything reaches Paycashless. A wrong expression or an AI agent
 * holding the node as a tool does the same harm as a typo, so the same checks hold for all of them:
 * - Limits Currency: the amount limits are in this currency; anything in another is refused.
 * - Maximum Amount: per payout, payment or invoice (also an amount meant in kobo, when that is above it).
 * - Maximum Count and Maximum Total per Execution: over every run of this node in one execution
 *   (an agent's tool calls are runs of the node), in n8n's per-execution node context
 *   (`getContext('node')`), saved with the execution. A reference already counted must ask for
 *   the same payment again (then it is not counted twice) or is refused; a definite refusal by
 *   Paycashless frees its place, an unclear answer keeps it.
 * - Maximum Total and Count per Period (payouts): from Paycashless's own payout list
 *   (./period.ts), so they hold across executions and workflows.
 * - Beneficiary (payouts): Allowed Destination Accounts, Expected Account Name, Allow Middle Names.
 * The limit fields take typed-in values only: an expression (`$fromAI` included) is refused, and
 * a limit that is set but empty, zero or not a number refuses the item instead of switching off.
 * As a tool, a payout needs Maximum Amount and Maximum Total per Period, a payment or invoice
 * Maximum Amount and Maximum Count per Execution, unless "Run Without Limits (Unsafe)" is on.
 *
 * Longer than 250 lines on purpose: the limits' fields, how they are read and the checks they
 * make are one guard on money, read whole.
 */
import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { CURRENCIES, toSmallestUnit, type Currency } from '../helpers/amount';
import { readPayoutBody } from '../../../lib/payoutBody';
import { isObject } from '../helpers/body';
import { formatMainUnits, fromSmallestUnit } from '../helpers/mainUnits';
import { showValue } from '../helpers/validation';
import type { PaycashlessApi } from '../transport';
import { BENEFICIARY_CHOICES, beneficiaryFields, checkBeneficiary, type Payee } from './beneficiary';
import { refuse } from './refusal';
import { sameMoney, samePayout, type PeriodPayout } from './listed';
import { payoutsInPeriod, periodWindow, PERIODS, type PaidInPeriod, type Period, type PeriodRecord, type PeriodWindow } from './period';
import { accountOf, relation } from './accounts';
import { unknownOwners, type InFlightCount, type Reservation } from './inFlight';
import { addToLedger, realCounted, removeFromLedger, sumsOf, type Counted, type LedgerEntry } from './ledger';
import { askable, askAbout, learnRelations } from './questions';

export { scratchCounted, type Counted } from './ledger';
import { nodeOfRun, runsAsTool } from '../helpers/runsAsTool';
import type { MoneyKind } from './kinds';
import { itemParameter } from './itemParameters';

export const LIMITS_PARAMETER = 'moneyLimits';
export const NO_LIMITS_PARAMETER = 'runWithoutLimits';

const VERB: Record<MoneyKind, string> = { payout: 'pay out', payment: 'request', invoice: 'invoice' };

/** Amount limits (main units of the Limits Currency) and count limits, by field name. */
const AMOUNT_LIMITS = { maxAmount: 'Maximum Amount', maxTotal: 'Maximum Total per Execution', periodTotal: 'Maximum Total per Period' } as const;
const COUNT_LIMITS = { maxCount: 'Maximum Count per Execution', periodCount: 'Maximum Count per Period' } as const;
const CHOICES = { currency: 'Limits Currency', period: 'Period' } as const;
/** Every field that limits amounts, counts or who may be paid: typed in by a person, never an expression. */
const TYPED_ONLY: Record<string, string> = { ...AMOUNT_LIMITS, ...COUNT_LIMITS, ...CHOICES, ...BENEFICIARY_CHOICES };

/** The limit fields of a money operation; `payout` adds the period and beneficiary checks. */
export function moneyLimitsCollection(kind: MoneyKind): INodeProperties {
	const what = kind;
	const options: INodeProperties[] = [
		{
			displayName: CHOICES.currency,
			name: 'currency',
			type: 'options',
			noDataExpression: true,
			options: CURRENCIES.map((currency) => ({ name: currency, value: currency })),
			default: 'NGN',
			description: `The currency of the amount limits (NGN when not added). A ${what} in another currency is refused.`,
		},
		{
			displayName: AMOUNT_LIMITS.maxAmount,
			name: 'maxAmount',
			type: 'number',
			noDataExpression: true,
			// Added empty (not 0): the panel shows an empty field and a notice until it is typed in.
			default: null,
			placeholder: 'e.g. 50000',
			// No numberPrecision: n8n's editor would show 3000000.00; the node reads the amount to the kobo anyway.
			typeOptions: { minValue: 0 },
			hint: 'In naira (main units of the Limits Currency, NGN unless added): 50000 is NGN 50,000; 1000000 is NGN 1,000,000 (one million). Above 0: 0 refuses every item.',
			description: `The largest ${what} this node may make, in main units (naira or dollars) of the Limits Currency. A larger one is refused before anything is sent: so is an amount meant in kobo when that is above it (not one that stays under it: keep it close to the largest real one). Typed in only: an expression is refused.`,
		},
		{
			displayName: COUNT_LIMITS.maxCount,
			name: 'maxCount',
			type: 'number',
			noDataExpression: true,
			default: null,
			placeholder: 'e.g. 20',
			typeOptions: { minValue: 1 },
			description: `How many ${what}s (distinct references) this node may make in one execution, over all its items and runs (every call of an AI agent's tool is a run). A new execution starts again: for a limit across executions, use the period limits. Typed in only: an expression is refused.`,
		},
		{
			displayName: AMOUNT_LIMITS.maxTotal,
			name: 'maxTotal',
			type: 'number',
			noDataExpression: true,
			default: null,
			placeholder: 'e.g. 1000000',
			typeOptions: { minValue: 0 },
			hint: 'In naira (main units of the Limits Currency, NGN unless added): 1000000 is NGN 1,000,000 (one million). Above 0: 0 refuses every item.',
			description: `The most this node may ${VERB[kind]} in one execution, in main units of the Limits Currency, over all its items and runs. Typed in only: an expression is refused.`,
		},
	];
	if (kind === 'payout') {
		options.push(
			{
				displayName: AMOUNT_LIMITS.periodTotal,
				name: 'periodTotal',
				type: 'number',
				noDataExpression: true,
				default: null,
				placeholder: 'e.g. 3000000',
				typeOptions: { minValue: 0 },
				hint: 'In naira (main units of the Limits Currency, NGN unless added): 3000000 is NGN 3,000,000 (three million) per period. Above 0: 0 refuses every item.',
				description:
					'The most the whole Paycashless account may pay out in the Period, in main units of the Limits Currency: every payout Paycashless lists for the period that has not failed counts, whichever execution, workflow or person made it. Needs Maximum Amount. Typed in only: an expression is refused.',
			},
			{
				displayName: COUNT_LIMITS.periodCount,
				name: 'periodCount',
				type: 'number',
				noDataExpression: true,
				default: null,
				placeholder: 'e.g. 50',
				typeOptions: { minValue: 1 },
				description: 'How many payouts the whole Paycashless account may make in the Period (those that have not failed). Typed in only: an expression is refused.',
			},
			{
				displayName: CHOICES.period,
				name: 'period',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Calendar Day (Workflow Time Zone)', value: 'day', description: "From 00:00 in the workflow's time zone" },
					{ name: 'Last 24 Hours', value: 'rolling24h', description: 'The 24 hours before each payout' },
				],
				default: 'day',
				description: 'The period of the period limits (Calendar Day when not added)',
			},
		);
	}
	if (kind === 'payout') options.push(...beneficiaryFields());
	return {
		displayName: 'Money Limits',
		name: LIMITS_PARAMETER,
		type: 'collection',
		placeholder: 'Add Limit',
		default: {},
		description: `Limits checked before a ${what} is sent, also when an expression or an AI agent fills the other fields. Only a person sets them: they take no expressions.`,
		// In the order a person sets them (currency, per item, per execution, per period, who may be
		// paid), not alphabetical: n8n's editor shows added limits in this order.
		options,
	};
}

/**
 * One notice per amount or count limit, shown under Money Limits while that limit is added but
 * empty (or 0): such a limit refuses every item (it never switches itself off), and the panel says
 * so before anything runs. `shownFor`: the display options of the kind's Money Limits.
 */
export function emptyLimitNotices(kind: MoneyKind, shownFor: IDisplayOptions): INodeProperties[] {
	const names = [...Object.keys(AMOUNT_LIMITS), ...Object.keys(COUNT_LIMITS)].filter((name) => kind === 'payout' || !name.startsWith('period'));
	return names.map((name) => {
		const amount = name in AMOUNT_LIMITS;
		return {
			displayName: `Money Limits → ${TYPED_ONLY[name]} is empty: every ${kind} is refused until you type ${amount ? 'an amount above 0' : 'a number'} (or remove this limit)`,
			name: `${name}EmptyNotice`,
			type: 'notice',
			default: '',
			displayOptions: { ...shownFor, show: { ...shownFor.show, [`/${LIMITS_PARAMETER}.${name}`]: amount ? [null, 0] : [null] } },
		};
	});
}

/** The opt-out a tool needs to move money without limits. */
export const runWithoutLimitsField: INodeProperties = {
	displayName: 'Run Without Limits (Unsafe)',
	name: NO_LIMITS_PARAMETER,
	type: 'boolean',
	noDataExpression: true,
	default: false,
	description:
		'Whether an AI agent may use this tool although the Money Limits it needs are not set (payouts: Maximum Amount and Maximum Total per Period; payments and invoices: Maximum Amount and Maximum Count per Execution). Leave off: as a tool, these operations refuse to run without them.',
};

/** Shown while "Run Without Limits (Unsafe)" is on. */
export const runWithoutLimitsNotice: INodeProperties = {
	displayName: 'Limits are off: an AI agent can move any amount, any number of times, with this tool. Every result says so.',
	name: 'runWithoutLimitsNotice',
	type: 'notice',
	default: '',
};

/** Said in every result of a tool run while its limits are off. */
export const LIMITS_OFF_NOTE = 'Money Limits were off for this tool (Run Without Limits (Unsafe)): nothing limited this amount.';

/** Whether the tool runs with its limits off (only a literal `true` typed by a person counts). */
export function limitsOff(this: IExecuteFunctions): boolean {
	return nodeOfRun.call(this).parameters[NO_LIMITS_PARAMETER] === true;
}

export interface Limits {
	currency: Currency;
	period: Period;
	maxAmount?: number;
	maxTotal?: number;
	periodTotal?: number;
	maxCount?: number;
	periodCount?: number;
	/** Whether any amount or count limit is set (then the currency must match). */
	any: boolean;
}

/** What a person can do about a period refusal. */
const PERIOD_ADVICE =
	'Running the same input again later is safe: payouts already made are found by their references, not paid twice. Pay the rest in the next period, or ask the person who set up this workflow to raise the limit.';

const UNSET_ADVICE = 'Nothing was sent. Only the person who set up this workflow can change Money Limits, in the node.';

/**
 * The node's Money Limits of item `i`, checked: a field whose stored value is an expression
 * (`$fromAI` included) is refused whatever it resolves to; a set field must resolve to a positive
 * number (a whole one for counts), never to "no limit".
 */
export function readLimits(this: IExecuteFunctions, i: number): Limits & { values: IDataObject } {
	const raw = nodeOfRun.call(this).parameters[LIMITS_PARAMETER];
	const stored: IDataObject = isObject(raw) ? (raw as IDataObject) : {};
	for (const [name, label] of Object.entries(TYPED_ONLY)) {
		const value = stored[name];
		// n8n 1.123 hands a tool's `={{ $fromAI(…) }}` over without its `=`: any `{{` is an expression too.
		if (typeof value === 'string' && (value.startsWith('=') || value.includes('{{'))) {
			refuse.call(
				this,
				i,
				'LIMIT_EXPRESSION',
				`Refused: Money Limits → ${label} is an expression`,
				`A limit must be typed in by the person who set up this workflow, so that no item, expression or AI model can change it. ${UNSET_ADVICE}`,
			);
		}
	}
	const limits = itemParameter.call(this, LIMITS_PARAMETER, i, {}) as IDataObject;
	const bad = (name: string, value: unknown, allowed: string): never =>
		refuse.call(this, i, 'LIMIT_INVALID', `Refused: Money Limits → ${TYPED_ONLY[name]} is set but is ${showValue(value)}`, `It must be ${allowed}; a limit never switches itself off. ${UNSET_ADVICE}`);
	const currency = limits.currency ?? 'NGN';
	if (!(CURRENCIES as readonly unknown[]).includes(currency)) bad('currency', currency, `one of ${CURRENCIES.join(', ')}`);
	const period = limits.period ?? 'day';
	if (!(PERIODS as readonly unknown[]).includes(period)) bad('period', period, `one of ${PERIODS.join(', ')}`);
	for (const name of Object.keys(BENEFICIARY_CHOICES)) {
		if (name in limits && typeof limits[name] !== 'boolean') bad(name, limits[name], 'on or off');
	}
	const read: Limits = { currency: currency as Currency, period: period as Period, any: false };
	for (const name of Object.keys(AMOUNT_LIMITS) as Array<keyof typeof AMOUNT_LIMITS>) {
		if (!(name in limits)) continue;
		const value = limits[name];
		if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) bad(name, value, `an amount above 0 in main units of ${read.currency}`);
		read[name] = toSmallestUnit(value, { field: `Money Limits → ${TYPED_ONLY[name]}`, currency: read.currency });
		read.any = true;
	}
	for (const name of Object.keys(COUNT_LIMITS) as Array<keyof typeof COUNT_LIMITS>) {
		if (!(name in limits)) continue;
		const value = limits[name];
		if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) bad(name, value, 'a whole number, 1 or more');
		read[name] = value as number;
		read.any = true;
	}
	return { ...read, values: limits };
}

/**
 * The money of a create body: amount in the smallest unit, currency, and who receives or pays it.
 * A payout is read by the credential's reader (lib/payoutBody.ts) from the bytes it will send, or
 * names why it cannot be read for sure (`unreadable`).
 */
function moneyOf(kind: MoneyKind, body: IDataObject): { value?: number; currency: string; party?: string; unreadable?: string; payee?: Payee } {
	if (kind === 'payout') {
		const reading = readPayoutBody(body);
		if ('unreadable' in reading) return { currency: '', unreadable: reading.unreadable };
		const { minor, currency, accountNumber, bankId } = reading.money;
		return { value: minor, currency, party: `${accountNumber}@${bankId}`, payee: { accountNumber, bankId } };
	}
	if (kind === 'invoice') {
		const items = Array.isArray(body.items) ? body.items : [];
		let value: number | undefined = 0;
		for (const item of items) {
			const price = isObject(item) ? item.price : undefined;
			const quantity = isObject(item) ? (item.quantity ?? 1) : undefined;
			value = typeof price === 'number' && typeof quantity === 'number' && value !== undefined ? value + price * quantity : undefined;
		}
		const customer = isObject(body.customer) ? body.customer : {};
		return { value: items.length > 0 ? value : undefined, currency: String(body.currency ?? '').toUpperCase(), party: String(customer.email ?? '') };
	}
	const amount = isObject(body.amount) ? body.amount : { value: body.amount, currency: body.currency };
	const customer = isObject(body.customer) ? body.customer : {};
	return { value: typeof amount.value === 'number' ? amount.value : undefined, currency: String(amount.currency ?? '').toUpperCase(), party: String(customer.email ?? '').toLowerCase() };
}

/** The tool's required limits, by kind. */
function requiredAsTool(kind: MoneyKind): Array<keyof Limits> {
	return kind === 'payout' ? ['maxAmount', 'periodTotal'] : ['maxAmount', 'maxCount'];
}

/** The payout's record under its reference is the payout asked for now, still live: found again, not paid again. */
function sameLivePayout(listed: PeriodPayout | undefined, money: { value: number; currency: string; payee?: Payee }): boolean {
	return listed !== undefined && listed.live && samePayout(listed, { value: money.value, currency: money.currency, ...money.payee });
}

/** What a check found: a new create (reserved), or one found again (nothing reserved, nothing new paid). */
export interface MoneyCheck extends Reservation {
	/** Already counted in this execution, listed by Paycashless as this very payout, or under way: not paid again. */
	foundAgain: boolean;
}

/** Nothing reserved: a payout found again on Paycashless's list. */
const NOTHING_RESERVED: MoneyCheck = { sent: () => undefined, release: () => undefined, foundAgain: true };

/**
 * Checks the create body of item `i` against the node's Money Limits and reserves it (in this
 * execution's ledger and, for a payout, among the account's payouts in flight in this running n8n);
 * throws (nothing sent) when a limit refuses it. Call it right before the create is sent; tell
 * the reservation when the create has ended (`sent`) or Paycashless definitely refused it (`release`).
 * With a scratch view (`scratchCounted`) it is a check only: the same checks, reserved in the view.
 */
export async function enforceMoneyLimits(
	this: IExecuteFunctions,
	i: number,
	kind: MoneyKind,
	body: IDataObject,
	api: PaycashlessApi,
	counted: Counted = realCounted.call(this),
): Promise<MoneyCheck> {
	const limits = readLimits.call(this, i);
	const money = moneyOf(kind, body);
	const reference = String(body.reference ?? '');
	if (money.unreadable !== undefined) {
		refuse.call(this, i, 'AMOUNT_UNREADABLE', `Refused: the ${kind}'s amount cannot be read for sure (${money.unreadable})`, 'Nothing was sent. Paycashless might read this body otherwise than the Money Limits do: send amount as {"value": kobo or cents, "currency": "NGN" or "USD"}, each key once, and no other currency beside it.');
	}
	if (!(CURRENCIES as readonly string[]).includes(money.currency) || money.value === undefined) {
		refuse.call(this, i, 'AMOUNT_UNREADABLE', `Refused: the ${kind} has no amount and currency the Money Limits can check`, 'Nothing was sent. Set the amount and currency in the fields, not only in Additional Body Fields.');
	}
	const value = money.value as number;
	const currency = money.currency as Currency;
	const show = (kobo: number) => formatMainUnits(fromSmallestUnit(kobo, currency), currency);
	const asTool = runsAsTool.call(this);

	if (asTool && !limitsOff.call(this)) {
		const missing = requiredAsTool(kind).filter((name) => limits[name] === undefined);
		if (missing.length > 0) {
			refuse.call(
				this,
				i,
				'LIMIT_NOT_SET',
				`Refused: this tool moves real money and has no ${missing.map((name) => TYPED_ONLY[name]).join(' and ')} set`,
				`Nothing was sent. The person who set up this workflow must set Money Limits → ${requiredAsTool(kind)
					.map((name) => TYPED_ONLY[name])
					.join(' and ')} in the Paycashless tool node. An AI agent cannot change this.`,
			);
		}
	}
	if (limits.any && currency !== limits.currency) {
		refuse.call(
			this,
			i,
			'CURRENCY_NOT_LIMITED',
			`Refused: this ${kind} is in ${currency}, and this node's Money Limits are in ${limits.currency}`,
			`Nothing was sent. Limits in one currency never apply to another: the person who set up this workflow decides whether ${currency} ${kind}s are allowed, with a node whose Limits Currency is ${currency}.`,
		);
	}
	if (limits.maxAmount !== undefined && value > limits.maxAmount) {
		refuse.call(
			this,
			i,
			'MAX_AMOUNT',
			`Refused: ${show(value)} is above this node's Maximum Amount of ${show(limits.maxAmount)}`,
			`Nothing was sent. Amounts are in main units (naira or dollars): 1500.50 means ${formatMainUnits(1500.5, currency)}; an amount meant in kobo is 100 times too large.`,
		);
	}
	const periodLimit = (['periodTotal', 'periodCount'] as const).find((name) => limits[name] !== undefined);
	if (periodLimit !== undefined && limits.maxAmount === undefined) {
		refuse.call(
			this,
			i,
			'LIMIT_NOT_SET',
			`Refused: ${TYPED_ONLY[periodLimit]} is set without a Maximum Amount`,
			`A period limit needs a Maximum Amount: it bounds each payout, and how far payouts made at the same moment can pass the period total. ${UNSET_ADVICE}`,
		);
	}

	if (money.payee) await checkBeneficiary.call(this, i, limits.values, money.payee, api);

	// Paycashless's own record of the period, read before the checks below (which read and write
	// the ledger and the payouts in flight with no wait in between, so executions and items
	// running side by side in this running n8n see each other).
	const period = periodLimit !== undefined ? periodWindow(limits.period, this.getTimezone()) : undefined;
	const account = kind === 'payout' ? await accountOf.call(this) : undefined;
	const record = period && account !== undefined ? await readPeriod.call(this, i, period, api, account) : undefined;

	const entry: LedgerEntry = { value, currency, ...(money.party !== undefined ? { party: money.party } : {}) };
	// Synchronous from here to the reservation; asking Paycashless about payouts in flight (at most
	// once per check) starts it again with what the answers changed.
	for (let asked = false; ; asked = true) {
		const ledger = counted.ledger();
		const earlier = reference === '' ? undefined : ledger[reference];
		if (earlier) {
			if (sameMoney(earlier, entry)) return NOTHING_RESERVED;
			refuse.call(
				this,
				i,
				'REFERENCE_REUSED',
				`Refused: the reference "${reference}" was already used in this execution for a different ${kind}`,
				`Nothing was sent. A reference names one ${kind}: the same reference must ask for the same amount, currency and ${kind === 'payout' ? 'account' : 'customer'}. A different ${kind} needs its own reference.`,
			);
		}
		const paid = record ? record.paid(currency) : undefined;
		// A reference Paycashless lists for this very payout, still live, is found again by the
		// transport, not paid again; a failed one, or one that differs, is checked as a new payout.
		if (paid && sameLivePayout(paid.byReference.get(reference), { value, currency, payee: money.payee })) return NOTHING_RESERVED;
		if (account !== undefined) {
			const underWay = counted.underWay(account, reference, record?.listed);
			// Another payout under this reference not yet answered for (one Paycashless confirmed it has
			// is Paycashless's to refuse: the transport then names the fields that differ).
			if (underWay.some((other) => !sameMoney(other, entry) && other.confirmedAt === undefined)) {
				refuse.call(
					this,
					i,
					'REFERENCE_IN_FLIGHT',
					`Refused: the Reference "${reference}" is already in use by another payout being sent right now`,
					'Nothing was sent. A reference names one payout: another execution is sending a different amount, currency or account under it at this moment. Give this payout its own reference, or look the other one up with Payout → Verify once it is done.',
				);
			}
			// The same payout still being sent by another execution of this running n8n: one payout, counted
			// once. Once Paycashless confirmed it, it is checked like any payout (it may have failed since;
			// Paycashless then finds it again, and its entry counts it once).
			if (underWay.some((other) => sameMoney(other, entry) && other.confirmedAt === undefined && relation(account, other.account) === 'same')) return NOTHING_RESERVED;
		}

		const sums = sumsOf(ledger);
		const count = sums.count;
		if (limits.maxCount !== undefined && count + 1 > limits.maxCount) {
			refuse.call(this, i, 'MAX_COUNT_EXECUTION', `Refused: this execution already made ${count} ${kind}${count === 1 ? '' : 's'}, the Maximum Count per Execution`, `Nothing was sent for reference "${reference}".`);
		}
		const total = sums.totals.get(currency) ?? 0;
		if (limits.maxTotal !== undefined && total + value > limits.maxTotal) {
			refuse.call(
				this,
				i,
				'MAX_TOTAL_EXECUTION',
				`Refused: ${show(value)} would bring this execution's total to ${show(total + value)}, above the Maximum Total per Execution of ${show(limits.maxTotal)}`,
				`Nothing was sent for reference "${reference}".`,
			);
		}
		if (period && paid && record && account !== undefined) {
			// Payouts of this running n8n that Paycashless does not list yet (sent moments ago, or under way),
			// from every execution, node and credential that may pay from this account.
			const unlisted = counted.unlisted(account, record.listed);
			const soFar = periodSoFar(paid, unlisted, currency);
			// A refusal counts only payouts that exist: those in flight whose create ended and that no
			// list shows yet are asked for by reference first (./questions.ts), then checked again.
			const doubtful = withinPeriod({ limits, soFar, value }) || asked ? [] : askable(account, unlisted.entries());
			if (doubtful.length > 0) {
				await askAbout(doubtful, api);
				continue;
			}
			refuseOverPeriod.call(this, i, { limits, period, soFar, value, currency, reference });
		}
		// Reserved before the request is sent: a create that may have reached Paycashless stays counted.
		addToLedger(ledger, reference, entry);
		counted.save(ledger);
		const inFlightReservation = account !== undefined ? counted.reserve(account, { reference, ...entry }) : NOTHING_RESERVED;
		return {
			foundAgain: false,
			sent: (answer) => inFlightReservation.sent(answer),
			release: () => {
				inFlightReservation.release();
				if (ledger[reference] === entry) removeFromLedger(ledger, reference);
				counted.save(ledger);
			},
		};
	}
}

/**
 * Paycashless's record of the period for item `i`, read through credential `account` (refused,
 * nothing sent, when it cannot be read for sure); the credentials whose payouts in flight count
 * until this running n8n knows their account are asked about first (./accounts.ts).
 */
export async function readPeriod(this: IExecuteFunctions, i: number, period: PeriodWindow, api: PaycashlessApi, account: string): Promise<PeriodRecord> {
	const record = await payoutsInPeriod.call(this, period, api, account).catch((error: Error) =>
		refuse.call(this, i, 'PERIOD_UNREADABLE', `Refused: the payouts of ${period.label} could not be read to check the period limits`, `Nothing was sent. ${error.message}`),
	);
	const unreadable = record.unreadable();
	if (unreadable.length > 0) {
		refuse.call(
			this,
			i,
			'PERIOD_UNREADABLE',
			`Refused: Paycashless lists a payout of ${period.label} that the period limits cannot read`,
			`Nothing was sent: a payout the limits cannot count could hide any amount. ${unreadable.slice(0, 3).join('; ')}${unreadable.length > 3 ? ` (and ${unreadable.length - 3} more)` : ''}. Ask Paycashless support why the list shows it so.`,
		);
	}
	// Other credentials' payouts in flight count until this running n8n knows whose account they are in (./accounts.ts).
	const others = unknownOwners(account);
	if (others.owners.size > 0 || others.entries.length > 0) await learnRelations(account, others, api);
	return record;
}

/** What a period check of one payout needs. */
export interface PeriodCheck {
	limits: Limits;
	period: PeriodWindow;
	/** The period so far as the limits count it, without this payout. */
	soFar: { count: number; total: number };
	value: number;
	currency: Currency;
	reference: string;
}

/** Whether one payout more (`value`) stays within the period limits. */
export function withinPeriod({ limits, soFar, value }: Pick<PeriodCheck, 'limits' | 'soFar' | 'value'>): boolean {
	return (limits.periodCount === undefined || soFar.count + 1 <= limits.periodCount) && (limits.periodTotal === undefined || soFar.total + value <= limits.periodTotal);
}

/** Refuses item `i` (nothing sent) when one payout more would pass a period limit. */
export function refuseOverPeriod(this: IExecuteFunctions, i: number, { limits, period, soFar, value, currency, reference }: PeriodCheck): void {
	const show = (kobo: number) => formatMainUnits(fromSmallestUnit(kobo, currency), currency);
	const asTool = runsAsTool.call(this);
	const { count: periodCount, total: periodTotal } = soFar;
	// A tool's model learns that the limit was reached, never the account's totals or what is left.
	const whose = asTool ? '' : ` The count covers every payout of this Paycashless account in the period that has not failed, in every currency (${periodCount} so far).`;
	if (limits.periodCount !== undefined && periodCount + 1 > limits.periodCount) {
		refuse.call(
			this,
			i,
			'MAX_COUNT_PERIOD',
			asTool ? `Refused: this payout would pass the Maximum Count per Period` : `Refused: ${periodCount} payouts were already made ${period.label}, the Maximum Count per Period`,
			`Nothing was sent for reference "${reference}".${whose} ${PERIOD_ADVICE}`,
		);
	}
	if (limits.periodTotal !== undefined && periodTotal + value > limits.periodTotal) {
		refuse.call(
			this,
			i,
			'MAX_TOTAL_PERIOD',
			asTool
				? `Refused: this payout would pass the Maximum Total per Period`
				: `Refused: ${show(value)} would bring the payouts of ${period.label} to ${show(periodTotal + value)}, above the Maximum Total per Period of ${show(limits.periodTotal)}`,
			`Nothing was sent for reference "${reference}".${asTool ? '' : ' The total covers every payout of this Paycashless account in the period that has not failed, whoever made it.'} ${PERIOD_ADVICE}`,
		);
	}
}

/** The period's count and total (in `currency`) as the limits count them: listed and live, plus unlisted in flight. */
export function periodSoFar(paid: PaidInPeriod, unlisted: InFlightCount, currency: Currency): { count: number; total: number } {
	return { count: paid.count + unlisted.count, total: paid.total + unlisted.total(currency) };
}

/** The period so far as the period limits of item `i` count it (nothing reserved), or undefined without a period limit. */
export interface PeriodStanding {
	label: string;
	currency: Currency;
	/** Smallest unit, in the Limits Currency. */
	total: number;
	/** Every currency. */
	count: number;
}

export async function periodStanding(this: IExecuteFunctions, i: number, api: PaycashlessApi, counted: Counted): Promise<PeriodStanding | undefined> {
	const limits = readLimits.call(this, i);
	if (limits.periodTotal === undefined && limits.periodCount === undefined) return undefined;
	const period = periodWindow(limits.period, this.getTimezone());
	const account = await accountOf.call(this);
	const record = await payoutsInPeriod.call(this, period, api, account);
	const others = unknownOwners(account);
	if (others.owners.size > 0 || others.entries.length > 0) await learnRelations(account, others, api);
	const paid = record.paid(limits.currency);
	return { label: period.label, currency: limits.currency, ...periodSoFar(paid, counted.unlisted(account, record.listed), limits.currency) };
}
