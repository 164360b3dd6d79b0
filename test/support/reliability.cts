/**
 * Shared pieces of the reliability suite: the emulator's credentials, item parameters, fast
 * request options, fault counts from the emulator's request log, and the secrets scan.
 */
import { inspect } from 'util';

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { EmulatorHandle, FaultConfig, RecordedRequest } from '../../emulator/index.cjs';
import { runNode, type ContextOptions, type RunResult } from '../../scripts/harness/executeContext.cjs';

export const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';

/**
 * The fault mix of the 1,000-payout reliability run (test/reliability/payouts.test.cts), also the
 * payroll bench's: 5xx 5%, 429 5% (Retry-After 0.01 s), dropped after commit 6%, and 5% answered
 * `slowMs` late (then processed), against a node timeout shorter than `slowMs`.
 */
export function payoutFaultMix(slowMs: number): FaultConfig {
	return { error5xxRate: 0.05, rateLimitRate: 0.05, retryAfterSeconds: 0.01, dropAfterCommitRate: 0.06, slowRate: 0.05, slowMs, seed: 20240601 };
}

/** Short waits so the suite stays quick; the policy is the same as with the defaults. */
export const FAST: INodeParameters = { maxAttempts: 5, retryDelay: 5, maxRetryWait: 2000, timeout: 5000 };

export function credentialsOf(emulator: EmulatorHandle): ContextOptions['credentials'] {
	return { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl };
}

/** Parameters of a Payout → Create item. */
export function payoutItem(reference: string, requestOptions: INodeParameters = FAST, amount = 2500): INodeParameters {
	return {
		resource: 'payout',
		operation: 'create',
		reference,
		amount,
		currency: 'NGN',
		destinationAccountNumber: '0123456789',
		bankId: ACCESS_BANK,
		requestOptions,
	};
}

export async function run(
	emulator: EmulatorHandle,
	parameters: INodeParameters | INodeParameters[],
	extra: Partial<ContextOptions> = {},
): Promise<RunResult> {
	return await runNode({ parameters, credentials: credentialsOf(emulator), ...extra });
}

/** Runs and returns the thrown error (fails the test when nothing is thrown). */
export async function runAndCatch(
	emulator: EmulatorHandle,
	parameters: INodeParameters | INodeParameters[],
	extra: Partial<ContextOptions> = {},
): Promise<Error> {
	try {
		await run(emulator, parameters, extra);
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected the node to throw');
}

export type FaultCounts = Record<NonNullable<RecordedRequest['fault']> | 'none', number>;

/** Requests received and faults applied, by kind, from the emulator's log. */
export function faultCounts(requests: readonly RecordedRequest[]): FaultCounts {
	const counts: FaultCounts = { none: 0, latency: 0, error5xx: 0, rateLimit: 0, dropAfterCommit: 0, slow: 0 };
	for (const request of requests) counts[request.fault ?? 'none'] += 1;
	return counts;
}

/** Payouts stored on the emulator per reference. */
function payoutsByReference(emulator: EmulatorHandle): Map<string, number> {
	const counts = new Map<string, number>();
	for (const payout of emulator.list('payouts')) {
		const reference = String(payout.reference);
		counts.set(reference, (counts.get(reference) ?? 0) + 1);
	}
	return counts;
}

/** Duplicates (payouts beyond the first per reference) and losses (references without a payout). */
export function duplicatesAndLosses(emulator: EmulatorHandle, references: string[]): { duplicates: number; losses: number } {
	const counts = payoutsByReference(emulator);
	let duplicates = 0;
	let losses = 0;
	for (const reference of references) {
		const count = counts.get(reference) ?? 0;
		if (count === 0) losses += 1;
		else duplicates += count - 1;
	}
	return { duplicates, losses };
}

/** Exactly one output item per input, paired with it, for the reference of that input. */
export function itemsPerInput(output: INodeExecutionData[], inputs: number): number[] {
	const perInput = new Array<number>(inputs).fill(0);
	for (const item of output) {
		const paired = item.pairedItem as { item: number };
		perInput[paired.item] += 1;
	}
	return perInput;
}

/**
 * Every place a secret could hide in an error or output: own properties (enumerable or not,
 * `cause`, `errorResponse`, `context`, `stack`...) walked recursively, its JSON (n8n stores
 * `toJSON()`), and a full `util.inspect` with hidden properties.
 */
export function secretLeaks(value: unknown, secrets: string[]): string[] {
	const leaks: string[] = [];
	const seen = new Set<unknown>();
	const visit = (current: unknown, path: string): void => {
		if (typeof current === 'string') {
			for (const secret of secrets) if (current.includes(secret)) leaks.push(`${path} contains ${secret.slice(0, 6)}…`);
			return;
		}
		if (typeof current !== 'object' || current === null || seen.has(current)) return;
		seen.add(current);
		for (const key of Reflect.ownKeys(current)) {
			const descriptor = Object.getOwnPropertyDescriptor(current, key);
			if (descriptor && 'value' in descriptor) visit(descriptor.value, `${path}.${String(key)}`);
		}
	};
	visit(value, 'value');
	let json = '';
	try {
		json = JSON.stringify(value) ?? '';
	} catch {
		json = '';
	}
	const inspected = inspect(value, { depth: 20, showHidden: true });
	for (const secret of secrets) {
		if (json.includes(secret)) leaks.push(`JSON contains ${secret.slice(0, 6)}…`);
		if (inspected.includes(secret)) leaks.push(`inspect() contains ${secret.slice(0, 6)}…`);
	}
	return leaks;
}

/** A markdown table from rows of cells. */
export function markdownTable(header: string[], rows: Array<Array<string | number>>): string {
	const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
	return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
