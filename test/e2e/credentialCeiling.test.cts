/**
 * The credential's payout ceiling in a real n8n: n8n's HTTP Request node with the
 * predefined credential type "Paycashless API" POSTs /v1/payouts itself, past every node's Money
 * Limits. Above the credential's Maximum Payout the emulator receives no payout request; at it the
 * payout is made; with Payouts off none is. The same with PUT (the signature does not cover the
 * method, so a signed PUT could be replayed as a POST). A request to another host (a server this
 * test starts on another port) is refused before signing and that server receives nothing. The
 * Paycashless node with the same credential shows the credential's refusal as its error. A payout
 * body sent to another path of the emulator is held to the ceiling too. A credential whose
 * Maximum Payout or Payouts setting cannot be read (stored through n8n's REST API, as an import
 * would) refuses every payout, and its Test says why.
 * Unit tests: test/unit/credentials/credentialCeiling.test.cts, payoutRequest.test.cts.
 */
import { randomUUID } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';

import { ACCESS_BANK } from '../support/reliability.cjs';
import { patience } from '../../scripts/n8n/patience.cjs';
import { paycashlessNode, SETUP_TIMEOUT_MS, startE2eLab, TEARDOWN_TIMEOUT_MS, type CredentialRef, type E2eLab } from '../support/e2e/harness.cjs';

// A test takes up to 20 s alone (scripts/n8n/patience.cts).
jest.setTimeout(patience(20_000));

let lab: E2eLab;
let ceiling: CredentialRef;
let off: CredentialRef;
/** Maximum Payout (NGN) stored as text that is not a number; Payouts stored as "OFF". */
let malformed: CredentialRef;
let payoutsOffUpperCase: CredentialRef;
/** Another origin on this machine (127.0.0.1, another port): what it receives. */
let elsewhere: http.Server;
let elsewhereUrl: string;
const receivedElsewhere: Array<{ method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }> = [];

/** A Paycashless credential on the lab's emulator with extra fields (the ceiling). */
async function credentialWith(name: string, extra: Record<string, unknown>, unchecked = false): Promise<CredentialRef> {
	const { apiKey, apiSecret, baseUrl } = lab.emulator;
	const credential = { name: `${name} ${randomUUID().slice(0, 8)}`, type: 'paycashlessApi', data: { apiKey, apiSecret, baseUrl, bodilessSigning: 'documented', ...extra } };
	const created = unchecked
		? await lab.session.rest<{ id: string; name: string }>('POST', '/rest/credentials', credential)
		: await lab.session.api<{ id: string; name: string }>('POST', '/credentials', credential);
	return { id: created.id, name: created.name };
}

beforeAll(async () => {
	lab = await startE2eLab();
	ceiling = await credentialWith('Paycashless ceiling NGN 1,000', { payouts: 'allowed', maxPayoutNgn: 1000, maxPayoutUsd: 0 });
	off = await credentialWith('Paycashless payouts off', { payouts: 'off' });
	// n8n's public API checks the fields' types; its editor's REST endpoint stores what it is given, as an import would.
	malformed = await credentialWith('Paycashless ceiling abc', { payouts: 'allowed', maxPayoutNgn: 'abc', maxPayoutUsd: 0 }, true);
	payoutsOffUpperCase = await credentialWith('Paycashless payouts OFF', { payouts: 'OFF' }, true);
	elsewhere = http.createServer((request, response) => {
		let body = '';
		request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
		request.on('end', () => {
			receivedElsewhere.push({ method: request.method, url: request.url, headers: request.headers, body });
			response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
		});
	});
	await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
	elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await new Promise<void>((resolve) => (elsewhere ? elsewhere.close(() => resolve()) : resolve()));
	await lab?.close();
}, TEARDOWN_TIMEOUT_MS);

const payoutPosts = () => lab.emulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payouts');
const paidWith = (reference: string) => lab.emulator.list('payouts').filter((payout) => payout.reference === reference);

/**
 * n8n's HTTP Request node (4.2) sending a payout body (amount in kobo, as the API takes it) with
 * `credential`: POST to the emulator's /v1/payouts unless `method` or `url` say otherwise.
 */
function httpPayout(credential: CredentialRef, reference: string, kobo: number, request: { method?: string; url?: string } = {}) {
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'paycashlessApi',
			method: request.method ?? 'POST',
			url: request.url ?? `${lab.emulator.baseUrl}/v1/payouts`,
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
		expect(JSON.stringify(items)).toContain('Refused by the Paycashless credential: NGN 1,000.01 is above its Maximum Payout (NGN)');
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
		expect(JSON.stringify(items)).toContain('Refused by the Paycashless credential: NGN 1,500.00 is above its Maximum Payout (NGN)');
		expect(lab.emulator.requests).toHaveLength(0);
	});
});

describe('what the credential signs is what it checked, wherever it goes', () => {
	it('PUT with a payout body to /v1/payouts above the ceiling: refused as a payout, and the emulator receives nothing', async () => {
		lab.emulator.clearLogs();
		const reference = `http-put-${randomUUID().slice(0, 8)}`;
		const items = await lab.runNode(httpPayout(ceiling, reference, 500_000_000, { method: 'PUT' }));
		expect(JSON.stringify(items)).toContain('Refused by the Paycashless credential: NGN 5,000,000.00 is above its Maximum Payout (NGN) (a PUT with a body to /v1/payouts is signed as a payout');
		expect(lab.emulator.requests).toHaveLength(0);
		expect(paidWith(reference)).toHaveLength(0);
	});

	it('PUT with a payout body and Payouts off: refused, the emulator receives nothing', async () => {
		lab.emulator.clearLogs();
		const items = await lab.runNode(httpPayout(off, `http-put-off-${randomUUID().slice(0, 8)}`, 100, { method: 'PUT' }));
		expect(JSON.stringify(items)).toContain('Refused by the Paycashless credential: payouts are switched off (a PUT with a body');
		expect(lab.emulator.requests).toHaveLength(0);
	});

	it('a payout body to another host (127.0.0.1 on another port): refused before signing, with why; that server receives nothing; so with Payouts off', async () => {
		lab.emulator.clearLogs();
		receivedElsewhere.length = 0;
		for (const [credential, method] of [
			[lab.good, 'POST'],
			[ceiling, 'POST'],
			[off, 'PUT'],
		] as const) {
			const items = await lab.runNode(httpPayout(credential, `elsewhere-${randomUUID().slice(0, 8)}`, 100, { method, url: `${elsewhereUrl}/v1/payouts` }));
			const shown = JSON.stringify(items);
			expect(shown).toContain(`Refused by the Paycashless credential: it signs only requests to ${new URL(lab.emulator.baseUrl).origin}, and this one goes to ${elsewhereUrl}`);
			expect(shown).not.toContain(lab.emulator.apiSecret);
		}
		expect(receivedElsewhere).toEqual([]);
		expect(lab.emulator.requests).toHaveLength(0);
	});
});

describe('the credential Test with a Base URL it will not sign for', () => {
	it('without https:// the Test says to correct the Base URL (n8n shows the message, not a bare code)', async () => {
		const stored = await lab.session.rest<{ id: string; name: string; type: string; data: Record<string, unknown> }>('GET', `/rest/credentials/${lab.good.id}?includeData=true`);
		const result = await lab.session.rest<{ status: string; message: string }>('POST', '/rest/credentials/test', {
			credentials: { id: stored.id, name: stored.name, type: stored.type, data: { ...stored.data, baseUrl: lab.emulator.baseUrl.replace(/^http:\/\//, '') } },
		});
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^Refused by the Paycashless credential: its Base URL is not a web address starting with https:\/\/.*Correct the Base URL/) });
		expect(JSON.stringify(result)).not.toContain(lab.emulator.apiSecret);
	});
});


describe('a body is judged by what it would do: a payout body to another path', () => {
	it('POST /v1/transfers with a payout body above the ceiling: refused, the emulator receives nothing; with payouts off too', async () => {
		lab.emulator.clearLogs();
		const url = `${lab.emulator.baseUrl}/v1/transfers`;
		const over = await lab.runNode(httpPayout(ceiling, `elsewhere-over-${randomUUID().slice(0, 8)}`, 100_001, { url }));
		expect(JSON.stringify(over)).toContain('Refused by the Paycashless credential: NGN 1,000.01 is above its Maximum Payout (NGN) (its body carries a destination account and an amount: a payout, wherever it is sent)');
		const offItems = await lab.runNode(httpPayout(off, `elsewhere-off-${randomUUID().slice(0, 8)}`, 100, { url, method: 'PATCH' }));
		expect(JSON.stringify(offItems)).toContain('Refused by the Paycashless credential: payouts are switched off (its body carries');
		expect(lab.emulator.requests).toHaveLength(0);
	});

	it('at the ceiling it is signed and sent (the emulator\'s echo checks the signature)', async () => {
		lab.emulator.clearLogs();
		const items = await lab.runNode(httpPayout(ceiling, `echo-${randomUUID().slice(0, 8)}`, 100_000, { url: `${lab.emulator.baseUrl}/v1/emulator/echo` }));
		expect(JSON.stringify(items)).not.toContain('Refused');
		expect(lab.emulator.requests.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual(['POST /v1/emulator/echo 200']);
	});
});

describe('payout settings that cannot be read refuse every payout', () => {
	it('Maximum Payout (NGN) "abc" and Payouts "OFF": even NGN 1 is refused, saying which setting; the emulator receives nothing; a lookup still works', async () => {
		lab.emulator.clearLogs();
		for (const [credential, why] of [
			[malformed, 'its Maximum Payout (NGN) is set but is not an amount in naira, so it refuses every payout'],
			[payoutsOffUpperCase, 'its Payouts setting is neither Allowed nor Off, so it refuses every payout'],
		] as const) {
			const reference = `malformed-${randomUUID().slice(0, 8)}`;
			const items = await lab.runNode(httpPayout(credential, reference, 100));
			expect(JSON.stringify(items)).toContain(`Refused by the Paycashless credential: ${why}`);
			const node = await lab.runNode(
				paycashlessNode(credential, { resource: 'payout', operation: 'create', reference: `${reference}-node`, amount: 1, currency: 'NGN', destinationAccountNumber: '0123456789', bankId: ACCESS_BANK }),
			);
			expect(JSON.stringify(node)).toContain(`Refused by the Paycashless credential: ${why}`);
			expect(paidWith(reference)).toHaveLength(0);
		}
		expect(lab.emulator.requests).toHaveLength(0);
		const lookup = await lab.runNode(paycashlessNode(malformed, { resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: '044' }));
		expect(lookup).toEqual([expect.objectContaining({ accountNumber: '0123456789', bank: expect.objectContaining({ id: ACCESS_BANK }) })]);
	});

	it('the credential Test says why (n8n shows the refusal\'s message); a readable ceiling tests fine', async () => {
		const test = async (credential: CredentialRef) => {
			const stored = await lab.session.rest<{ id: string; name: string; type: string; data: Record<string, unknown> }>('GET', `/rest/credentials/${credential.id}?includeData=true`);
			return await lab.session.rest<{ status: string; message: string }>('POST', '/rest/credentials/test', { credentials: { id: stored.id, name: stored.name, type: stored.type, data: stored.data } });
		};
		expect(await test(malformed)).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^Refused by the Paycashless credential: its Maximum Payout \(NGN\) is set but is not an amount in naira, so it refuses every payout\. Nothing was sent\..*Set Payouts to Allowed or Off/),
		});
		expect(await test(payoutsOffUpperCase)).toEqual({ status: 'Error', message: expect.stringContaining('its Payouts setting is neither Allowed nor Off') });
		expect(await test(ceiling)).toEqual({ status: 'OK', message: 'Connection successful!' });
	});
});
