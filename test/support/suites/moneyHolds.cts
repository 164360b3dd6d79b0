/**
 * Period limits when executions race, in a real n8n, with the emulator's payout list showing each
 * payout `LIST_LAG_MS` after its create (Paycashless answers a create 202 and its list may show it
 * seconds later). Webhook calls at once start executions side by side (n8n sets no concurrency
 * limit), each paying NGN 1,000 under a Maximum Total per Period of NGN 1,500:
 * - ten at once, with distinct references;
 * - ten at once, half of them reusing one reference (for the same payout or another amount) while
 *   its payout is in flight;
 * - eight at once through four credentials of one account: the Base URL spelled two ways, another
 *   host name of it, and the account's second API key;
 * - four one second apart, while the list has not shown the first yet.
 * In one n8n process they see each other's payouts in flight (nodes/Paycashless/money/inFlight.ts)
 * and one payout is made. In queue mode each worker process keeps its own ledger, so the bound
 * docs/money.md states is one payout per process that runs executions (the lab offloads manual
 * executions to the workers: main runs none); each worker alone never passes the total. Answers
 * come 200 ms late, so that executions at once all read the list before any payout is listed.
 * Unit tests: test/unit/node/ledger.test.cts, money.test.cts, inFlight.test.cts.
 */
import { randomUUID } from 'crypto';

import { startEmulator } from '../../../emulator/index.cjs';
import type { EmulatorHandle } from '../../../emulator/types.cjs';
import { CREDENTIAL_TYPE } from '../../../scripts/n8n/lab.cjs';
import { ACCESS_BANK } from '../reliability.cjs';
import { paycashlessNode, selectE2eRuntime, SETUP_TIMEOUT_MS, useE2eLab, webhookNode, type CredentialRef, type E2eLab, type E2eRuntime } from '../e2e/harness.cjs';

/** How late the emulator's list shows a payout, in every test of this suite. */
const LIST_LAG_MS = 3000;
const LIMITS = { maxAmount: 1000, periodTotal: 1500 };

export function describeMoneyHolds(runtime: Partial<E2eRuntime>): void {
	selectE2eRuntime(runtime);
	jest.setTimeout(SETUP_TIMEOUT_MS);

	let lab: E2eLab;
	useE2eLab((started) => (lab = started));

	// Each test starts from an account that paid nothing today (this suite's own emulator).
	beforeEach(() => {
		lab.emulator.reset({ payouts: 0 });
		lab.emulator.setListLag(LIST_LAG_MS);
	});
	afterAll(() => lab?.emulator.setListLag(0));

	/** How many payouts two processes that run executions may make together: one each (docs/money.md). */
	const bound = (): number => {
		if (!lab.queue) return 1;
		const workers = lab.queue.processes.filter((process) => process.role === 'worker').length;
		expect(workers).toBeGreaterThanOrEqual(2);
		return workers;
	};

	/** A webhook workflow paying with `credential`; the payout's reference and amount come from the posted body. */
	async function payingWorkflow(name: string, moneyLimits: Record<string, unknown>, credential: CredentialRef = lab.good): Promise<(body: Record<string, unknown>) => Promise<string>> {
		const webhookPath = `money-holds-${randomUUID().slice(0, 8)}`;
		const pay = {
			...paycashlessNode(credential, {
				resource: 'payout',
				operation: 'create',
				reference: '={{ $json.body.reference }}',
				amount: '={{ $json.body.amount }}',
				currency: 'NGN',
				destinationAccountNumber: '={{ $json.body.account ?? "0123456789" }}',
				bankId: ACCESS_BANK,
				moneyLimits,
			}),
			name: 'Pay',
			onError: 'continueRegularOutput' as const,
		};
		await lab.createActiveWorkflow(`${name} ${webhookPath}`, [webhookNode(webhookPath), pay], { Webhook: { main: [[{ node: 'Pay', type: 'main', index: 0 }]] } }, [webhookPath]);
		return async (body) => {
			const response = await fetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
			expect(response.status).toBe(200);
			return await response.text();
		};
	}

	/** NGN paid (not failed) under references starting with `prefix`, as the account has them. */
	const paidNaira = (prefix: string, emulator: EmulatorHandle = lab.emulator) =>
		emulator
			.list('payouts')
			.filter((payout) => String(payout.reference).startsWith(prefix) && payout.status !== 'failed')
			.reduce((sum, payout) => sum + Number(payout.amount), 0) / 100;

	/** What a test paid, in the test log (the numbers docs/money.md and the issue's closing note quote). */
	const note = (what: string) => process.stderr.write(`moneyHolds (${lab.queue ? 'queue mode' : `n8n ${lab.n8nVersion}`}): ${what}\n`);

	/** Every answer 200 ms late while `run` runs. */
	async function late<T>(emulator: EmulatorHandle, run: () => Promise<T>): Promise<T> {
		emulator.setFaults({ latencyMs: 200 });
		return await run().finally(() => emulator.clearFaults());
	}

	it('ten webhook executions at once cannot pass the period total together', async () => {
		const prefix = `race-${randomUUID().slice(0, 8)}`;
		const pay = await payingWorkflow('period race', LIMITS);
		const answers = await late(lab.emulator, () => Promise.all(Array.from({ length: 10 }, (_, k) => pay({ reference: `${prefix}-${k}`, amount: 1000 }))));
		const refused = answers.filter((answer) => answer.includes('MAX_TOTAL_PERIOD'));
		const paid = paidNaira(prefix) / 1000;
		note(`ten at once: ${paid} paid, ${refused.length} refused (bound ${bound()})`);
		expect(paid + refused.length).toBe(10);
		expect(paid).toBeGreaterThanOrEqual(1);
		expect(paid).toBeLessThanOrEqual(bound());
	});

	it('a reference reused while its payout is in flight lets no execution pass the period total', async () => {
		const prefix = `reused-${randomUUID().slice(0, 8)}`;
		const pay = await payingWorkflow('reused reference', LIMITS);
		// One reference asked for NGN 1,000 three times and for other amounts twice, beside new references.
		const bodies = [1000, 1000, 900, 1000, 500].map((amount) => ({ reference: `${prefix}-same`, amount })).concat([1000, 1000, 500, 700, 1000].map((amount, k) => ({ reference: `${prefix}-${k}`, amount })));
		const answers = await late(lab.emulator, () => Promise.all(bodies.map((body) => pay(body))));
		note(`reused reference: NGN ${paidNaira(prefix)} paid in ${lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix)).length} payouts, ${answers.filter((answer) => answer.includes('REFERENCE_IN_FLIGHT')).length} REFERENCE_IN_FLIGHT`);
		expect(paidNaira(prefix)).toBeLessThanOrEqual(1500 * bound());
		// Under the reused reference, one payout at most: the others were refused before anything was
		// sent (REFERENCE_IN_FLIGHT), found again, or refused by Paycashless naming the field.
		const same = lab.emulator.list('payouts').filter((payout) => payout.reference === `${prefix}-same`);
		expect(same.length).toBeLessThanOrEqual(1);
		if (!lab.queue) {
			expect(paidNaira(prefix)).toBeLessThanOrEqual(1500);
			expect(answers.some((answer) => answer.includes('REFERENCE_IN_FLIGHT') || answer.includes('already belongs to another payout'))).toBe(true);
		}
	});

	it('two credentials of one account (another spelling of its address, another host name, its second key) racing cannot pass the total', async () => {
		// An account this n8n never paid from, reached as 127.0.0.1 and as localhost.
		const account = await startEmulator({ host: '::', callbackRetries: 0 });
		try {
			const base = { apiKey: account.apiKey, apiSecret: account.apiSecret, bodilessSigning: 'documented' };
			const [second] = account.otherKeys;
			const spellings = [
				{ ...base, baseUrl: `http://127.0.0.1:${account.port}` },
				{ ...base, baseUrl: `HTTP://127.0.0.1:${account.port}/` },
				{ ...base, baseUrl: `http://localhost:${account.port}` },
				{ ...base, ...second, baseUrl: `http://127.0.0.1:${account.port}` },
			];
			const pays = await Promise.all(
				spellings.map(async (data, k) => {
					const made = await lab.session.rest<{ id: string; name: string }>('POST', '/rest/credentials', { name: `Paycashless e2e one account ${k} ${randomUUID().slice(0, 8)}`, type: CREDENTIAL_TYPE, data });
					return await payingWorkflow(`one account ${k}`, LIMITS, { id: made.id, name: made.name });
				}),
			);
			const prefix = `accounts-${randomUUID().slice(0, 8)}`;
			const answers = await late(account, () => Promise.all(pays.flatMap((pay, k) => [pay({ reference: `${prefix}-${k}-a`, amount: 1000 }), pay({ reference: `${prefix}-${k}-b`, amount: 1000 })])));
			const paid = paidNaira(prefix, account) / 1000;
			note(`four credentials of one account, eight at once: ${paid} paid (bound ${bound()})`);
			expect(paid + answers.filter((answer) => answer.includes('MAX_TOTAL_PERIOD')).length).toBe(8);
			expect(paid).toBeGreaterThanOrEqual(1);
			expect(paid).toBeLessThanOrEqual(bound());
		} finally {
			await account.close();
		}
	});

	it('with the list seconds behind, executions a second apart cannot pass the total', async () => {
		const prefix = `apart-${randomUUID().slice(0, 8)}`;
		const pay = await payingWorkflow('a second apart', LIMITS);
		const answers: string[] = [];
		for (let k = 0; k < 4; k++) {
			answers.push(await pay({ reference: `${prefix}-${k}`, amount: 1000 }));
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
		const paid = paidNaira(prefix) / 1000;
		note(`a second apart, list ${LIST_LAG_MS} ms behind: ${paid} paid of 4 (bound ${bound()})`);
		expect(paid + answers.filter((answer) => answer.includes('MAX_TOTAL_PERIOD')).length).toBe(4);
		expect(paid).toBeGreaterThanOrEqual(1);
		expect(paid).toBeLessThanOrEqual(bound());
	});

	const payoutPosts = (reference: string) => lab.emulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payouts' && (request.body as { reference?: string } | undefined)?.reference === reference);

	it('a reference Paycashless lists as failed skips no check: asked again, it is held to the period total like a new payout', async () => {
		const prefix = `failed-${randomUUID().slice(0, 8)}`;
		const pay = await payingWorkflow('failed reference', LIMITS);
		await pay({ reference: `${prefix}-a`, amount: 1000 });
		await lab.emulator.completePayout(`${prefix}-a`, 'failed');
		// The failed payout moved nothing: another one fits (before the list shows either).
		const other = await pay({ reference: `${prefix}-b`, amount: 1000 });
		expect([other, lab.emulator.list('payouts').filter((payout) => payout.reference === `${prefix}-b`).length]).toEqual([other, 1]);
		// The failed reference again: checked as new, refused by the period total, never sent.
		const again = await pay({ reference: `${prefix}-a`, amount: 1000 });
		expect(again).toContain('MAX_TOTAL_PERIOD');
		expect(payoutPosts(`${prefix}-a`)).toHaveLength(1);
	});

	it('Expected Account Name refuses a business account that carries the person\'s name, and pays the person', async () => {
		const prefix = `named-${randomUUID().slice(0, 8)}`;
		const pay = await payingWorkflow('named payee', { maxAmount: 1000, expectedAccountName: 'Ada Obi', beneficiaryBankCode: '044' });
		// emulator/banks.cts NAMED_ACCOUNTS: 0234567802 ADA OBI COLLECTIONS, 0234567803 ADA OBI & SON, 0234567805 ADA CHIOMA OBI.
		for (const [k, account] of ['0234567802', '0234567803', '0234567805'].entries()) {
			const text = await pay({ reference: `${prefix}-${k}`, amount: 10, account });
			expect([account, text.includes('NAME_MISMATCH')]).toEqual([account, true]);
		}
		expect(lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix))).toHaveLength(0);
		expect(await pay({ reference: `${prefix}-person`, amount: 10, account: '0234567801' })).toContain(`${prefix}-person`);
		expect(lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix))).toHaveLength(1);
	});
}
