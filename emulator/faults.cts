/**
 * Fault injection for reliability tests: added latency, 5xx answers, 429 with Retry-After,
 * "drop after commit" (the request is fully processed, then the connection is cut with no
 * answer) and slow answers (a share of requests answered late, processed normally). Which
 * requests get a fault is decided by a PRNG seeded from the config, so a run can be repeated
 * exactly.
 */
import { mulberry32, pick, type Rng } from './prng.cjs';
import type { FaultConfig, RecordedRequest } from './types.cjs';

type FaultKind = NonNullable<RecordedRequest['fault']>;

export interface FaultDecision {
	latencyMs: number;
	/** The fault that replaces or ends the answer, if any. */
	kind?: Exclude<FaultKind, 'latency'>;
	/** Status of a 5xx fault. */
	status?: number;
	retryAfterSeconds?: number;
}

function rate(name: string, value: number | undefined): number {
	if (value === undefined) return 0;
	if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw new Error(`Fault ${name} must be a number from 0 to 1.`);
	return value;
}

export class FaultInjector {
	private config: FaultConfig | null = null;
	private matcher: RegExp | null = null;
	private rng: Rng = mulberry32(1);
	private applied = 0;

	get current(): FaultConfig | null {
		return this.config;
	}

	/** Replaces the configuration (throws on a bad one, leaving the old one in force). */
	set(config: FaultConfig): void {
		const shares =
			rate('error5xxRate', config.error5xxRate) +
			rate('rateLimitRate', config.rateLimitRate) +
			rate('dropAfterCommitRate', config.dropAfterCommitRate) +
			rate('slowRate', config.slowRate);
		if (shares > 1 + 1e-9) throw new Error('Fault rates must add up to 1 at most.');
		for (const name of ['latencyMs', 'slowMs'] as const) {
			const value = config[name];
			if (value !== undefined && !(Number.isFinite(value) && value >= 0)) throw new Error(`Fault ${name} must be a number of milliseconds >= 0.`);
		}
		const matcher = config.match ? new RegExp(config.match) : null;
		this.config = { ...config };
		this.matcher = matcher;
		this.rng = mulberry32(config.seed ?? 1);
		this.applied = 0;
	}

	clear(): void {
		this.config = null;
		this.matcher = null;
		this.applied = 0;
	}

	/** What to do with one `/v1` request (`null`: nothing). */
	decide(method: string, path: string): FaultDecision | null {
		const config = this.config;
		if (!config) return null;
		if (this.matcher && !this.matcher.test(`${method} ${path}`)) return null;
		if (config.maxFaults !== undefined && this.applied >= config.maxFaults) return null;
		const error5xx = config.error5xxRate ?? 0;
		const rateLimit = config.rateLimitRate ?? 0;
		const drop = config.dropAfterCommitRate ?? 0;
		const slow = config.slowRate ?? 0;
		const roll = this.rng();
		const decision: FaultDecision = { latencyMs: config.latencyMs ?? 0 };
		if (roll < error5xx) {
			decision.kind = 'error5xx';
			decision.status = pick(this.rng, [500, 502, 503]);
		} else if (roll < error5xx + rateLimit) {
			decision.kind = 'rateLimit';
			decision.retryAfterSeconds = config.retryAfterSeconds ?? 1;
		} else if (roll < error5xx + rateLimit + drop) {
			decision.kind = 'dropAfterCommit';
		} else if (roll < error5xx + rateLimit + drop + slow) {
			decision.kind = 'slow';
			decision.latencyMs += config.slowMs ?? 1000;
		}
		if (!decision.kind && decision.latencyMs <= 0) return null;
		this.applied += 1;
		return decision;
	}
}
