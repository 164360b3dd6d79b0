/**
 * The local Paycashless emulator: `startEmulator(options)` starts it and returns its handle.
 * See emulator/README.md.
 */
import { Emulator } from './server';
import type { EmulatorHandle, EmulatorOptions } from './types';

export type * from './types';
export { DEFAULT_API_KEY, DEFAULT_API_SECRET } from './server';

export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
	return new Emulator(options).start();
}
