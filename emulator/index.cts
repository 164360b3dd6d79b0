/**
 * The local Paycashless emulator: `startEmulator(options)` starts it and returns its handle.
 * See emulator/README.md.
 */
import { Emulator } from './server.cjs';
import type { EmulatorHandle, EmulatorOptions } from './types.cjs';

export type * from './types.cjs';

export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
	return new Emulator(options).start();
}
