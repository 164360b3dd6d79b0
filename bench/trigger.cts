/**
 * Benchmark 3: signed callbacks through n8n's production webhook.
 * - trigger: the Paycashless Trigger (verifies the signature against its URL, checks the
 *            timestamp and the event) answering on receipt, version 2 (new workflows);
 * - trigger-v1: the same at version 1 (workflows made before version 2): n8n evaluates an
 *            expression for it on every call (PaycashlessTrigger.node.ts says why that matters);
 * - webhook: n8n's plain Webhook node answering on receipt, no verification;
 * - webhook-auth: the same with n8n's Header Auth (a credential loaded and one header compared per
 *   request): separates the cost of loading a credential, which n8n charges any verifying
 *   webhook, from the cost of the signature check itself.
 * The same signed bodies and headers go to both (each signed for the trigger's URL; the plain
 * Webhook ignores the headers; webhook-verify, n8n's Webhook node + Callback → Verify + Respond to
 * Webhook, gets them signed for its own URL). Callbacks are prepared before the clock starts: signing is the
 * sender's cost. Two loops per round and variant, over loopback only: one callback at a time
 * (handling time per callback) and a fixed number in flight (callbacks per second).
 */
import { callbackSignature, SIGNATURE_HEADER, TIMESTAMP_HEADER, unixTimestamp } from '../lib/signing';
import type { BenchLab } from './lab.cjs';
import { uniquePath } from './lab.cjs';
import { log, pause, rounds } from './runner.cjs';
import { cpuMs } from './procmem.cjs';
import { paycashlessTrigger, plainWebhook, webhookVerifyNodes } from './workflows.cjs';

export const TRIGGER_VARIANTS = ['trigger', 'trigger-v1', 'webhook', 'webhook-auth', 'webhook-verify'] as const;
export type TriggerVariant = (typeof TRIGGER_VARIANTS)[number];

interface TriggerSample {
	/** Median time of one callback, sent one at a time, ms. */
	sequentialMedianMs: number;
	/** Callbacks per second with `inFlight` requests at a time. */
	perSecond: number;
	/** CPU time of n8n (main process and task runner) per callback during the in-flight loop, ms. */
	cpuMsPerCallback?: number;
}

export interface TriggerCase {
	callbacks: number;
	inFlight: number;
	runs: number;
	/** Per variant (empty for a variant not measured). */
	samples: Record<TriggerVariant, TriggerSample[]>;
}

export interface TriggerOptions {
	runs: number;
	/** Callbacks per loop. */
	callbacks: number;
	inFlight: number;
	/** The variants to compare (default: all four). */
	variants?: readonly TriggerVariant[];
}

/** Header checked by the Header Auth variant (sent to every variant, so the bytes are the same). */
const AUTH_HEADER = { name: 'X-Bench-Key', value: 'bench-header-auth-value' };

interface Prepared {
	body: string;
	headers: Record<string, string>;
}

/** `count` signed PAYOUT_SUCCEEDED callbacks for `url`, each with a payout of the emulator as `data`. */
function prepare(lab: BenchLab, url: string, count: number, first = 0): Prepared[] {
	const { emulator } = lab.e2e;
	const payouts = emulator.list('payouts');
	const timestamp = unixTimestamp(Date.now());
	return Array.from({ length: count }, (_, k) => {
		const i = first + k;
		const data = { ...payouts[i % payouts.length], status: 'succeeded', benchSequence: i };
		const dataJson = JSON.stringify(data);
		return {
			body: `{"event":"PAYOUT_SUCCEEDED","data":${dataJson}}`,
			headers: {
				[SIGNATURE_HEADER]: callbackSignature({ secret: emulator.apiSecret, callbackUrl: url, dataJson, timestamp }),
				[TIMESTAMP_HEADER]: timestamp,
				[AUTH_HEADER.name]: AUTH_HEADER.value,
			},
		};
	});
}

async function send(lab: BenchLab, webhookPath: string, callback: Prepared): Promise<number> {
	const answer = await lab.post(webhookPath, callback.body, callback.headers);
	if (answer.status !== 200) throw new Error(`callback to /webhook/${webhookPath}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
	return answer.ms;
}

/** Callbacks signed 50 at a time when they are needed, so no timestamp gets old on a slow machine. */
export function freshCallbacks(lab: BenchLab, url: string, count: number): () => Prepared | undefined {
	let sent = 0;
	let ready: Prepared[] = [];
	return () => {
		if (sent >= count) return undefined;
		if (ready.length === 0) ready = prepare(lab, url, Math.min(50, count - sent), sent);
		sent += 1;
		return ready.shift();
	};
}

async function sequential(lab: BenchLab, webhookPath: string, url: string, count: number): Promise<number> {
	const times: number[] = [];
	const next = freshCallbacks(lab, url, count);
	for (let callback = next(); callback; callback = next()) times.push(await send(lab, webhookPath, callback));
	times.sort((a, b) => a - b);
	return times[Math.floor(times.length / 2)];
}

async function concurrent(lab: BenchLab, webhookPath: string, url: string, count: number, inFlight: number): Promise<number> {
	const next = freshCallbacks(lab, url, count);
	const started = performance.now();
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			for (let callback = next(); callback; callback = next()) await send(lab, webhookPath, callback);
		}),
	);
	return count / ((performance.now() - started) / 1000);
}

export async function triggerBench(lab: BenchLab, options: TriggerOptions): Promise<TriggerCase> {
	lab.e2e.emulator.reset({ payouts: 100 });
	const trigger = paycashlessTrigger('Paycashless Trigger', lab.e2e.good);
	const triggerV1 = paycashlessTrigger('Paycashless Trigger', lab.e2e.good, 1);
	const paths: Record<TriggerVariant, string> = {
		trigger: `${trigger.webhookId}/webhook`,
		'trigger-v1': `${triggerV1.webhookId}/webhook`,
		webhook: uniquePath('plain-webhook'),
		'webhook-auth': uniquePath('auth-webhook'),
		'webhook-verify': uniquePath('verify-webhook'),
	};
	const headerAuth = await lab.e2e.session.rest<{ id: string; name: string }>('POST', '/rest/credentials', {
		name: 'bench header auth',
		type: 'httpHeaderAuth',
		data: AUTH_HEADER,
	});
	await lab.createWorkflow('bench trigger', [trigger], {}, [paths.trigger], false);
	await lab.createWorkflow('bench trigger v1', [triggerV1], {}, [paths['trigger-v1']], false);
	await lab.createWorkflow('bench plain webhook', [plainWebhook('Webhook', paths.webhook)], {}, [paths.webhook], false);
	await lab.createWorkflow('bench header-auth webhook', [plainWebhook('Webhook', paths['webhook-auth'], { id: headerAuth.id, name: headerAuth.name })], {}, [paths['webhook-auth']], false);
	const triggerUrl = `${lab.e2e.n8n.baseUrl}/webhook/${paths.trigger}`;
	const triggerV1Url = `${lab.e2e.n8n.baseUrl}/webhook/${paths['trigger-v1']}`;
	const verifyUrl = `${lab.e2e.n8n.baseUrl}/webhook/${paths['webhook-verify']}`;
	const verify = webhookVerifyNodes(paths['webhook-verify'], verifyUrl, lab.e2e.good);
	await lab.createWorkflow('bench webhook + verify', verify.nodes, verify.connections, [paths['webhook-verify']], false);
	const urlOf = (variant: TriggerVariant) => (variant === 'webhook-verify' ? verifyUrl : variant === 'trigger-v1' ? triggerV1Url : triggerUrl);

	// A forged callback must be refused: the trigger really verifies.
	for (const variant of ['trigger', 'trigger-v1'] as const) {
		const [forged] = prepare(lab, `${urlOf(variant)}-elsewhere`, 1);
		const refused = await lab.post(paths[variant], forged.body, forged.headers);
		if (refused.status !== 401) throw new Error(`${variant} accepted a callback signed for another URL (HTTP ${refused.status})`);
	}
	const [forgedForVerify] = prepare(lab, `${verifyUrl}-elsewhere`, 1);
	const refusedByVerify = await lab.post(paths['webhook-verify'], forgedForVerify.body, forgedForVerify.headers);
	if (refusedByVerify.status !== 401) throw new Error(`Webhook + Verify accepted a callback signed for another URL (HTTP ${refusedByVerify.status})`);
	const unauthorised = await lab.post(paths['webhook-auth'], '{}');
	if (unauthorised.status !== 403 && unauthorised.status !== 401) throw new Error(`Header Auth let a request without the header through (HTTP ${unauthorised.status})`);

	const variants = options.variants ?? TRIGGER_VARIANTS;
	// Warm-up, not timed.
	for (const variant of variants) await sequential(lab, paths[variant], urlOf(variant), 50);

	log(`trigger: ${options.runs} runs × ${options.callbacks} callbacks one at a time and ${options.inFlight} in flight`);
	const samples = await rounds(variants, options.runs, async (variant, round) => {
		await pause(500);
		const sequentialMedianMs = await sequential(lab, paths[variant], urlOf(variant), options.callbacks);
		await pause(500);
		const cpuBefore = cpuMs(lab.processes());
		const perSecond = await concurrent(lab, paths[variant], urlOf(variant), options.callbacks, options.inFlight);
		const cpuMsPerCallback = (cpuMs(lab.processes()) - cpuBefore) / options.callbacks;
		log(
			`  round ${round + 1} ${variant}: ${sequentialMedianMs.toFixed(2)} ms per callback, ${Math.round(perSecond)}/s with ${options.inFlight} in flight, ${cpuMsPerCallback.toFixed(1)} ms CPU per callback`,
		);
		return { sequentialMedianMs, perSecond, cpuMsPerCallback };
	});
	const none = Object.fromEntries(TRIGGER_VARIANTS.map((variant) => [variant, [] as TriggerSample[]])) as Record<TriggerVariant, TriggerSample[]>;
	return { callbacks: options.callbacks, inFlight: options.inFlight, runs: options.runs, samples: { ...none, ...samples } };
}
