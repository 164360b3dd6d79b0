/**
 * jest's global teardown (jest.config.js): stops the run's shared services (test/support/setup/sharedRun.cts)
 * and the n8n processes they started, and waits until they are gone.
 */
import type { ChildProcess } from 'child_process';

async function globalTeardown(): Promise<void> {
	const child = (globalThis as { paycashlessSharedRun?: ChildProcess }).paycashlessSharedRun;
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	child.kill('SIGTERM');
	// n8n gets 15 s to shut down (lab.stopProcessGroup); then the services are killed outright.
	const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
	await exited;
	clearTimeout(timer);
}

export = globalTeardown;
