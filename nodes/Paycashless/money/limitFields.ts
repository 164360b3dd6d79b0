/**
 * Money Limits as a person sets them: the fields of each money kind (a payout adds the period and
 * the payee checks), the notices of an empty limit, the opt-out a tool needs, and how item `i`'s
 * limits are read. The limit fields take typed-in values only: an expression (`$fromAI` included)
 * is refused, and a limit that is set but empty, zero or not a number refuses the item instead of
 * switching off. What the limits check: ./limits.ts.
 */
import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { CURRENCIES, toSmallestUnit, type Currency } from '../helpers/amount';
import { isObject } from '../helpers/body';
import { showValue } from '../helpers/validation';
import { BENEFICIARY_CHOICES, beneficiaryFields } from './beneficiary';
import { itemParameter } from './itemParameters';
import { MONEY, type MoneyKind } from './kinds';
import { PERIODS, type Period } from './period';
import { refuse } from './refusal';
import type { MoneyRun } from './run';

export const LIMITS_PARAMETER = 'moneyLimits';
export const NO_LIMITS_PARAMETER = 'runWithoutLimits';

/** Amount limits (main units of the Limits Currency) and count limits, by field name. */
const AMOUNT_LIMITS = { maxAmount: 'Maximum Amount', maxTotal: 'Maximum Total per Execution', periodTotal: 'Maximum Total per Period' } as const;
const COUNT_LIMITS = { maxCount: 'Maximum Count per Execution', periodCount: 'Maximum Count per Period' } as const;
const CHOICES = { currency: 'Limits Currency', period: 'Period' } as const;
/** Every field that limits amounts, counts or who may be paid: typed in by a person, never an expression. */
export const TYPED_ONLY: Record<string, string> = { ...AMOUNT_LIMITS, ...COUNT_LIMITS, ...CHOICES, ...BENEFICIARY_CHOICES };

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
			description: `The most this node may ${MONEY[kind].verb} in one execution, in main units of the Limits Currency, over all its items and runs. Typed in only: an expression is refused.`,
		},
	];
	if (MONEY[kind].accountWide) {
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
	if (MONEY[kind].accountWide) options.push(...beneficiaryFields());
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
	const names = [...Object.keys(AMOUNT_LIMITS), ...Object.keys(COUNT_LIMITS)].filter((name) => MONEY[kind].accountWide || !name.startsWith('period'));
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
export function limitsOff(run: MoneyRun): boolean {
	return run.node.parameters[NO_LIMITS_PARAMETER] === true;
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

export const UNSET_ADVICE = 'Nothing was sent. Only the person who set up this workflow can change Money Limits, in the node.';

/**
 * The node's Money Limits of item `i`, checked: a field whose stored value is an expression
 * (`$fromAI` included) is refused whatever it resolves to; a set field must resolve to a positive
 * number (a whole one for counts), never to "no limit".
 */
export function readLimits(run: MoneyRun, i: number): Limits & { values: IDataObject } {
	const raw = run.node.parameters[LIMITS_PARAMETER];
	const stored: IDataObject = isObject(raw) ? (raw as IDataObject) : {};
	for (const [name, label] of Object.entries(TYPED_ONLY)) {
		const value = stored[name];
		// n8n 1.123 hands a tool's `={{ $fromAI(…) }}` over without its `=`: any `{{` is an expression too.
		if (typeof value === 'string' && (value.startsWith('=') || value.includes('{{'))) {
			refuse(
				run,
				i,
				'LIMIT_EXPRESSION',
				`Refused: Money Limits → ${label} is an expression`,
				`A limit must be typed in by the person who set up this workflow, so that no item, expression or AI model can change it. ${UNSET_ADVICE}`,
			);
		}
	}
	const limits = itemParameter(run, LIMITS_PARAMETER, i, {}) as IDataObject;
	const bad = (name: string, value: unknown, allowed: string): never =>
		refuse(run, i, 'LIMIT_INVALID', `Refused: Money Limits → ${TYPED_ONLY[name]} is set but is ${showValue(value)}`, `It must be ${allowed}; a limit never switches itself off. ${UNSET_ADVICE}`);
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
