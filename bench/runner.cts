/**
 * Shared by the suites: the emulator's latency, pauses, a child process for code that must run
 * outside the bench's event loop, and the repetition loop that rotates the order of the
 * variants (no variant always runs first, right after a pause, or last).
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import type { EmulatorHandle } from '../emulator/types.cjs';
import { NODE24_BIN, ROOT } from '../scripts/n8n/lab.cjs';

export function log(message: string): void {
	process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** The command line's `--name value` flags; a flag followed by no value is `'true'`. */
export function commandFlags(argv: readonly string[] = process.argv.slice(2)): Record<string, string> {
	const flags: Record<string, string> = {};
	for (let i = 0; i < argv.length; i++) {
		const name = argv[i].replace(/^--/, '');
		if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) flags[name] = argv[++i];
		else flags[name] = 'true';
	}
	return flags;
}

/** `--n8n-env A=1,B=2`: more environment for n8n (e.g. one of its expression-engine settings). */
export function n8nEnvFlag(text: string | undefined): Record<string, string> | undefined {
	return text ? Object.fromEntries(text.split(',').map((pair) => pair.split('=', 2) as [string, string])) : undefined;
}

/** Runs a bench's `main`: an error ends the process with its stack. */
export function runMain(main: () => Promise<void>): void {
	main().catch((error: Error) => {
		process.stderr.write(`${error.stack ?? error.message}\n`);
		process.exit(1);
	});
}

/** Writes a profile's summary to bench/<file> (JSON) and logs it. */
export function writeSummary(file: string, summary: unknown): void {
	fs.writeFileSync(path.join(ROOT, 'bench', file), `${JSON.stringify(summary, null, '\t')}\n`);
	log(JSON.stringify(summary, null, 2));
}

export function pause(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Added latency on every `/v1` answer (0: none). */
export function setLatency(emulator: EmulatorHandle, latencyMs: number): void {
	if (latencyMs > 0) emulator.setFaults({ latencyMs });
	else emulator.clearFaults();
}

/** The Node n8n runs on (24) when installed, else this one. */
function nodeForChildren(): string {
	const node24 = path.join(NODE24_BIN, 'node');
	return fs.existsSync(node24) ? node24 : process.execPath;
}

/**
 * Runs a TypeScript file of the bench as its own process (transpiled by ts-node), writes `input`
 * as JSON to its stdin and parses the last line of its stdout as JSON.
 */
export function runChild<T>(file: string, input: unknown): Promise<T> {
	return new Promise((resolve, reject) => {
		const child = spawn(nodeForChildren(), ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'bench', file)], {
			cwd: ROOT,
			stdio: ['pipe', 'pipe', 'pipe'],
			env: { ...process.env, TS_NODE_PROJECT: path.join(ROOT, 'tsconfig.json') },
		});
		let out = '';
		let err = '';
		child.stdout.on('data', (chunk) => (out += String(chunk)));
		child.stderr.on('data', (chunk) => (err += String(chunk)));
		child.on('error', reject);
		child.on('exit', (code) => {
			if (code !== 0) return reject(new Error(`${file} exited with ${code}: ${err.slice(-2000)}`));
			try {
				resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as T);
			} catch {
				reject(new Error(`${file} printed no JSON result: ${out.slice(-500)} ${err.slice(-1000)}`));
			}
		});
		child.stdin.end(JSON.stringify(input));
	});
}

/**
 * Runs every variant `runs` times; repetition r starts with variant r (mod count). Returns the
 * samples per variant in repetition order, so sample i of two variants are from the same round.
 */
export async function rounds<K extends string, S>(variants: readonly K[], runs: number, runOne: (variant: K, round: number) => Promise<S>): Promise<Record<K, S[]>> {
	const samples = Object.fromEntries(variants.map((v) => [v, [] as S[]])) as Record<K, S[]>;
	for (let round = 0; round < runs; round++) {
		for (let k = 0; k < variants.length; k++) {
			const variant = variants[(round + k) % variants.length];
			samples[variant].push(await runOne(variant, round));
		}
	}
	return samples;
}
