/**
 * The credential's payout ceiling in a real n8n: n8n's HTTP Request node with the
 * predefined credential type "Paycashless API" POSTs /v1/payouts itself, past every node's Money
 * Limits. Above the credential's Maximum Payout the emulator receives no payout request; at it the
 * payout is made; with Payouts off none is. The Paycashless node with the same credential shows the
 * credential's refusal as its error. Unit tests: test/unit/credentials/credentialCeiling.test.cts.
 */
import { randomUUID } from 'crypto';

import { ACCESS_BANK } from '../support/reliability.cjs';
import { paycashlessNode, SETUP_TIMEOUT_MS, startE2eLab, type CredentialRef, type E2eLab } from '../support/e2e/harness.cjs';

jest.setTimeout(120_000);

let lab: E2eLab;
let ceiling: CredentialRef;
let off: CredentialRef;

/** A Paycashless credential on the lab's emulator with extra fields (the ceiling). */
async function credentialWith(name: string, extra: Record<string, unknown>): Promise<CredentialRef> {
	const { apiKey, apiSecret, baseUrl } = lab.emulator;
	const created = await lab.session.api<{ id: string; name: string }>('POST', '/credentials', {
		name: `${name} ${randomUUID().slice(0, 8)}`,
		type: 'paycashlessApi',
		data: { apiKey, apiSecret, baseUrl, bodilessSigning: 'documented', ...extra },
	});
	return { id: created.id, name: created.name };
}

beforeAll(async () => {
	lab = await startE2eLab();
	ceiling = await credentialWith('Paycashless ceiling NGN 1,000', { payouts: 'allowed', maxPayoutNgn: 1000, maxPayoutUsd: 0 });
	off = await credentialWith('Paycashless payouts off', { payouts: 'off' });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await lab?.close();
}, 60_000);

const payoutPosts = () => lab.emulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payouts');
const paidWith = (reference: string) => lab.emulator.list('payouts').filter((payout) => payout.reference === reference);

/** n8n's HTTP Request node (4.2) POSTing a payout body (amount in kobo, as the API takes it) with `credential`. */
function httpPayout(credential: CredentialRef, reference: string, kobo: number) {
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'paycashlessApi',
			method: 'POST',
			url: `${lab.emulator.baseUrl}/v1/payouts`,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: JSON.stringify({ reference, amount: { value: kobo, currency: 'NGN' }, destinationAccountNumber: '0123456789', bankId: ACCESS_BANK }),
			options: {},
		},
		credentials: { paycashlessApi: credential },
	};
}

describe('the credential\'s Maximum Payout holds for n8n\'s HTTP Request node', () => {
	it('above it (NGN 1,000.01 = 100001 kobo): refused with the amount in naira, and the emulator receives no payout', async () => {
		lab.emulator.clearLogs();
		const reference = `http-over-${randomUUID().slice(0, 8)}`;
		const items = await lab.runNode(httpPayout(ceiling, reference, 100_001));
		expect(JSON.stringify(items)).toContain('Refused by the Paycashless credential: NGN 1,000.01 is above its Maximum Payout of NGN 1,000.00');
		expect(JSON.stringify(items)).not.toContain(lab.emulator.apiSecret);
		expect(payoutPosts()).toHaveLength(0);
		expect(paidWith(reference)).toHaveLength(0);
	});

	it('at it (NGN 1,000.00): signed, sent and paid once', async () => {
		lab.emulator.clearLogs();
		const reference = `http-at-${randomUUID().slice(0, 8)}`;
		const items = await lab.runNode(httpPayout(ceiling, reference, 100_000));
		expect(items).toEqual([expect.objectContaining({ reference, status: 'pending' })]);
		expect(payoutPosts()).toEqual([expect.objectContaining({ status: 202 })]);
		expect(paidWith(reference)).toEqual([expect.objectContaining({ amount: 100_000 })]);
	});

	it('Payouts off: even NGN 1 is refused and nothing is sent; a lookup with the same credential still works', async () => {
		lab.emulator.clearLogs();
		const reference = `http-off-${randomUUID().slice(0, 8)}`;
		const items = await lab.runNode(httpPayout(off, reference, 100));
		expect(JSON.stringify(items)).toContain('Refused by the Paycashless credential: payouts are switched off');
		expect(payoutPosts()).toHaveLength(0);
		const lookup = await lab.runNode(paycashlessNode(off, { resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: '044' }));
		expect(lookup).toEqual([expect.objectContaining({ accountNumber: '0123456789', bank: expect.objectContaining({ id: ACCESS_BANK }) })]);
	});

	it('the Paycashless node with that credential: the credential\'s refusal is its error, and it sends nothing (no retry, no look-up by reference)', async () => {
		lab.emulator.clearLogs();
		const reference = `node-over-${randomUUID().slice(0, 8)}`;
		const items = await lab.runNode(
			paycashlessNode(ceiling, { resource: 'payout', operation: 'create', reference, amount: 1500, currency: 'NGN', destinationAccountNumber: '0123456789', bankId: ACCESS_BANK }),
		);
		expect(JSON.stringify(items)).toContain('Refused by the Paycashless credential: NGN 1,500.00 is above its Maximum Payout of NGN 1,000.00');
		expect(lab.emulator.requests).toHaveLength(0);
	});
});
