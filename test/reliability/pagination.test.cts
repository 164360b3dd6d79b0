/**
 * Get Many with Return All over 5,000 records while page requests fail transiently (5xx, 429,
 * connection dropped after the page was served), each with a 10%, then a 30% probability (seeded,
 * so every run sees the same faults): the failed page is asked for again with the same cursor and
 * the list goes on; exactly 5,000 distinct records come back.
 */
import { FAST, faultCounts, markdownTable, run } from '../support/reliability.cjs';
import { useEmulator } from '../support/emulator.cjs';

const RECORDS = 5000;
const emulator = useEmulator();

const rows: Array<Array<string | number>> = [];

afterAll(() => {
	 
	console.log(
		`Reliability figures (pagination)\n\n${markdownTable(
			['Scenario', 'Records', 'Page requests', 'Failed page requests (5xx / 429 / dropped)', 'Records returned', 'Distinct', 'Duplicates', 'Losses'],
			rows,
		)}\n`,
	);
});

describe('Return All over 5,000 records with page requests failing transiently', () => {
	let cleanOrder: string[] = [];

	beforeAll(async () => {
		emulator.reset({ payouts: RECORDS });
		const { output } = await run(emulator, { resource: 'payout', operation: 'getAll', returnAll: true, requestOptions: FAST });
		cleanOrder = output.map((item) => item.json.id as string);
	});

	it.each([
		['10%', { error5xxRate: 0.04, rateLimitRate: 0.03, dropAfterCommitRate: 0.03 }, 3],
		['30%', { error5xxRate: 0.12, rateLimitRate: 0.09, dropAfterCommitRate: 0.09 }, 8],
	])('each page request failing with %s probability: exactly the 5,000 records, each once, in the order of the list', async (share, rates, maxAttempts) => {
		emulator.clearLogs();
		emulator.setFaults({ match: '^GET /v1/payouts$', retryAfterSeconds: 0.01, seed: 11, ...rates });
		const { output } = await run(emulator, {
			resource: 'payout',
			operation: 'getAll',
			returnAll: true,
			requestOptions: { ...FAST, maxAttempts },
		});
		const faults = faultCounts(emulator.requests);
		emulator.clearFaults();

		const pages = emulator.requests.length;
		const failed = faults.error5xx + faults.rateLimit + faults.dropAfterCommit;
		expect(failed).toBeGreaterThanOrEqual(3);
		expect(faults.error5xx).toBeGreaterThan(0);
		expect(faults.rateLimit).toBeGreaterThan(0);
		expect(faults.dropAfterCommit).toBeGreaterThan(0);

		const ids = output.map((item) => item.json.id as string);
		expect(ids).toHaveLength(RECORDS);
		expect(new Set(ids).size).toBe(RECORDS);
		const stored = emulator.list('payouts').map((payout) => payout.id as string);
		expect(new Set(stored)).toEqual(new Set(ids));
		// Same records in the same order as a run without faults.
		expect(ids).toEqual(cleanOrder);

		// Each failed page was asked for again with the same cursor: the cursors of the
		// successful page requests are all different, and there is one per page of 100.
		const served = emulator.requests.filter((request) => request.status === 200);
		expect(served).toHaveLength(RECORDS / 100);
		expect(new Set(served.map((request) => request.query.cursor ?? '')).size).toBe(RECORDS / 100);
		for (const request of emulator.requests) expect(request.query.limit).toBe('100');

		const distinct = new Set(ids);
		rows.push([
			`Get Many, Return All, each page request failing with ${share} probability`,
			RECORDS,
			pages,
			`${failed} (${faults.error5xx} / ${faults.rateLimit} / ${faults.dropAfterCommit})`,
			ids.length,
			distinct.size,
			ids.length - distinct.size,
			stored.filter((id) => !distinct.has(id)).length,
		]);
	});
});
