/**
 * Payout → Create: the payout's fields and body, and Batch Options (All or Nothing, Approved Batch
 * Hash) checked before the first payout.
 *
 * Longer than 250 lines on purpose: the payout's fields, body and the Batch Options checked
 * before its first payout are one create, read whole.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LOOK_UP_THEN_PAY, NAIRA } from '../../descriptions/builderHints';
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
} from '../../descriptions/common';
import { compact, isObject } from '../../helpers/body';
import { AS_TOOL } from '../../helpers/toolFacts';
import { withErrorCode } from '../../helpers/errorCodes';
import { batchHash, batchPayoutOf, checkBatch, type BatchPayout } from '../../money/batch';
import { MAX_NARRATION, NUBAN_DIGITS, optionalTextUpTo, optionalUrl, requireDigits, requireId, requireReference } from '../../helpers/validation';
import { sendChecked } from '../../money/step';
import type { PaycashlessApi } from '../../transport';
import { amountCurrency, amountValue, finishBody, readAmount, verifiedByReference } from '../common';
import type { BeforeItems, CreateDeclaration, OperationOption } from '../types';

const BATCH_OPTIONS = 'batchOptions';

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
		metadataField,
		{
			displayName: 'Narration',
			name: 'narration',
			type: 'string',
			default: '',
			description: 'Text shown on the recipient’s statement, at most 100 characters',
		},
		additionalBodyJsonField,
	]),
];

/**
 * Payout → Check Batch's action: what n8n's panel lists and names a node added with it
 * (n8n-workflow's makeNodeName), so the placeholder below names that node.
 */
export const CHECK_BATCH_ACTION = 'Check a payout batch';

/** Create only: the batch as a whole (../../money/batch.ts; docs/payroll.md). */
const batchOptions: INodeProperties = {
	displayName: 'Batch Options',
	name: BATCH_OPTIONS,
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'All or Nothing',
			name: 'allOrNothing',
			type: 'boolean',
			noDataExpression: true,
			// On once added: adding the option is the choice (issue 51).
			default: true,
			description:
				'Whether to check every item first (the checks of Payout → Check Batch: Money Limits, payees, the period total for the whole batch) and send none if any would be refused; otherwise pay them one at a time, in input order. Typed in only.',
		},
		{
			displayName: 'Approved Batch Hash',
			name: 'approvedBatchHash',
			type: 'string',
			default: '',
			// The name n8n's editor gives a Check Batch node added from the panel (its action).
			placeholder: `{{ $('${CHECK_BATCH_ACTION}').item.json.batchHash }}`,
			description:
				'The batchHash of the Payout → Check Batch that was approved. The payouts are sent only if this node\'s items are exactly that batch (each reference, amount, currency, account and bank); otherwise none is sent.',
		},
	],
};

export const description: INodeProperties[] = [...payoutFields, batchOptions];

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
export function payoutCreateBody(this: IExecuteFunctions, i: number, callbackUrl?: string): { reference: string; body: IDataObject } {
	const reference = requireReference(this.getNodeParameter('reference', i));
	const amount = readAmount.call(this, i);
	const accountNumber = requireDigits(
		this.getNodeParameter('destinationAccountNumber', i),
		'Destination Account Number',
		'0123456789',
		NUBAN_DIGITS,
	);
	const bankId = requireId(this.getNodeParameter('bankId', i), BANK.idPrefix, 'Bank ID');
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const body = finishBody(
		compact({
			// The payout's field names are written once, in lib/payoutBody.ts (the reader of this body).
			[PAYOUT_FIELDS.reference]: reference,
			[PAYOUT_FIELDS.amount]: amount,
			[PAYOUT_FIELDS.accountNumber]: accountNumber,
			[PAYOUT_FIELDS.bankId]: bankId,
			narration: optionalTextUpTo(fields.narration, 'Narration', MAX_NARRATION),
			callbackUrl: callbackUrl ?? optionalUrl(fields.callbackUrl, 'Callback URL'),
		}),
		fields,
	);
	// The reference sent (Additional Body Fields may have replaced the form's) is the one that counts.
	return { reference: String(body.reference), body };
}

/**
 * Sends a create body after its Money Limits (body → check → send, money/step.ts); the transport
 * reads the whole payout back (the declaration's `readBack`).
 */
export async function sendPayout(this: IExecuteFunctions, i: number, api: PaycashlessApi, body: IDataObject): Promise<IDataObject> {
	return await sendChecked.call(this, i, 'payout', api, { method: 'POST', path: PAYOUT.path, body });
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const { body } = payoutCreateBody.call(this, i);
	return await sendPayout.call(this, i, api, body);
}

/** What an AI agent reads as this tool's description (+ " in Paycashless"). */
export const asTool = {
	action: 'Send a Paycashless payout: moves real money now to a bank account',
};

/** A run-wide refusal of Payout → Create's Batch Options (nothing sent): the stable `code` and what happened. */
function batchRefusal(this: IExecuteFunctions, i: number, code: string, message: string, description: string, details: IDataObject = {}): NodeOperationError {
	const error = new NodeOperationError(this.getNode(), message, { itemIndex: i, description });
	error.context.paycashless = { type: 'money_limit', ...details } as IDataObject as typeof error.context.paycashless;
	return withErrorCode(error, code);
}

/** Every item refused with one error (each its own copy, naming its item). */
function refuseEvery(this: IExecuteFunctions, count: number, make: (i: number) => NodeOperationError): BeforeItems {
	const errors = Array.from({ length: count }, (_, i) => make(i));
	return { refuseAll: { errors, summary: errors[0] } };
}

/**
 * Batch Options, before the first payout: Approved Batch Hash (the items must be the batch that
 * was approved) and All or Nothing (every item checked first; none sent if any would be refused;
 * then one at a time, in input order).
 */
export async function beforeItems(this: IExecuteFunctions, api: PaycashlessApi): Promise<BeforeItems> {
	const raw = this.getNode().parameters[BATCH_OPTIONS];
	const stored: IDataObject = isObject(raw) ? (raw as IDataObject) : {};
	const count = this.getInputData().length;
	if (stored.allOrNothing !== undefined && typeof stored.allOrNothing !== 'boolean') {
		return refuseEvery.call(this, count, (i) =>
			batchRefusal.call(this, i, 'LIMIT_EXPRESSION', 'Refused: Batch Options → All or Nothing is not typed in (on or off)', 'Nothing was sent. Only the person who set up this workflow sets All or Nothing, in the node: no expression.'),
		);
	}
	const allOrNothing = stored.allOrNothing === true;
	const approved = 'approvedBatchHash' in stored;
	const indexes = Array.from({ length: count }, (_, i) => i);
	if (approved) {
		const payouts: Array<Omit<BatchPayout, 'item'>> = [];
		const hashes = new Set<string>();
		for (const i of indexes) {
			hashes.add(String(this.getNodeParameter(`${BATCH_OPTIONS}.approvedBatchHash`, i, '') ?? '').trim());
			const money = payoutMoneyOf(payoutCreateBody.call(this, i).body);
			if (money) payouts.push(batchPayoutOf(money));
		}
		const hash = batchHash(payouts);
		const [given] = hashes;
		if (hashes.size !== 1 || given === '' || given !== hash || payouts.length !== count) {
			const why =
				hashes.size !== 1
					? 'the items name different Approved Batch Hashes'
					: given === ''
						? 'Approved Batch Hash is empty'
						: `these ${count} payouts are not the batch that was approved`;
			return refuseEvery.call(this, count, (i) =>
				batchRefusal.call(
					this,
					i,
					'BATCH_NOT_APPROVED',
					`Refused: ${why}`,
					`Nothing was sent. Approved Batch Hash (${given || 'empty'}) must be the batchHash of the Payout → Check Batch that was approved, and this node's items exactly that batch: the same references, amounts, currencies, accounts and banks (these items give ${hash}). Check the batch again and have it approved again.`,
					{ batchHash: hash },
				),
			);
		}
	}
	if (!allOrNothing) return {};
	const check = await checkBatch.call(this, indexes, api, (i) => payoutCreateBody.call(this, i).body);
	if (check.refused.length === 0) return { oneAtATime: true };
	const refused = new Map(check.refused.map((refusal) => [refusal.item, refusal]));
	const first = check.refused[0];
	const listed = check.refused.map((refusal) => `item ${refusal.item + 1}${refusal.reference ? ` (${refusal.reference})` : ''}: ${refusal.code}: ${refusal.message}`);
	const details = { refused: check.refused.map(({ item, reference, code, message }) => ({ item: item + 1, reference, code, message })) };
	const summary = batchRefusal.call(
		this,
		first.item,
		'BATCH_REFUSED',
		`Refused: ${check.refused.length} of ${count} payouts would be refused, so All or Nothing sent none`,
		`Nothing was sent. ${listed.join('; ')}. Correct or remove these items and run again (Payout → Check Batch shows the whole batch); running again is safe: payouts already made are found by their references, not paid twice.`,
		details,
	);
	const errors = indexes.map(
		(i) =>
			refused.get(i)?.error ??
			batchRefusal.call(
				this,
				i,
				'BATCH_REFUSED',
				`Not paid: item ${first.item + 1} of this batch was refused, and All or Nothing sends none`,
				`Nothing was sent for this item: it passed its checks, but ${listed.join('; ')}.`,
				details,
			),
	);
	return { refuseAll: { errors, summary } };
}

/** What an AI that builds workflows reads under this operation (../../descriptions/builderHints.ts). */
export const builderHint = {
	option: `Moves real money now. ${NAIRA} Needs bankId from Bank Account → Look Up and a reference from the input data (never $now, $execution.id or random). For the outcome: Payout → Verify by reference, the Paycashless Trigger (this create's Callback URL = its Production URL; act on data.status), or Create and Wait for Final Status.`,
	pattern: LOOK_UP_THEN_PAY,
};

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'To a bank account; `bankId` is the `bank.id` from Bank Account → Look Up; *Batch Options*: All or Nothing, Approved Batch Hash ([Payroll](payroll.md))' };
