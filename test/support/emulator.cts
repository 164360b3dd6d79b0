/**
 * The one way a test file gets an emulator: started before its tests, closed after them.
 * `const emulator = useEmulator({ seed: { payouts: 2 } });` at the top level of a file (or a
 * describe block) gives a handle that forwards to the running emulator; `useEmulator({}, { each:
 * true })`, a new one for every test.
 */
import { startEmulator } from '../../emulator/index.cjs';
import type { EmulatorHandle, EmulatorOptions } from '../../emulator/types.cjs';

export function useEmulator(options: EmulatorOptions = {}, { each = false }: { each?: boolean } = {}): EmulatorHandle {
	let handle: EmulatorHandle | undefined;
	// `each`: a new emulator for every test, so a new Paycashless account for the node's payouts in
	// flight (a process-wide ledger per account): payouts an earlier test made and a reset took away
	// would otherwise count for an hour, as a payout Paycashless does not list yet does.
	(each ? beforeEach : beforeAll)(async () => {
		handle = await startEmulator(options);
	});
	(each ? afterEach : afterAll)(async () => {
		await handle?.close();
		handle = undefined;
	});
	const current = (): EmulatorHandle => {
		if (!handle) throw new Error('The emulator runs only inside tests and hooks of the block that called useEmulator');
		return handle;
	};
	return new Proxy({} as EmulatorHandle, {
		get: (_target, key) => {
			const running = current();
			const value: unknown = Reflect.get(running, key, running);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(running) : value;
		},
	});
}
