/**
 * What the unit tests of the node share when they run it in the fake contexts
 * (scripts/harness/executeContext.cts): a Payout → Create's parameters, and the error a refused run
 * throws.
 */
import type { INodeParameters } from 'n8n-workflow';

import { ACCESS_BANK } from './reliability.cjs';

/** The emulator's account that Look Up names (Access Bank). */
export const ACCOUNT = '0123456789';

/** Payout → Create of `amount` naira to the emulator's account at Access Bank, under `moneyLimits`. */
export function payoutCreate(reference: string, amount: number, moneyLimits: INodeParameters = {}, extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'payout',
		operation: 'create',
		reference,
		amount,
		currency: 'NGN',
		destinationAccountNumber: ACCOUNT,
		bankId: ACCESS_BANK,
		moneyLimits,
		...extra,
	};
}

/** The error a run that must be refused throws (the test fails when it does not throw one). */
export async function refusal(promise: Promise<unknown>): Promise<Error & { description?: string }> {
	let thrown: unknown;
	try {
		await promise;
	} catch (error) {
		thrown = error;
	}
	expect(thrown).toBeInstanceOf(Error);
	return thrown as Error & { description?: string };
}
