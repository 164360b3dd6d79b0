/**
 * What the node tells an AI that builds workflows (n8n's instance MCP server, the AI Workflow
 * Builder): n8n-workflow's `builderHint`s; each operation's own (what it does to money, a short
 * pattern) is the `builderHint` export of its operation file, the rest is here. n8n 2.41 shows a node's `searchHint`,
 * `relatedNodes` and each Resource and Operation option's hint in `search_nodes`, and writes every
 * hint into the TypeScript types `get_node_types` returns (@n8n/workflow-sdk generateNodeTypeFile):
 * the node's hint at the top, each operation's `extraTypeDefContent` inside that operation's
 * type, each field's `propertyHint` on that field. `placeholderSupported: false` makes
 * `validate_workflow` report a `placeholder()` left in that field.
 *
 * Rules from n8n 2.41's code: a hint on the Resource or Operation property itself stops the node
 * from loading (hints go on their options); hints are prose and SDK code, never wire-format
 * expressions (`expr('{{ … }}')`, not an equals sign before the braces) nor connection-type
 * names (the community lint rule no-builder-hint-leakage). n8n keeps the first property of each
 * name and takes an operation's caption from the first option with its value, whatever its
 * resource; so the captions are the Resource options' (each resource's `caption`, in its index.ts) and each operation's
 * own sentence opens its type (operationTypeHints, ../actions/resource.ts, which also puts each operation's
 * own hint on its option). Here: what knows no operation.
 */
import type { IBuilderHint, INodeProperties, IParameterBuilderHint } from 'n8n-workflow';

const PACKAGE = 'n8n-nodes-paycashless';
const ACTION_NODE_TYPE = `${PACKAGE}.paycashless`;
const TRIGGER_NODE_TYPE = `${PACKAGE}.paycashlessTrigger`;
const POLL_TRIGGER_NODE_TYPE = `${PACKAGE}.paycashlessPollTrigger`;

export const NAIRA = 'Amounts are in main units: naira for NGN, dollars for USD (1500.50 = NGN 1,500.50), never kobo or cents.';
const REFERENCE =
	"The reference must be a stable ID of the real-world payment or record, taken from the input data (order, claim, invoice or customer ID), e.g. expr(\"payout-{{ $('Orders').item.json.orderId }}\"): the same reference never pays or creates twice, so a re-run or retry is safe. Never $now, $execution.id, a random value or a fixed text: a new reference on a re-run pays again, a fixed one pays only the first order.";
const LIMITS =
	'Money Limits (in one named currency: maximum amount; count and total per execution; total and count per period for payouts, counted from Paycashless itself; allowed accounts, expected account name) refuse a payment before it is sent; they take typed-in numbers only (no expressions) and are for the person who owns the workflow to set: do not remove or raise them.';
export const REACHABLE =
	"It pauses the execution until Paycashless calls this execution's resume URL: n8n must be reachable by Paycashless at its public URL (N8N_WEBHOOK_URL), or the wait only ends at its time limit.";
/** REACHABLE inside a sentence (its first letter lower case). */
export const reachableInSentence = `${REACHABLE.charAt(0).toLowerCase()}${REACHABLE.slice(1)}`;

/** The node's own hint: what it is for, the look-up-then-pay pattern, the unit, the reference. */
export const actionSearchHint = [
	'Paycashless is a Nigerian payments API (NGN and USD): payouts (transfers, disbursements) to bank accounts, payments collected by checkout link or bank transfer, invoices, dedicated virtual accounts.',
	NAIRA,
	'To pay a bank account: Bank Account → Look Up (account number and bank code) first, then Payout → Create with bankId from the look-up result, expr(\'{{ $json.bank.id }}\').',
	REFERENCE,
	LIMITS,
	'React to outcomes with the Paycashless Trigger (signed callbacks; its Production URL goes into a create\'s Callback URL) or the Paycashless Poll Trigger (no public URL needed); Payout → Create and Wait for Final Status and Invoice → Create and Wait for Payment pause the workflow instead.',
].join(' ');

const approval = (node: string, what: string) => ({
	nodeType: `n8n-nodes-base.${node}`,
	relationHint: `${what}: its Send and Wait for Response operation asks a person to approve a payout before Payout → Create runs`,
});

export const actionRelatedNodes: IBuilderHint['relatedNodes'] = [
	{
		nodeType: TRIGGER_NODE_TYPE,
		relationHint:
			'Starts a workflow on a verified Paycashless callback about the payout, payment or invoice whose create had its Production URL as Callback URL (INVOICE_PAID after Invoice → Create); act on data.status, or turn on Confirm With Paycashless and act on currentObject.status',
	},
	{
		nodeType: POLL_TRIGGER_NODE_TYPE,
		relationHint: 'Starts a workflow when a payment, payout, invoice or dedicated account reaches a status, by polling: no public n8n URL needed',
	},
	{
		nodeType: 'n8n-nodes-base.wait',
		relationHint: 'Waits for a person (form or webhook resume) or a delay, e.g. an approval before Payout → Create, or before Payout → Verify',
	},
	approval('slack', 'Slack'),
	approval('gmail', 'Gmail'),
	approval('emailSend', 'Send Email'),
];

const credentials = "credentials: { paycashlessApi: newCredential('Paycashless') }";

/**
 * Payout → Create's pattern: it spans two operations (Bank Account → Look Up, then the payout). Its
 * nodes have the names n8n's editor gives them when added from the panel (their actions), so an
 * expression in a hint or a person's later edit names them as the canvas does.
 */
export const LOOK_UP_THEN_PAY = `<patterns>
<pattern title="Look up the account, then pay it once (amount in naira, reference from the order)">
const lookUp = node({
  type: '${ACTION_NODE_TYPE}',
  version: 1,
  config: {
    name: 'Look up a bank account',
    parameters: { resource: 'bankAccount', operation: 'lookUp', accountNumber: expr('{{ $json.accountNumber }}'), bankCode: expr('{{ $json.bankCode }}') },
    ${credentials}
  }
});
const pay = node({
  type: '${ACTION_NODE_TYPE}',
  version: 1,
  config: {
    name: 'Create a payout',
    parameters: {
      resource: 'payout',
      operation: 'create',
      reference: expr("payout-{{ $('Orders').item.json.orderId }}"),
      amount: expr("{{ $('Orders').item.json.amountNaira }}"),
      currency: 'NGN',
      destinationAccountNumber: expr('{{ $json.accountNumber }}'),
      bankId: expr('{{ $json.bank.id }}')
    },
    ${credentials}
  }
});
// orders.to(lookUp).to(pay): a re-run returns the same payout (_paycashless.repeated: true) and pays nothing.
</pattern>
</patterns>`;

/** Field hints by field name, for the operations that create (money or records). */
const FIELD_HINTS: Record<string, IParameterBuilderHint> = {
	reference: { propertyHint: REFERENCE, placeholderSupported: false },
	amount: {
		propertyHint: `${NAIRA} Map it from the data (expr('{{ $json.amountNaira }}')); if the data holds kobo, divide by 100 in the expression rather than setting amountInSmallestUnit.`,
	},
	bankId: {
		propertyHint:
			"The bank_… ID from a Bank Account → Look Up node before this one: expr('{{ $json.bank.id }}') right after it, or expr(\"{{ $('Look up a bank account').item.json.bank.id }}\"). Not a CBN or NIBSS bank code.",
		placeholderSupported: false,
	},
	callbackUrl: {
		propertyHint:
			'Optional. The Production URL of a published workflow that starts with the Paycashless Trigger (it receives the callbacks about this object). Leave empty when nothing listens.',
	},
};

/** The Verify operations' Reference: the one the create was given. */
const LOOKUP_REFERENCE: IParameterBuilderHint = {
	propertyHint: 'The reference the payment was created with, taken from the create node or the data, e.g. expr(\'{{ $json.reference }}\') right after the create.',
};

function hinted(field: INodeProperties, creates: boolean): INodeProperties {
	if (field.name === 'reference') return { ...field, builderHint: creates ? FIELD_HINTS.reference : LOOKUP_REFERENCE };
	const hint = creates ? FIELD_HINTS[field.name] : undefined;
	const options = field.type === 'collection' && field.options ? (field.options as INodeProperties[]).map((option) => hinted(option, creates)) : undefined;
	if (!hint && !options) return field;
	return { ...field, ...(hint ? { builderHint: hint } : {}), ...(options ? { options } : {}) };
}

/** An operation's fields with their builder hints (a create's Reference, Amount, Bank ID, Callback URL). */
export function withFieldHints(fields: INodeProperties[], { creates }: { creates: boolean }): INodeProperties[] {
	return fields.map((field) => hinted(field, creates));
}

/** The hint on Money Limits. */
export const moneyLimitsHint: IParameterBuilderHint = {
	propertyHint: `${LIMITS} Maximum Amount and Maximum Total are in main units (naira). Set only the limits the user asked for; otherwise leave the collection for the workflow owner and say so.`,
	placeholderSupported: false,
};

/** The tool variant's own node hint ("Paycashless Tool" under an AI Agent). */
export const toolSearchHint = [
	'Paycashless as an AI Agent tool: one tool node per operation; the model fills the fields given as fromAi() (reference, amount, account number, bank ID).',
	NAIRA,
	'A payout tool refuses to run unless Money Limits set a Maximum Amount and a Maximum Total per Period (payment and invoice tools: Maximum Amount and Maximum Count per Execution), or Run Without Limits is turned on by a person: set them in the tool node, low, as typed numbers.',
	'Give the agent a Bank Account → Look Up tool too: the payout needs its bank.id. Operations that wait are not offered as tools.',
].join(' ');

/** The Paycashless Trigger's hint: which create pairs with which event, and the URL. */
export const triggerSearchHint = [
	'Starts a workflow on a Paycashless callback, after checking its signature (rejects forged ones). It does not register itself: the workflow must be published and its Production URL put into the Callback URL of the create that should report here.',
	'Pairs: Invoice → Create with INVOICE_PAID (or INVOICE_PAYMENT_SUCCEEDED); Payout → Create, Payment → Create Checkout Link / Create Transfer Payment and Dedicated Account → Create with All Events, acting on data.status (or on currentObject.status with Confirm With Paycashless).',
	'n8n must be reachable by Paycashless at that URL. Without a public URL, use the Paycashless Poll Trigger.',
	"Amounts in a callback's data are Paycashless's own (kobo for NGN): divide by 100 for naira.",
].join(' ');

export const pollTriggerSearchHint = [
	'Starts a workflow when Paycashless payments, payouts, invoices or dedicated accounts reach a status (e.g. Payment Succeeded, Payout Failed or Reversed), by polling the API every interval: no public n8n URL needed, unlike the Paycashless Trigger.',
	"Each record and status starts the workflow once. Amounts in the records are Paycashless's own (kobo for NGN): divide by 100 for naira.",
].join(' ');

export const triggerRelatedNodes: IBuilderHint['relatedNodes'] = [
	{ nodeType: ACTION_NODE_TYPE, relationHint: 'Creates the payouts, payments and invoices whose callbacks start this trigger (Callback URL = this trigger\'s Production URL)' },
	{ nodeType: POLL_TRIGGER_NODE_TYPE, relationHint: 'The same events by polling, when Paycashless cannot reach n8n' },
];

export const pollTriggerRelatedNodes: IBuilderHint['relatedNodes'] = [
	{ nodeType: ACTION_NODE_TYPE, relationHint: 'Creates the payouts, payments and invoices this trigger watches' },
	{ nodeType: TRIGGER_NODE_TYPE, relationHint: 'Callbacks instead of polling: immediate, needs n8n reachable by Paycashless' },
];
