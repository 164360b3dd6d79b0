/**
 * Signed callback delivery with retries, like the service: `POST callbackUrl` with
 * `{"event": NAME, "data": {...}}`, `Request-Signature` = callbackSignature over the callback URL,
 * `JSON.stringify(data)` (insertion order, not sorted) and `Request-Timestamp`.
 * Any 2xx acknowledges; otherwise up to `retries` more attempts, `delayMs` apart. Each retry
 * gets a fresh timestamp and is signed again (the body stays byte-identical).
 * Events for one URL start in the order they were sent: an event's first attempt waits for the
 * previous event's first attempt (retries run independently and never hold later events up).
 */
import * as http from 'http';
import * as https from 'https';

import { callbackSignature, SIGNATURE_HEADER, TIMESTAMP_HEADER, unixTimestamp } from '../lib/signing';
import type { CallbackAttempt } from './types.cjs';

export interface CallbackOptions {
	secret: string;
	retries: number;
	delayMs: number;
	now: () => number;
	/** Attempts are appended here. */
	log: CallbackAttempt[];
	/** Per-attempt time limit, ms. */
	timeoutMs?: number;
}

export class CallbackDispatcher {
	private readonly pending = new Set<Promise<void>>();
	private readonly timers = new Map<NodeJS.Timeout, () => void>();
	private readonly inFlight = new Set<http.ClientRequest>();
	/** Per URL: resolves when the latest event's first attempt is over. */
	private readonly firstAttempts = new Map<string, Promise<void>>();
	/** Bumped by `cancelAll`: deliveries of an older generation stop. */
	private generation = 0;
	private deliveries = 0;

	constructor(private readonly options: CallbackOptions) {}

	/** Schedules delivery of one event (nothing when there is no callback URL). */
	send(url: string | null | undefined, event: string, data: unknown): void {
		if (!url) return;
		this.deliveries += 1;
		const deliveryId = `dlv_${String(this.deliveries).padStart(6, '0')}`;
		const dataJson = JSON.stringify(data);
		const delivery = this.deliver(url, event, dataJson, deliveryId, this.generation);
		this.pending.add(delivery);
		void delivery.finally(() => this.pending.delete(delivery));
	}

	/** Resolves when every delivery scheduled so far (and any scheduled meanwhile) is done. */
	async settled(): Promise<void> {
		while (this.pending.size > 0) await Promise.all([...this.pending]);
	}

	/** Resolves when the first attempt of every delivery scheduled so far is over (retries may follow). */
	async firstAttemptsDone(): Promise<void> {
		while (this.firstAttempts.size > 0) await Promise.all([...this.firstAttempts.values()]);
	}

	/** Stops every delivery: pending retries are dropped, requests in flight aborted. */
	cancelAll(): void {
		this.generation += 1;
		for (const [timer, resolve] of this.timers) {
			clearTimeout(timer);
			resolve();
		}
		this.timers.clear();
		for (const request of this.inFlight) request.destroy();
		this.inFlight.clear();
	}

	private async deliver(url: string, event: string, dataJson: string, deliveryId: string, generation: number): Promise<void> {
		const body = `{"event":${JSON.stringify(event)},"data":${dataJson}}`;
		const previous = this.firstAttempts.get(url);
		let releaseNext = () => {};
		const turn = new Promise<void>((resolve) => {
			releaseNext = () => {
				if (this.firstAttempts.get(url) === turn) this.firstAttempts.delete(url);
				resolve();
			};
		});
		this.firstAttempts.set(url, turn);
		try {
			if (previous) await previous;
			await this.attempts(url, event, body, dataJson, deliveryId, generation, releaseNext);
		} finally {
			releaseNext();
		}
	}

	private async attempts(
		url: string,
		event: string,
		body: string,
		dataJson: string,
		deliveryId: string,
		generation: number,
		firstAttemptDone: () => void,
	): Promise<void> {
		const { secret, retries, delayMs, now, log } = this.options;
		for (let attempt = 1; attempt <= retries + 1; attempt++) {
			if (generation !== this.generation) return;
			const timestamp = unixTimestamp(now());
			const headers: Record<string, string> = {
				'Content-Type': 'application/json',
				[SIGNATURE_HEADER]: callbackSignature({ secret, callbackUrl: url, dataJson, timestamp }),
				[TIMESTAMP_HEADER]: timestamp,
				'User-Agent': 'paycashless-emulator',
			};
			const status = await this.post(url, headers, body);
			if (generation !== this.generation) return;
			log.push({ deliveryId, url, event, attempt, headers, body, status });
			firstAttemptDone();
			if (status >= 200 && status < 300) return;
			if (attempt <= retries) await this.wait(delayMs);
		}
	}

	private wait(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.set(timer, resolve);
		});
	}

	/** One POST; resolves with the status code, or 0 when the request failed or timed out. */
	private post(url: string, headers: Record<string, string>, body: string): Promise<number> {
		return new Promise((resolve) => {
			let target: URL;
			try {
				target = new URL(url);
			} catch {
				resolve(0);
				return;
			}
			const client = target.protocol === 'https:' ? https : http;
			const request = client.request(
				target,
				{
					method: 'POST',
					agent: false,
					headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
					timeout: this.options.timeoutMs ?? 10_000,
				},
				(response) => {
					response.resume();
					resolve(response.statusCode ?? 0);
				},
			);
			this.inFlight.add(request);
			request.on('close', () => {
				this.inFlight.delete(request);
				resolve(0);
			});
			request.on('timeout', () => request.destroy());
			request.on('error', () => resolve(0));
			request.end(body);
		});
	}
}
