/**
 * What Payout → Create's Batch Options say when they send nothing, in words a person can act on:
 * every refused row of an All or Nothing stop (rows counted as a person counts them: row 1 is the
 * first item), the rows that differ from the approved batch (read from the Payout → Check Batch
 * that gave the hash, in this execution), and the approval that does not count (./approval.ts).
 * The error that stops the run names no item of its own (n8n would add "[item 0]" to it): its
 * message lists the rows.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Currency } from '../../helpers/amount';
import { isObject } from '../../helpers/body';
import { withErrorCode } from '../../helpers/errorCodes';
import { formatMainUnits, fromSmallestUnit } from '../../helpers/mainUnits';
import type { BatchLine, BatchRefusal } from '../../money/batchRows';
import type { BeforeItems } from '../types';
import type { NodeRun } from '../run';

const PAYCASHLESS_TYPE = /^n8n-nodes-paycashless\.paycashless$/;

/**
 * A run-wide refusal (nothing sent): the stable `code` and what happened; `i` undefined for the
 * error that stops the run. An AI agent's tool reads only the code (as money/refusal.ts gives a
 * model a code it has no words for): the rows, amounts and accounts of the batch are the person's.
 */
function batchRefusal(run: NodeRun, i: number | undefined, code: string, message: string, description: string, details: IDataObject = {}): NodeOperationError {
	const tool = run.asTool;
	const words = tool ? { message: `Refused by this node's Batch Options (${code})`, description: 'Nothing was sent. Only the person who set up this workflow can change Batch Options or approve a batch; an AI agent cannot.' } : { message, description };
	const error = new NodeOperationError(run.node, words.message, { ...(i === undefined ? {} : { itemIndex: i }), description: words.description });
	error.context.paycashless = { type: 'money_limit', ...(tool ? {} : details) } as IDataObject as typeof error.context.paycashless;
	return withErrorCode(error, code);
}

/** Every item refused (each its own copy, naming its item), and one error naming none for a run that stops. */
export function refuseEvery(run: NodeRun, count: number, code: string, message: string, description: string, details: IDataObject = {}): BeforeItems {
	const errors = Array.from({ length: count }, (_, i) => batchRefusal(run, i, code, message, description, details));
	return { refuseAll: { errors, summary: batchRefusal(run, undefined, code, message, description, details) } };
}

const rows = (numbers: number[]) => (numbers.length === 1 ? `row ${numbers[0]}` : `rows ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`);

/** All or Nothing found refused rows: every item's error (its own refusal, or "not paid because of rows …") and the stop's. */
export function allOrNothingRefusal(run: NodeRun, count: number, refused: BatchRefusal[]): BeforeItems {
	const byItem = new Map(refused.map((refusal) => [refusal.item, refusal]));
	const listed = refused.map((refusal) => `row ${refusal.item + 1}${refusal.reference ? ` (${refusal.reference})` : ''}: ${refusal.code}: ${refusal.message}`);
	const numbers = refused.map((refusal) => refusal.item + 1);
	const details = { refused: refused.map(({ item, reference, code, message }) => ({ row: item + 1, ...(reference !== undefined ? { reference } : {}), code, message })) };
	const shown = listed.slice(0, 5).join('; ') + (listed.length > 5 ? `; and ${listed.length - 5} more` : '');
	const advice = 'Correct or remove these rows and run again (Payout → Check Batch shows the whole batch); running again is safe: payouts already made are found by their references, not paid twice.';
	const summary = batchRefusal(
		run,
		undefined,
		'BATCH_REFUSED',
		`Nothing was sent: ${refused.length} of ${count} rows would be refused, and All or Nothing pays all or none. ${shown}`,
		`Nothing was sent, not even the ${count - refused.length} rows that passed. ${listed.join('; ')}. ${advice}`,
		details,
	);
	const errors = Array.from({ length: count }, (_, i) => {
		const own = byItem.get(i)?.error;
		if (own) {
			own.description = `${own.description ?? ''} Nothing of this batch was sent: All or Nothing pays all or none (refused: ${rows(numbers)}).`.trim();
			return own;
		}
		return batchRefusal(
			run,
			i,
			'BATCH_REFUSED',
			`Not paid: ${rows(numbers)} of this batch ${numbers.length === 1 ? 'was' : 'were'} refused, and All or Nothing sent nothing`,
			`Nothing was sent for this row: it passed its checks, but ${listed.join('; ')}. ${advice}`,
			details,
		);
	});
	return { refuseAll: { errors, summary } };
}

/** A row of the approved batch, as Check Batch's output lists it. */
interface ApprovedLine extends BatchLine {
	row?: number;
}

function linesOfSummary(summary: IDataObject): ApprovedLine[] {
	const lists = [summary.payable, summary.alreadyPaid, summary.notPaid].filter(Array.isArray) as IDataObject[][];
	return lists.flat().filter(isObject).map((entry) => ({
		reference: String(entry.reference ?? ''),
		...(typeof entry.rowReference === 'string' ? { rowReference: entry.rowReference } : {}),
		amount: Number(entry.amount),
		currency: String(entry.currency) as Currency,
		destinationAccountNumber: String(entry.destinationAccountNumber ?? ''),
		bankId: String(entry.bankId ?? ''),
		...(typeof entry.row === 'number' ? { row: entry.row } : {}),
	}));
}

/** The lines of the Payout → Check Batch before this node whose batchHash is `hash` (else of the last one that ran), or undefined. */
export function approvedLines(this: IExecuteFunctions, hash: string): ApprovedLine[] | undefined {
	let parents: Array<{ name: string; type: string; parameters?: IDataObject }> = [];
	try {
		parents = this.getParentNodes(this.getNode().name, { includeNodeParameters: true });
	} catch {
		return undefined;
	}
	let fallback: ApprovedLine[] | undefined;
	for (const node of parents) {
		if (!PAYCASHLESS_TYPE.test(node.type) || node.parameters?.operation !== 'checkBatch') continue;
		let summary: unknown;
		try {
			summary = this.evaluateExpression(`{{ $(${JSON.stringify(node.name)}).first().json }}`, 0);
		} catch {
			continue;
		}
		if (!isObject(summary)) continue;
		const lines = linesOfSummary(summary as IDataObject);
		if ((summary as IDataObject).batchHash === hash) return lines;
		fallback ??= lines;
	}
	return fallback;
}

/** The rows of this node that differ from the approved batch, and approved rows it does not have, in a person's words. */
export function differences(own: Array<BatchLine & { row: number }>, approved: ApprovedLine[]): string[] {
	const key = (line: BatchLine) => line.rowReference ?? line.reference;
	const theirs = new Map(approved.map((line) => [key(line), line]));
	const found: string[] = [];
	const money = (line: BatchLine) => (Number.isSafeInteger(line.amount) && ['NGN', 'USD'].includes(line.currency) ? formatMainUnits(fromSmallestUnit(line.amount, line.currency), line.currency) : String(line.amount));
	for (const line of own) {
		const other = theirs.get(key(line));
		theirs.delete(key(line));
		const name = `row ${line.row} (${key(line)})`;
		if (!other) {
			found.push(`${name} is not in the approved batch`);
			continue;
		}
		if (other.amount !== line.amount || other.currency !== line.currency) found.push(`${name} pays ${money(line)}, approved ${money(other)}`);
		if (other.destinationAccountNumber !== line.destinationAccountNumber) found.push(`${name} pays into account ${line.destinationAccountNumber}, approved ${other.destinationAccountNumber}`);
		if (other.bankId !== line.bankId) found.push(`${name} pays at bank ${line.bankId}, approved ${other.bankId}`);
	}
	for (const [reference, line] of theirs) found.push(`${reference}${line.row ? ` (row ${line.row} of the check)` : ''} was approved but is not among these payouts`);
	return found;
}
