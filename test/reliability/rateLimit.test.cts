/**
 * 429 storms: the node waits what `Retry-After` says between attempts (checked on the emulator's
 * request log, whose `Request-Timestamp` headers are Unix seconds, and on the send times recorded
 * by the harness), ends with a clear error naming the status when the attempts run out, and stops
 * at once when asked to wait longer than Max Retry Wait. A 429 on a create changed nothing: the
 * create is sent again, with no lookup needed.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { FAST, payoutItem, run, runAndCatch } from '../support/reliability.cjs';
import { useEmulator } from '../support/emulator.cjs';

const emulator = useEmulator();
beforeEach(() => {
	emulator.reset({ payouts: 3 });
	emulator.clearFaults();
});

const verify = (reference: string, requestOptions: INodeParameters = FAST): INodeParameters => ({
	resource: 'payout',
	operation: 'verify',
	reference,
	requestOptions,
});

function gapsMs(times: number[]): number[] {
	return times.slice(1).map((time, index) => time - times[index]);
}

function stampGaps(): number[] {
	return gapsMs(emulator.requests.map((request) => Number(request.headers['request-timestamp'])));
}

describe('a 429 storm', () => {
	it('honours Retry-After between attempts, then ends with an error naming HTTP 429', async () => {
		const reference = emulator.list('payouts')[0].reference as string;
		emulator.setFaults({ rateLimitRate: 1, retryAfterSeconds: 1 });
		const error = await runAndCatch(emulator, verify(reference, { ...FAST, maxAttempts: 3, retryDelay: 1 }));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(emulator.requests).toHaveLength(3);
		expect(emulator.requests.every((request) => request.status === 429 && request.fault === 'rateLimit')).toBe(true);
		// Seconds on the server's side: each attempt at least one second after the one before.
		for (const gap of stampGaps()) expect(gap).toBeGreaterThanOrEqual(1);
		expect((error as NodeApiError).httpCode).toBe('429');
		expect(error.message).toMatch(/HTTP 429\)$/);
		expect((error as NodeApiError).description).toContain('after 3 attempts');
		expect((error as NodeApiError).context.paycashless).toMatchObject({ attempts: 3, code: 'rate_limit_exceeded' });
	});

	it('waits Retry-After (not the shorter backoff) and succeeds when the storm ends', async () => {
		const reference = emulator.list('payouts')[0].reference as string;
		emulator.setFaults({ rateLimitRate: 1, retryAfterSeconds: 1, maxFaults: 2 });
		const { output, sent } = await run(emulator, verify(reference, { ...FAST, retryDelay: 1 }));
		expect(output).toHaveLength(1);
		expect(output[0].json.reference).toBe(reference);
		expect(emulator.requests.map((request) => request.status)).toEqual([429, 429, 200]);
		for (const gap of gapsMs(sent.map((request) => request.at))) expect(gap).toBeGreaterThanOrEqual(990);
		for (const gap of stampGaps()) expect(gap).toBeGreaterThanOrEqual(1);
	});

	it('honours a Retry-After given in decimal seconds (0.2 s)', async () => {
		const reference = emulator.list('payouts')[0].reference as string;
		emulator.setFaults({ rateLimitRate: 1, retryAfterSeconds: 0.2, maxFaults: 2 });
		const { sent } = await run(emulator, verify(reference, { ...FAST, retryDelay: 1 }));
		expect(emulator.requests.map((request) => request.status)).toEqual([429, 429, 200]);
		for (const gap of gapsMs(sent.map((request) => request.at))) expect(gap).toBeGreaterThanOrEqual(195);
	});

	it('stops at once when Retry-After is longer than Max Retry Wait', async () => {
		const reference = emulator.list('payouts')[0].reference as string;
		emulator.setFaults({ rateLimitRate: 1, retryAfterSeconds: 120 });
		const error = (await runAndCatch(emulator, verify(reference, { ...FAST, maxRetryWait: 60000 }))) as NodeApiError;
		expect(emulator.requests).toHaveLength(1);
		expect(error.httpCode).toBe('429');
		expect(error.description).toContain('asked to wait 120 s');
		expect(error.description).toContain('Max Retry Wait (60 s)');
	});

	it('a 429 on a payout create is sent again after Retry-After, without a lookup, and pays once', async () => {
		emulator.setFaults({ rateLimitRate: 1, retryAfterSeconds: 0.05, maxFaults: 2, match: '^POST ' });
		const { output } = await run(emulator, payoutItem('rate-limited-create'));
		// Then one read of the payout for the output (the create answers with id, status and reference only).
		expect(emulator.requests.map((request) => `${request.method} ${request.status}`)).toEqual(['POST 429', 'POST 429', 'POST 202', 'GET 200']);
		expect(output[0].json).toMatchObject({
			id: expect.stringMatching(/^po_/),
			status: 'pending',
			reference: 'rate-limited-create',
			_paycashless: { reconciled: false, repeated: false },
		});
		expect(emulator.list('payouts').filter((payout) => payout.reference === 'rate-limited-create')).toHaveLength(1);
	});

	it('a create still rate limited after Max Attempts fails naming HTTP 429 and creates nothing', async () => {
		emulator.setFaults({ rateLimitRate: 1, retryAfterSeconds: 0.01, match: '^POST ' });
		const error = (await runAndCatch(emulator, payoutItem('storm-create', { ...FAST, maxAttempts: 4 }))) as NodeApiError;
		expect(emulator.requests).toHaveLength(4);
		expect(error.httpCode).toBe('429');
		expect(error.message).toContain('HTTP 429');
		expect(emulator.list('payouts').filter((payout) => payout.reference === 'storm-create')).toHaveLength(0);
	});
});
