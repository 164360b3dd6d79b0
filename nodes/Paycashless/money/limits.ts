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
 * The fields and how they are read: ./limitFields.ts; the period check: ./periodCheck.ts; what
 * differs by money kind (the body's reader, what a tool needs): ./kinds.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { CURRENCIES, type Currency } from '../helpers/amount';
import { formatMainUnits, fromSmallestUnit } from '../helpers/mainUnits';
import type { PaycashlessApi } from '../transport';
import { relation } from './accounts';
import { checkBeneficiary, type Payee } from './beneficiary';
import { MONEY, type MoneyKind } from './kinds';
import { addToLedger, realCounted, removeFromLedger, sumsOf, type Counted, type LedgerEntry } from './ledger';
import { limitsOff, readLimits, TYPED_ONLY, UNSET_ADVICE } from './limitFields';
import { sameMoney, samePayout, type PeriodPayout } from './listed';
import { periodWindow } from './period';
import { periodSoFar, readPeriod, refuseOverPeriod, withinPeriod } from './periodCheck';
import { askable, askAbout } from './questions';
import { refuse } from './refusal';
import type { MoneyCheck, MoneyRun } from './run';

/** The payout's record under its reference is the payout asked for now, still live: found again, not paid again. */
function sameLivePayout(listed: PeriodPayout | undefined, money: { value: number; currency: string; payee?: Payee }): boolean {
	return listed !== undefined && listed.live && samePayout(listed, { value: money.value, currency: money.currency, ...money.payee });
}

export type { MoneyCheck };

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
	run: MoneyRun,
	i: number,
	kind: MoneyKind,
	body: IDataObject,
	api: PaycashlessApi,
	counted: Counted = realCounted(run),
): Promise<MoneyCheck> {
	const limits = readLimits(run, i);
	const money = MONEY[kind].read(body);
	const reference = String(body.reference ?? '');
	if (money.unreadable !== undefined) {
		refuse(run, i, 'AMOUNT_UNREADABLE', `Refused: the ${kind}'s amount cannot be read for sure (${money.unreadable})`, 'Nothing was sent. Paycashless might read this body otherwise than the Money Limits do: send amount as {"value": kobo or cents, "currency": "NGN" or "USD"}, each key once, and no other currency beside it.');
	}
	if (!(CURRENCIES as readonly string[]).includes(money.currency) || money.value === undefined) {
		refuse(run, i, 'AMOUNT_UNREADABLE', `Refused: the ${kind} has no amount and currency the Money Limits can check`, 'Nothing was sent. Set the amount and currency in the fields, not only in Additional Body Fields.');
	}
	const value = money.value as number;
	const currency = money.currency as Currency;
	const show = (kobo: number) => formatMainUnits(fromSmallestUnit(kobo, currency), currency);
	const asTool = run.asTool;

	if (asTool && !limitsOff(run)) {
		const missing = MONEY[kind].toolNeeds.filter((name) => limits[name] === undefined);
		if (missing.length > 0) {
			refuse(
				run,
				i,
				'LIMIT_NOT_SET',
				`Refused: this tool moves real money and has no ${missing.map((name) => TYPED_ONLY[name]).join(' and ')} set`,
				`Nothing was sent. The person who set up this workflow must set Money Limits → ${MONEY[kind].toolNeeds
					.map((name) => TYPED_ONLY[name])
					.join(' and ')} in the Paycashless tool node. An AI agent cannot change this.`,
			);
		}
	}
	if (limits.any && currency !== limits.currency) {
		refuse(
			run,
			i,
			'CURRENCY_NOT_LIMITED',
			`Refused: this ${kind} is in ${currency}, and this node's Money Limits are in ${limits.currency}`,
			`Nothing was sent. Limits in one currency never apply to another: the person who set up this workflow decides whether ${currency} ${kind}s are allowed, with a node whose Limits Currency is ${currency}.`,
		);
	}
	if (limits.maxAmount !== undefined && value > limits.maxAmount) {
		refuse(
			run,
			i,
			'MAX_AMOUNT',
			`Refused: ${show(value)} is above this node's Maximum Amount of ${show(limits.maxAmount)}`,
			`Nothing was sent. Amounts are in main units (naira or dollars): 1500.50 means ${formatMainUnits(1500.5, currency)}; an amount meant in kobo is 100 times too large.`,
		);
	}
	const periodLimit = (['periodTotal', 'periodCount'] as const).find((name) => limits[name] !== undefined);
	if (periodLimit !== undefined && limits.maxAmount === undefined) {
		refuse(
			run,
			i,
			'LIMIT_NOT_SET',
			`Refused: ${TYPED_ONLY[periodLimit]} is set without a Maximum Amount`,
			`A period limit needs a Maximum Amount: it bounds each payout, and how far payouts made at the same moment can pass the period total. ${UNSET_ADVICE}`,
		);
	}

	if (money.payee) await checkBeneficiary(run, i, limits.values, money.payee, api);

	// Paycashless's own record of the period, read before the checks below (which read and write
	// the ledger and the payouts in flight with no wait in between, so executions and items
	// running side by side in this running n8n see each other).
	const period = periodLimit !== undefined ? periodWindow(limits.period, run.context.getTimezone()) : undefined;
	const account = MONEY[kind].accountWide ? await run.accountKey() : undefined;
	const record = period && account !== undefined ? await readPeriod(run, i, period, api, account) : undefined;

	const entry: LedgerEntry = { value, currency, ...(money.party !== undefined ? { party: money.party } : {}) };
	// Synchronous from here to the reservation; asking Paycashless about payouts in flight (at most
	// once per check) starts it again with what the answers changed.
	for (let asked = false; ; asked = true) {
		const ledger = counted.ledger();
		const earlier = reference === '' ? undefined : ledger[reference];
		if (earlier) {
			if (sameMoney(earlier, entry)) return NOTHING_RESERVED;
			refuse(
				run,
				i,
				'REFERENCE_REUSED',
				`Refused: the reference "${reference}" was already used in this execution for a different ${kind}`,
				`Nothing was sent. A reference names one ${kind}: the same reference must ask for the same amount, currency and ${MONEY[kind].party}. A different ${kind} needs its own reference.`,
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
				refuse(
					run,
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
			refuse(run, i, 'MAX_COUNT_EXECUTION', `Refused: this execution already made ${count} ${kind}${count === 1 ? '' : 's'}, the Maximum Count per Execution`, `Nothing was sent for reference "${reference}".`);
		}
		const total = sums.totals.get(currency) ?? 0;
		if (limits.maxTotal !== undefined && total + value > limits.maxTotal) {
			refuse(
				run,
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
			refuseOverPeriod(run, i, { limits, period, soFar, value, currency, reference });
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
