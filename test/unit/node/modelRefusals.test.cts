/**
 * What a model learns from a refusal: every refusal an AI agent's tool can read, run as the tool
 * (Payout → Create as "Paycashless Tool" against the emulator or a server answering set shapes),
 * and the result the model reads searched for what it must not learn: a limit's value (in naira,
 * with separators, in kobo), a total, another payout's id, reference, amount or account, an
 * allow-list entry, the bank a payee is checked at, Expected Account Name and the holder's name.
 * The same refusal in the regular node names them to the person (so the searched values are real).
 * The words a model reads are nodes/Paycashless/money/refusal.ts's; the credential's are
 * lib/payoutCeiling.ts's.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunResult } from '../../../scripts/harness/executeContext.cjs';
import { useEmulator } from '../../support/emulator.cjs';
import { ACCOUNT, payoutCreate as payout } from '../../support/nodeRuns.cjs';
import { startFakeServer, type FakeServer } from '../../support/executeFakeServer.cjs';

const emulator = useEmulator();
beforeEach(() => emulator.reset({ payouts: 0, payments: 0, invoices: 0, dedicatedAccounts: 0 }));


/** Limit values no model may read, each in naira. */
const MAX_AMOUNT = 4321.09;
const MAX_TOTAL = 6543.21;
const PERIOD_TOTAL = 8765.43;
/** The forms a value in naira is written in: 4321.09, 4,321.09, 432109 (kobo). */
const forms = (naira: number) => [naira.toFixed(2), naira.toLocaleString('en-US', { minimumFractionDigits: 2 }), String(Math.round(naira * 100))];

const TOOL_LIMITS = { maxAmount: MAX_AMOUNT, periodTotal: PERIOD_TOTAL };


interface Case {
	code: string;
	/** What the model must not read (besides every limit value). */
	secrets: string[];
	/** The refused tool call's output item, and the regular node's refusal of the same call. */
	asTool: IDataObject;
	person: string;
}

async function runAs(parameters: INodeParameters, options: { asTool: boolean; baseUrl?: string; nodeContext?: IDataObject; credentials?: IDataObject }): Promise<RunResult> {
	return await runNode({
		parameters,
		credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: options.baseUrl ?? emulator.baseUrl, ...(options.credentials ?? {}) },
		asTool: options.asTool,
		continueOnFail: !options.asTool,
		...(options.nodeContext ? { nodeContext: options.nodeContext } : {}),
	});
}

/** The tool's refused item and the person's refusal of the same call (each from its own state, made by `before`). */
async function refusedBoth(
	parameters: INodeParameters,
	options: { baseUrl?: string; credentials?: IDataObject; before?: (asTool: boolean) => Promise<IDataObject | undefined> } = {},
): Promise<{ asTool: IDataObject; person: string }> {
	const results: IDataObject[] = [];
	for (const asTool of [true, false]) {
		emulator.reset({ payouts: 0 });
		const nodeContext = options.before ? await options.before(asTool) : undefined;
		const { output } = await runAs(parameters, { asTool, baseUrl: options.baseUrl, credentials: options.credentials, nodeContext });
		results.push(output[0].json);
	}
	return { asTool: results[0], person: JSON.stringify(results[1]) };
}

const cases: Case[] = [];
const limitValues = [MAX_AMOUNT, MAX_TOTAL, PERIOD_TOTAL].flatMap(forms);

/** Every refusal of the tool: what it read, and the secrets of its case. */
function expectNothingLearnt(found: Case): void {
	const told = JSON.stringify(found.asTool);
	expect({ code: (found.asTool.error as IDataObject | undefined)?.code, told }).toEqual({ code: found.code, told });
	const learnt = [...limitValues, ...found.secrets].filter((secret) => told.toUpperCase().includes(secret.toUpperCase()));
	expect({ code: found.code, learnt }).toEqual({ code: found.code, learnt: [] });
}

describe('no refusal tells a tool a limit\'s value or another payout\'s details', () => {
	let fake: FakeServer | undefined;
	afterEach(async () => {
		await fake?.close();
		fake = undefined;
	});

	it('MAX_AMOUNT: the tool learns the amount is above Maximum Amount, not the maximum', async () => {
		const both = await refusedBoth(payout('m-amount', 5000, TOOL_LIMITS));
		expect(both.person).toContain('4,321.09');
		expect(both.asTool.message).toBe("Refused: the amount is above this node's Maximum Amount");
		cases.push({ code: 'MAX_AMOUNT', secrets: [], ...both });
		expectNothingLearnt(cases[cases.length - 1]);
	});

	it('CURRENCY_NOT_LIMITED: not the currency of the limits', async () => {
		const both = await refusedBoth({ ...payout('m-usd', 10, TOOL_LIMITS), currency: 'USD' });
		expect(both.person).toMatch(/Money Limits are in NGN/);
		const found = { code: 'CURRENCY_NOT_LIMITED', secrets: ['in NGN'], ...both };
		expectNothingLearnt(found);
	});

	it('LIMIT_INVALID: not the value a limit is set to', async () => {
		const both = await refusedBoth(payout('m-invalid', 10, { ...TOOL_LIMITS, maxTotal: -6543.21 }));
		expect(both.person).toContain('-6543.21');
		expectNothingLearnt({ code: 'LIMIT_INVALID', secrets: ['6543'], ...both });
	});

	it('MAX_COUNT_EXECUTION and MAX_TOTAL_EXECUTION: not the count, the total or the limit', async () => {
		const before = (limits: INodeParameters, paid: number, amount = 1000) => async (asTool: boolean) => {
			const nodeContext: IDataObject = {};
			for (let k = 0; k < paid; k++) await runAs(payout(`m-before-${asTool ? 't' : 'p'}-${String.fromCharCode(97 + k)}`, amount, limits), { asTool: false, nodeContext });
			return nodeContext;
		};
		const countLimits = { ...TOOL_LIMITS, maxCount: 7 };
		const count = await refusedBoth(payout('m-count', 1000, countLimits), { before: before(countLimits, 7) });
		expect(count.person).toMatch(/already made 7 payouts/);
		expectNothingLearnt({ code: 'MAX_COUNT_EXECUTION', secrets: ['7 payouts', ' 7'], ...count });
		const totalLimits = { ...TOOL_LIMITS, maxTotal: MAX_TOTAL };
		const total = await refusedBoth(payout('m-total', 4000, totalLimits), { before: before(totalLimits, 1, 3000.03) });
		expect(total.person).toContain('6,543.21');
		expectNothingLearnt({ code: 'MAX_TOTAL_EXECUTION', secrets: ['3,000.03', '7,000.03', '300003'], ...total });
	});

	it('MAX_TOTAL_PERIOD and MAX_COUNT_PERIOD: not the account\'s total, count, what is left, nor the payouts made', async () => {
		const others: string[] = [];
		const before = (limits: INodeParameters) => async () => {
			for (const [k, amount] of [4000.01, 4000.02].entries()) await runAs(payout(`m-other-payout-${k}`, amount, limits), { asTool: false, nodeContext: {} });
			for (const made of emulator.list('payouts')) others.push(String(made.id), String(made.reference), String(made.amount));
			return undefined;
		};
		const total = await refusedBoth(payout('m-period', 1000, TOOL_LIMITS), { before: before(TOOL_LIMITS) });
		expect(total.person).toContain('8,765.43');
		expectNothingLearnt({ code: 'MAX_TOTAL_PERIOD', secrets: [...others, '4,000.01', '8,000.03', '9,000.03', '765.40'], ...total });
		const countLimits = { ...TOOL_LIMITS, periodCount: 1 };
		const count = await refusedBoth(payout('m-period-count', 1, countLimits), { before: before(countLimits) });
		expectNothingLearnt({ code: 'MAX_COUNT_PERIOD', secrets: [...others, '1 payouts'], ...count });
	});

	it('PERIOD_UNREADABLE: not the listed payout it cannot read (its id, reference, amount, account)', async () => {
		fake = await startFakeServer((request) =>
			request.path === '/v1/payouts' && request.method === 'GET'
				? { body: { data: [{ id: 'po_other_secret_1', reference: 'other-ref-secret', amount: 'a lot', currency: 'NGN', status: 'pending', destinationAccountNumber: '5555555555' }], hasMore: false } }
				: { status: 500, body: { message: 'no payout may reach this server' } },
		);
		const both = await refusedBoth(payout('m-unreadable', 10, TOOL_LIMITS), { baseUrl: fake.baseUrl });
		expect(both.person).toContain('po_other_secret_1');
		expectNothingLearnt({ code: 'PERIOD_UNREADABLE', secrets: ['po_other_secret_1', 'other-ref-secret', '5555555555', 'a lot'], ...both });
		expect(fake.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
	});

	it('ALLOWED_ENTRY_INVALID and ACCOUNT_NOT_ALLOWED: no entry of the allow list', async () => {
		const invalid = await refusedBoth(payout('m-entry', 10, { ...TOOL_LIMITS, allowedAccounts: '8888888881, 8888888883@058' }));
		expect(invalid.person).toContain('8888888881');
		expectNothingLearnt({ code: 'ALLOWED_ENTRY_INVALID', secrets: ['8888888881', '8888888883'], ...invalid });
		const notAllowed = await refusedBoth(payout('m-not-allowed', 10, { ...TOOL_LIMITS, allowedAccounts: '8888888882@058' }));
		expectNothingLearnt({ code: 'ACCOUNT_NOT_ALLOWED', secrets: ['8888888882'], ...notAllowed });
	});

	it('BANK_MISMATCH, NAME_MISMATCH, LOOKUP_FAILED: not the bank the payee is checked at, Expected Account Name or the holder\'s name', async () => {
		const bank = await refusedBoth(payout('m-bank', 10, { ...TOOL_LIMITS, expectedAccountName: 'Chidinma Expected', beneficiaryBankCode: '058' }));
		expect(bank.person).toContain('bank code 058');
		expectNothingLearnt({ code: 'BANK_MISMATCH', secrets: ['058', 'Chidinma', 'Expected Account Name is'], ...bank });
		const lookup = await runAs({ resource: 'bankAccount', operation: 'lookUp', accountNumber: ACCOUNT, bankCode: '044' }, { asTool: false });
		const holder = String(lookup.output[0].json.accountName);
		const name = await refusedBoth(payout('m-name', 10, { ...TOOL_LIMITS, expectedAccountName: 'Chidinma Expected', beneficiaryBankCode: '044' }));
		expect(name.person).toContain(holder);
		expectNothingLearnt({ code: 'NAME_MISMATCH', secrets: ['044', 'Chidinma', ...holder.split(' ')], ...name });
		const missing = await refusedBoth({ ...payout('m-missing', 10, { ...TOOL_LIMITS, expectedAccountName: 'Chidinma Expected', beneficiaryBankCode: '044' }), destinationAccountNumber: '0001234567' });
		expectNothingLearnt({ code: 'LOOKUP_FAILED', secrets: ['044', 'Chidinma'], ...missing });
	});

	it('LOOKUP_WITHOUT_BANK: not the bank code', async () => {
		fake = await startFakeServer((request) => (request.path === '/v1/banks/account_lookup' ? { body: { accountNumber: ACCOUNT, accountName: 'ADA OBI' } } : { status: 500, body: {} }));
		const both = await refusedBoth(payout('m-nobank', 10, { ...TOOL_LIMITS, expectedAccountName: 'Ada Obi', beneficiaryBankCode: '044' }), { baseUrl: fake.baseUrl });
		expectNothingLearnt({ code: 'LOOKUP_WITHOUT_BANK', secrets: ['044', 'ADA OBI'], ...both });
	});

	it('the refusals that tell the model only what it sent or which field: no limit value either', async () => {
		const notSet = await refusedBoth(payout('m-notset', 10, { maxAmount: MAX_AMOUNT, maxTotal: MAX_TOTAL }));
		expectNothingLearnt({ code: 'LIMIT_NOT_SET', secrets: [], ...notSet });
		const expression = await refusedBoth(payout('m-expr', 10, { ...TOOL_LIMITS, maxTotal: '={{ 6543.21 }}' }));
		expectNothingLearnt({ code: 'LIMIT_EXPRESSION', secrets: [], ...expression });
		const untrusted = await refusedBoth(payout('m-ai', 10, { ...TOOL_LIMITS, expectedAccountName: "={{ $fromAI('Name') }} Chidinma" }));
		expectNothingLearnt({ code: 'BENEFICIARY_UNTRUSTED', secrets: ['Chidinma'], ...untrusted });
		const unreadable = await refusedBoth(payout('m-body', 10, TOOL_LIMITS, { additionalFields: { additionalBodyJson: '{"Amount": {"value": 1, "currency": "NGN"}}' } }));
		expectNothingLearnt({ code: 'AMOUNT_UNREADABLE', secrets: [], ...unreadable });
		const reused = await refusedBoth(payout('m-reused', 20, TOOL_LIMITS), {
			before: async () => {
				const nodeContext: IDataObject = {};
				await runAs(payout('m-reused', 3333.33, TOOL_LIMITS), { asTool: false, nodeContext });
				return nodeContext;
			},
		});
		expectNothingLearnt({ code: 'REFERENCE_REUSED', secrets: ['3,333.33', '333333'], ...reused });
	});

	it('REFERENCE_MISMATCH (the transport): a reference Paycashless has for another payout, never that payout\'s id, amount or account', async () => {
		const both = await refusedBoth(payout('m-taken', 10, TOOL_LIMITS), {
			before: async () => {
				await runAs({ ...payout('m-taken', 3210.99, TOOL_LIMITS), destinationAccountNumber: '0234567801' }, { asTool: false, nodeContext: {} });
				return undefined;
			},
		});
		const other = emulator.list('payouts').find((made) => made.reference === 'm-taken');
		expect(other).toMatchObject({ amount: 321_099, destinationAccountNumber: '0234567801' });
		expect(emulator.list('payouts').filter((made) => made.reference === 'm-taken')).toHaveLength(1);
		expectNothingLearnt({ code: 'REFERENCE_MISMATCH', secrets: [String(other?.id), '3,210.99', '321099', '0234567801', 'ADA OBI'], ...both });
	});

	it('a code without words of its own reads as a generic refusal naming only the code', async () => {
		const { refuse } = await import('../../../nodes/Paycashless/money/refusal');
		const { MoneyRun } = await import('../../../nodes/Paycashless/money/run');
		const context = { getNode: () => ({ name: 'Tool', type: 'n8n-nodes-paycashless.paycashlessTool', parameters: {} }) } as never;
		let thrown: Error & { description?: string } = new Error('none');
		try {
			refuse(new MoneyRun(context, {} as never), 0, 'SOME_NEW_LIMIT', 'Refused: NGN 9,999.99 is above the new limit of NGN 1,234.56', 'po_other_1 was paid');
		} catch (error) {
			thrown = error as Error & { description?: string };
		}
		expect([thrown.message, thrown.description]).toEqual(["Refused by this node's Money Limits (SOME_NEW_LIMIT)", 'Nothing was sent. Only the person who set up this workflow can change Money Limits; an AI agent cannot.']);
	});
});

describe('the credential\'s refusals name the amount refused and the setting, never its value', () => {
	it('above the Maximum Payout, and a Maximum Payout that cannot be read: the tool (and the person) never read the ceiling', async () => {
		for (const [settings, secrets, code] of [
			[{ maxPayoutNgn: 1234.56 }, forms(1234.56), 'PAYCASHLESS_CREDENTIAL_REFUSED'],
			[{ maxPayoutNgn: '1234.567' }, ['1234.567', '1,234.56'], 'PAYCASHLESS_CREDENTIAL_REFUSED'],
		] as const) {
			emulator.reset({ payouts: 0 });
			const { output } = await runAs(payout('m-ceiling', 2000, TOOL_LIMITS), { asTool: true, credentials: settings });
			const told = JSON.stringify(output[0].json);
			expect(told).toMatch(/Refused by the Paycashless credential/);
			expect((output[0].json.error as IDataObject).code).toBe(code);
			expect(secrets.filter((secret) => told.includes(secret))).toEqual([]);
			expect(emulator.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
		}
	});
});
