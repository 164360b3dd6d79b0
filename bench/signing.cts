/**
 * Benchmark 4: the cost of signing one request with the credential's `signPaycashlessRequest`
 * (what n8n runs for every request of the node and of the HTTP Request node) against the bare
 * cost of the HMAC-SHA512 computations the signature needs, over the same bytes (the canonical
 * body precomputed). Runs in this process; no n8n involved.
 */
import { createHmac } from 'crypto';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { signPaycashlessRequest } from '../credentials/PaycashlessApi.credentials';
import { canonicalJson, signingPath, unixTimestamp } from '../lib/signing';
import { rounds } from './runner.cjs';

export interface SigningCase {
	name: string;
	/** Bytes of the signed body (0: none). */
	bodyBytes: number;
	/** HMAC-SHA512 computations per signature. */
	hmacs: number;
	iterations: number;
	runs: number;
	/** Microseconds per signature, in round order. */
	samples: { sign: number[]; bare: number[] };
}

const SECRET = 'sk_test_bench_secret_0123456789abcdef';
const CREDENTIALS = { apiKey: 'pk_test_bench', apiSecret: SECRET, bodilessSigning: 'documented' as const };
const BASE = 'https://api.paycashless.com';

function payoutBody(): Record<string, unknown> {
	return {
		reference: 'payout-2024-000123',
		amount: 2500000,
		currency: 'NGN',
		narration: 'Vendor payment March',
		destination: { accountNumber: '0123456789', bankId: 'bnk_058' },
		metadata: { batch: 'march', vendor: 'ACME Ltd' },
	};
}

function invoiceBody(items: number): Record<string, unknown> {
	return {
		reference: 'inv-2024-000456',
		currency: 'NGN',
		description: 'Monthly supplies',
		customer: { email: 'ada@example.com', name: 'Ada Obi', phoneNumber: '+2348012345678' },
		daysUntilDue: 14,
		taxRateIds: ['txr_123'],
		items: Array.from({ length: items }, (_, i) => ({
			name: `Item ${i + 1}`,
			description: `Supply line ${i + 1}, delivered to the Lagos office`,
			quantity: (i % 5) + 1,
			price: 150050 + i * 25,
		})),
	};
}

interface Case {
	name: string;
	request: IHttpRequestOptions;
}

const CASES: Case[] = [
	{ name: 'GET without body (payout verify)', request: { method: 'GET', url: `${BASE}/v1/payouts/verify/payout-2024-000123` } },
	{ name: 'small body (payout create)', request: { method: 'POST', url: `${BASE}/v1/payouts`, body: payoutBody() } },
	{ name: 'invoice with 100 items', request: { method: 'POST', url: `${BASE}/v1/invoices`, body: invoiceBody(100) } },
];

let sink = 0;

function timePerCall(iterations: number, fn: () => string | IHttpRequestOptions): number {
	const started = process.hrtime.bigint();
	for (let i = 0; i < iterations; i++) {
		const out = fn();
		sink += typeof out === 'string' ? out.length : 1;
	}
	return Number(process.hrtime.bigint() - started) / 1000 / iterations;
}

export function signingBench(options: { runs: number; targetMsPerRun: number }): Promise<SigningCase[]> {
	return (async () => {
		const results: SigningCase[] = [];
		for (const { name, request } of CASES) {
			const bodyText = request.body === undefined ? undefined : canonicalJson(request.body);
			const path = signingPath(String(request.url));
			const timestamp = unixTimestamp(Date.now());
			const sign = () => signPaycashlessRequest(CREDENTIALS, { ...request, headers: {} }, Date.now());
			const bare = () => {
				const bodyHash = bodyText === undefined ? '' : createHmac('sha512', SECRET).update(bodyText).digest('hex');
				return createHmac('sha512', SECRET).update(path + bodyHash + timestamp).digest('hex');
			};
			// Warm up, then size the batches so one takes about targetMsPerRun.
			for (let i = 0; i < 2000; i++) {
				sign();
				bare();
			}
			const perCall = timePerCall(500, sign);
			const iterations = Math.max(200, Math.round((options.targetMsPerRun * 1000) / perCall));
			const samples = await rounds(['sign', 'bare'] as const, options.runs, async (variant) => timePerCall(iterations, variant === 'sign' ? sign : bare));
			results.push({ name, bodyBytes: bodyText ? Buffer.byteLength(bodyText) : 0, hmacs: bodyText === undefined ? 1 : 2, iterations, runs: options.runs, samples });
		}
		if (sink < 0) throw new Error('unreachable');
		return results;
	})();
}
