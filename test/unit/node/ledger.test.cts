/**
 * Limits keyed on the money, not on the names a caller gives (issue 48), through the node against
 * the emulator, executions side by side in one process as n8n runs them:
 * - a reference reused while its payout is in flight (nodes/Paycashless/money/inFlight.ts);
 * - one account reached through two spellings of its Base URL and through its second API key, and
 *   another account that counts no more once the process has learnt it (money/accounts.ts);
 * - a list that shows a payout seconds after its create (the emulator's `listLagMs`): executions a
 *   second apart, and a payout of another process that the list shows late within one run;
 * - what Paycashless says about a payout in flight: refused, another payout's reference, none
 *   under its reference (money/questions.ts).
 * The same in a real n8n: test/support/suites/moneyHolds.cts.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startEmulator, type EmulatorHandle } from '../../../emulator/index.cjs';
import { runNode, type RunResult } from '../../../scripts/harness/executeContext.cjs';
import type { PaycashlessCredentialData } from '../../../credentials/PaycashlessApi.credentials';
import { call, payoutBody } from '../../support/emulatorClient.cjs';
import { useEmulator } from '../../support/emulator.cjs';
import { payoutItem } from '../../support/reliability.cjs';

const emulator = useEmulator();
beforeEach(() => {
	emulator.reset({ payouts: 0 });
	emulator.clearFaults();
	emulator.setListLag(0);
});

const LIMITS = { maxAmount: 1000, periodTotal: 1500 };

const credentials = (extra: Partial<PaycashlessCredentialData> = {}): PaycashlessCredentialData => ({ apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl, ...extra });

const payout = (reference: string, amount: number, moneyLimits: INodeParameters = LIMITS, extra: INodeParameters = {}): INodeParameters => ({ ...payoutItem(reference, {}, amount), moneyLimits, ...extra });

/** One execution (its own node context) paying `parameters`, failures as items. */
async function execution(parameters: INodeParameters | INodeParameters[], credential = credentials()): Promise<RunResult> {
	return await runNode({ parameters, credentials: credential, nodeContext: {}, continueOnFail: true });
}

const codeOf = (result: RunResult, k = 0) => (result.output[k].json.error as IDataObject | undefined)?.code as string | undefined;
/** What the account paid today, in naira, as Paycashless has it (every payout, failed ones left out). */
const paidNaira = (handle: EmulatorHandle = emulator) =>
	handle.list('payouts').filter((payout) => payout.status !== 'failed').reduce((sum, payout) => sum + Number(payout.amount), 0) / 100;
const posts = (reference?: string) => emulator.requests.filter((request) => request.method === 'POST' && (reference === undefined || (request.body as IDataObject).reference === reference));

describe('a reference reused while its payout is in flight', () => {
	it('is refused before anything is sent; the first payout keeps counting, chained or not', async () => {
		// Every answer 300 ms late: the first create is still under way when the others check.
		emulator.setFaults({ latencyMs: 300 });
		const first = execution(payout('reused', 1000));
		await new Promise((resolve) => setTimeout(resolve, 100));
		// The same reference for another amount, twice, then new references: before, the second
		// replaced the first's entry and Paycashless's refusal of it deleted it.
		const others = await Promise.all([execution(payout('reused', 900)), execution(payout('reused', 1)), execution(payout('fresh-1', 1000)), execution(payout('fresh-2', 600))]);
		await first;
		emulator.clearFaults();
		expect(others.map((result) => codeOf(result))).toEqual(['REFERENCE_IN_FLIGHT', 'REFERENCE_IN_FLIGHT', 'MAX_TOTAL_PERIOD', 'MAX_TOTAL_PERIOD']);
		expect(others[0].output[0].json.message).toMatch(/^Refused: the Reference "reused" is already in use by another payout being sent right now$/);
		expect(posts('reused')).toHaveLength(1);
		expect(paidNaira()).toBe(1000);
		// Later, Paycashless has it: another amount under it is Paycashless's to refuse (409), naming the field.
		const later = await execution(payout('reused', 400));
		expect(String(later.output[0].json.message)).toMatch(/already belongs to another payout with a different amount$/);
		// That refusal gave back only its own place: 1000 + 500 would pass.
		expect(codeOf(await execution(payout('fresh-3', 500)))).toBeUndefined();
		expect(codeOf(await execution(payout('fresh-4', 1)))).toBe('MAX_TOTAL_PERIOD');
		expect(paidNaira()).toBe(1500);
	});

	it('as an AI agent\'s tool: refused in the words of a model, naming nothing of the payout in flight', async () => {
		emulator.setFaults({ latencyMs: 300 });
		const first = execution({ ...payout('tool-ref', 987.65), destinationAccountNumber: '0234567801' });
		await new Promise((resolve) => setTimeout(resolve, 100));
		const asTool = await runNode({ parameters: payout('tool-ref', 10), credentials: credentials(), nodeContext: {}, asTool: true });
		await first;
		emulator.clearFaults();
		const told = JSON.stringify(asTool.output[0].json);
		expect(codeOf(asTool)).toBe('REFERENCE_IN_FLIGHT');
		expect(asTool.output[0].json.message).toBe('Refused: this Reference is in use by another payout being sent right now');
		const other = emulator.list('payouts').find((made) => made.reference === 'tool-ref');
		expect(other).toMatchObject({ amount: 98_765, destinationAccountNumber: '0234567801' });
		expect([String(other?.id), '987.65', '98765', '0234567801', '1,500', '150000'].filter((secret) => told.includes(secret))).toEqual([]);
		expect(posts('tool-ref')).toHaveLength(1);
		// It counts (and this read of the list shows it: the next test's account starts clean).
		expect(codeOf(await execution(payout('tool-after', 600)))).toBe('MAX_TOTAL_PERIOD');
	});

	it('the same payout under the same reference at once is one payout, counted once', async () => {
		emulator.setFaults({ latencyMs: 200 });
		const runs = await Promise.all(Array.from({ length: 5 }, () => execution(payout('once', 1000))));
		emulator.clearFaults();
		expect(runs.map((result) => codeOf(result))).toEqual([undefined, undefined, undefined, undefined, undefined]);
		expect(emulator.list('payouts')).toHaveLength(1);
		expect(codeOf(await execution(payout('after-once', 500)))).toBeUndefined();
		expect(paidNaira()).toBe(1500);
	});
});

describe('one Paycashless account, one ledger, whichever credential reaches it', () => {
	it('two spellings of the Base URL and the account\'s second key racing pay within the total', async () => {
		// An account this process never paid from (the emulator's reset would be an account losing payouts).
		// Listening on every local address: reached as 127.0.0.1 and as localhost.
		const account = await startEmulator({ host: '::' });
		try {
			const own = { apiKey: account.apiKey, apiSecret: account.apiSecret, baseUrl: `http://127.0.0.1:${account.port}` };
			const [second] = account.otherKeys;
			const spelled = { ...own, baseUrl: `HTTP://127.0.0.1:${account.port}/` };
			const secondKey = { ...own, ...second };
			// Another name of the same address, which no spelling rule merges: the process learns from
			// Paycashless that it is the same account.
			const mapped = { ...own, baseUrl: `http://localhost:${account.port}` };
			account.setFaults({ latencyMs: 200 });
			const runs = await Promise.all([
				execution(payout('one', 1000), own),
				execution(payout('two', 1000), spelled),
				execution(payout('three', 1000), secondKey),
				execution(payout('four', 1000), mapped),
			]);
			account.clearFaults();
			expect(runs.filter((result) => codeOf(result) === 'MAX_TOTAL_PERIOD')).toHaveLength(3);
			expect(paidNaira(account)).toBe(1000);
			// Then one after the other through each: still within the total.
			for (const [k, credential] of [own, spelled, secondKey, mapped].entries()) expect(codeOf(await execution(payout(`next-${k}`, 600), credential))).toBe('MAX_TOTAL_PERIOD');
			expect(paidNaira(account)).toBe(1000);
		} finally {
			await account.close();
		}
	});

	it('another account counts no more once the process has learnt it is another: one lookup per pair', async () => {
		const [here, there] = [await startEmulator({}), await startEmulator({})];
		try {
			const [atHere, atThere] = [here, there].map((account) => ({ apiKey: account.apiKey, apiSecret: account.apiSecret, baseUrl: account.baseUrl }));
			// A payout on the other account (its check learns nothing of this one: no payout here yet).
			expect(codeOf(await execution(payout('there-1', 1000), atThere))).toBeUndefined();
			// Here, that payout would refuse this one until the process knows it is another account.
			expect(codeOf(await execution(payout('here-1', 1000), atHere))).toBeUndefined();
			expect(codeOf(await execution(payout('here-2', 500), atHere))).toBeUndefined();
			expect(codeOf(await execution(payout('there-2', 500), atThere))).toBeUndefined();
			// One question for the pair, asked here: "no such payout".
			expect(here.requests.filter((request) => request.path === '/v1/payouts/verify/there-1').map((request) => request.status)).toEqual([404]);
			expect(there.requests.filter((request) => /^\/v1\/payouts\/verify\/here-/.test(request.path))).toEqual([]);
			expect([paidNaira(here), paidNaira(there)]).toEqual([1500, 1500]);
		} finally {
			await Promise.all([here.close(), there.close()]);
		}
	});
});

describe('a list that shows a payout seconds after its create', () => {
	it('executions a second apart cannot pass the total while the list lags', async () => {
		emulator.setListLag(3000);
		const results: Array<string | undefined> = [];
		for (let k = 0; k < 4; k++) {
			results.push(codeOf(await execution(payout(`lag-${k}`, 1000))));
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
		expect(results).toEqual([undefined, 'MAX_TOTAL_PERIOD', 'MAX_TOTAL_PERIOD', 'MAX_TOTAL_PERIOD']);
		expect(paidNaira()).toBe(1000);
		// The list shows it by now, and counts it: still refused, and once it failed, room again.
		expect(codeOf(await execution(payout('lag-4', 1000)))).toBe('MAX_TOTAL_PERIOD');
		await emulator.completePayout('lag-0', 'failed');
		expect(codeOf(await execution(payout('lag-5', 1000)))).toBeUndefined();
	});

	it('a payout that failed before the list showed it: its reference asked again is checked like a new payout, and moves nothing', async () => {
		emulator.setListLag(3000);
		expect(codeOf(await execution(payout('failing', 1000)))).toBeUndefined();
		await emulator.completePayout('failing', 'failed');
		// Confirmed and failed, still not listed: not "the same payout under way". Its entry is asked
		// about (failed: it counts no more), the reference is checked as new, Paycashless finds the
		// failed payout again and nothing new is made.
		const again = await execution(payout('failing', 1000));
		expect(again.output[0].json.status).toBe('failed');
		expect((again.output[0].json._paycashless as IDataObject).repeated).toBe(true);
		// Nothing of it counts: NGN 1,500 still fits.
		expect(codeOf(await execution(payout('after-failing', 1500, { maxAmount: 1500, periodTotal: 1500 })))).toBeUndefined();
		expect(emulator.list('payouts')).toHaveLength(2);
	});

	it('within one run, a payout of another process that the list shows seconds late is counted by a later read', async () => {
		emulator.setListLag(2000);
		emulator.setFaults({ latencyMs: 200 });
		// Another process (the dashboard, another n8n) paid NGN 1,000 a moment before the run.
		expect((await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('outside', { amount: { value: 100_000, currency: 'NGN' } }) })).status).toBe(202);
		const items = Array.from({ length: 30 }, (_, k) => payout(`run-${k}`, 200, { maxAmount: 1000, periodTotal: 5000 }, { concurrency: 1 }));
		const result = await execution(items);
		emulator.clearFaults();
		// 20 × 200 with the outside 1,000 fills the total; the rest are refused.
		expect(paidNaira()).toBe(5000);
		expect(result.output.map((item) => (item.json.error as IDataObject | undefined)?.code).filter((code) => code === 'MAX_TOTAL_PERIOD')).toHaveLength(10);
	});
});

describe('what Paycashless says about a payout in flight', () => {
	it('a payout it has no record of (asked by reference when it alone refuses) counts no more', async () => {
		expect(codeOf(await execution(payout('vanished', 1000)))).toBeUndefined();
		// The account's record loses it (the emulator starts again): the list never shows it.
		emulator.reset({ payouts: 0 });
		expect(codeOf(await execution(payout('after-vanished', 1000)))).toBeUndefined();
		expect(emulator.requests.filter((request) => request.path === '/v1/payouts/verify/vanished').map((request) => request.status)).toEqual([404]);
	});

	it('checks at the same moment wait for the one question about it, rather than refuse on a payout that may not exist', async () => {
		expect(codeOf(await execution(payout('vanishing', 1000)))).toBeUndefined();
		emulator.reset({ payouts: 0 });
		// Five at once, NGN 600 each: with the NGN 1,000 that Paycashless has no record of counted, none
		// would fit; once the one question about it is answered, two do.
		emulator.setFaults({ latencyMs: 200 });
		const runs = await Promise.all(Array.from({ length: 5 }, (_, k) => execution(payout(`at-once-${k}`, 600))));
		emulator.clearFaults();
		expect(runs.map((result) => codeOf(result)).sort()).toEqual([undefined, undefined, 'MAX_TOTAL_PERIOD', 'MAX_TOTAL_PERIOD', 'MAX_TOTAL_PERIOD'].sort());
		expect(emulator.requests.filter((request) => request.path === '/v1/payouts/verify/vanishing')).toHaveLength(1);
		expect(paidNaira()).toBe(1200);
	});

	it('a create the credential refused to sign, or whose reference belongs to another payout, gives its place back', async () => {
		// Another payout under the reference: Paycashless refuses the create (409), nothing made.
		await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('taken', { amount: { value: 100_000, currency: 'NGN' } }) });
		expect(codeOf(await execution(payout('taken', 500)))).toBe('REFERENCE_MISMATCH');
		// The credential's ceiling: not signed, not sent.
		const ceiling = await execution(payout('ceiling', 400), credentials({ maxPayoutNgn: 100 } as Partial<PaycashlessCredentialData>));
		expect(String(ceiling.output[0].json.message)).toMatch(/Refused by the Paycashless credential/);
		// Neither counts: 1000 (taken) + 500 fits the total.
		expect(codeOf(await execution(payout('fits', 500)))).toBeUndefined();
		expect(posts('ceiling')).toHaveLength(0);
		// Given back at once, not found out later by asking Paycashless about them: the only lookup of
		// "taken" is the transport's, after Paycashless refused it.
		const lookups = emulator.requests.filter((request) => /^\/v1\/payouts\/verify\/(taken|ceiling)$/.test(request.path)).map((request) => request.path);
		expect(lookups).toEqual(['/v1/payouts/verify/taken']);
	});
});
