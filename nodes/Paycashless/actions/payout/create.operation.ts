/**
 * Payout → Create: the payout's fields and body, and Batch Options (All or Nothing, Approved Batch
 * Hash) checked before the first payout.
 *
 * Longer than 250 lines on purpose: the payout's fields, body and the Batch Options checked
 * before its first payout are one create, read whole.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

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
import { batchHash, batchIdOf, batchLines, batchPayoutOf, checkBatch, referenceToPay, type BatchLine } from '../../money/batch';
import { MAX_NARRATION, NUBAN_DIGITS, optionalTextUpTo, optionalUrl, requireDigits, requireId, requireReference } from '../../helpers/validation';
import { reserveBatch } from '../../money/reservedBatch';
import { sendChecked } from '../../money/step';
import type { PaycashlessApi } from '../../transport';
import { amountCurrency, amountValue, finishBody, readAmount, verifiedByReference } from '../common';
import type { BeforeItems, CreateDeclaration, OperationOption } from '../types';
import { approvalOnPage, approverList, type Approval, type ApprovalRefusal } from './approval';
import { allOrNothingRefusal, approvedLines, differences, refuseEvery } from './batchRefusals';
import { batchRunOf, rememberBatchRun, runDetails, withRunDetails, type BatchRun } from './runDetails';
import { itemParameter } from '../../money/itemParameters';

const BATCH_OPTIONS = 'batchOptions';
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
function switchedOn(this: IExecuteFunctions, name: string): boolean {
	const raw = this.getNode().parameters.additionalFields;
	return isObject(raw) && (raw as IDataObject)[name] === true;
}

/** Pay Again If Failed, as typed in. */
export function paysAgain(this: IExecuteFunctions): boolean {
	return switchedOn.call(this, PAY_AGAIN);
}

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
				'Whether to check every item first (the checks of Payout → Check Batch: Money Limits, payees, the period total for the whole batch) and send none if any would be refused; otherwise reserve the whole batch under the limits and pay it at Requests in Parallel. Typed in only.',
		},
		{
			displayName: 'Approval Form Page',
			name: 'approvalPage',
			type: 'string',
			noDataExpression: true,
			default: '',
			placeholder: 'Approve Payroll',
			description:
				'The name of the n8n Form node (a page after an n8n Form Trigger whose Authentication is n8n User Auth) on which the approver approves. The payouts are sent only when an n8n user other than the one who submitted the Form Trigger submitted that page; n8n names them, and each payout\'s metadata keeps who prepared and who approved. Typed in only.',
		},
		{
			displayName: 'Approve Without Login (Unsafe)',
			name: 'approveWithoutLogin',
			type: 'boolean',
			noDataExpression: true,
			default: true,
			description:
				'Whether Approved Batch Hash alone is enough, with no n8n user named as the approver (n8n 1.x, or an approval given outside n8n). Whoever can submit the approval then approves: on n8n 1.x a Wait form behind Basic Auth is a shared secret, not a person. Typed in only.',
		},
		{
			displayName: 'Approved Batch Hash',
			name: 'approvedBatchHash',
			type: 'string',
			default: '',
			// The name n8n's editor gives a Check Batch node added from the panel (its action).
			placeholder: `{{ $('${CHECK_BATCH_ACTION}').item.json.batchHash }}`,
			description:
				'The batchHash of the Payout → Check Batch that was approved. The payouts are sent only if this node\'s items are exactly that batch (each reference, amount, currency, account and bank); otherwise none is sent, and the rows that differ are named. Needs an Approval Form Page, or Approve Without Login (Unsafe).',
		},
		{
			displayName: 'Approvers',
			name: 'approvers',
			type: 'string',
			noDataExpression: true,
			default: '',
			placeholder: 'funke@example.com, ada@example.com',
			description: 'The n8n users (their e-mail addresses) whose approval on the Approval Form Page counts. Empty: any n8n user but the one who prepared the batch. Typed in only.',
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
	const given = requireReference(itemParameter.call(this, 'reference', i));
	const amount = readAmount.call(this, i);
	const accountNumber = requireDigits(
		itemParameter.call(this, 'destinationAccountNumber', i),
		'Destination Account Number',
		'0123456789',
		NUBAN_DIGITS,
	);
	const bankId = requireId(itemParameter.call(this, 'bankId', i), BANK.idPrefix, 'Bank ID');
	const fields = itemParameter.call(this, 'additionalFields', i, {}) as IDataObject;
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
	const sent = batchRunOf(this)?.payAgain.get(i) ?? reference;
	const paid = sent === reference ? body : { ...body, reference: sent };
	return { reference: sent, body: switchedOn.call(this, LEAVE_OUT_RUN_DETAILS) ? paid : withRunDetails(paid, runDetails.call(this, i, reference, sent)) };
}

/**
 * Sends a create body after its Money Limits (body → check → send, money/step.ts); the transport
 * reads the whole payout back (the declaration's `readBack`).
 */
export async function sendPayout(this: IExecuteFunctions, i: number, api: PaycashlessApi, body: IDataObject): Promise<IDataObject> {
	return await sendChecked.call(this, i, 'payout', api, { method: 'POST', path: PAYOUT.path, body });
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	let { body } = payoutCreateBody.call(this, i);
	// Pay Again If Failed, when no batch check before the first payout said under which reference.
	const money = payoutMoneyOf(body);
	if (paysAgain.call(this) && money && batchRunOf(this)?.referencesKnown !== true) {
		const sent = await referenceToPay.call(this, i, api, money);
		if (sent !== money.reference) {
			const run = batchRunOf(this) ?? { payAgain: new Map<number, string>() };
			run.payAgain.set(i, sent);
			rememberBatchRun(this, run);
			body = payoutCreateBody.call(this, i).body;
		}
	}
	return await sendPayout.call(this, i, api, body);
}

/** What an AI agent reads as this tool's description (+ " in Paycashless"). */
export const asTool = {
	action: 'Send a Paycashless payout: moves real money now to a bank account',
};

/**
 * A batch hash as a person reads it in a refusal: the batch id (its first 16 characters, as Check
 * Batch shows it) rather than 64 characters no one reads, which overflow a form page's card (issue 51).
 */
function shownHash(given: string | undefined): string {
	if (!given) return 'empty';
	return /^[0-9a-f]{64}$/.test(given) ? `batch ${batchIdOf(given)}` : `"${given.length > 24 ? `${given.slice(0, 24)}…` : given}", not a batch hash`;
}

/** The typed-in text of a Batch Options field, or why it is refused (an expression). */
function typedText(stored: IDataObject, name: string): string | { expression: true } {
	const value = stored[name];
	if (typeof value !== 'string') return '';
	return value.startsWith('=') || value.includes('{{') ? { expression: true } : value.trim();
}

/** The approval a batch with an Approved Batch Hash needs: who approved on the Approval Form Page, or none (unsafe, when allowed). */
function approvalFor(this: IExecuteFunctions, stored: IDataObject): { approval: Approval } | { refusal: ApprovalRefusal } {
	const page = typedText(stored, 'approvalPage');
	const approvers = typedText(stored, 'approvers');
	if (typeof page !== 'string' || typeof approvers !== 'string' || (stored.approveWithoutLogin !== undefined && typeof stored.approveWithoutLogin !== 'boolean')) {
		return { refusal: { code: 'LIMIT_EXPRESSION', message: 'Refused: Batch Options → Approval Form Page, Approvers and Approve Without Login are typed in only', description: 'Nothing was sent. Only the person who set up this workflow sets who may approve, in the node: no expression.' } };
	}
	if (page !== '') return approvalOnPage.call(this, page, approverList(approvers));
	if (stored.approveWithoutLogin === true) return { approval: { withoutLogin: true } };
	return {
		refusal: {
			code: 'APPROVAL_NOT_SET',
			message: "Refused: Approved Batch Hash is set, but no n8n user's approval is asked for, so nothing was sent",
			description:
				'Nothing was sent. Set Batch Options → Approval Form Page to the n8n Form page on which another n8n user approves (n8n 2.x: after a Form Trigger with Authentication "n8n User Auth"). Where n8n cannot name the approver (n8n 1.x), turn on Approve Without Login (Unsafe): whoever can submit your approval form then approves.',
		},
	};
}

/**
 * Batch Options, before the first payout: the approval (who prepared, who approved: ./approval.ts),
 * Approved Batch Hash (the items must be the batch that was approved; the rows that differ are
 * named) and All or Nothing (every item checked first; none sent if any would be refused; then the
 * whole batch reserved under the limits and sent at Requests in Parallel: money/reservedBatch.ts).
 * What it decided goes into each payout's metadata (./runDetails.ts).
 */
export async function beforeItems(this: IExecuteFunctions, api: PaycashlessApi): Promise<BeforeItems> {
	const raw = this.getNode().parameters[BATCH_OPTIONS];
	const stored: IDataObject = isObject(raw) ? (raw as IDataObject) : {};
	const count = this.getInputData().length;
	if (stored.allOrNothing !== undefined && typeof stored.allOrNothing !== 'boolean') {
		return refuseEvery.call(this, count, 'LIMIT_EXPRESSION', 'Refused: Batch Options → All or Nothing is not typed in (on or off)', 'Nothing was sent. Only the person who set up this workflow sets All or Nothing, in the node: no expression.');
	}
	const allOrNothing = stored.allOrNothing === true;
	const approved = 'approvedBatchHash' in stored || typedText(stored, 'approvalPage') !== '';
	const indexes = Array.from({ length: count }, (_, i) => i);
	const run: BatchRun = { payAgain: new Map() };
	rememberBatchRun(this, run);
	if (approved) {
		const approval = approvalFor.call(this, stored);
		if ('refusal' in approval) return refuseEvery.call(this, count, approval.refusal.code, approval.refusal.message, approval.refusal.description);
		run.approval = approval.approval;
		const lines: Array<BatchLine & { row: number }> = [];
		const hashes = new Set<string>();
		for (const i of indexes) {
			hashes.add(String(this.getNodeParameter(`${BATCH_OPTIONS}.approvedBatchHash`, i, '') ?? '').trim());
			const money = payoutMoneyOf(payoutCreateBody.call(this, i).body);
			if (money) lines.push({ ...batchPayoutOf(money), row: i + 1 });
		}
		const hash = batchHash(lines);
		const [given] = hashes;
		if (hashes.size !== 1 || given === '' || given !== hash || lines.length !== count) {
			const differ = given ? differences(lines, approvedLines.call(this, given) ?? []) : [];
			const why =
				hashes.size !== 1
					? 'the rows name different Approved Batch Hashes'
					: given === ''
						? 'Approved Batch Hash is empty'
						: differ.length > 0
							? `these ${count} payouts are not the batch that was approved: ${differ.slice(0, 5).join('; ')}${differ.length > 5 ? `; and ${differ.length - 5} more` : ''}`
							: `these ${count} payouts are not the batch that was approved`;
			return refuseEvery.call(
				this,
				count,
				'BATCH_NOT_APPROVED',
				`Refused: ${why}. Nothing was sent`,
				`Nothing was sent.${differ.length > 0 ? ` What differs from the approved batch: ${differ.join('; ')}.` : ''} Approved Batch Hash must be the batchHash of the Payout → Check Batch that was approved (given: ${shownHash(given)}), and this node's rows exactly that batch: the same references, amounts, currencies, accounts and banks (these rows are batch ${batchIdOf(hash)}). Check the batch again and have it approved again.`,
				{ batchHash: hash, ...(given ? { givenBatchHash: given } : {}), ...(differ.length > 0 ? { differences: differ } : {}) },
			);
		}
		run.batchId = batchIdOf(hash);
	}
	if (!allOrNothing) return {};
	const check = await checkBatch.call(this, indexes, api, { bodyOf: (i) => payoutCreateBody.call(this, i).body, payAgain: paysAgain.call(this) });
	run.batchId ??= batchIdOf(batchHash(batchLines(check)));
	// A row paid again is sent (or found again) under its -repay-N reference.
	for (const payout of [...check.payable, ...check.alreadyPaid]) if (payout.rowReference !== undefined) run.payAgain.set(payout.item, payout.reference);
	run.referencesKnown = true;
	// It fits: the whole batch reserved for real (the bodies as they will be sent), then sent at
	// Requests in Parallel (money/reservedBatch.ts).
	if (check.refused.length === 0) check.refused.push(...(await reserveBatch.call(this, indexes, api, (i) => payoutCreateBody.call(this, i).body)));
	if (check.refused.length === 0) return {};
	return allOrNothingRefusal.call(this, count, check.refused);
}

/** What an AI that builds workflows reads under this operation (../../descriptions/builderHints.ts). */
export const builderHint = {
	option: `Moves real money now. ${NAIRA} Needs bankId from Bank Account → Look Up and a reference from the input data (never $now, $execution.id or random). For the outcome: Payout → Verify by reference, the Paycashless Trigger (this create's Callback URL = its Production URL; act on data.status), or Create and Wait for Final Status.`,
	pattern: LOOK_UP_THEN_PAY,
};

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'To a bank account; `bankId` is the `bank.id` from Bank Account → Look Up; *Batch Options*: All or Nothing, Approved Batch Hash ([Payroll](payroll.md))' };
