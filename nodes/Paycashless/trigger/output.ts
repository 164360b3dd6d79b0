/**
 * The Paycashless Trigger's output item: one accepted callback as the workflow sees it (`event`,
 * `data` as signed, its money in main units, `deliveryId`, `eventKey`, how it was checked) and
 * what the node's options add (Confirm With Paycashless, headers, raw body). The node decides
 * whether a callback starts the workflow; this file only shapes the item.
 */
import type { IDataObject } from 'n8n-workflow';

import type { CallbackOutcome } from '../callbacks/evaluate';
import { visibleHeaders, type HeaderValues } from '../callbacks/headers';
import { mainUnitsField } from '../helpers/mainUnits';
import type { Confirmation } from './confirm';
import { callbackEventKey } from '../catalog/eventKeys';

export type AcceptedCallback = Extract<CallbackOutcome, { action: 'accept' }>;

/** The item of an accepted callback, before the options add to it. */
export function callbackItem(outcome: AcceptedCallback, nowMs: number): IDataObject {
	const item: IDataObject = {
		event: outcome.callback.event,
		data: outcome.callback.data as IDataObject,
		// The signed data stays as signed; its money in main units beside it.
		...mainUnitsField(outcome.callback.data),
		deliveryId: outcome.deliveryId,
		// Same key as the Paycashless Poll Trigger gives this event (catalog/eventKeys.ts).
		eventKey: callbackEventKey(outcome.callback.event, outcome.callback.data) ?? `callback:${outcome.deliveryId}`,
		verified: outcome.verified,
		eventCheck: outcome.eventCheck.result,
		receivedAt: new Date(nowMs).toISOString(),
	};
	if (outcome.eventCheck.result === 'inconsistent') item.eventCheckProblem = outcome.eventCheck.reason;
	return item;
}

/** What Confirm With Paycashless adds to the item (the object as Paycashless has it now). */
export function withConfirmation(item: IDataObject, confirmation: Confirmation): IDataObject {
	return {
		...item,
		confirmed: confirmation.outcome === 'confirmed',
		currentObject: confirmation.outcome === 'confirmed' ? confirmation.current : null,
	};
}

/** What the options Skip Signature Verification, Include Headers and Include Raw Body add. */
export function withRequestDetails(
	item: IDataObject,
	outcome: AcceptedCallback,
	headers: HeaderValues,
	options: { skipSignatureVerification?: boolean; includeHeaders?: boolean; includeRawBody?: boolean },
): IDataObject {
	const out = { ...item };
	if (options.skipSignatureVerification === true) out.verificationSkipped = true;
	if (options.includeHeaders === true) out.headers = visibleHeaders(headers) as IDataObject;
	if (options.includeRawBody === true) out.rawBody = outcome.callback.rawText;
	return out;
}
