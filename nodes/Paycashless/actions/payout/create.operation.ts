/**
 * Payout → Create: the payout's fields and body; its Batch Options (All or Nothing, Approved Batch
 * Hash), checked before the first payout, in ./batchOptions.ts.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { LOOK_UP_THEN_PAY, NAIRA } from '../fields/builderHints';
import { PAYOUT_FIELDS, payoutMoneyOf } from '../../../../lib/payoutBody';
import { BANK, PAYOUT } from '../../catalog/objects';
import {
	ACCOUNT_NUMBER_FOR_THE_MODEL,
	additionalBodyJsonField,
	additionalFieldsCollection,
	amountFields,
	callbackUrlField,
	currencyField,
	metadataField,
	referenceField,
} from '../fields/common';
import { compact, isObject } from '../../helpers/body';
import { AS_TOOL } from '../../helpers/toolFacts';
import { referenceToPay } from '../../money/repay';
import { MAX_NARRATION, NUBAN_DIGITS, optionalTextUpTo, optionalUrl, requireDigits, requireId, requireReference } from '../../helpers/validation';
import { sendChecked } from '../../money/step';
import { foundBeforeSending, type PaycashlessApi } from '../../transport';
import { readRequestOptions } from '../fields/requestOptions';
import { amountCurrency, amountValue, finishBody, readAmount, verifiedByReference } from '../common';
import type { BeforeItems, CreateDeclaration, OperationOption } from '../types';
import { batchBeforeItems, batchOptionsField } from './batchOptions';
import { runDetails, withRunDetails } from './runDetails';
import { itemParameter } from '../../money/itemParameters';
import type { NodeRun } from '../run';

/** Additional Fields → Pay Again If Failed and Leave Out Run Details (typed in only: read as stored). */
const PAY_AGAIN = 'payAgainIfFailed';
const LEAVE_OUT_RUN_DETAILS = 'leaveOutRunDetails';

/** The payout's own fields, shared by Create, Create and Wait and Check Batch. */
export const payoutFields: INodeProperties[] = [
	{
		...referenceField,
		description:
			'Your own unique reference for this payout, e.g. the ID of the bill being paid. Paycashless refuses a reference used before, so a payout is never sent twice; look it up with Payout → Verify.',
	},
	...amountFields('How much to send.'),
	currencyField,
	{
		displayName: 'Destination Account Number',
		name: 'destinationAccountNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0123456789',
		description: 'The bank account number (NUBAN) to pay into',
		[AS_TOOL]: ACCOUNT_NUMBER_FOR_THE_MODEL,
	},
	{
		displayName: 'Bank ID',
		name: 'bankId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'bank_538ed2056326432ba8e6853b613997bb',
		description:
			'The Paycashless ID of the destination bank (starts with bank_), not its CBN or NIBSS code. Get it with Bank Account → Look Up.',
		hint: 'After Bank Account → Look Up, use the expression {{ $json.bank.id }}',
		[AS_TOOL]: {
			key: 'Bank_ID',
			description: 'The Paycashless bank ID, starting with bank_. Get it from the bank account look-up tool (bank.id in its result); it is not a bank code.',
		},
	},
	additionalFieldsCollection([
		callbackUrlField,
		{
			displayName: 'Leave Out Run Details',
			name: LEAVE_OUT_RUN_DETAILS,
			type: 'boolean',
			noDataExpression: true,
			default: true,
			description:
				"Whether to leave out of the payout's metadata where it came from (n8n workflow, execution, node, batch, preparer and approver, the person paid). Not added: they are written beside your own metadata (docs: Payroll, \"Every payout leads back\").",
		},
		metadataField,
		{
			displayName: 'Narration',
			name: 'narration',
			type: 'string',
			default: '',
			description: 'Text shown on the recipient’s statement, at most 100 characters',
		},
		{
			displayName: 'Pay Again If Failed',
			name: PAY_AGAIN,
			type: 'boolean',
			noDataExpression: true,
			default: true,
			description:
				'Whether a payout Paycashless has under this reference as failed, reversed or cancelled is paid again, once, under the reference with -repay-1 added (-repay-2 if that one failed too). Not added: it is found again and not paid. Typed in only.',
		},
		{
			displayName: 'Payee Key',
			name: 'payeeKey',
			type: 'string',
			default: '',
			placeholder: 'S001',
			description:
				"Your own key for the person paid, e.g. a staff ID: written into the payout's metadata, so that Payout → Check Batch can flag a payee key last paid into another account",
		},
		additionalBodyJsonField,
	]),
];

/** Whether an Additional Fields switch is on, as typed in (an expression never turns it on). */
function switchedOn(run: NodeRun, name: string): boolean {
	// The node read once per run (n8n deep-copies it on every getNode(); this runs several times per row).
	const raw = run.node.parameters.additionalFields;
	return isObject(raw) && (raw as IDataObject)[name] === true;
}

/** Pay Again If Failed, as typed in. */
export function paysAgain(run: NodeRun): boolean {
	return switchedOn(run, PAY_AGAIN);
}

export const description: INodeProperties[] = [...payoutFields, batchOptionsField];

export const option: OperationOption = { name: 'Create', description: 'Send money to a bank account', action: 'Create a payout' };

/**
 * A payout create answers with `{ id, status, reference }` only (202): the transport reads the
 * payout back by its reference (Payout → Verify's request), or, for many payouts in one run, from
 * the list of payouts created since the run started (100 a request), so the item has the same
 * fields as a payout found again; if that read fails, the short answer comes with a note, never an
 * error.
 */
export const declaration: CreateDeclaration = {
	kind: 'create',
	findsAgain: {
		...verifiedByReference(PAYOUT, { resource: 'payout', operation: 'verify' }, [
			// The request is read by the one payout body reader (lib/payoutBody.ts); the payout found is
			// Paycashless's object (flat amount and currency, destinationBankId).
			{ field: PAYOUT_FIELDS.amount, requested: (body) => payoutMoneyOf(body)?.minor, existing: (found) => amountValue(found.amount) },
			{ field: PAYOUT_FIELDS.currency, requested: (body) => payoutMoneyOf(body)?.currency, existing: (found) => found.currency ?? amountCurrency(found.amount) },
			{ field: PAYOUT_FIELDS.accountNumber, requested: (body) => payoutMoneyOf(body)?.accountNumber, existing: (found) => found.destinationAccountNumber },
			{ field: PAYOUT_FIELDS.bankId, requested: (body) => payoutMoneyOf(body)?.bankId, existing: (found) => found.destinationBankId ?? found.bankId },
		]),
		readBack: (answer) => !('amount' in answer),
		// Many payouts of one run are read back from the list, 100 a request (transport/readBacks.ts).
		listedSince: { path: PAYOUT.path, query: 'createdAt.gte' },
	},
};

/**
 * The create request of item `i` (validated, nothing sent). `callbackUrl` replaces the field's
 * value (Create and Wait for Final Status gives its own resume URL).
 */
export function payoutCreateBody(this: IExecuteFunctions, i: number, callbackUrl: string | undefined, run: NodeRun): { reference: string; body: IDataObject } {
	const given = requireReference(itemParameter(run.money, 'reference', i));
	const amount = readAmount(run, i);
	const accountNumber = requireDigits(
		itemParameter(run.money, 'destinationAccountNumber', i),
		'Destination Account Number',
		'0123456789',
		NUBAN_DIGITS,
	);
	const bankId = requireId(itemParameter(run.money, 'bankId', i), BANK.idPrefix, 'Bank ID');
	const fields = itemParameter(run.money, 'additionalFields', i, {}) as IDataObject;
	const body = finishBody(
		compact({
			// The payout's field names are written once, in lib/payoutBody.ts (the reader of this body).
			[PAYOUT_FIELDS.reference]: given,
			[PAYOUT_FIELDS.amount]: amount,
			[PAYOUT_FIELDS.accountNumber]: accountNumber,
			[PAYOUT_FIELDS.bankId]: bankId,
			narration: optionalTextUpTo(fields.narration, 'Narration', MAX_NARRATION),
			callbackUrl: callbackUrl ?? optionalUrl(fields.callbackUrl, 'Callback URL'),
		}),
		fields,
	);
	// The reference sent (Additional Body Fields may have replaced the form's) is the one that counts.
	const reference = String(body.reference);
	// A row paid again goes under its `-repay-N` reference (known before the first payout, or looked up in execute).
	const sent = run.batch?.payAgain.get(i) ?? reference;
	const paid = sent === reference ? body : { ...body, reference: sent };
	return { reference: sent, body: switchedOn(run, LEAVE_OUT_RUN_DETAILS) ? paid : withRunDetails(paid, runDetails(run, i, reference, sent)) };
}

/**
 * Sends a create body after its Money Limits (body → check → send, money/step.ts); the transport
 * reads the whole payout back (the declaration's `readBack`).
 */
export async function sendPayout(this: IExecuteFunctions, i: number, api: PaycashlessApi, body: IDataObject): Promise<IDataObject> {
	return await sendChecked(api, i, 'payout', { method: 'POST', path: PAYOUT.path, body });
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi, run: NodeRun): Promise<IDataObject> {
	// All or Nothing's check found this row's payout by its reference moments ago: found again, not
	// sent (a create would be refused as a repeat and the payout looked up), unless a repeat must stop the node.
	const found = run.batch?.found?.get(i);
	if (found && readRequestOptions.call(this, i).onRepeatedReference !== 'error') return foundBeforeSending(declaration.findsAgain, found);
	let { body } = payoutCreateBody.call(this, i, undefined, run);
	// Pay Again If Failed, when no batch check before the first payout said under which reference.
	const money = payoutMoneyOf(body);
	if (paysAgain(run) && money && run.batch?.found === undefined) {
		const sent = await referenceToPay(run.money, i, api, money);
		if (sent !== money.reference) {
			run.batch ??= { payAgain: new Map<number, string>() };
			run.batch.payAgain.set(i, sent);
			body = payoutCreateBody.call(this, i, undefined, run).body;
		}
	}
	return await sendPayout.call(this, i, api, body);
}

/** What an AI agent reads as this tool's description (+ " in Paycashless"). */
export const asTool = {
	action: 'Send a Paycashless payout: moves real money now to a bank account',
};

/** Batch Options before the first payout (./batchOptions.ts), on this operation's bodies. */
export async function beforeItems(this: IExecuteFunctions, api: PaycashlessApi, run: NodeRun): Promise<BeforeItems> {
	return await batchBeforeItems(run, api, (i) => payoutCreateBody.call(this, i, undefined, run).body, paysAgain(run));
}

/** What an AI that builds workflows reads under this operation (../fields/builderHints.ts). */
export const builderHint = {
	option: `Moves real money now. ${NAIRA} Needs bankId from Bank Account → Look Up and a reference from the input data (never $now, $execution.id or random). For the outcome: Payout → Verify by reference, the Paycashless Trigger (this create's Callback URL = its Production URL; act on data.status), or Create and Wait for Final Status.`,
	pattern: LOOK_UP_THEN_PAY,
};

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'To a bank account; `bankId` is the `bank.id` from Bank Account → Look Up; *Batch Options*: All or Nothing, Approved Batch Hash ([Payroll](payroll.md))' };
