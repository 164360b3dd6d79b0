/**
 * The output item of one poll event: the Paycashless Trigger's shape (`event`, `data`, the amount
 * in main units, `eventKey`), marked as detected by a poll.
 */
import type { IDataObject } from 'n8n-workflow';

import { eventKey } from '../catalog/eventKeys';
import { mainUnitsField } from '../helpers/mainUnits';
import type { PollEvent } from './engine';
import { RESOURCES, type PollResource } from './events';

/** The event name of an event: `PAYMENT_SUCCEEDED`, `PAYOUT_CREATED`, ... */
function eventName(resource: PollResource, status: string): string {
	return `${RESOURCES[resource].eventPrefix}_${status.toUpperCase()}`;
}

/** The output item of one event: the Paycashless Trigger's shape (`event`, `data`, `eventKey`). */
export function eventItem(resource: PollResource, event: PollEvent, detectedAt: string): IDataObject {
	return {
		event: eventName(resource, event.status),
		data: event.record,
		...mainUnitsField(event.record),
		eventKey: eventKey(RESOURCES[resource].kind, event.id, event.status),
		detectedAt,
		source: 'poll',
	};
}
