/**
 * Limits a person sets on the operations that move money (payouts, payments), checked on the
 * body that is about to be sent (after expressions and Additional Body Fields), before anything
 * reaches Paycashless. A wrong expression or an AI agent holding the node as a tool does the same
 * harm as a typo, so the same checks hold for all of them:
 * - Maximum Amount: per payout or payment (also catches an amount meant in kobo).
 * - Maximum Count and Maximum Total per Execution: over every run of this node in one execution
 *   (an agent's tool calls are runs of the node). Kept in n8n's per-execution node context
 *   (`getContext('node')`), which n8n stores with the execution: it holds across waits and on
 *   queue-mode workers, never in process memory. A reference already counted is not counted
 *   again (the same reference never pays twice).
 * - Beneficiary (payouts): Allowed Destination Accounts, and/or Expected Account Name compared
 *   with the name Paycashless's account lookup returns.
 * As a tool, a money-moving operation refuses to run without a Maximum Amount and a Maximum
 * Count, unless the user turned on "Run Without Limits (Unsafe)".
 *
 * Longer than 250 lines on purpose: the limits' fields, how they are read and the checks they
 * make are one guard on money, read whole.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CURRENCIES, toSmallestUnit, type Currency } from '../helpers/amount';
import { isObject } from '../helpers/body';
import { formatMainUnits, fromSmallestUnit } from '../helpers/mainUnits';
import { requireInteger } from '../helpers/validation';
import type { PaycashlessApi } from '../transport';
import { beneficiaryFields, checkBeneficiary } from './beneficiary';
import type { MoneyKind } from './types';

export const LIMITS_PARAMETER = 'moneyLimits';
export const NO_LIMITS_PARAMETER = 'runWithoutLimits';
const LEDGER_KEY = 'paycashlessMoneyMoved';

/** The limit fields of a money-moving operation; `payout` adds the beneficiary checks. */
export function moneyLimitsCollection(kind: MoneyKind): INodeProperties {
	const what = kind;
	const options: INodeProperties[] = [
		{
			displayName: 'Maximum Amount',
			name: 'maxAmount',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description: `The largest ${what} this node may make, in main units (naira or dollars) of the ${what}'s currency. A larger one is refused before anything is sent: this also catches an amount meant in kobo. 0 = no limit.`,
		},
		{
			displayName: 'Maximum Count per Execution',
			name: 'maxCount',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0 },
			description: `How many ${what}s (distinct references) this node may make in one execution, over all its items and runs (every call of an AI agent's tool is a run). 0 = no limit.`,
		},
		{
			displayName: 'Maximum Total per Execution',
			name: 'maxTotal',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description: `The most this node may ${kind === 'payout' ? 'pay out' : 'request'} in one execution, in main units, over all its items and runs. 0 = no limit.`,
		},
	];
	if (kind === 'payout') options.push(...beneficiaryFields());
	return {
		displayName: 'Money Limits',
		name: LIMITS_PARAMETER,
		type: 'collection',
		placeholder: 'Add Limit',
		default: {},
		description: `Limits checked before a ${what} is sent, also when an expression or an AI agent fills the fields`,
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/** The opt-out a tool needs to move money without limits. */
export const runWithoutLimitsField: INodeProperties = {
	displayName: 'Run Without Limits (Unsafe)',
	name: NO_LIMITS_PARAMETER,
	type: 'boolean',
	default: false,
	description:
		'Whether an AI agent may move money with this tool although no Maximum Amount and Maximum Count per Execution are set under Money Limits. Leave off: as a tool, money-moving operations refuse to run without both.',
};

interface Ledger {
	[reference: string]: { value: number; currency: string };
}

function refuse(this: IExecuteFunctions, i: number, message: string, description: string): never {
	throw new NodeOperationError(this.getNode(), message, { itemIndex: i, description });
}

function limitValue(value: unknown, field: string, currency: Currency): number | undefined {
	if (value === undefined || value === null || value === '' || value === 0 || value === '0') return undefined;
	return toSmallestUnit(value, { field: `Money Limits → ${field}`, currency });
}

/** Whether this node runs as an AI agent's tool (n8n names the tool variant `<type>Tool`). */
export function runsAsTool(this: IExecuteFunctions): boolean {
	return this.getNode().type.endsWith('Tool');
}

/**
 * Checks the create body of item `i` against the node's Money Limits and records it in this
 * execution's ledger; throws (nothing sent) when a limit refuses it. Call it right before the
 * create is sent.
 */
export async function enforceMoneyLimits(this: IExecuteFunctions, i: number, kind: MoneyKind, body: IDataObject, api: PaycashlessApi): Promise<void> {
	const limits = this.getNodeParameter(LIMITS_PARAMETER, i, {}) as IDataObject;
	const amount = isObject(body.amount) ? body.amount : { value: body.amount, currency: body.currency };
	const currency = String(amount.currency ?? '').toUpperCase() as Currency;
	const reference = String(body.reference ?? '');
	if (!(CURRENCIES as readonly string[]).includes(currency) || typeof amount.value !== 'number') {
		refuse.call(this, i, `The ${kind} has no amount and currency the Money Limits can check`, 'Set Amount and Currency in the fields, not only in Additional Body Fields.');
	}
	const value = amount.value as number;
	const show = (kobo: number) => formatMainUnits(fromSmallestUnit(kobo, currency), currency);
	const maxAmount = limitValue(limits.maxAmount, 'Maximum Amount', currency);
	const maxTotal = limitValue(limits.maxTotal, 'Maximum Total per Execution', currency);
	const maxCount =
		limits.maxCount === undefined || limits.maxCount === 0 || limits.maxCount === '' ? undefined : requireInteger(limits.maxCount, 'Money Limits → Maximum Count per Execution', 1);

	if (runsAsTool.call(this) && (maxAmount === undefined || maxCount === undefined) && this.getNodeParameter(NO_LIMITS_PARAMETER, i, false) !== true) {
		refuse.call(
			this,
			i,
			`Refused: this tool moves real money and has no ${maxAmount === undefined ? 'Maximum Amount' : 'Maximum Count per Execution'} set`,
			'Nothing was sent. The person who set up this workflow must open the Paycashless tool node and set Money Limits → Maximum Amount and Maximum Count per Execution (or, knowingly, turn on Run Without Limits (Unsafe)). An AI agent cannot change this.',
		);
	}
	if (maxAmount !== undefined && value > maxAmount) {
		refuse.call(
			this,
			i,
			`Refused: ${show(value)} is above this node's Maximum Amount of ${show(maxAmount)}`,
			`Nothing was sent. Amounts are in main units (naira or dollars): 1500.50 means ${formatMainUnits(1500.5, currency)}; an amount meant in kobo is 100 times too large. Raise Money Limits → Maximum Amount if this ${kind} is really meant.`,
		);
	}

	if (kind === 'payout') await checkBeneficiary.call(this, i, limits, body, api);

	const context = this.getContext('node');
	const ledger: Ledger = isObject(context[LEDGER_KEY]) ? (context[LEDGER_KEY] as Ledger) : {};
	if (reference !== '' && ledger[reference]) return;
	const entries = Object.values(ledger).filter((entry) => entry.currency === currency);
	const count = Object.keys(ledger).length;
	if (maxCount !== undefined && count + 1 > maxCount) {
		refuse.call(
			this,
			i,
			`Refused: this execution already made ${count} ${kind}${count === 1 ? '' : 's'}, the Maximum Count per Execution`,
			`Nothing was sent for reference "${reference}". Repeating a reference already used is allowed (it never pays twice). Raise Money Limits → Maximum Count per Execution, or run the workflow again for more.`,
		);
	}
	const total = entries.reduce((sum, entry) => sum + entry.value, 0);
	if (maxTotal !== undefined && total + value > maxTotal) {
		refuse.call(
			this,
			i,
			`Refused: ${show(value)} would bring this execution's total to ${show(total + value)}, above the Maximum Total per Execution of ${show(maxTotal)}`,
			`Nothing was sent for reference "${reference}"; ${show(total)} was already ${kind === 'payout' ? 'paid out' : 'requested'} in this execution.`,
		);
	}
	// Counted before the request is sent: a create that may have reached Paycashless stays counted.
	ledger[reference] = { value, currency };
	context[LEDGER_KEY] = ledger;
}
