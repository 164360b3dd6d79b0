/**
 * Period limits when executions race, in a real n8n, with the emulator's payout list showing each
 * payout `LIST_LAG_MS` after its create (Paycashless answers a create 202 and its list may show it
 * seconds later). Webhook calls at once start executions side by side (n8n sets no concurrency
 * limit), each paying NGN 1,000 under a Maximum Total per Period of NGN 1,500:
 * - ten at once, with distinct references;
 * - six at once, four under one reference (the same payout or another amount) while its first
 *   payout is in flight, two under new references;
 * - eight at once through four credentials of one account: the Base URL spelled two ways, another
 *   host name of it, and the account's second API key;
 * - four one second apart, while the list has not shown the first yet;
 * - All or Nothing: a batch of ten reserved whole before its first payout (an execution beside it
 *   is refused), paid once; a batch that no longer fits pays none.
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
import { freshFetch } from '../e2e/freshFetch.cjs';

/** How late the emulator's list shows a payout, in every test of this suite. */
const LIST_LAG_MS = 3000;
const LIMITS = { maxAmount: 1000, periodTotal: 1500 };

export function describeMoneyHolds(runtime: Partial<E2eRuntime>): void {
	selectE2eRuntime(runtime);
	jest.setTimeout(SETUP_TIMEOUT_MS);

	let lab: E2eLab;
	useE2eLab((started) => (lab = started));

	/**
	 * Each test pays from an account of its own that paid nothing today: a fresh emulator (on every
	 * local address: 127.0.0.1 and localhost) and a credential for it. Not the lab's emulator reset:
	 * an account whose payouts vanish is not one Paycashless has, and n8n's process keeps the payouts
	 * in flight that its list never showed.
	 */
	let account: { emulator: EmulatorHandle; data: Record<string, unknown>; credential: CredentialRef };
	beforeEach(async () => {
		const emulator = await startEmulator({ host: '::', callbackRetries: 0, listLagMs: LIST_LAG_MS });
		const data = { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: `http://127.0.0.1:${emulator.port}`, bodilessSigning: 'documented' };
		account = { emulator, data, credential: await credentialFor(data, 'own') };
	});
	afterEach(async () => {
		await account.emulator.close();
	});

	async function credentialFor(data: Record<string, unknown>, name: string): Promise<CredentialRef> {
		const made = await lab.session.rest<{ id: string; name: string }>('POST', '/rest/credentials', { name: `Paycashless e2e money holds ${name} ${randomUUID().slice(0, 8)}`, type: CREDENTIAL_TYPE, data });
		return { id: made.id, name: made.name };
	}

	/** How many payouts two processes that run executions may make together: one each (docs/money.md). */
	const bound = (): number => {
		if (!lab.queue) return 1;
		const workers = lab.queue.processes.filter((process) => process.role === 'worker').length;
		expect(workers).toBeGreaterThanOrEqual(2);
		return workers;
	};

	/** A webhook workflow paying with `credential`; the payout's reference and amount come from the posted body. */
	async function payingWorkflow(name: string, moneyLimits: Record<string, unknown>, credential: CredentialRef = account.credential): Promise<(body: Record<string, unknown>) => Promise<string>> {
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
			const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
			expect(response.status).toBe(200);
			return await response.text();
		};
	}

	/** NGN paid (not failed) under references starting with `prefix`, as the account has them. */
	const paidNaira = (prefix: string, emulator: EmulatorHandle = account.emulator) =>
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
		const answers = await late(account.emulator, () => Promise.all(Array.from({ length: 10 }, (_, k) => pay({ reference: `${prefix}-${k}`, amount: 1000 }))));
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
		// Every create takes 8 s to answer: the first is in flight while the others check (n8n starts
		// them within that time even on a busy machine).
		account.emulator.setFaults({ latencyMs: 8000, match: '^POST /v1/payouts$' });
		const answers = await (async () => {
			const first = pay({ reference: `${prefix}-same`, amount: 1000 });
			let settled = false;
			void first.finally(() => (settled = true));
			while (!settled && !account.emulator.requests.some((request) => request.method === 'POST' && (request.body as { reference?: string }).reference === `${prefix}-same`)) await new Promise((resolve) => setTimeout(resolve, 20));
			// The same reference for other amounts (before, the second replaced the first's entry and
			// Paycashless's refusal of it deleted it), the same payout again, and new references.
			const bodies = [900, 1, 1000].map((amount) => ({ reference: `${prefix}-same`, amount })).concat([1000, 600].map((amount, k) => ({ reference: `${prefix}-${k}`, amount })));
			return await Promise.all([first, ...bodies.map((body) => pay(body))]);
		})().finally(() => account.emulator.clearFaults());
		const outcome = (answer: string) => /"code":"([A-Z_]+)"/.exec(answer)?.[1] ?? 'paid or found again';
		note(`reused reference: NGN ${paidNaira(prefix)} paid in ${account.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix)).length} payouts; same 1000: ${outcome(answers[0])}, same 900: ${outcome(answers[1])}, same 1: ${outcome(answers[2])}, same 1000 again: ${outcome(answers[3])}, new 1000: ${outcome(answers[4])}, new 600: ${outcome(answers[5])}`);
		// One payout at most under the reused reference, and never past the total (per process in queue mode).
		expect(account.emulator.list('payouts').filter((payout) => payout.reference === `${prefix}-same`)).toHaveLength(1);
		expect(paidNaira(prefix)).toBeLessThanOrEqual(1500 * bound());
		if (!lab.queue) {
			expect(answers.map(outcome)).toEqual(['paid or found again', 'REFERENCE_IN_FLIGHT', 'REFERENCE_IN_FLIGHT', 'paid or found again', 'MAX_TOTAL_PERIOD', 'MAX_TOTAL_PERIOD']);
			expect(paidNaira(prefix)).toBe(1000);
		}
	});

	it('two credentials of one account (another spelling of its address, another host name, its second key) racing cannot pass the total', async () => {
		// The test's account through four credentials: two spellings of its Base URL, another host name, its second key.
		const { emulator, data } = account;
		const [second] = emulator.otherKeys;
		const spellings = [data, { ...data, baseUrl: `HTTP://127.0.0.1:${emulator.port}/` }, { ...data, baseUrl: `http://localhost:${emulator.port}` }, { ...data, ...second }];
		const pays = await Promise.all(spellings.map(async (spelling, k) => await payingWorkflow(`one account ${k}`, LIMITS, k === 0 ? account.credential : await credentialFor(spelling, `spelling ${k}`))));
		const prefix = `accounts-${randomUUID().slice(0, 8)}`;
		const answers = await late(emulator, () => Promise.all(pays.flatMap((pay, k) => [pay({ reference: `${prefix}-${k}-a`, amount: 1000 }), pay({ reference: `${prefix}-${k}-b`, amount: 1000 })])));
		const paid = paidNaira(prefix) / 1000;
		note(`four credentials of one account, eight at once: ${paid} paid (bound ${bound()})`);
		expect(paid + answers.filter((answer) => answer.includes('MAX_TOTAL_PERIOD')).length).toBe(8);
		expect(paid).toBeGreaterThanOrEqual(1);
		expect(paid).toBeLessThanOrEqual(bound());
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

	it('All or Nothing reserves the whole batch before its first payout, pays it once, and pays none of a batch that no longer fits', async () => {
		const prefix = `aon-${randomUUID().slice(0, 8)}`;
		const webhookPath = `money-holds-aon-${randomUUID().slice(0, 8)}`;
		const limits = { maxAmount: 3000, periodTotal: 12_000 };
		const split = { name: 'Split Out', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'body.payouts', include: 'noOtherFields', options: { destinationFieldName: 'payout' } } };
		const batchNode = {
			...paycashlessNode(account.credential, {
				resource: 'payout',
				operation: 'create',
				reference: '={{ $json.payout.reference }}',
				amount: '={{ $json.payout.amount }}',
				currency: 'NGN',
				destinationAccountNumber: '0123456789',
				bankId: ACCESS_BANK,
				moneyLimits: limits,
				batchOptions: { allOrNothing: true },
			}),
			name: 'Pay Batch',
			onError: 'continueRegularOutput' as const,
		};
		const start = { ...webhookNode(webhookPath), parameters: { ...webhookNode(webhookPath).parameters, responseData: 'allEntries' } };
		await lab.createActiveWorkflow(`all or nothing ${prefix}`, [start, split, batchNode], { Webhook: { main: [[{ node: 'Split Out', type: 'main', index: 0 }]] }, 'Split Out': { main: [[{ node: 'Pay Batch', type: 'main', index: 0 }]] } }, [webhookPath]);
		const payBatch = async (references: string[]) => {
			const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ payouts: references.map((reference) => ({ reference, amount: 1000 })) }) });
			expect(response.status).toBe(200);
			return await response.text();
		};
		const single = await payingWorkflow('beside a batch', limits);
		// 10 × NGN 1,000 under NGN 12,000, every answer 200 ms late; once its first payout is on its
		// way, another execution asks for NGN 3,000: the whole batch is counted already.
		const batch = Array.from({ length: 10 }, (_, k) => `${prefix}-${k}`);
		const [, beside] = await late(account.emulator, async () => {
			const paying = payBatch(batch);
			let settled = false;
			void paying.finally(() => (settled = true));
			while (!settled && !account.emulator.requests.some((request) => request.method === 'POST' && String((request.body as { reference?: string }).reference).startsWith(prefix))) await new Promise((resolve) => setTimeout(resolve, 20));
			return await Promise.all([paying, single({ reference: `${prefix}-beside`, amount: 3000 })]);
		});
		const made = account.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix));
		note(`All or Nothing: batch of 10 paid ${made.filter((payout) => payout.reference !== `${prefix}-beside`).length}, the NGN 3,000 beside it ${beside.includes('MAX_TOTAL_PERIOD') ? 'refused' : 'paid'}`);
		// Each reference once.
		expect(new Set(made.map((payout) => payout.reference)).size).toBe(made.length);
		expect(made.filter((payout) => batch.includes(String(payout.reference)))).toHaveLength(10);
		if (!lab.queue) expect(beside).toContain('MAX_TOTAL_PERIOD');
		// Another 5 would bring the period to NGN 15,000: none is sent (once the list shows the batch,
		// also by another worker in queue mode).
		await new Promise((resolve) => setTimeout(resolve, LIST_LAG_MS + 500));
		const more = Array.from({ length: 5 }, (_, k) => `${prefix}-more-${k}`);
		const refused = await payBatch(more);
		// With the NGN 3,000 beside it refused, rows 1 and 2 fit and are refused for the batch (BATCH_REFUSED);
		// paid (queue mode: another worker, within docs/queue-mode.md's bound), every row is refused on its own.
		expect(refused).toContain(beside.includes('MAX_TOTAL_PERIOD') ? 'BATCH_REFUSED' : 'All or Nothing pays all or none (refused: rows 1, 2, 3, 4 and 5)');
		expect(account.emulator.list('payouts').filter((payout) => more.includes(String(payout.reference)))).toHaveLength(0);
	});

	const payoutPosts = (reference: string) => account.emulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payouts' && (request.body as { reference?: string } | undefined)?.reference === reference);

	it('a reference Paycashless lists as failed skips no check: asked again, it is held to the period total like a new payout', async () => {
		const prefix = `failed-${randomUUID().slice(0, 8)}`;
		const pay = await payingWorkflow('failed reference', LIMITS);
		await pay({ reference: `${prefix}-a`, amount: 1000 });
		await account.emulator.completePayout(`${prefix}-a`, 'failed');
		// The failed payout moved nothing: another one fits (before the list shows either).
		const other = await pay({ reference: `${prefix}-b`, amount: 1000 });
		expect([other, account.emulator.list('payouts').filter((payout) => payout.reference === `${prefix}-b`).length]).toEqual([other, 1]);
		// The failed reference again, once the list shows both (so in queue mode any worker knows b):
		// checked as new, refused by the period total, never sent.
		await new Promise((resolve) => setTimeout(resolve, LIST_LAG_MS + 500));
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
		expect(account.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix))).toHaveLength(0);
		expect(await pay({ reference: `${prefix}-person`, amount: 10, account: '0234567801' })).toContain(`${prefix}-person`);
		expect(account.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix))).toHaveLength(1);
	});
}
