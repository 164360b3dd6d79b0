/**
 * Money handled with care when an AI agent holds the Paycashless node as a tool, in a real n8n
 * with a scripted model (scriptedModel.ts): what the model is told, the Money Limits refusing with
 * 0 requests (amount, count per execution, beneficiary name), a failure's advice reaching the
 * model, a money tool without limits refusing; and, without an agent, an output amount mapped into
 * the next node's Amount paying the same amount.
 * Runs on n8n 2.41 (test/e2e-1x/agentMoney.test.cts: the same on 1.123).
 */
import { randomUUID } from 'crypto';

import { accountName } from '../../../emulator/banks.cjs';
import { ACCESS_BANK } from '../reliability.cjs';
import { connectScriptedModel, createAgentWorkflow, toolRunItems, type AgentWorkflow, type ScriptedModelInN8n } from '../e2e/agentHarness.cjs';
import { paycashlessNode, selectE2eRuntime, SETUP_TIMEOUT_MS, startE2eLab, webhookNode, type E2eLab, type E2eRuntime } from '../e2e/harness.cjs';
import { offeredTools, toolResults } from '../e2e/scriptedModel.cjs';
import { freshFetch } from '../e2e/freshFetch.cjs';

/**
 * The Money Limits suite against one runtime (an e2e project's), called once by a small test file
 * in each project that runs it (test/README.md). The body keeps its indentation from when it was
 * a test file of its own.
 */
export function describeAgentMoney(runtime: Partial<E2eRuntime>): void {
selectE2eRuntime(runtime);

jest.setTimeout(SETUP_TIMEOUT_MS);

let lab: E2eLab;
let scripted: ScriptedModelInN8n;
let agent: AgentWorkflow;

const ACCOUNT = '0123456789';
const PAY = 'Pay Claim';
const LOOKUP = 'Look Up Account';
const CHECK = 'Check Payout';
const NAMED = 'Pay Named Payee';
const UNLIMITED = 'Pay Without Limits';
const DAILY_USD = 'Pay Daily USD';
const MODEL_LIMIT = 'Pay Model Limit';
const ZERO_LIMIT = 'Pay Zero Limit';
const ANY_CURRENCY = 'Pay Any Currency';
/** The NGN tools' period limit: high, so the other tests of this file never reach it. */
const NGN_DAY = 1_000_000;

beforeAll(async () => {
	// The emulator's list shows a payout 3 s after its create, as Paycashless's may after its 202
	// (issue 48): in one n8n process the limits hold on the payouts in flight, not on a list that
	// shows them at once. Not in queue mode: workers share only Paycashless's list, so with a list
	// that lags, executions on two workers can pass a period total together (docs/queue-mode.md's
	// bound, which moneyHolds holds with the list lagging); here they must see each other at once.
	lab = await startE2eLab(runtime.mode === 'queue' ? {} : { emulator: { listLagMs: 3000 } });
	scripted = await connectScriptedModel(lab);
	agent = await createAgentWorkflow(lab, scripted, {
		maxIterations: 20,
		tools: [
			// Only what a person sets: the fields a model fills come as $fromAI from the node itself.
			{ name: PAY, parameters: { resource: 'payout', operation: 'create', currency: 'NGN', moneyLimits: { maxAmount: 50000, maxCount: 3, maxTotal: 100000, periodTotal: NGN_DAY } } },
			{ name: LOOKUP, parameters: { resource: 'bankAccount', operation: 'lookUp' } },
			{ name: CHECK, parameters: { resource: 'payout', operation: 'verify' } },
			{
				name: NAMED,
				parameters: { resource: 'payout', operation: 'create', currency: 'NGN', moneyLimits: { maxAmount: 50000, periodTotal: NGN_DAY, expectedAccountName: 'Ada Obi', beneficiaryBankCode: '044' } },
			},
			{ name: UNLIMITED, parameters: { resource: 'payout', operation: 'create', currency: 'NGN' } },
			// The period limit in its own currency: the NGN payouts of the other tests do not count.
			{ name: DAILY_USD, parameters: { resource: 'payout', operation: 'create', currency: 'USD', moneyLimits: { currency: 'USD', maxAmount: 200, periodTotal: 500 } } },
			{
				name: MODEL_LIMIT,
				parameters: { resource: 'payout', operation: 'create', currency: 'NGN', moneyLimits: { maxAmount: "={{ $fromAI('Max_Amount', 'The largest amount allowed', 'number') }}", periodTotal: NGN_DAY } },
			},
			{ name: ZERO_LIMIT, parameters: { resource: 'payout', operation: 'create', currency: 'NGN', moneyLimits: { maxAmount: 0, periodTotal: NGN_DAY } } },
			{
				name: ANY_CURRENCY,
				parameters: { resource: 'payout', operation: 'create', currency: "={{ $fromAI('Currency', 'NGN or USD', 'string') }}", moneyLimits: { maxAmount: 50000, periodTotal: NGN_DAY } },
			},
		],
	});
});

afterAll(async () => {
	await scripted?.close();
	await lab?.close();
});

const payoutPosts = () => lab.emulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payouts').length;
const args = (reference: string, amount: number, account = ACCOUNT) => ({ Reference: reference, Amount: amount, Account_Number: account, Bank_ID: ACCESS_BANK });
const resultOf = (content: string) => {
	const parsed = JSON.parse(content) as unknown;
	return (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown>;
};

describe('what the model is told', () => {
	it('money tools say real money moves, amounts are in naira (not kobo), what a reference is for and where Bank_ID comes from; only waits and callbacks are not offered', async () => {
		const run = await agent.run('Hello', [{ text: 'Hi.' }]);
		expect(run.status).toBe(200);
		const tools = offeredTools(run.requests[0]);
		const pay = tools.get('Pay_Claim')!;
		expect(pay.description).toMatch(/^Send a Paycashless payout: moves real money now to a bank account\. REAL MONEY leaves/);
		expect(pay.description).toMatch(/never kobo/);
		expect(pay.description).toMatch(/same reference never pays twice/);
		expect(Object.keys(pay.parameters?.properties ?? {}).sort()).toEqual(['Account_Number', 'Amount', 'Bank_ID', 'Reference']);
		const properties = pay.parameters?.properties as Record<string, { type: string; description: string }>;
		expect(properties.Amount).toEqual({ type: 'number', description: expect.stringMatching(/naira for NGN.*Never kobo or cents/) });
		expect(properties.Reference.description).toMatch(/same reference never pays twice/);
		expect(properties.Bank_ID.description).toMatch(/look-up tool \(bank\.id/);
		expect(tools.get('Look_Up_Account')!.description).toMatch(/bank ID.*It only reads/);
	});
});

describe('a read through the tool', () => {
	it('Payout → Verify gives the model a compact result with the amount in naira', async () => {
		const reference = `agent-read-${randomUUID().slice(0, 8)}`;
		await agent.run('pay', [{ toolCalls: [{ name: 'Pay_Claim', arguments: args(reference, 1500.5) }] }, { text: 'ok' }]);
		const run = await agent.run(`status of ${reference}?`, [{ toolCalls: [{ name: 'Check_Payout', arguments: { Reference: reference } }] }, { text: 'ok' }]);
		const result = resultOf(toolResults(run.requests[1])[0].content);
		expect(result).toMatchObject({ reference, currency: 'NGN', amount: 'NGN 1,500.50' });
		expect(result.initiation).toBeUndefined();
	});
});

describe('Money Limits hold for an agent', () => {
	it('new references past the per-execution count are refused with 0 requests; the same reference twice pays once; the model is told why', async () => {
		const refs = Array.from({ length: 5 }, (_, k) => `agent-count-${k}-${randomUUID().slice(0, 6)}`);
		const postsBefore = payoutPosts();
		const run = await agent.run('pay five claims', [
			{ toolCalls: [{ name: 'Pay_Claim', arguments: args(refs[0], 100) }, { name: 'Pay_Claim', arguments: args(refs[0], 100) }] },
			{ toolCalls: refs.slice(1).map((reference) => ({ name: 'Pay_Claim', arguments: args(reference, 100) })) },
			{ text: 'done' },
		]);
		expect(run.status).toBe(200);
		const paid = lab.emulator.list('payouts').filter((payout) => refs.includes(String(payout.reference)));
		expect(paid).toHaveLength(3);
		// refs[0] twice (the second finds it again), then two new ones; the 4th and 5th new ones are refused before sending.
		expect(payoutPosts() - postsBefore).toBe(4);
		const refused = toolResults(run.requests[2]).map((result) => resultOf(result.content)).filter((result) => typeof result.message === 'string');
		expect(refused).toHaveLength(2);
		for (const result of refused) {
			// The model learns which limit refused, not its value (nodes/Paycashless/money/refusal.ts).
			expect(result.message).toBe('Refused: this would pass the Maximum Count per Execution');
			expect(result.error).toMatchObject({ description: expect.stringMatching(/^Nothing was sent/) });
		}
		// A new execution starts counting again.
		const next = await agent.run('one more', [{ toolCalls: [{ name: 'Pay_Claim', arguments: args(`agent-count-next-${randomUUID().slice(0, 6)}`, 100) }] }, { text: 'ok' }]);
		expect(resultOf(toolResults(next.requests[1])[0].content)).toMatchObject({ status: 'pending', amount: 'NGN 100.00' });
	});

	it('an amount above the maximum (500000 meant as kobo) is refused with 0 requests, and the model reads the advice', async () => {
		const postsBefore = payoutPosts();
		const run = await agent.run('pay 5000 naira', [{ toolCalls: [{ name: 'Pay_Claim', arguments: args(`agent-kobo-${randomUUID().slice(0, 6)}`, 500000) }] }, { text: 'ok' }]);
		expect(payoutPosts()).toBe(postsBefore);
		const result = resultOf(toolResults(run.requests[1])[0].content);
		expect(result.message).toBe("Refused: the amount is above this node's Maximum Amount");
		expect(JSON.stringify(result)).not.toMatch(/50,000|5000000/);
		expect(result.error).toMatchObject({ description: expect.stringMatching(/an amount meant in kobo is 100 times too large/) });
	});

	it('a payee whose name does not match is refused, 0 payouts', async () => {
		const reference = `agent-name-${randomUUID().slice(0, 6)}`;
		const run = await agent.run('pay Ada', [{ toolCalls: [{ name: 'Pay_Named_Payee', arguments: args(reference, 100, '0123456780') }] }, { text: 'ok' }]);
		const result = resultOf(toolResults(run.requests[1])[0].content);
		expect(result.message).toBe("Refused: the account's holder does not match Expected Account Name");
		// The model is not told whose account it is (a refusal must not teach it the name to write), nor the bank it is checked at.
		expect(`${String(result.message)} ${JSON.stringify((result.error as { description?: string } | undefined)?.description)}`).not.toContain('044');
		for (const word of accountName('0123456780', ACCESS_BANK).split(' ')) expect(JSON.stringify(result)).not.toContain(word);
		expect(lab.emulator.list('payouts').filter((payout) => payout.reference === reference)).toHaveLength(0);
	});

	it('a failure from Paycashless reaches the model with its advice and details', async () => {
		const run = await agent.run('look up', [{ toolCalls: [{ name: 'Look_Up_Account', arguments: { Account_Number: '0001234567', Bank_Code: '044' } }] }, { text: 'ok' }]);
		const result = resultOf(toolResults(run.requests[1])[0].content);
		expect(result.message).toMatch(/was not found/);
		expect(result.error).toMatchObject({ httpCode: '404', type: 'invalid_request_error', code: 'resource_missing', description: expect.any(String) });
	});

	it('a money tool with no limits set refuses and says which limit to set', async () => {
		const postsBefore = payoutPosts();
		const run = await agent.run('pay', [{ toolCalls: [{ name: 'Pay_Without_Limits', arguments: args(`agent-nolimit-${randomUUID().slice(0, 6)}`, 10) }] }, { text: 'ok' }]);
		const result = resultOf(toolResults(run.requests[1])[0].content);
		expect(result.message).toBe('Refused: this tool moves real money and has no Maximum Amount and Maximum Total per Period set');
		expect(result.error).toMatchObject({ type: 'money_limit', code: 'LIMIT_NOT_SET' });
		expect(payoutPosts()).toBe(postsBefore);
		expect(toolRunItems(run.toolRuns(UNLIMITED)[0])[0]).toMatchObject({ message: result.message });
	});
});

describe('Money Limits hold whatever the model, the next execution or an expression does', () => {
	const usd = (reference: string, amount: number) => ({ Reference: reference, Amount: amount, Account_Number: ACCOUNT, Bank_ID: ACCESS_BANK });
	/** The results of the tool calls of the turn before request `turn` (a request repeats all earlier results first). */
	const resultsOf = (run: { requests: Array<Parameters<typeof toolResults>[0]> }, turn: number) => {
		const before = turn > 1 ? toolResults(run.requests[turn - 1]).length : 0;
		return toolResults(run.requests[turn])
			.slice(before)
			.map((result) => resultOf(result.content));
	};

	it('a period total holds across three executions (three chat messages): USD 200 + 200, then the third is refused without the totals, 2 payouts', async () => {
		const refs = Array.from({ length: 3 }, (_, k) => `agent-day-${k}-${randomUUID().slice(0, 6)}`);
		const results = [];
		for (const reference of refs) {
			const run = await agent.run(`pay ${reference}`, [{ toolCalls: [{ name: 'Pay_Daily_USD', arguments: usd(reference, 200) }] }, { text: 'ok' }]);
			results.push(resultsOf(run, 1)[0]);
		}
		expect(results[0]).toMatchObject({ status: 'pending', amount: 'USD 200.00' });
		expect(results[1]).toMatchObject({ status: 'pending', amount: 'USD 200.00' });
		// The model learns that the limit was reached, not the account's total nor what is left.
		expect(results[2].message).toBe('Refused: this payout would pass the Maximum Total per Period');
		expect(results[2].error).toMatchObject({ type: 'money_limit', code: 'MAX_TOTAL_PERIOD' });
		expect(JSON.stringify(results[2])).not.toMatch(/USD (400|500|600)/);
		expect(lab.emulator.list('payouts').filter((payout) => refs.includes(String(payout.reference)))).toHaveLength(2);
	});

	it('a limit the model fills ($fromAI) or left at 0 refuses, 0 payouts; the model cannot switch limits off', async () => {
		const postsBefore = payoutPosts();
		const run = await agent.run('pay', [
			{
				toolCalls: [
					{ name: 'Pay_Model_Limit', arguments: { ...args(`agent-fromai-${randomUUID().slice(0, 6)}`, 10), Max_Amount: 99999999 } },
					{ name: 'Pay_Zero_Limit', arguments: args(`agent-zero-${randomUUID().slice(0, 6)}`, 10) },
				],
			},
			{ text: 'ok' },
		]);
		const [fromAi, zero] = resultsOf(run, 1);
		expect(fromAi.message).toBe('Refused: Money Limits → Maximum Amount is an expression');
		expect(fromAi.error).toMatchObject({ code: 'LIMIT_EXPRESSION' });
		// Which value a limit holds is the person's to read, not the model's.
		expect(zero.message).toBe('Refused: a Money Limit of this node is set to a value it cannot use');
		expect(zero.error).toMatchObject({ code: 'LIMIT_INVALID' });
		expect(payoutPosts()).toBe(postsBefore);
	});

	it('a refused attempt and a reused reference cannot lift the execution total', async () => {
		const [a, c] = [`agent-lift-a-${randomUUID().slice(0, 6)}`, `agent-lift-c-${randomUUID().slice(0, 6)}`];
		const run = await agent.run('pay', [
			{ toolCalls: [{ name: 'Pay_Claim', arguments: args(a, 40000) }] },
			// The same reference for more money: refused, not "already counted".
			{ toolCalls: [{ name: 'Pay_Claim', arguments: args(a, 50000) }] },
			// Paycashless refuses this one (no such bank): its place is freed, not kept at its first amount.
			{ toolCalls: [{ name: 'Pay_Claim', arguments: { ...args(c, 1000), Bank_ID: 'bank_00000000000000000000000000000000' } }] },
			// Then the same reference for more than the total leaves: refused by the total.
			{ toolCalls: [{ name: 'Pay_Claim', arguments: args(c, 50000) }] },
			{ toolCalls: [{ name: 'Pay_Claim', arguments: args(`agent-lift-d-${randomUUID().slice(0, 6)}`, 50000) }] },
			{ text: 'done' },
		]);
		expect(resultsOf(run, 1)[0]).toMatchObject({ status: 'pending', amount: 'NGN 40,000.00' });
		expect(resultsOf(run, 2)[0]).toMatchObject({ message: `Refused: the reference "${a}" was already used in this execution for a different payout`, error: { code: 'REFERENCE_REUSED' } });
		expect(resultsOf(run, 3)[0].message).toMatch(/Invalid bank/);
		expect(resultsOf(run, 4)[0]).toMatchObject({ status: 'pending', amount: 'NGN 50,000.00' });
		expect(resultsOf(run, 5)[0]).toMatchObject({ error: { code: 'MAX_TOTAL_EXECUTION' } });
		const paid = lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith('agent-lift-'));
		expect(paid.map((payout) => payout.amount)).toEqual([4000000, 5000000]);
	});

	it('a payout in a currency the limits do not name is refused, even when the model picks it', async () => {
		const reference = `agent-cur-${randomUUID().slice(0, 6)}`;
		const run = await agent.run('pay in dollars', [{ toolCalls: [{ name: 'Pay_Any_Currency', arguments: { ...args(reference, 100), Currency: 'USD' } }] }, { text: 'ok' }]);
		expect(resultsOf(run, 1)[0]).toMatchObject({ message: "Refused: this node's Money Limits do not allow this currency", error: { code: 'CURRENCY_NOT_LIMITED' } });
		expect(lab.emulator.list('payouts').filter((payout) => payout.reference === reference)).toHaveLength(0);
	});

	it("no message to the model carries another payout's details: a reference of someone else's payout is refused by field name only", async () => {
		// No 7 in the random part: the check below looks for the other payout's amount (777) in what the model reads.
		const reference = `agent-clash-${randomUUID().slice(0, 6).replace(/7/g, 'a')}`;
		await agent.run('pay', [{ toolCalls: [{ name: 'Pay_Claim', arguments: args(reference, 777) }] }, { text: 'ok' }]);
		const run = await agent.run('pay', [{ toolCalls: [{ name: 'Pay_Claim', arguments: args(reference, 888) }] }, { text: 'ok' }]);
		const content = toolResults(run.requests[1])[0].content;
		expect(resultOf(content).message).toMatch(new RegExp(`^The reference "${reference}" already belongs to another payout with a different amount`));
		expect(content).not.toMatch(/777|77700|0123456789|po_/);
		expect(lab.emulator.list('payouts').filter((payout) => payout.reference === reference)).toHaveLength(1);
	});
});

describe('without an agent', () => {
	it("an output amount mapped into the next node's Amount pays the same amount", async () => {
		const webhookPath = `e2e-map-${randomUUID().slice(0, 8)}`;
		const first = `map-a-${randomUUID().slice(0, 8)}`;
		const second = `map-b-${randomUUID().slice(0, 8)}`;
		const payoutNode = (name: string, reference: string, amount: unknown) => ({
			...paycashlessNode(lab.good, { resource: 'payout', operation: 'create', reference, amount, currency: 'NGN', destinationAccountNumber: ACCOUNT, bankId: ACCESS_BANK }),
			name,
		});
		await lab.createActiveWorkflow(
			`e2e map ${webhookPath}`,
			[webhookNode(webhookPath), payoutNode('First', first, 1000.07), payoutNode('Second', second, '={{ $json.inMainUnits.amount }}')],
			{ Webhook: { main: [[{ node: 'First', type: 'main', index: 0 }]] }, First: { main: [[{ node: 'Second', type: 'main', index: 0 }]] } },
			[webhookPath],
		);
		const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		expect(response.status).toBe(200);
		const amounts = [first, second].map((reference) => lab.emulator.list('payouts').find((payout) => payout.reference === reference)?.amount);
		expect(amounts).toEqual([100007, 100007]);
	});
});
}
