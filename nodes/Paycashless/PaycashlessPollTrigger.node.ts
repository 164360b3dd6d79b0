/**
 * The Paycashless Poll Trigger: lists Paycashless objects on n8n's schedule and emits the new
 * records or status changes, with the engine in poll/engine.ts and the Event lists in
 * poll/events.ts. Longer than 250 lines because n8n's description of the node's fields stays in
 * the node class, where n8n's lint and the editor read it.
 */
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { pollTriggerRelatedNodes, pollTriggerSearchHint } from './actions/fields/builderHints';
import { CREATED_AT_QUERY, statusLabel } from './actions/fields/listFilters';
import { eventSubtitle } from './actions/fields/subtitle';
import { paycashlessApi, TransportRun, type ListOptions } from './transport';
import {
	collectEvents,
	decide,
	LEASE_MS,
	planPoll,
	writeState,
	type ListQuery,
	type PollSettings,
} from './poll/engine';
import { RESOURCES, type PollResource } from './poll/events';
import { eventItem } from './poll/items';
import { creationTime } from './poll/creation';
import { DEFAULT_INVOICE_LOOKBACK_HOURS, DEFAULT_LOOKBACK_HOURS, MAX_LOOKBACK_HOURS, readPollSettings } from './poll/settings';
import { PACKAGE_DOCS_URL } from '../../lib/api';


function statusOptions(resource: PollResource) {
	return [...(RESOURCES[resource].statuses ?? [])].sort().map((status) => ({ name: statusLabel(status), value: status }));
}

const lookbackDescription =
	'How long after its creation a record is watched for the status. A record created longer ago that reaches the status is not caught (Paycashless lists can only be filtered by creation time). Every poll reads all watched records created in this period, so a longer period costs more requests.';

const properties: INodeProperties[] = [
	{
		displayName:
			'Checks Paycashless on the schedule below; when it finds new records or status changes, it starts the workflow with one item for each. Works without a public URL. For instant events, use the Paycashless Trigger (callbacks) instead, or both with a Remove Duplicates node on "eventKey".',
		name: 'pollNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Dedicated Account', value: 'dedicatedAccount' },
			{ name: 'Invoice', value: 'invoice' },
			{ name: 'Payment', value: 'payment' },
			{ name: 'Payout', value: 'payout' },
		],
		default: 'payment',
	},
	// One Event list per resource, from the resource's table in poll/events.ts.
	...Object.entries(RESOURCES).map(
		([resource, { events, defaultEvent }]): INodeProperties => ({
			displayName: 'Event',
			name: 'event',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: events.map(({ name, value, description }) => ({ name, value, description })),
			default: defaultEvent,
		}),
	),
	...(['payment', 'payout', 'invoice'] as const).map(
		(resource): INodeProperties => ({
			displayName: 'Statuses',
			name: 'statuses',
			type: 'multiOptions',
			displayOptions: { show: { resource: [resource], event: ['status'] } },
			options: statusOptions(resource),
			default: [],
			description: `Start the workflow when a ${RESOURCES[resource].label} is in any of these statuses (once per ${RESOURCES[resource].label} and status)`,
		}),
	),
	{
		displayName: 'Statuses',
		name: 'statusNames',
		type: 'string',
		displayOptions: { show: { resource: ['dedicatedAccount'], event: ['status'] } },
		default: 'active',
		placeholder: 'e.g. active, inactive',
		description:
			'Comma-separated statuses. Paycashless has not published every status of a dedicated account; "active" is one.',
	},
	{
		displayName: 'Start From',
		name: 'startFrom',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Now',
				value: 'now',
				description: 'Only events that happen after the workflow is activated',
			},
			{
				name: 'A Date',
				value: 'date',
				description: 'Also records created since a date you pick (the first poll may output many items)',
			},
		],
		default: 'now',
	},
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		displayOptions: { show: { startFrom: ['date'] } },
		default: '',
		description: "Records created on or after this moment (workflow's time zone) count",
	},
	{
		displayName: 'Watch Status Changes For (Hours)',
		name: 'lookbackHours',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_LOOKBACK_HOURS, numberPrecision: 0 },
		displayOptions: { show: { resource: ['payment', 'payout', 'dedicatedAccount'] }, hide: { event: ['created'] } },
		default: DEFAULT_LOOKBACK_HOURS,
		description: lookbackDescription,
	},
	{
		displayName: 'Watch Status Changes For (Hours)',
		name: 'lookbackHours',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_LOOKBACK_HOURS, numberPrecision: 0 },
		displayOptions: { show: { resource: ['invoice'] }, hide: { event: ['created'] } },
		default: DEFAULT_INVOICE_LOOKBACK_HOURS,
		description: lookbackDescription,
	},
];

/**
 * Every page of one list query, in the poll's run (one per poll: the credential's Base URL read
 * once, a 429 holding the poll's later reads). A page that cannot be read fails the whole poll
 * (nothing is committed).
 */
async function readAll(
	run: TransportRun,
	resource: PollResource,
	query: ListQuery,
	options: ListOptions = { returnAll: true, limit: Number.POSITIVE_INFINITY, incomplete: 'fail' },
): Promise<IDataObject[]> {
	const qs: IDataObject = {};
	if (query.createdFrom > 0) qs[CREATED_AT_QUERY.createdOnOrAfter] = query.createdFrom;
	if (query.status) qs.status = query.status;
	// The transport reads nothing from n8n but the credential, the helpers, the node and the logger,
	// which a poll context has too. A list cut short fails the poll: nothing is emitted or marked
	// as seen, and the next poll reads the same records again.
	return await paycashlessApi(run).paginate({ path: RESOURCES[resource].path, qs }, options);
}

/** "Fetch Test Event": the newest record that matches, without touching the trigger's memory. */
async function latestEvent(this: IPollFunctions, settings: PollSettings): Promise<INodeExecutionData[][]> {
	const nowSeconds = Math.floor(Date.now() / 1000);
	const queries: ListQuery[] =
		settings.watch.type === 'created'
			? [{ createdFrom: 0 }]
			: settings.watch.statuses.map((status) => ({ status, createdFrom: 0 }));
	let best: { record: IDataObject; status: string; ms: number; order: number } | undefined;
	const run = new TransportRun(this);
	for (const [order, query] of queries.entries()) {
		const [record] = await readAll(run, settings.resource, query, { returnAll: false, limit: 1 });
		if (!record || typeof record !== 'object' || typeof record.id !== 'string') continue;
		const ms = creationTime(record, nowSeconds).exactMs ?? -order;
		if (!best || ms > best.ms) best = { record, status: query.status ?? 'created', ms, order };
	}
	const spec = RESOURCES[settings.resource];
	if (!best) {
		const what =
			settings.watch.type === 'created' ? `any ${spec.label}` : `a ${spec.label} in status ${settings.watch.statuses.join(' or ')}`;
		throw new NodeOperationError(this.getNode(), `Paycashless has no ${spec.label} to show yet`, {
			description: `There is not ${what} with this credential yet, so there is no test event. Create one (in the sandbox) and fetch again; once the workflow is active, the trigger starts it for every new one.`,
		});
	}
	const status = String(best.status).toLowerCase();
	const item = eventItem(settings.resource, { key: '', id: String(best.record.id), status, record: best.record, createdBound: 0, rank: 0 }, new Date().toISOString());
	return [this.helpers.returnJsonArray([item])];
}

/**
 * Polls of this node that are running, by the static-data object they work on (n8n gives every
 * poll of one activation the same object). n8n starts a poll on every Poll Times tick even when
 * the previous one still runs; two polls on one state would emit the same events twice, so the
 * later one is skipped. Deliberately not in the static data: n8n may save it while a poll runs,
 * and a lease saved to the database would block the polls after a restart. The entry expires
 * after LEASE_MS in case a poll never settles. (With n8n's durable poll cursors every poll gets
 * its own copy of the state and n8n itself refuses the second commit.)
 */
const runningPolls = new WeakMap<object, number>();

export class PaycashlessPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Paycashless Poll Trigger',
		name: 'paycashlessPollTrigger',
		icon: { light: 'file:paycashless.svg', dark: 'file:paycashless.dark.svg' },
		group: ['trigger'],
		version: 1,
		// The panel's Docs link (n8n's editor takes it before the codex file's primaryDocumentation).
		documentationUrl: `${PACKAGE_DOCS_URL}/docs/polling-trigger.md`,
		// Replaced in the constructor by the chosen Event's name: "Payment Succeeded".
		subtitle: '={{ $parameter["resource"] + ": " + $parameter["event"] }}',
		description:
			'Starts the workflow for new payments, payouts, invoices or dedicated accounts, or when they reach a status, by checking Paycashless on a schedule',
		defaults: {
			name: 'Paycashless Poll Trigger',
		},
		polling: true,
		// What n8n's MCP server and AI Workflow Builder tell a model (./actions/fields/builderHints.ts).
		builderHint: { searchHint: pollTriggerSearchHint, relatedNodes: pollTriggerRelatedNodes },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'paycashlessApi',
				required: true,
			},
		],
		properties,
	};

	constructor() {
		this.description = { ...this.description, subtitle: eventSubtitle(this.description.properties) };
	}

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		let settings: PollSettings;
		try {
			settings = readPollSettings.call(this);
		} catch (error) {
			throw new NodeOperationError(this.getNode(), error as Error);
		}
		if (this.getMode() === 'manual') return await latestEvent.call(this, settings);

		const staticData = this.getWorkflowStaticData('node');
		const nowMs = Date.now();
		if ((runningPolls.get(staticData) ?? 0) > nowMs) {
			this.logger.info('Paycashless Poll Trigger: the previous poll of this node is still running; this one is skipped', {
				node: this.getNode().name,
			});
			return null;
		}
		runningPolls.set(staticData, nowMs + LEASE_MS);
		try {
			const nowSeconds = Math.floor(nowMs / 1000);
			const plan = planPoll(staticData, settings, nowSeconds);
			const results: IDataObject[][] = [];
			const run = new TransportRun(this);
			for (const query of plan.queries) results.push(await readAll(run, settings.resource, query));
			const { events, withoutId } = collectEvents(settings, plan, results, nowSeconds);
			const outcome = decide(settings, plan, events, nowSeconds);
			const spec = RESOURCES[settings.resource];
			if (withoutId > 0) {
				this.logger.warn(`Paycashless Poll Trigger: ${withoutId} ${spec.label}(s) without an id were skipped`, { node: this.getNode().name });
			}
			if (outcome.trimmedTo !== undefined) {
				this.logger.warn(
					`Paycashless Poll Trigger: more than ${Object.keys(outcome.next.seen).length} ${spec.label} events are remembered; status changes of ${spec.label}s created before ${new Date(outcome.trimmedTo * 1000).toISOString()} are no longer caught. Shorten "Watch Status Changes For" or narrow the statuses.`,
					{ node: this.getNode().name },
				);
			}
			// Committed: every page was read. The state is written only now, with the items.
			writeState(staticData, outcome.next);
			if (outcome.emit.length === 0) return null;
			const detectedAt = new Date(nowMs).toISOString();
			return [this.helpers.returnJsonArray(outcome.emit.map((event) => eventItem(settings.resource, event, detectedAt)))];
		} finally {
			runningPolls.delete(staticData);
		}
	}
}
