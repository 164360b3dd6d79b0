import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYOUT_FIELDS, payoutMoneyOf } from '../../../../lib/payoutBody';
import { BANK, PAYOUT } from '../../catalog/objects';
import {
	additionalBodyJsonField,
	additionalFieldsCollection,
	amountFields,
	callbackUrlField,
	currencyField,
	metadataField,
	referenceField,
} from '../../descriptions/common';
import { compact } from '../../helpers/body';
import { MAX_NARRATION, NUBAN_DIGITS, optionalTextUpTo, optionalUrl, requireDigits, requireId, requireText } from '../../helpers/validation';
import { sendChecked } from '../../money/step';
import type { PaycashlessApi } from '../../transport';
import { amountCurrency, amountValue, finishBody, readAmount, verifiedByReference } from '../common';
import type { CreateDeclaration, OperationOption } from '../types';

export const description: INodeProperties[] = [
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
	const reference = requireText(this.getNodeParameter('reference', i), 'Reference');
	const amount = readAmount.call(this, i);
	const destinationAccountNumber = requireDigits(
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
			[PAYOUT_FIELDS.accountNumber]: destinationAccountNumber,
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
