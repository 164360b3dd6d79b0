/**
 * The Paycashless Trigger's versions 1 and 2 in a real n8n (PaycashlessTrigger.node.ts says why there
 * is a version 2): side by side, the same callbacks get the same answers. n8n reads the body before a
 * version-1 start node runs, and for version 2 leaves a body of a type it does not parse unread (the
 * trigger reads it): so each content type is sent to both, signed for each one's URL, and a forgery
 * of each (signed for another URL). A genuine callback from the emulator starts a version-2 workflow;
 * n8n's editor gets version 2's output schema. Unit tests: test/unit/trigger/PaycashlessTrigger.test.cts.
 */
import { randomUUID } from 'crypto';

import { callbackSignature, SIGNATURE_HEADER, TIMESTAMP_HEADER, unixTimestamp } from '../../../lib/signing';
import { NODE_TYPE_TRIGGER } from '../../../scripts/n8n/lab.cjs';
import { patience, settle } from '../../../scripts/n8n/patience.cjs';
import { createTransferPayment, selectE2eRuntime, SETUP_TIMEOUT_MS, useE2eLab, waitFor, type E2eLab, type E2eRuntime, type Execution } from '../e2e/harness.cjs';
import { freshFetch } from '../e2e/freshFetch.cjs';

interface TriggerWorkflow {
	id: string;
	url: string;
}

const PAYOUT = { id: 'po_versions_1', reference: 'versions-1', amount: 250_000, currency: 'NGN', status: 'succeeded' };

export function describeTriggerVersions(runtime: Partial<E2eRuntime>): void {
	selectE2eRuntime(runtime);
	jest.setTimeout(SETUP_TIMEOUT_MS);

	let lab: E2eLab;
	const triggers: Record<number, TriggerWorkflow> = {};

	useE2eLab((started) => (lab = started));

	async function triggerWorkflow(typeVersion: number): Promise<TriggerWorkflow> {
		const webhookId = randomUUID();
		const id = await lab.createActiveWorkflow(
			`trigger version ${typeVersion} ${webhookId.slice(0, 8)}`,
			[{ name: 'Paycashless Trigger', type: NODE_TYPE_TRIGGER, typeVersion, webhookId, parameters: { events: ['*'] }, credentials: { paycashlessApi: lab.good } }],
			{},
			[`${webhookId}/webhook`],
		);
		return { id, url: `${lab.n8n.baseUrl}/webhook/${webhookId}/webhook` };
	}

	async function trigger(typeVersion: number): Promise<TriggerWorkflow> {
		return (triggers[typeVersion] ??= await triggerWorkflow(typeVersion));
	}

	/** POSTs a PAYOUT_SUCCEEDED callback signed for `signedFor`, with `contentType` (none when undefined). */
	async function send(url: string, signedFor: string, contentType: string | undefined, data: unknown): Promise<{ status: number; text: string }> {
		const dataJson = JSON.stringify(data);
		const timestamp = unixTimestamp(Date.now());
		const headers: Record<string, string> = {
			[SIGNATURE_HEADER]: callbackSignature({ secret: lab.emulator.apiSecret, callbackUrl: signedFor, dataJson, timestamp }),
			[TIMESTAMP_HEADER]: timestamp,
		};
		if (contentType) headers['content-type'] = contentType;
		// A Blob without a type: fetch then sends no content type of its own.
		const response = await freshFetch(url, { method: 'POST', headers, body: new Blob([`{"event":"PAYOUT_SUCCEEDED","data":${dataJson}}`]) });
		return { status: response.status, text: await response.text() };
	}

	const itemsOf = (executions: Execution[]) => executions.flatMap((execution) => execution.data?.resultData.runData['Paycashless Trigger']?.[0]?.data?.main[0]?.map((item) => item.json) ?? []);
	const referenceOf = (item: { data?: unknown }) => (item.data as { reference?: string } | undefined)?.reference;

	/** The trigger's items of the workflow once `references` all started and nothing more came in a short quiet spell. */
	async function startedItems(workflowId: string, references: string[]): Promise<Array<Record<string, unknown>>> {
		await waitFor(
			'the executions of the signed callbacks',
			async (saw) => {
				const all = await lab.executions(workflowId);
				const found = new Set(itemsOf(all).map((item) => referenceOf(item)));
				saw(references.filter((reference) => !found.has(reference)));
				return references.every((reference) => found.has(reference)) && all.every((e) => e.status !== 'running' && e.status !== 'new') ? true : undefined;
			},
			patience(5_000),
		);
		// A forgery refused with 401 starts nothing: nothing may turn up after a short wait either.
		await settle(500);
		return itemsOf(await lab.executions(workflowId)) as Array<Record<string, unknown>>;
	}

	const CONTENT_TYPES: Array<[string, string | undefined]> = [
		['application/json', 'application/json'],
		['no content type', undefined],
		['application/octet-stream', 'application/octet-stream'],
		['text/plain', 'text/plain'],
	];

	it('versions 1 and 2, each content type: a signed callback starts the workflow once, a forgery gets 401 and starts nothing', async () => {
		const workflows = { 1: await trigger(1), 2: await trigger(2) };
		// Every call at once (16): the answers are checked one by one, the executions once per version.
		const calls = ([1, 2] as const).flatMap((typeVersion) =>
			CONTENT_TYPES.map(([label, contentType]) => ({ typeVersion, label, contentType, data: { ...PAYOUT, reference: `versions-${typeVersion}-${randomUUID().slice(0, 8)}` } })),
		);
		const answers = await Promise.all(
			calls.map(async ({ typeVersion, label, contentType, data }) => {
				const { url } = workflows[typeVersion];
				const [forged, signed] = await Promise.all([send(url, `${url}-elsewhere`, contentType, data), send(url, url, contentType, data)]);
				return { typeVersion, label, forged: { status: forged.status, error: (JSON.parse(forged.text) as { error?: string }).error }, signed: signed.status };
			}),
		);
		expect(answers).toEqual(calls.map(({ typeVersion, label }) => ({ typeVersion, label, forged: { status: 401, error: 'invalid_signature' }, signed: 200 })));
		for (const typeVersion of [1, 2] as const) {
			const sent = calls.filter((call) => call.typeVersion === typeVersion).map((call) => call.data);
			const items = await startedItems(workflows[typeVersion].id, sent.map((data) => data.reference));
			// Exactly one execution per signed callback (in any order), none for a forgery.
			expect({ typeVersion, items }).toEqual({ typeVersion, items: expect.arrayContaining(sent.map((data) => expect.objectContaining({ event: 'PAYOUT_SUCCEEDED', data, verified: true }))) });
			expect({ typeVersion, started: items.length }).toEqual({ typeVersion, started: sent.length });
		}
	});

	it('a genuine callback from Paycashless (the emulator) starts a version-2 workflow, verified', async () => {
		const { id, url } = await trigger(2);
		const before = itemsOf(await lab.executions(id)).length;
		const reference = await createTransferPayment(lab, url, 'versions');
		lab.emulator.clearLogs();
		await lab.emulator.completePayment(reference);
		await lab.emulator.callbacksSettled();
		expect(lab.emulator.callbacks.map((callback) => callback.status)).toEqual([200]);
		const items = await startedItems(id, [reference]);
		expect(items).toHaveLength(before + 1);
		expect(items.filter((item) => referenceOf(item) === reference)).toEqual([expect.objectContaining({ event: 'PAYMENT_SUCCEEDED', verified: true })]);
	});

	it("n8n's editor gets version 2's output schema, the same as version 1's", async () => {
		const schema = async (version: string) => {
			const response = await freshFetch(`${lab.n8n.baseUrl}/schemas/${NODE_TYPE_TRIGGER}/${version}.json`);
			return { status: response.status, body: response.status === 200 ? ((await response.json()) as Record<string, unknown>) : undefined };
		};
		const [v1, v2] = [await schema('1.0.0'), await schema('2.0.0')];
		expect(v1.status).toBe(200);
		expect(v2).toEqual(v1);
		expect(v2.body?.properties).toEqual(expect.objectContaining({ event: { type: 'string' }, deliveryId: { type: 'string' } }));
	});
}
