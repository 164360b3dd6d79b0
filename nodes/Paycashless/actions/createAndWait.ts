/**
 * One definition of a "Create and Wait" operation, built from the plain create it extends: the
 * create's fields without Callback URL, plus Time Limit and a notice; the create's declaration
 * (found again by its reference, never made twice) with a note for an object that already
 * existed; and the run: create with this execution's resume URL as callbackUrl, then wait
 * (../wait/pause.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PaycashlessApi } from '../transport';
import { requireOneItem, timeLimitProperties, waitTillOf, withoutCallbackUrl, type WaitKind } from '../wait/fields';
import { resumeUrlOf, waitCallbackUrl, waitUnlessSettled } from '../wait/pause';
import type { CreateDeclaration, OperationOption, PaycashlessOperation } from './types';
import type { NodeRun } from './run';

export interface CreateAndWaitSpec {
	/** The plain create: its fields and its declaration. */
	create: { description: PaycashlessOperation['description']; declaration: CreateDeclaration };
	option: OperationOption;
	/** Which callbacks end the wait. */
	wait: WaitKind;
	/** The notice shown above the fields: what ends the wait, and what the workflow needs. */
	notice: string;
	/** Said in `_paycashless.note` when an object already existed under the reference. */
	foundAgainNote: string;
	/** The create's validated body with `callbackUrl` set to the given URL (nothing sent). */
	body(this: IExecuteFunctions, i: number, callbackUrl: string, run: NodeRun): { reference: string; body: IDataObject };
	/** Sends the body as the plain create does (its money step, same request, same output shape). */
	send(this: IExecuteFunctions, i: number, api: PaycashlessApi, body: IDataObject): Promise<IDataObject>;
}

export function createAndWaitOperation(spec: CreateAndWaitSpec): Omit<PaycashlessOperation, 'docs'> {
	const { findsAgain } = spec.create.declaration;
	return {
		option: spec.option,
		declaration: { kind: 'create', findsAgain: { ...findsAgain, foundAgainNote: spec.foundAgainNote } },
		wait: spec.wait,
		description: [
			...withoutCallbackUrl(spec.create.description),
			...timeLimitProperties(),
			{ displayName: spec.notice, name: 'createAndWaitNotice', type: 'notice', default: '' },
		],
		async execute(this: IExecuteFunctions, i: number, api: PaycashlessApi, run: NodeRun): Promise<IDataObject> {
			requireOneItem.call(this, i, findsAgain.object);
			const waitTill = waitTillOf.call(this, i);
			const resumeUrl = resumeUrlOf(this, i);
			const { reference, body } = spec.body.call(this, i, resumeUrl, run);
			// After Additional Body JSON, with the reference that is sent: this URL is what ends the wait.
			const callbackUrl = waitCallbackUrl(resumeUrl, reference);
			body.callbackUrl = callbackUrl;
			const created = await spec.send.call(this, i, api, body);
			return await waitUnlessSettled.call(this, i, spec.wait, created, { reference, callbackUrl }, waitTill);
		},
	};
}
