/**
 * Each payee looked up once per execution, in n8n's own engine (2.41 and 1.123): the payroll flow
 * docs/payroll.md recommends (Look Up Account → Check Batch with Expected Account Name and a period
 * total → Payout → Create with All or Nothing and the check's batch hash, the approval left out:
 * Approve Without Login)
 * makes one account lookup per row, where every check of the same execution used to look the payee
 * up again (4 per row: the Look Up node, Check Batch's name check, All or Nothing's check, the money
 * step). The lookup is shared through the execution's own context (nodes/Paycashless/money/
 * lookups.ts), so the checks still hold: a row whose name does not match is refused and nothing is
 * paid. Likewise each reference is asked once (nodes/Paycashless/money/references.ts): Check Batch
 * asks them all at once, and All or Nothing right after it takes its "no such payout" answers. The
 * emulator's request log counts the requests per row.
 */
import type { IDataObject } from 'n8n-workflow';

import { accountName } from '../../emulator/banks.cjs';
import { CREDENTIAL_TYPE } from '../../scripts/n8n/lab.cjs';
import { ENGINE_N8N, paycashlessEngineNode, runWorkflow } from '../support/engine/engine.cjs';
import { useEmulator } from '../support/emulator.cjs';
import { ACCESS_BANK } from '../support/reliability.cjs';

jest.setTimeout(120_000);

const emulator = useEmulator({ callbackRetries: 0 });

function credentials() {
	return { [CREDENTIAL_TYPE]: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl, bodilessSigning: 'documented' } };
}

const ROWS = 30;
const rowsOf = (prefix: string) =>
	Array.from({ length: ROWS }, (_, k) => {
		const accountNumber = String(2_100_000_000 + k * 7_919);
		return { reference: `${prefix}-${k}`, amountNaira: 1000 + k, accountNumber, bankCode: '044', name: accountName(accountNumber, ACCESS_BANK) };
	});

const LIMITS = {
	maxAmount: 100_000,
	periodTotal: 10_000_000,
	expectedAccountName: "={{ $('Start').item.json.name }}",
	beneficiaryBankCode: "={{ $('Start').item.json.bankCode }}",
};
const PAYOUT_FIELDS = {
	reference: "={{ $('Start').item.json.reference }}",
	amount: "={{ $('Start').item.json.amountNaira }}",
	currency: 'NGN',
	destinationAccountNumber: '={{ $json.accountNumber }}',
	bankId: '={{ $json.bank.id }}',
	moneyLimits: LIMITS,
};

/** Start (the rows) → Look Up Account → Check Batch, and Look Up Account → Pay Salaries (All or Nothing, the check's hash). */
async function payroll(rows: IDataObject[]) {
	return await runWorkflow({
		nodes: [
			{ name: 'Start', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
			paycashlessEngineNode('Look Up Account', { resource: 'bankAccount', operation: 'lookUp', accountNumber: "={{ $json.accountNumber }}", bankCode: '={{ $json.bankCode }}' }),
			paycashlessEngineNode('Check Batch', { resource: 'payout', operation: 'checkBatch', ...PAYOUT_FIELDS }),
			paycashlessEngineNode('Pay Salaries', {
				resource: 'payout',
				operation: 'create',
				...PAYOUT_FIELDS,
				batchOptions: { allOrNothing: true, approvedBatchHash: "={{ $('Check Batch').first().json.batchHash }}", approveWithoutLogin: true },
			}, { onError: 'continueRegularOutput' }),
		],
		connections: {
			Start: { main: [[{ node: 'Look Up Account', type: 'main', index: 0 }]] },
			'Look Up Account': { main: [[{ node: 'Check Batch', type: 'main', index: 0 }, { node: 'Pay Salaries', type: 'main', index: 0 }]] },
		},
		input: rows.map((json) => ({ json })),
		credentials: credentials(),
	});
}

const lookups = () => emulator.requests.filter((request) => request.path === '/v1/banks/account_lookup');

describe(`the payroll flow in n8n ${ENGINE_N8N.version}'s engine: one account lookup per payee`, () => {
	it(`${ROWS} rows: Look Up, Check Batch and All or Nothing make ${ROWS} account lookups and ${ROWS} reference lookups, and pay the ${ROWS}`, async () => {
		emulator.reset({ payouts: 0 });
		const rows = rowsOf('lookups-once');
		const result = await payroll(rows);
		expect(result.order).toEqual(['Start', 'Look Up Account', 'Check Batch', 'Pay Salaries']);
		expect(result.output('Check Batch')[0].json).toMatchObject({ fits: true, count: ROWS });
		const requests = emulator.requests.length;
		const byKind = {
			accountLookups: lookups().length,
			referenceLookups: emulator.requests.filter((request) => request.path.startsWith('/v1/payouts/verify/')).length,
			creates: emulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payouts').length,
			lists: emulator.requests.filter((request) => request.method === 'GET' && request.path === '/v1/payouts').length,
		};
		process.stdout.write(`payroll flow, ${ROWS} rows, n8n ${ENGINE_N8N.version}: ${JSON.stringify(byKind)}, ${(requests / ROWS).toFixed(2)} requests per row\n`);
		expect(byKind.accountLookups).toBe(ROWS);
		expect(byKind.referenceLookups).toBe(ROWS);
		expect(byKind.creates).toBe(ROWS);
		// Each account looked up once (account number + bank code).
		expect(new Set(lookups().map((request) => `${String(request.query.accountNumber)}@${String(request.query.bankCode)}`)).size).toBe(ROWS);
		expect(emulator.list('payouts').filter((payout) => String(payout.reference).startsWith('lookups-once-'))).toHaveLength(ROWS);
	});

	it('the checks still hold on a shared lookup: a wrong name is refused by the check and nothing is paid', async () => {
		emulator.reset({ payouts: 0 });
		const rows = rowsOf('lookups-wrong').map((row, k) => (k === 7 ? { ...row, name: 'Somebody Else' } : row));
		const result = await payroll(rows);
		const summary = result.output('Check Batch')[0].json;
		expect(summary).toMatchObject({ fits: false, refusedCount: 1, refused: [expect.objectContaining({ row: 8, code: 'NAME_MISMATCH' })] });
		expect(emulator.list('payouts').filter((payout) => String(payout.reference).startsWith('lookups-wrong-'))).toHaveLength(0);
		expect(lookups()).toHaveLength(ROWS);
	});
});
