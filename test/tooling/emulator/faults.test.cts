/** Fault injection: latency, 5xx, 429 with Retry-After, drop after commit, slow answers; match, maxFaults, determinism. */
import { call, control, payoutBody } from '../../support/emulatorClient.cjs';
import { useEmulator } from '../../support/emulator.cjs';

describe('fault injection', () => {
	const emulator = useEmulator();
	beforeEach(() => {
		emulator.clearFaults();
		emulator.clearLogs();
	});

	const created = (reference: string) => emulator.list('payouts').filter((p) => p.reference === reference).length;

	it('latency delays the answer and is recorded', async () => {
		emulator.setFaults({ latencyMs: 150 });
		const started = Date.now();
		const answer = await call(emulator, 'GET', '/v1/payouts');
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		expect(answer.status).toBe(200);
		expect(emulator.requests[0]).toMatchObject({ status: 200, fault: 'latency' });
	});

	it('5xx answers before doing anything', async () => {
		emulator.setFaults({ error5xxRate: 1 });
		const answer = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('f-5xx') });
		expect([500, 502, 503]).toContain(answer.status);
		expect(answer.body.error.type).toBe('api_error');
		expect(created('f-5xx')).toBe(0);
		expect(emulator.requests[0]).toMatchObject({ status: answer.status, fault: 'error5xx' });
	});

	it('429 carries Retry-After and commits nothing', async () => {
		emulator.setFaults({ rateLimitRate: 1, retryAfterSeconds: 3 });
		const answer = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('f-429') });
		expect(answer.status).toBe(429);
		expect(answer.headers.get('retry-after')).toBe('3');
		expect(created('f-429')).toBe(0);
		expect(emulator.requests[0]).toMatchObject({ status: 429, fault: 'rateLimit' });
	});

	it('dropAfterCommit really commits, then cuts the connection without an answer', async () => {
		emulator.setFaults({ dropAfterCommitRate: 1 });
		await expect(call(emulator, 'POST', '/v1/payouts', { body: payoutBody('f-drop') })).rejects.toThrow();
		expect(emulator.requests[0]).toMatchObject({ status: 0, fault: 'dropAfterCommit', path: '/v1/payouts' });
		emulator.clearFaults();
		expect(created('f-drop')).toBe(1);
		const verified = await call(emulator, 'GET', '/v1/payouts/verify/f-drop');
		expect(verified.body).toMatchObject({ reference: 'f-drop', status: 'pending' });
		// A blind retry of the same payout is refused instead of paying twice.
		expect((await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('f-drop') })).status).toBe(409);
	});

	it('slow answers come late and still commit, even when the client gave up waiting', async () => {
		emulator.setFaults({ slowRate: 1, slowMs: 300 });
		const gaveUp = fetch(`${emulator.baseUrl}/v1/payouts`, { signal: AbortSignal.timeout(50) });
		await expect(gaveUp).rejects.toThrow();
		const started = Date.now();
		const answer = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('f-slow') });
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(answer.status).toBe(202);
		expect(created('f-slow')).toBe(1);
		expect(emulator.requests.map((request) => request.fault)).toEqual(['slow', 'slow']);
		expect(() => emulator.setFaults({ slowRate: 0.6, error5xxRate: 0.6 })).toThrow(/add up to 1/);
	});

	it('a payout whose client timed out is created once the slow answer is due', async () => {
		emulator.setFaults({ slowRate: 1, slowMs: 200 });
		const timedOut = call(emulator, 'POST', '/v1/payouts', { body: payoutBody('f-slow-timeout'), signal: AbortSignal.timeout(30) });
		await expect(timedOut).rejects.toThrow();
		expect(created('f-slow-timeout')).toBe(0);
		await new Promise((resolve) => setTimeout(resolve, 350));
		expect(created('f-slow-timeout')).toBe(1);
	});

	it('match limits faults to matching "METHOD /path"; control routes are never faulted', async () => {
		emulator.setFaults({ error5xxRate: 1, match: '^POST /v1/payouts$' });
		expect((await call(emulator, 'GET', '/v1/payouts')).status).toBe(200);
		expect((await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('f-match') })).status).toBeGreaterThanOrEqual(500);
		expect((await control(emulator, 'GET', '/__emulator/health')).status).toBe(200);
		emulator.setFaults({ error5xxRate: 1 });
		expect((await control(emulator, 'GET', '/__emulator/health')).status).toBe(200);
	});

	it('maxFaults stops after that many faulted requests', async () => {
		emulator.setFaults({ rateLimitRate: 1, maxFaults: 2 });
		const statuses: number[] = [];
		for (let i = 0; i < 4; i++) statuses.push((await call(emulator, 'GET', '/v1/payouts')).status);
		expect(statuses).toEqual([429, 429, 200, 200]);
	});

	it('is deterministic for a seed, and mixes kinds by their rates', async () => {
		const run = async (seed: number) => {
			emulator.setFaults({ seed, error5xxRate: 0.3, rateLimitRate: 0.3 });
			const out: number[] = [];
			for (let i = 0; i < 30; i++) out.push((await call(emulator, 'GET', '/v1/payouts')).status);
			return out;
		};
		const first = await run(42);
		expect(await run(42)).toEqual(first);
		expect(first).toContain(200);
		expect(first).toContain(429);
		expect(first.some((s) => s >= 500)).toBe(true);
		expect(await run(43)).not.toEqual(first);
	});

	it('refuses rates outside 0..1 and bad patterns, keeping the old config', async () => {
		emulator.setFaults({ rateLimitRate: 1 });
		expect(() => emulator.setFaults({ error5xxRate: 1.5 })).toThrow(/0 to 1/);
		expect(() => emulator.setFaults({ match: '[' })).toThrow();
		expect(() => emulator.setFaults({ latencyMs: -1 })).toThrow(/latency/);
		expect((await call(emulator, 'GET', '/v1/payouts')).status).toBe(429);
	});
});
