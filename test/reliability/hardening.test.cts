/**
 * What the hardening review broke in the action node, against the
 * emulator, at the node's default Request Options unless a test says otherwise:
 * - Return All survives 20% failing page requests (it failed after 117 requests with 3 attempts);
 * - a payout batch re-run under sustained faults finishes (lookups are retried like reads);
 * - a run that stops names what it already paid;
 * - the reference looked up after a dropped answer is the one sent, even when Additional Body
 *   Fields (JSON) replaced the form's.
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import type { NodeOperationError } from 'n8n-workflow';

import { useEmulator } from '../support/emulator.cjs';
import { DEFAULT_WRITE_CONCURRENCY } from '../../nodes/Paycashless/actions/fields/concurrency';
import { faultCounts, payoutItem, run, runAndCatch } from '../support/reliability.cjs';

jest.setTimeout(300_000);

const emulator = useEmulator();
beforeEach(() => {
	emulator.reset({ payouts: 0 });
	emulator.clearFaults();
});

/** The node's default Request Options, untouched. */
const DEFAULTS = {};

it('Return All over 20,000 payouts with 20% of page requests failing: every record once, at the default attempts and retry time', async () => {
	emulator.reset({ payouts: 20_000 });
	emulator.setFaults({ match: '^GET /v1/payouts$', error5xxRate: 0.1, dropAfterCommitRate: 0.05, rateLimitRate: 0.05, retryAfterSeconds: 0.01, seed: 20 });
	const { output } = await run(emulator, { resource: 'payout', operation: 'getAll', returnAll: true, requestOptions: DEFAULTS });
	const faults = faultCounts(emulator.requests);
	const ids = output.map((item) => item.json.id as string);
	 
	console.log(`Return All at default settings: ${emulator.requests.length} page requests, ${faults.error5xx} 5xx, ${faults.rateLimit} 429, ${faults.dropAfterCommit} dropped; ${ids.length} records, ${new Set(ids).size} distinct`);
	expect(faults.error5xx + faults.dropAfterCommit + faults.rateLimit).toBeGreaterThan(20);
	expect(ids).toHaveLength(20_000);
	expect(new Set(ids).size).toBe(20_000);
});

it('300 payouts at the default Requests in Parallel, 10% 5xx and 10% dropped answers, half paid before: the re-run finishes with 300 payouts, none twice', async () => {
	const items = Array.from({ length: 300 }, (_, i) => payoutItem(`batch-${i}`, DEFAULTS));
	// A first run that stopped half-way (as n8n killed mid-batch leaves it).
	await run(emulator, items.slice(0, 150));
	emulator.setFaults({ error5xxRate: 0.1, dropAfterCommitRate: 0.1, seed: 300 });
	const { output } = await run(emulator, items);
	const references = emulator.list('payouts').map((payout) => payout.reference as string);
	expect(new Set(references).size).toBe(300);
	expect(references).toHaveLength(300);
	expect(output.map((item) => item.json.reference)).toEqual(items.map((_, i) => `batch-${i}`));
	const faults = faultCounts(emulator.requests);
	 
	console.log(`Payout batch re-run at default settings: ${emulator.requests.length} requests, ${faults.error5xx} 5xx, ${faults.dropAfterCommit} dropped; ${new Set(references).size} payouts, ${references.length - new Set(references).size} duplicates, ${output.length} items`);
	expect(faults.error5xx + faults.dropAfterCommit).toBeGreaterThan(30);
});

it('a run that stops names every payout it already made, by item, reference and id', async () => {
	const items = [payoutItem('paid-1'), payoutItem('paid-2'), payoutItem('paid-3'), { ...payoutItem('never'), bankId: 'not-a-bank' }, payoutItem('after')];
	const error = (await runAndCatch(emulator, items)) as NodeOperationError;
	const made = emulator.list('payouts');
	// All five are in flight at once (Requests in Parallel, default 100): the one Paycashless refuses
	// is not made; the others were under way when the refusal came, and are made and named.
	const itemOf = (reference: unknown) => items.findIndex((item) => item.reference === reference);
	expect(made.map((payout) => payout.reference).sort()).toEqual(['after', 'paid-1', 'paid-2', 'paid-3']);
	expect(error.context.itemIndex).toBe(3);
	for (const payout of made) expect(error.description).toContain(`item ${itemOf(payout.reference) + 1}: ${String(payout.reference)} / ${String(payout.id)}`);
	expect(error.description).toContain('already completed 4 items (payouts created or found again)');
	expect((error.context.paycashless as { done: unknown[] }).done).toEqual(
		[...made]
			.sort((a, b) => itemOf(a.reference) - itemOf(b.reference))
			.map((payout) => ({ item: itemOf(payout.reference), reference: payout.reference, id: payout.id, status: 'pending' })),
	);
});

it('at the default, a failure starts no new payout: only those already under way are made, and all are named', async () => {
	emulator.setFaults({ latencyMs: 30 });
	const items = Array.from({ length: DEFAULT_WRITE_CONCURRENCY + 20 }, (_, i) => payoutItem(`stop-${i}`));
	// Refused before anything is sent (an amount below zero), while the first items are in flight.
	items[3] = { ...items[3], amount: -5 };
	const error = (await runAndCatch(emulator, items)) as NodeOperationError;
	const made = emulator.list('payouts').map((payout) => String(payout.reference));
	const underWay = items.slice(0, DEFAULT_WRITE_CONCURRENCY).map((item) => String(item.reference)).filter((reference) => reference !== 'stop-3');
	expect(made.sort()).toEqual([...underWay].sort());
	expect(error.context.itemIndex).toBe(3);
	expect(error.description).toContain(`already completed ${underWay.length} items (payouts created or found again)`);
	expect((error.context.paycashless as { done: Array<{ reference: string }> }).done.map((entry) => entry.reference)).toEqual(underWay);
});

it('a stopped write without a reference (tax rates) lists what it did and says a re-run would do it again', async () => {
	const taxRate = (name: string, percentage: number) => ({ resource: 'taxRate', operation: 'create', name, percentage, taxType: 'vat' });
	const error = (await runAndCatch(emulator, [taxRate('VAT A', 7.5), taxRate('VAT B', 5), taxRate('Bad', 150)])) as NodeOperationError;
	expect(emulator.list('taxRates')).toHaveLength(2);
	expect(error.description).toContain('already completed 2 items, which are not lost');
	expect(error.description).toContain('Running the same input again would do them again: remove these items from the input first.');
	expect(error.description).not.toContain('finds them by their references');
});

it('a read that stops says nothing of items done (nothing was paid)', async () => {
	emulator.reset({ payouts: 2 });
	const [first] = emulator.list('payouts');
	const error = await runAndCatch(emulator, [
		{ resource: 'payout', operation: 'verify', reference: String(first.reference) },
		{ resource: 'payout', operation: 'verify', reference: 'no-such-reference' },
	]);
	expect((error as NodeOperationError).description ?? '').not.toContain('already completed');
});

it('the reference looked up after a dropped answer is the one sent, when Additional Body Fields replaced it', async () => {
	emulator.setFaults({ dropAfterCommitRate: 1, match: '^POST ', maxFaults: 1 });
	const item = { ...payoutItem('field-ref-1'), additionalFields: { additionalBodyJson: '{"reference":"body-ref-1"}' } };
	const { output } = await run(emulator, item);
	expect(emulator.list('payouts').map((payout) => payout.reference)).toEqual(['body-ref-1']);
	expect(output[0].json).toMatchObject({ reference: 'body-ref-1', _paycashless: { reconciled: true, reason: 'uncertainOutcome' } });
	expect(emulator.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1/payouts', 'GET /v1/payouts/verify/body-ref-1']);
	// Without a fault, the payout is read back (one output shape) by the reference sent, too.
	emulator.clearLogs();
	const again = await run(emulator, { ...payoutItem('field-ref-2'), additionalFields: { additionalBodyJson: '{"reference":"body-ref-2"}' } });
	expect(again.output[0].json).toMatchObject({ reference: 'body-ref-2', amount: 250000, _paycashless: { reconciled: false, repeated: false } });
	expect(emulator.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1/payouts', 'GET /v1/payouts/verify/body-ref-2']);
});
