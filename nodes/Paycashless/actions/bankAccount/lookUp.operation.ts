import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ACCOUNT_NUMBER_FOR_THE_MODEL } from '../fields/common';
import { AS_TOOL } from '../../helpers/toolFacts';
import { NUBAN_DIGITS, requireBankCode, requireDigits } from '../../helpers/validation';
import type { PaycashlessApi } from '../../transport';
import { itemParameter } from '../../money/itemParameters';
import { lookUpAccount } from '../../money/lookups';
import { READ, type OperationDeclaration, type OperationOption } from '../types';
import type { NodeRun } from '../run';

export const description: INodeProperties[] = [
	{
		displayName: 'Account Number',
		name: 'accountNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0123456789',
		description: 'The bank account number (NUBAN, 10 digits)',
		[AS_TOOL]: ACCOUNT_NUMBER_FOR_THE_MODEL,
	},
	{
		displayName: 'Bank Code',
		name: 'bankCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: '058',
		description: 'The CBN or NIBSS code of the bank (e.g. 058)',
		hint: 'The result holds the Paycashless bank ID that Payout → Create needs: {{ $json.bank.id }}',
		[AS_TOOL]: { key: 'Bank_Code', description: "The bank's CBN or NIBSS code, e.g. 058 or 000013" },
	},
];

export const option: OperationOption = { name: 'Look Up', description: 'Get the account name and bank of an account number', action: 'Look up a bank account' };

export const declaration: OperationDeclaration = READ;

/** The tool variant's switch: whether the model may read the holder's name (a literal `true` only). */
const SHOW_ACCOUNT_NAME_PARAMETER = 'showAccountName';

/** Said in the tool's result instead of the holder's name. */
const ACCOUNT_NAME_HIDDEN_NOTE =
	"The account exists at this bank. The holder's name is not shown to the AI model (the workflow owner has not turned on Show Account Name to the Model); do not ask for it.";

/**
 * The lookup without the holder's name: every top-level field naming a person (accountName, and
 * any other `…name` / `…Name` field Paycashless may add), with a note saying so. The bank (and its
 * name) stays: it is the bank's, not the holder's.
 */
function withoutHolderName(found: IDataObject): IDataObject {
	const kept = Object.fromEntries(Object.entries(found).filter(([key]) => !/name/i.test(key)));
	return { ...kept, note: ACCOUNT_NAME_HIDDEN_NOTE };
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi, run: NodeRun): Promise<IDataObject> {
	// Read as the payout's own fields are: `{{ $json.accountNumber }}` without n8n's expression engine.
	const accountNumber = requireDigits(itemParameter(run.money, 'accountNumber', i), 'Account Number', '0123456789', NUBAN_DIGITS);
	const bankCode = requireBankCode(itemParameter(run.money, 'bankCode', i), 'Bank Code');
	// Always asked (its output is the lookup's answer), and kept for the payee checks of this execution.
	const found = await lookUpAccount(run.money, api, accountNumber, bankCode, false);
	// As a tool, a chat could list who holds which account: the name only where a person allowed it
	// (read as stored, so an expression never turns it on).
	if (run.asTool && run.node.parameters[SHOW_ACCOUNT_NAME_PARAMETER] !== true) return withoutHolderName(found);
	return found;
}

/** What an AI agent reads as this tool's description (+ " in Paycashless"), and the tool's own switch. */
export const asTool = {
	action: 'Look up whether a bank account exists and its Paycashless bank ID (bank.id, needed to send a payout) with Paycashless',
	effect: "The account holder's name is returned only if the workflow owner allowed it.",
	fields: [
		{
			displayName: 'Show Account Name to the Model',
			name: SHOW_ACCOUNT_NAME_PARAMETER,
			type: 'boolean',
			noDataExpression: true,
			default: false,
			description:
				"Whether the AI model may read the account holder's name (accountName). Off: the tool says whether the account exists and gives its bank, without the name, so a chat cannot list who holds which account. Turn on only where the people talking to the agent may learn account holders' names. Typed in only: an expression counts as off.",
		},
	] satisfies INodeProperties[],
};

/** What an AI that builds workflows reads under this operation (../fields/builderHints.ts). */
export const builderHint = {
	option: 'Run before Payout → Create: gives accountName and bank.id (the bankId a payout needs, starts with bank_). Check accountName against the expected payee before paying.',
};

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Account number + the bank\'s CBN or NIBSS code → account name and the Paycashless `bank.id` that payouts need' };
