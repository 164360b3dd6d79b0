/**
 * Where the time of one callback goes: CPU profiles of n8n's main process while signed
 * PAYOUT_SUCCEEDED callbacks are sent one at a time to the Paycashless Trigger (version 2, and
 * version 1 as `trigger-v1`) and to n8n's plain Webhook node (and, with `--header-auth`, the Webhook node with n8n's Header Auth, which loads a
 * credential per call as the trigger does), in the same n8n, one variant after the other.
 *
 * Per variant and callback: the wall time (median), n8n's CPU (main process and task runner, from
 * /proc), and the main thread's profiled time by what the code is doing: n8n's expression isolates,
 * the credential load, the Paycashless Trigger's own code, the database, the execution, the webhook
 * lookup, the HTTP server, garbage collection. Each sample goes to the first of those its stack
 * matches (bench/cpuprofile.cts). Written to bench/profile-callbacks.json; raw profiles to /tmp.
 *
 * Usage: npx ts-node --transpile-only bench/profileCallbacks.cts [--callbacks 300] [--header-auth]
 *        [--n8n-env N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true,...]
 * n8n opens its inspector on port 9229 (SIGUSR1): one profile at a time on the machine.
 */
import * as fs from 'fs';
import * as path from 'path';

import { byCategory, inclusive, openProfiler, PACKAGE_FILE, summarise, type Category } from './cpuprofile.cjs';
import { startBenchLab, uniquePath } from './lab.cjs';
import { describeMachine } from './machine.cjs';
import { cpuMs, threadCpuMs } from './procmem.cjs';
import { commandFlags, log, n8nEnvFlag, pause, runMain, writeSummary } from './runner.cjs';
import { median } from './stats.cjs';
import { freshCallbacks } from './trigger.cjs';
import { paycashlessTrigger, plainWebhook } from './workflows.cjs';

const CATEGORIES: Category[] = [
	{ name: "n8n's expression isolates (a new one per acquisition)", pattern: /expression-runtime|isolated-vm|acquireIsolate|releaseIsolate/ },
	{ name: 'credential: load from the database and decrypt', pattern: /credentials-helper|getDecrypted|n8n-core\/dist\/credentials\.js/ },
	{ name: 'the Paycashless Trigger (parse, verify, item)', pattern: PACKAGE_FILE },
	{ name: 'database (TypeORM, SQLite)', pattern: /typeorm|sqlite3|@n8n\/db\// },
	{ name: 'workflow execution (start, run, hooks)', pattern: /execution-engine|workflow-runner|active-executions|execution-lifecycle|workflow-execute-additional-data|executions\// },
	{ name: 'webhook: find it, load the workflow, build its nodes', pattern: /webhooks\/|webhook-helpers|workflow-published|n8n-workflow\/dist\/cjs\/workflow\.js/ },
	{ name: 'HTTP server (express, body parsing)', pattern: /express|body-parser|raw-body|node:_http|_http_server|_http_common/ },
];

async function main(): Promise<void> {
	const flags = commandFlags();
	const count = Number(flags.callbacks ?? 300);
	const machine = describeMachine();
	const n8nEnv = n8nEnvFlag(flags['n8n-env']);
	const lab = await startBenchLab({ n8nEnv });
	try {
		lab.e2e.emulator.reset({ payouts: 100 });
		const trigger = paycashlessTrigger('Paycashless Trigger', lab.e2e.good);
		const triggerV1 = paycashlessTrigger('Paycashless Trigger', lab.e2e.good, 1);
		const paths: Record<string, string> = { trigger: `${trigger.webhookId}/webhook`, 'trigger-v1': `${triggerV1.webhookId}/webhook`, webhook: uniquePath('plain-webhook') };
		await lab.createWorkflow('profile trigger', [trigger], {}, [paths.trigger], false);
		await lab.createWorkflow('profile trigger v1', [triggerV1], {}, [paths['trigger-v1']], false);
		await lab.createWorkflow('profile plain webhook', [plainWebhook('Webhook', paths.webhook)], {}, [paths.webhook], false);
		if (flags['header-auth'] === 'true') {
			const headerAuth = await lab.e2e.session.rest<{ id: string; name: string }>('POST', '/rest/credentials', {
				name: 'profile header auth',
				type: 'httpHeaderAuth',
				data: { name: 'X-Bench-Key', value: 'bench-header-auth-value' },
			});
			paths['webhook-auth'] = uniquePath('auth-webhook');
			await lab.createWorkflow('profile header-auth webhook', [plainWebhook('Webhook', paths['webhook-auth'], headerAuth)], {}, [paths['webhook-auth']], false);
		}
		const send = async (variant: string, callbacks: number) => {
			const times: number[] = [];
			// Signed for the trigger's own URL (the Webhook nodes ignore the headers).
			const next = freshCallbacks(lab, `${lab.e2e.n8n.baseUrl}/webhook/${variant === 'trigger-v1' ? paths['trigger-v1'] : paths.trigger}`, callbacks);
			for (let callback = next(); callback; callback = next()) {
				const answer = await lab.post(paths[variant], callback.body, callback.headers);
				if (answer.status !== 200) throw new Error(`${variant}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
				times.push(answer.ms);
			}
			return times;
		};
		for (const variant of Object.keys(paths)) await send(variant, 50);

		const main = lab.processes().find((p) => p.role === 'n8n');
		if (!main) throw new Error('no n8n main process');
		const profiler = await openProfiler(main.pid);
		const results: Record<string, unknown> = {};
		try {
			for (const variant of Object.keys(paths)) {
				await pause(1000);
				const cpuBefore = cpuMs(lab.processes());
				const threadsBefore = threadCpuMs(main.pid);
				const { profile, result: times } = await profiler.profile(() => send(variant, count));
				const cpuPerCallback = (cpuMs(lab.processes()) - cpuBefore) / count;
				const threadsAfter = threadCpuMs(main.pid);
				// n8n's CPU per callback by thread (threads that ended meanwhile are missing from both readings).
				const threads = Object.fromEntries(
					Object.entries(threadsAfter)
						.map(([name, ms]) => [name, Math.round(((ms - (threadsBefore[name] ?? 0)) / count) * 100) / 100] as const)
						.filter(([, ms]) => ms > 0)
						.sort((a, b) => b[1] - a[1]),
				);
				const raw = path.join('/tmp', `paycashless-callbacks-${variant}-${Date.now()}.cpuprofile`);
				fs.writeFileSync(raw, JSON.stringify(profile));
				const perCallback = Object.fromEntries(
					Object.entries(byCategory(profile, CATEGORIES))
						.sort((a, b) => b[1] - a[1])
						.map(([name, ms]) => [name, Math.round((ms / count) * 100) / 100]),
				);
				const { byFunction, byFile } = summarise(profile);
				results[variant] = {
					callbacks: count,
					wallMsMedian: Math.round(median(times) * 100) / 100,
					cpuMsPerCallback: Math.round(cpuPerCallback * 100) / 100,
					mainProcessCpuMsPerCallbackByThread: threads,
					mainThreadMsPerCallback: perCallback,
					inclusiveMs: inclusive(profile, /node_modules\/n8n-nodes-paycashless\/dist\/|getDecrypted|getCredentials|acquireIsolate|createBridge|executeWebhook|runWorkflow|processRunExecutionData|getNodeParameter|getNodeWebhookUrl/),
					selfByFunction: byFunction.slice(0, 25),
					selfByFile: byFile.slice(0, 15),
					raw,
				};
				log(`${variant}: ${median(times).toFixed(1)} ms per callback, ${cpuPerCallback.toFixed(1)} ms CPU (by thread ${JSON.stringify(threads)}); main thread per callback ${JSON.stringify(perCallback)}`);
			}
		} finally {
			profiler.close();
		}
		writeSummary('profile-callbacks.json', { machine, n8nEnv, loadAtEnd: describeMachine().loadAverage, results });
	} finally {
		await lab.close();
	}
}

runMain(main);
