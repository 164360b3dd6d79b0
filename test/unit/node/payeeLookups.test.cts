/**
 * Account lookups shared by one execution (nodes/Paycashless/money/lookups.ts), against the
 * emulator: Bank Account → Look Up keeps its answer for the payee checks of the same execution
 * (n8n's flow context, shared here by the runs of one "execution"), items checked side by side
 * share one request, and an answer is not reused when it is older than an hour (a long approval
 * wait), came from another credential, or was never given (a failed lookup). The payroll flow's
 * count in n8n's engine: test/engine/payeeLookups.test.cts.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { REUSE_FOR_MS } from '../../../nodes/Paycashless/money/lookups';
import { runNode, type RunResult } from '../../../scripts/harness/executeContext.cjs';
import { useEmulator } from '../../support/emulator.cjs';
import { startFakeServer } from '../../support/executeFakeServer.cjs';

const emulator = useEmulator();
beforeEach(() => emulator.reset({ payouts: 0 }));

const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';
const ACCOUNT = '0234567805'; // ADA CHIOMA OBI (emulator/banks.cts)

const lookUp: INodeParameters = { resource: 'bankAccount', operation: 'lookUp', accountNumber: ACCOUNT, bankCode: '044' };
const payout = (reference: string, moneyLimits: INodeParameters = { expectedAccountName: 'Ada Chioma Obi', beneficiaryBankCode: '044' }): INodeParameters => ({
	resource: 'payout',
	operation: 'create',
	reference,
	amount: 10,
	currency: 'NGN',
	destinationAccountNumber: ACCOUNT,
	bankId: ACCESS_BANK,
	moneyLimits,
});

async function run(parameters: INodeParameters | INodeParameters[], flowContext: IDataObject, options: { baseUrl?: string; apiKey?: string; continueOnFail?: boolean } = {}): Promise<RunResult> {
	return await runNode({
		parameters,
		credentials: { apiKey: options.apiKey ?? emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: options.baseUrl ?? emulator.baseUrl },
		flowContext,
		continueOnFail: options.continueOnFail ?? false,
	});
}

const lookups = () => emulator.requests.filter((request) => request.path === '/v1/banks/account_lookup').length;

describe('one account lookup per payee in an execution', () => {
	it('Look Up keeps its answer: the payout\'s name check of the same execution sends no lookup; a new execution looks up again', async () => {
		const execution: IDataObject = {};
		await run(lookUp, execution);
		await run(payout('shared-1'), execution);
		expect(lookups()).toBe(1);
		expect(emulator.list('payouts')).toHaveLength(1);
		await run(payout('shared-2'), {});
		expect(lookups()).toBe(2);
	});

	it('a kept answer still refuses a payee whose name does not match; Allowed Destination Accounts and the name check share it', async () => {
		const execution: IDataObject = {};
		await run(lookUp, execution);
		const refused = await run(payout('shared-wrong', { expectedAccountName: 'Somebody Else', beneficiaryBankCode: '044', allowedAccounts: `${ACCOUNT}@044` }), execution, { continueOnFail: true });
		expect((refused.output[0].json.error as IDataObject).code).toBe('NAME_MISMATCH');
		expect(lookups()).toBe(1);
		expect(emulator.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
	});

	it('50 items to one payee, checked side by side: one lookup', async () => {
		const items = Array.from({ length: 50 }, (_, k) => ({ ...payout(`same-${k}`), concurrency: 50 }));
		await run(items, {});
		expect(lookups()).toBe(1);
		expect(emulator.list('payouts')).toHaveLength(50);
	});

	it('an answer older than an hour (a long approval wait) is looked up again at the moment of payment', async () => {
		expect(REUSE_FOR_MS).toBe(60 * 60_000);
		const execution: IDataObject = {};
		await run(lookUp, execution);
		const kept = execution.paycashlessAccountLookups as Record<string, [string, string, number]>;
		const [key] = Object.keys(kept);
		expect(kept[key].slice(0, 2)).toEqual(['ADA CHIOMA OBI', ACCESS_BANK]);
		kept[key][2] -= REUSE_FOR_MS + 1;
		await run(payout('stale-1'), execution);
		expect(lookups()).toBe(2);
		// An answer "from the future" (another process's clock ahead) is not reused either.
		kept[key][2] = Date.now() + 60_000;
		await run(payout('future-1'), execution);
		expect(lookups()).toBe(3);
	});

	it('another credential (another API key or Base URL) looks up for itself', async () => {
		const execution: IDataObject = {};
		await run(lookUp, execution);
		await run(payout('other-key-1'), execution, { apiKey: `${emulator.apiKey}-other` }).catch(() => undefined);
		expect(lookups()).toBe(2);
	});

	it('a failed lookup, or one that names no bank, is not kept: the next check asks again', async () => {
		const fake = await startFakeServer((request, index) =>
			request.path === '/v1/banks/account_lookup'
				? index === 0
					? { status: 503, body: { message: 'try later' } }
					: { body: { accountNumber: ACCOUNT, accountName: 'ADA CHIOMA OBI' } }
				: { status: 400, body: { message: 'the test stops here' } },
		);
		try {
			const execution: IDataObject = {};
			await run({ ...lookUp }, execution, { baseUrl: fake.baseUrl }).catch(() => undefined);
			await run(payout('no-bank-1'), execution, { baseUrl: fake.baseUrl, continueOnFail: true });
			await run(payout('no-bank-2'), execution, { baseUrl: fake.baseUrl, continueOnFail: true });
			expect(fake.requests.filter((request) => request.path === '/v1/banks/account_lookup').length).toBeGreaterThanOrEqual(3);
			expect(Object.keys((execution.paycashlessAccountLookups as IDataObject | undefined) ?? {})).toEqual([]);
		} finally {
			await fake.close();
		}
	});
});
