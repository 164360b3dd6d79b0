/**
 * The name rule in a real n8n 2.41: an Expected Account Name with an initial never pays a business
 * account that carries the person's name (the initial does not stand for COLLECTIONS, CONCEPTS,
 * NIG), with Allow Middle Names in Account Name off or on, and pays the person whose middle name the
 * initial stands for. Payout → Create in a webhook workflow, the expected name from the posted row
 * (your own records), the holder's name from the emulator's account lookup
 * (emulator/banks.cts NAMED_ACCOUNTS). Every refusal: no payout request reaches the emulator.
 * The rule's table of cases: test/unit/node/beneficiary.test.cts.
 */
import { randomUUID } from 'crypto';

import { ACCESS_BANK } from '../support/reliability.cjs';
import { patience } from '../../scripts/n8n/patience.cjs';
import { paycashlessNode, useE2eLab, webhookNode, type E2eLab } from '../support/e2e/harness.cjs';
import { freshFetch } from '../support/e2e/freshFetch.cjs';

// A test takes up to 30 s alone (scripts/n8n/patience.cts).
jest.setTimeout(patience(30_000));

let lab: E2eLab;
useE2eLab((started) => (lab = started));

/** The holders (emulator/banks.cts NAMED_ACCOUNTS). */
const COLLECTIONS = '0234567802'; // ADA OBI COLLECTIONS
const CONCEPTS = '0234567808'; // ADA OBI CONCEPTS
const NIG_LTD = '0234567809'; // ADA OBI (NIG) LTD
const CHIOMA = '0234567805'; // ADA CHIOMA OBI

/** A webhook workflow paying the posted row with Expected Account Name from the row; returns the answer's text. */
async function payingWorkflow(allowMiddleNames: boolean): Promise<(row: { reference: string; account: string; expected: string }) => Promise<string>> {
	const webhookPath = `payee-names-${randomUUID().slice(0, 8)}`;
	const pay = {
		...paycashlessNode(lab.good, {
			resource: 'payout',
			operation: 'create',
			reference: '={{ $json.body.reference }}',
			amount: 10,
			currency: 'NGN',
			destinationAccountNumber: '={{ $json.body.account }}',
			bankId: ACCESS_BANK,
			moneyLimits: { maxAmount: 1000, expectedAccountName: '={{ $json.body.expected }}', beneficiaryBankCode: '044', ...(allowMiddleNames ? { allowMiddleNames: true } : {}) },
		}),
		name: 'Pay',
		onError: 'continueRegularOutput' as const,
	};
	await lab.createActiveWorkflow(`payee names ${webhookPath}`, [webhookNode(webhookPath), pay], { Webhook: { main: [[{ node: 'Pay', type: 'main', index: 0 }]] } }, [webhookPath]);
	return async (row) => {
		const response = await freshFetch(`${lab.n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(row) });
		expect(response.status).toBe(200);
		return await response.text();
	};
}

const paid = (prefix: string) => lab.emulator.list('payouts').filter((payout) => String(payout.reference).startsWith(prefix));
const payoutPosts = (prefix: string) =>
	lab.emulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payouts' && String((request.body as { reference?: string } | undefined)?.reference).startsWith(prefix));

describe('an Expected Account Name with an initial', () => {
	it.each([false, true])('never pays a business that carries the person\'s name (Allow Middle Names %s); pays the person', async (allowMiddleNames) => {
		const prefix = `initial-${allowMiddleNames ? 'mid' : 'strict'}-${randomUUID().slice(0, 8)}`;
		const pay = await payingWorkflow(allowMiddleNames);
		for (const [k, account] of [COLLECTIONS, CONCEPTS, NIG_LTD].entries()) {
			const text = await pay({ reference: `${prefix}-biz-${k}`, account, expected: 'Ada C. Obi' });
			expect([account, text.includes('NAME_MISMATCH'), text.includes('does not match Expected Account Name')]).toEqual([account, true, true]);
		}
		expect(payoutPosts(prefix)).toHaveLength(0);
		expect(paid(prefix)).toHaveLength(0);
		// The person the initial stands for: ADA CHIOMA OBI.
		expect(await pay({ reference: `${prefix}-person`, account: CHIOMA, expected: 'Ada C. Obi' })).toContain(`${prefix}-person`);
		expect(paid(prefix).map((payout) => payout.reference)).toEqual([`${prefix}-person`]);
	});
});

describe('Allow Middle Names in Account Name', () => {
	it('"Ada Obi" pays ADA CHIOMA OBI, never ADA OBI CONCEPTS or ADA OBI (NIG) LTD', async () => {
		const prefix = `middle-${randomUUID().slice(0, 8)}`;
		const pay = await payingWorkflow(true);
		for (const [k, account] of [CONCEPTS, NIG_LTD, COLLECTIONS].entries()) {
			expect(await pay({ reference: `${prefix}-biz-${k}`, account, expected: 'Ada Obi' })).toContain('NAME_MISMATCH');
		}
		expect(payoutPosts(prefix)).toHaveLength(0);
		expect(await pay({ reference: `${prefix}-person`, account: CHIOMA, expected: 'Ada Obi' })).toContain(`${prefix}-person`);
		expect(paid(prefix)).toHaveLength(1);
	});
});
