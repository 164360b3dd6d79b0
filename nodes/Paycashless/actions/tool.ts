/**
 * The node as an AI agent's tool ("Paycashless Tool"). n8n makes the tool variant of every
 * `usableAsTool` node; `usableAsTool.replacements.properties` gives it its own fields, derived
 * here from the same operation files:
 * - only operations that work as one tool call: no waits (a tool call cannot pause the run and be
 *   resumed by a callback) and no Callback → Verify (it checks a callback n8n received, which a
 *   model does not have); see `asTool` in ./types.ts;
 * - each field as its own declaration says (its tool fact, ../helpers/toolFacts.ts): a field the
 *   model fills comes as `$fromAI()` with the key and description it declares, because the model
 *   sees those, not the field's description (amounts in main units, what a reference is for, where
 *   a bank ID comes from); a field left out is not in the tool ("Amount in Smallest Unit": a model
 *   cannot flip amounts to kobo); any other field is the same as in the regular node;
 * - Money Limits and "Run Without Limits (Unsafe)" on the operations that move money
 *   (../money/limits.ts), and Simplify (a compact output with money in main units);
 * - an operation's own tool fields (`asTool.fields`): Bank Account → Look Up's "Show Account Name
 *   to the Model" (off: the model gets no holder's name, ./bankAccount/lookUp.operation.ts).
 * What the model reads as the tool's description is n8n's: the operation's `action` (here the
 * tool's own, `asTool.action`) + " in Paycashless".
 *
 * Longer than 250 lines on purpose: everything that makes the tool variant differ from the regular
 * node (its fields, what the model reads, what it gets back) is one job, read whole.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { isObject } from '../helpers/body';
import { formatMainUnits, MAIN_UNITS_KEY } from '../helpers/mainUnits';
import type { Currency } from '../helpers/amount';
import { AS_TOOL, type FromAi } from '../helpers/toolFacts';
import { MARKER } from '../transport';
import { MONEY } from '../money/kinds';
import { NO_LIMITS_PARAMETER, runWithoutLimitsField, runWithoutLimitsNotice } from '../money/limitFields';
import { showFor, type OperationPair } from './registry';
import { operationOption } from './hints';
import { moneyKind, type PaycashlessOperation, type PaycashlessResourceDefinition } from './types';

export const SIMPLIFY_PARAMETER = 'simplify';

/** `={{ $fromAI(key, description, type) }}`: what the model fills a field with, as its fact declares. */
function fromAiExpression(fact: FromAi, type: string): string {
	const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
	return `={{ $fromAI(${quote(fact.key)}, ${quote(fact.description)}, ${quote(type)}) }}`;
}

/** Whether an operation is offered to an AI agent. */
export function offeredAsTool(operation: PaycashlessOperation): boolean {
	return operation.asTool !== false && operation.wait === undefined;
}

/** Shown only in the regular node / only in the tool variant (n8n's `@tool` display option). */
export const REGULAR_ONLY = { show: { '@tool': [false] } };
const TOOL_ONLY = { show: { '@tool': [true] } };

/** Whether the tool variant has its own version of this field, as its fact says (then the regular one is REGULAR_ONLY). */
export function differsAsTool(property: INodeProperties): boolean {
	return property[AS_TOOL] !== undefined;
}

/** The tool variant's version of a field that differs: none when its fact leaves it out, else `$fromAI`. */
function toolVersion(property: INodeProperties): INodeProperties | undefined {
	const fact = property[AS_TOOL];
	if (fact === undefined || fact === 'leftOut') return undefined;
	return { ...property, default: fromAiExpression(fact, property.type) };
}

/** What the model reads about one operation: n8n passes the node's `toolDescription` as the tool's description. */
function toolDescriptionOf(operation: PaycashlessOperation): string {
	const own = operation.asTool ? operation.asTool : {};
	const action = own.action ?? operation.option.action;
	const { declaration } = operation;
	const money = moneyKind(declaration);
	// n8n's own form is "<action> in Paycashless"; a tool's own action names Paycashless itself.
	const parts = [own.action ? `${action}.` : `${action} in Paycashless.`];
	if (declaration.kind === 'read') parts.push('It only reads: nothing is created, changed or paid.');
	else if (money) parts.push(...MONEY[money].toolWords);
	else if (declaration.kind === 'create') {
		parts.push('It creates a record in Paycashless; the same Reference never creates a second one.');
	} else {
		parts.push('It changes data in Paycashless.');
	}
	if (own.effect) parts.push(own.effect);
	parts.push('Results give amounts in main units with the currency named; a failure says what to do.');
	return parts.join(' ');
}

/**
 * The tool variant's own Operation lists and fields (they only show in the tool variant). n8n
 * builds the tool node at run time from the node's own fields (node-types.js: a "synthetic tool"),
 * so the tool's fields must be there too, not only in `usableAsTool.replacements`. The node puts
 * every Operation list before the fields (n8n resolves parameters in order), the regular fields
 * before the tool's; the tool variant its own first (../Paycashless.node.ts).
 */
export function toolOnlyProperties(resources: Record<string, PaycashlessResourceDefinition>): { operations: INodeProperties[]; fields: INodeProperties[] } {
	const offered = Object.entries(resources)
		.map(([resource, definition]) => ({
			resource,
			definition,
			operations: Object.entries(definition.operations).filter(([, operation]) => offeredAsTool(operation)),
		}))
		.filter(({ operations }) => operations.length > 0);
	// One Resource field for both (n8n's node panel lists the actions of every Resource field it
	// finds); a resource with nothing to offer as a tool says so instead of listing operations.
	const fields: INodeProperties[] = Object.entries(resources)
		.filter(([resource]) => !offered.some((entry) => entry.resource === resource))
		.map(([resource, definition]) => ({
			displayName: `${definition.displayName} operations are not offered to an AI agent: they need a callback n8n received or a paused workflow. Use them in a regular Paycashless node.`,
			name: 'notOfferedAsToolNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { resource: [resource], '@tool': [true] } },
		}));
	const operationLists: INodeProperties[] = [];
	const money: OperationPair[] = [];
	for (const { resource, definition, operations } of offered) {
		const options: INodePropertyOptions[] = operations
			.map(([value, operation]) => operationOption(operation, value))
			.sort((a, b) => a.name.localeCompare(b.name));
		const defaultOperation = operations.some(([value]) => value === definition.defaultOperation) ? definition.defaultOperation : options[0].value;
		operationLists.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			// `hide` other resources rather than `show` this one: n8n's node panel (its action list) and
			// its default node names read the first Operation list whose `show.resource` names a
			// resource, and must find the regular one.
			displayOptions: { show: { '@tool': [true] }, hide: { resource: Object.keys(resources).filter((other) => other !== resource) } },
			options,
			default: defaultOperation,
		});
		for (const [value, operation] of operations) {
			if (moneyKind(operation.declaration)) money.push({ resource, operation: value });
			const own: INodeProperties[] = [
				{
					displayName: 'Description',
					name: 'toolDescription',
					type: 'string',
					default: toolDescriptionOf(operation),
					required: true,
					typeOptions: { rows: 4 },
					description: 'What the AI model reads about this tool. The default says what the operation does, whether money moves, the unit of amounts and what a reference is for.',
				},
				...operation.description.filter(differsAsTool).map(toolVersion).filter((field): field is INodeProperties => field !== undefined),
				...(operation.asTool ? (operation.asTool.fields ?? []) : []),
			];
			fields.push(...updateDisplayOptions({ show: { resource: [resource], operation: [value], '@tool': [true] } }, own));
		}
	}
	fields.push(
		{ ...runWithoutLimitsField, displayOptions: { show: { ...showFor(money).show, '@tool': [true] } } },
		{ ...runWithoutLimitsNotice, displayOptions: { show: { ...showFor(money).show, '@tool': [true], [NO_LIMITS_PARAMETER]: [true] } } },
		{
			displayName: 'Simplify',
			name: SIMPLIFY_PARAMETER,
			type: 'boolean',
			default: true,
			displayOptions: TOOL_ONLY,
			description:
				'Whether to give the model a compact result: ID, reference, status, names and links, with amounts in main units and their currency named (e.g. "NGN 1,500.50"), instead of the full Paycashless object',
		},
	);
	return { operations: operationLists, fields };
}

/** Fields a model needs to read a record right; everything else is left out by Simplify. */
const KEPT = [
	'id',
	'reference',
	'number',
	'status',
	'description',
	'accountName',
	'accountNumber',
	'destinationAccountNumber',
	'destinationBankId',
	'bankName',
	'hostedInvoiceUrl',
	'authorizationUrl',
	'dueDate',
	'failureMessage',
	'createdAt',
	'accountRequestCode',
	'note',
];

/** One record, compact: the kept fields, names of nested bank/customer, money as text in main units. */
function simplifyRecord(record: IDataObject): IDataObject {
	const compact: IDataObject = {};
	for (const key of KEPT) if (record[key] !== undefined && record[key] !== null) compact[key] = record[key];
	for (const key of ['bank', 'customer'] as const) {
		const nested = record[key];
		if (isObject(nested) && (nested.name !== undefined || nested.id !== undefined)) {
			compact[key] = Object.fromEntries(['id', 'name', 'email'].filter((field) => nested[field] !== undefined).map((field) => [field, nested[field]]));
		}
	}
	const main = record[MAIN_UNITS_KEY];
	if (isObject(main)) {
		const currency = main.currency as Currency;
		compact.currency = currency;
		for (const [field, value] of Object.entries(main)) {
			if (field !== 'currency' && typeof value === 'number') compact[field] = formatMainUnits(value, currency);
		}
	}
	const marker = record[MARKER];
	if (isObject(marker)) {
		if (marker.repeated === true) compact.repeatedReference = 'This reference was used before: this is the existing one, nothing new was created or paid.';
		if (typeof marker.note === 'string') compact.note = marker.note;
	}
	return compact;
}

/** Simplify: what the model reads of a tool call's records. */
export function simplifyForTool(records: IDataObject | IDataObject[]): IDataObject | IDataObject[] {
	return Array.isArray(records) ? records.map(simplifyRecord) : simplifyRecord(records);
}
