/**
 * The one rule for every deadline of the lab and of the end-to-end and browser tests (test/README.md,
 * "Waits on a busy machine"): a wait gives a step SLOWDOWN times what the step takes alone on a quiet
 * machine, written `patience(quietMs)` where the deadline is set, and a test's jest timeout is set
 * the same way from the quiet time of the whole test, so that it outlasts the waits inside it.
 *
 * Why 10: a 2-core machine at load 12 gives each process about a sixth of a core, and a step runs 6
 * to 8 times slower than alone (issue 41: the editor's trigger panel took over 60 s where it takes
 * 4 s on a quiet machine). A wait that cannot succeed still fails, after its deadline, saying what
 * it waited for, what it saw and how busy the machine was (`waitedNote`). Time that a clock sets and
 * load does not stretch (a wait's time limit, n8n's once-a-minute check for due waits) is added as it
 * is, unscaled; a test that checks that nothing happens lets time pass with `settle`.
 *
 * `PAYCASHLESS_SLOWDOWN=<n>` sets another factor: 1 shows which deadline is tight on a quiet machine,
 * 20 holds on a machine busier still.
 */
import * as os from 'os';

function slowdown(value: string | undefined): number {
	const factor = Number(value);
	return Number.isFinite(factor) && factor >= 1 ? factor : 10;
}

/** How many times slower than a quiet machine every wait lets a step be. */
export const SLOWDOWN = slowdown(process.env.PAYCASHLESS_SLOWDOWN);

/** The deadline of a step that takes `quietMs` alone on a quiet machine. */
export function patience(quietMs: number): number {
	return Math.round(quietMs * SLOWDOWN);
}

/** The machine's load per core now (the 1-minute load average over the cores), at least 1. */
function loadPerCore(): number {
	return Math.max(1, os.loadavg()[0] / Math.max(1, os.cpus().length));
}

/**
 * A deadline that a test sets inside the package (a request timeout of the node run in the test
 * process, against an emulator in that same process): `quietMs`, times the machine's present load
 * per core (at most SLOWDOWN times). Where every request of the run shares one busy process, a
 * deadline of `patience` would make the run itself ten times longer on a quiet machine.
 */
export function underLoad(quietMs: number): number {
	return Math.round(quietMs * Math.min(SLOWDOWN, loadPerCore()));
}

/**
 * Lets time pass where a test checks that something does not happen (no execution started, no field
 * marked): `quietMs`, times the machine's present load per core (at most SLOWDOWN times). Never to
 * wait for something to happen: wait for that condition with a deadline.
 */
export function settle(quietMs: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, underLoad(quietMs)));
}

/** For a failed wait's message: how long it waited, and the machine's load then. */
export function waitedNote(startedMs: number): string {
	const [one] = os.loadavg();
	return `after ${Math.round((Date.now() - startedMs) / 100) / 10} s (load ${one.toFixed(1)} on ${os.cpus().length} cores; deadlines are ${SLOWDOWN} × the quiet-machine time)`;
}

/**
 * Polls `probe` until it gives a value (not undefined), or fails after `timeoutMs`: a deadline by
 * this file's rule, `patience(<what the step takes alone>)`; the default fits a step
 * of n8n's that takes up to 5 s alone (an execution to finish, a webhook to register). The probe
 * may say what it saw each time (`saw(...)`): the failure's message gives the last of it, with how
 * long it waited and the machine's load.
 */
export async function waitFor<T>(
	what: string,
	probe: (saw: (seen: unknown) => void) => Promise<T | undefined> | T | undefined,
	timeoutMs = patience(5_000),
	intervalMs = 250,
): Promise<T> {
	const started = Date.now();
	let seen: string | undefined;
	const saw = (value: unknown) => {
		seen = typeof value === 'string' ? value : JSON.stringify(value);
	};
	for (;;) {
		const value = await probe(saw);
		if (value !== undefined) return value;
		if (Date.now() - started > timeoutMs) {
			throw new Error(`timed out waiting for ${what}, ${waitedNote(started)}${seen === undefined ? '' : `; last seen: ${seen.slice(0, 1_000)}`}`);
		}
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

/** Whether an n8n execution has ended (any status but new, running or waiting). */
export function hasEnded(execution: { status: string } | undefined): boolean {
	return execution !== undefined && !['new', 'running', 'waiting'].includes(execution.status);
}

/** Waits until the execution `read` returns has ended, and returns it. */
export async function untilEnded<T extends { status: string }>(what: string, read: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
	return await waitFor(
		`${what} to end`,
		async (saw) => {
			const found = await read();
			saw(found?.status ?? 'not listed');
			return hasEnded(found) ? found : undefined;
		},
		timeoutMs,
	);
}
