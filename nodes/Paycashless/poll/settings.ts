/**
 * Reads the Paycashless Poll Trigger's parameters into PollSettings (engine.ts), checking
 * them before any request is sent. Bad input throws InvalidInputError naming the field.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { toUnixSeconds } from '../helpers/dates';
import { InvalidInputError, requireInteger } from '../helpers/validation';
import { parseNameList } from '../helpers/lists';
import type { PollSettings, Watch } from './engine';
import { RESOURCES, type PollResource } from './events';

export const DEFAULT_LOOKBACK_HOURS = 72;
export const DEFAULT_INVOICE_LOOKBACK_HOURS = 720;
export const MAX_LOOKBACK_HOURS = 24 * 400;

function parseNames(text: unknown): string[] {
	return parseNameList(text).map((name) => name.toLowerCase());
}

function watchOf(resource: PollResource, event: string, statuses: unknown, statusNames: unknown): Watch {
	if (event === 'created') return { type: 'created' };
	const fixed = RESOURCES[resource].events.find((option) => option.value === event)?.statuses;
	if (fixed) return { type: 'status', statuses: fixed };
	if (event !== 'status') {
		throw new InvalidInputError('Event', `Event: "${event}" is not an event of ${RESOURCES[resource].label}s; pick one from the list`);
	}
	const known = RESOURCES[resource].statuses;
	const list = known ? (Array.isArray(statuses) ? statuses.map((s) => String(s).toLowerCase()) : parseNames(statuses)) : parseNames(statusNames);
	if (list.length === 0) throw new InvalidInputError('Statuses', 'Statuses: pick at least one status');
	const unknown = known ? list.filter((status) => !known.includes(status)) : [];
	if (unknown.length > 0) {
		throw new InvalidInputError('Statuses', `Statuses: ${unknown.join(', ')} is not a ${RESOURCES[resource].label} status; use ${known!.join(', ')}`);
	}
	return { type: 'status', statuses: [...new Set(list)] };
}

export function readPollSettings(this: IPollFunctions): PollSettings {
	const resource = this.getNodeParameter('resource', 'payment') as PollResource;
	if (!RESOURCES[resource]) throw new InvalidInputError('Resource', `Resource: "${String(resource)}" is not one of payment, payout, invoice, dedicated account`);
	const event = String(this.getNodeParameter('event', ''));
	const watch = watchOf(resource, event, this.getNodeParameter('statuses', []), this.getNodeParameter('statusNames', ''));
	const startMode = this.getNodeParameter('startFrom', 'now') as string;
	let startFrom: PollSettings['startFrom'] = { mode: 'now' };
	if (startMode === 'date') {
		startFrom = { mode: 'date', seconds: toUnixSeconds(this.getNodeParameter('startDate', ''), 'Start Date', this.getTimezone()) };
	} else if (startMode !== 'now') {
		throw new InvalidInputError('Start From', 'Start From: use Now or A Date');
	}
	const defaultHours = resource === 'invoice' ? DEFAULT_INVOICE_LOOKBACK_HOURS : DEFAULT_LOOKBACK_HOURS;
	const lookbackHours =
		watch.type === 'created'
			? defaultHours
			: requireInteger(this.getNodeParameter('lookbackHours', defaultHours), 'Watch Status Changes For (Hours)', 1, MAX_LOOKBACK_HOURS);
	const credentialId = this.getNode().credentials?.paycashlessApi?.id ?? '';
	return { resource, watch, startFrom, lookbackSeconds: lookbackHours * 3600, scope: `credential:${credentialId}` };
}

