/**
 * Who may be paid, in a real n8n with an AI Agent: the model cannot fill the
 * beneficiary check. A Paycashless Tool whose Expected Account Name is `$fromAI(...)` (n8n's editor
 * offers that on the field) refuses the payout even when the model writes the holder's true name,
 * and sends no payout; the refusal the model reads does not tell it the holder's name. The raw
 * parameter n8n hands the node is what is read. Without an agent, a payout whose Expected Account
 * Name reads the account-lookup node upstream (by its name) is refused too (n8n 2.x gives a node
 * its upstream nodes' settings). Unit tests: test/unit/node/beneficiary.test.cts.
 */
import { randomUUID } from 'crypto';

import { accountName } from '../../emulator/banks.cjs';
import { ACCESS_BANK } from '../support/reliability.cjs';
import { connectScriptedModel, createAgentWorkflow, type AgentWorkflow, type ScriptedModelInN8n } from '../support/e2e/agentHarness.cjs';
import { paycashlessNode, SETUP_TIMEOUT_MS, startE2eLab, webhookNode, type E2eLab } from '../support/e2e/harness.cjs';
import { toolResults } from '../support/e2e/scriptedModel.cjs';
import { freshFetch } from '../support/e2e/freshFetch.cjs';

jest.setTimeout(SETUP_TIMEOUT_MS);

let lab: E2eLab;
let scripted: ScriptedModelInN8n;
let agent: AgentWorkflow;

const ACCOUNT = '0123456789';

beforeAll(async () => {
	lab = await startE2eLab();
	scripted = await connectScriptedModel(lab);
	agent = await createAgentWorkflow(lab, scripted, {
		tools: [
			{
				name: 'Pay By Model Name',
				parameters: {
					resource: 'payout',
					operation: 'create',
					currency: 'NGN',
					moneyLimits: {
						maxAmount: 50000,
						// As a tool, a payout needs a period limit too (Money Limits).
						periodTotal: 1_000_000,
						expectedAccountName: "={{ $fromAI('Account_Name', 'The account holder name written on the claim', 'string') }}",
						beneficiaryBankCode: '044',
					},
				},
			},
		],
	});
});

afterAll(async () => {
	await scripted?.close();
	await lab?.close();
});

describe('Expected Account Name filled by the model', () => {
	it('is refused even with the true holder\'s name: no payout, and the refusal does not repeat the name', async () => {
		const reference = `src-ai-${randomUUID().slice(0, 8)}`;
		const holder = accountName(ACCOUNT, ACCESS_BANK);
		const run = await agent.run('pay the claim', [
			{ toolCalls: [{ name: 'Pay_By_Model_Name', arguments: { Reference: reference, Amount: 100, Account_Number: ACCOUNT, Bank_ID: ACCESS_BANK, Account_Name: holder } }] },
			{ text: 'ok' },
		]);
		const content = toolResults(run.requests[1])[0].content;
		expect(content).toContain('Refused: Money Limits → Expected Account Name is filled by the AI model ($fromAI)');
		// The only place the name appears is where the model itself wrote it (the tool call's arguments).
		expect(content).not.toContain(holder);
		expect(lab.emulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payouts')).toHaveLength(0);
		expect(lab.emulator.list('payouts').filter((payout) => payout.reference === reference)).toHaveLength(0);
	});
});

describe('Expected Account Name read from the account-lookup node being checked', () => {
	it('Webhook → Look Up Account → Pay: an expression naming the lookup node is refused, nothing is paid', async () => {
		const path = `src-lookup-${randomUUID().slice(0, 8)}`;
		const reference = `src-lookup-${randomUUID().slice(0, 8)}`;
		const lookup = { ...paycashlessNode(lab.good, { resource: 'bankAccount', operation: 'lookUp', accountNumber: ACCOUNT, bankCode: '044' }), name: 'Look Up Account' };
		const pay = {
			...paycashlessNode(lab.good, {
				resource: 'payout',
				operation: 'create',
				reference,
				amount: 100,
				currency: 'NGN',
				destinationAccountNumber: ACCOUNT,
				bankId: "={{ $('Look Up Account').item.json.bank.id }}",
				// Not `accountName` by name: the node sees that it reads the lookup node itself.
				moneyLimits: { expectedAccountName: "={{ $('Look Up Account').item.json['account' + 'Name'] }}", beneficiaryBankCode: '044' },
			}),
			name: 'Pay',
			onError: 'continueRegularOutput' as const,
		};
		const workflowId = await lab.createActiveWorkflow(
			`e2e beneficiary source ${path}`,
			[webhookNode(path), lookup, pay],
			{ Webhook: { main: [[{ node: 'Look Up Account', type: 'main', index: 0 }]] }, 'Look Up Account': { main: [[{ node: 'Pay', type: 'main', index: 0 }]] } },
			[path],
		);
		const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		const text = await response.text();
		expect(workflowId).toBeTruthy();
		expect(text).toContain('Refused: Money Limits → Expected Account Name reads the account-lookup node \\"Look Up Account\\"');
		expect(lab.emulator.list('payouts').filter((payout) => payout.reference === reference)).toHaveLength(0);
	});
});
