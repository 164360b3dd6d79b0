/**
 * The money step of a create: body → check → send. Every operation that moves money or asks a
 * customer for it (payouts, payments, invoices) sends its create with `sendChecked`, which checks
 * the body about to be sent against the node's Money Limits (./limits.ts), reserves it, sends it,
 * and tells the reservation how the create ended: Paycashless definitely refused it (nothing was
 * created: its place is given back) or anything else (it may have been created: it stays counted).
 *
 * The router hands those operations a sealed API (`MoneyApi`, holding the run's Money Limits
 * state): its reads work, and a request with a body that did not come through `sendChecked` is
 * refused before it is sent, so an operation that forgot its money step fails loudly instead of
 * moving money unchecked.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CEILING_REFUSAL_CODE } from '../../../lib/payoutCeiling';
import { isObject } from '../helpers/body';
import { asNodeError, ERROR_CODES } from '../helpers/errorCodes';

import type { PaycashlessApi, PaycashlessRequest } from '../transport';
import type { MoneyKind } from './kinds';
import { enforceMoneyLimits } from './limits';
import { readListedPayout } from './listed';
import { recheckReserved, takeReserved } from './reservedBatch';
import { sendingUnder } from './references';
import type { MoneyRun } from './run';

/**
 * The API of a money-moving operation's run: reads as usual; a body only through `sendChecked`,
 * which alone reaches the API it seals. It carries the run's Money Limits state (./run.ts).
 */
export class MoneyApi implements PaycashlessApi {
	constructor(
		readonly run: MoneyRun,
		private readonly unsealed: PaycashlessApi,
	) {}

	async request(request: PaycashlessRequest): Promise<IDataObject> {
		if (request.body !== undefined) {
			throw new Error(`Nothing was sent: ${request.method} ${request.path} carries a body but did not pass the Money Limits step (an error in the node; please report it)`);
		}
		return await this.unsealed.request(request);
	}

	async paginate(...args: Parameters<PaycashlessApi['paginate']>): ReturnType<PaycashlessApi['paginate']> {
		return await this.unsealed.paginate(...args);
	}

	async page(...args: Parameters<PaycashlessApi['page']>): ReturnType<PaycashlessApi['page']> {
		return await this.unsealed.page(...args);
	}

	/** Body → check → send: the create of item `i`, checked against the Money Limits of its kind. */
	async sendChecked(i: number, kind: MoneyKind, request: PaycashlessRequest & { body: IDataObject }): Promise<IDataObject> {
		const { run, unsealed } = this;
		// An item of a batch reserved whole (All or Nothing, ./reservedBatch.ts) takes its reservation.
		const reserved = kind === 'payout' ? takeReserved(run, i) : undefined;
		// A later check of this execution asks for this reference again (./references.ts).
		if (kind === 'payout' && typeof request.body.reference === 'string') await sendingUnder(run, request.body.reference).catch(() => undefined);
		const reservation = reserved ? await recheckReserved(run, i, request.body, unsealed, reserved) : await enforceMoneyLimits(run, i, kind, request.body, unsealed);
		try {
			const answer = await unsealed.request(request);
			reservation.sent(answerOf(answer));
			return answer;
		} catch (error) {
			if (definitelyRefused(error)) reservation.release();
			else reservation.sent();
			throw asNodeError(run.context, error, i);
		}
	}
}

/** The money API of `run` over `api` (the router gives it to money-moving operations and batch checks). */
export function moneyApi(run: MoneyRun, api: PaycashlessApi): MoneyApi {
	return new MoneyApi(run, api);
}

/**
 * Body → check → send through `api`, which must be the money API the router gave the operation:
 * any other is refused before anything is sent.
 */
export async function sendChecked(api: PaycashlessApi, i: number, kind: MoneyKind, request: PaycashlessRequest & { body: IDataObject }): Promise<IDataObject> {
	if (!(api instanceof MoneyApi)) throw new Error(`Nothing was sent: ${request.method} ${request.path} was not given the Money Limits step (an error in the node; please report it)`);
	return await api.sendChecked(i, kind, request);
}

/**
 * Nothing was created: Paycashless refused it (a refused field, key or ID), its reference belongs
 * to another payout (Paycashless refuses a second one under it), the lookup by reference after
 * unclear answers found none, or the credential refused to sign it (nothing was sent).
 */
function definitelyRefused(error: unknown): boolean {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return false;
	const details = (error.context.paycashless ?? {}) as IDataObject;
	if (details.code === ERROR_CODES.REFERENCE_MISMATCH || details.code === CEILING_REFUSAL_CODE || details.outcome === 'notCreated') return true;
	return error instanceof NodeApiError && ['400', '401', '403', '404', '422'].includes(String(error.httpCode));
}

/**
 * What the ledger learns from a create's answer: Paycashless's id, whether a read showed the payout
 * (./inFlight.ts), and whether it moved no money (found again failed, reversed or cancelled).
 */
function answerOf(answer: IDataObject): { id?: unknown; confirmed: boolean; paid: boolean } {
	const marker = isObject(answer._paycashless) ? answer._paycashless : {};
	// A whole payout (read back, or found again by its reference) is one Paycashless showed.
	const confirmed = 'amount' in answer || marker.reconciled === true;
	const read = confirmed ? readListedPayout(answer) : undefined;
	return { id: answer.id, confirmed, paid: read === undefined || typeof read === 'string' || read.live };
}
