/**
 * On Error settings in n8n's own engine (test/support/engine/engine.cts), moved here from the end-to-end
 * suite (test/e2e/n8n.test.cts, which ran them in n8n 2.41, queue mode and 1.123 through a
 * webhook): what n8n does to a failed item is n8n-core's code, so these run at unit speed on both
 * n8n lines (jest projects `engine` and `engine-1x`) against the emulator.
 */
import { useEmulator } from '../support/emulator.cjs';
import { CREDENTIAL_TYPE } from '../../scripts/n8n/lab.cjs';
import { ENGINE_N8N, enginePackage, paycashlessEngineNode, runWorkflow } from '../support/engine/engine.cjs';

jest.setTimeout(60_000);

const emulator = useEmulator({ callbackRetries: 0 });

// The build and pack of the package (once per jest run) on a busy machine, outside any test's time.
beforeAll(() => enginePackage(), 15 * 60_000);

function credentials() {
	return { [CREDENTIAL_TYPE]: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl, bodilessSigning: 'documented' } };
}

const start = { name: 'Start', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };

describe(`On Error: Continue (regular output), in n8n ${ENGINE_N8N.version}'s engine`, () => {
	it('the failed item of an API error keeps its message, advice, httpCode, type and code', async () => {
		const result = await runWorkflow({
			nodes: [start, paycashlessEngineNode('Node Under Test', { resource: 'payout', operation: 'verify', reference: 'no-such-payout-cof' }, { onError: 'continueRegularOutput' })],
			connections: { Start: { main: [[{ node: 'Node Under Test', type: 'main', index: 0 }]] } },
			input: [{ json: {} }],
			credentials: credentials(),
		});
	expect(result.order).toEqual(['Start', 'Node Under Test']);
		const [item, ...rest] = result.output('Node Under Test');
		expect(rest).toHaveLength(0);
		// What the webhook answered in a real n8n: the item's JSON after n8n's normalizeNodeErrors.
		expect(item.json).toEqual({
			message: expect.stringMatching(/no-such-payout-cof.*HTTP 404/),
			error: expect.objectContaining({ httpCode: '404', type: 'invalid_request_error', code: 'resource_missing', description: expect.stringContaining('Check') }),
		});
		expect(result.run.status).toBe('success');
	});
});

describe(`On Error: Continue (using error output), in n8n ${ENGINE_N8N.version}'s engine`, () => {
	it('a failed item goes to the error output, the others to the success output', async () => {
		emulator.reset({ payouts: 1 });
		const [existing] = emulator.list('payouts');
		const result = await runWorkflow({
			nodes: [
				start,
				paycashlessEngineNode('Verify', { resource: 'payout', operation: 'verify', reference: '={{ $json.reference }}' }, { onError: 'continueErrorOutput' }),
				{ name: 'Failed', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
			],
			connections: {
				Start: { main: [[{ node: 'Verify', type: 'main', index: 0 }]] },
				Verify: { main: [[], [{ node: 'Failed', type: 'main', index: 0 }]] },
			},
			// The two items the e2e test's Code node made.
			input: [{ json: { reference: String(existing.reference) } }, { json: { reference: 'no-such-payout' } }],
			credentials: credentials(),
		});
		const succeeded = result.output('Verify', 0);
		expect(succeeded.map((item) => item.json.reference)).toEqual([existing.reference]);
		expect(succeeded[0].pairedItem).toEqual({ item: 0 });
		// Only the failed item reached "Failed", through the error output, with its error and its
		// details under `error` (httpCode, type, code, advice): n8n keeps them because the item has
		// no `item.error` (normalizeNodeErrors would replace its JSON with { error }).
		const items = result.output('Failed').map((item) => item.json);
		expect(items).toHaveLength(1);
		expect(String(items[0].message)).toMatch(/no-such-payout.*HTTP 404/);
		expect(items[0].error).toMatchObject({ httpCode: '404', type: 'invalid_request_error', code: 'resource_missing', description: expect.any(String) });
		expect(result.output('Verify', 1)[0].pairedItem).toEqual({ item: 1 });
	});

	it("n8n's normalizeNodeErrors, which this package avoids: an item carrying `error` loses its JSON", async () => {
		// The engine itself, shown with n8n's own No Operation node fed an item with `error`: what
		// a node that returned `{ json, error }` for a failed item would give its users.
		const result = await runWorkflow({
			nodes: [start],
			connections: {},
			input: [{ json: { message: 'details', httpCode: '404' }, error: new Error('the message') as never }],
			credentials: credentials(),
		});
		expect(result.output('Start').map((item) => item.json)).toEqual([{ error: 'the message' }]);
	});
});

describe(`A failed item names its item and carries a stable error.code, in n8n ${ENGINE_N8N.version}'s engine`, () => {
	const payout = (extra: Record<string, unknown> = {}) => ({
		resource: 'payout',
		operation: 'create',
		reference: '={{ $json.reference }}',
		amount: '={{ $json.amount }}',
		currency: 'NGN',
		destinationAccountNumber: '={{ $json.account }}',
		bankId: '={{ $json.bankId }}',
		...extra,
	});
	const accessBank = 'bank_538ed2056326432ba8e6853b613997bb';

	it('Continue (using error output): a refused payout carries its reference, naira amount and code; the good one pays', async () => {
		emulator.reset();
		const result = await runWorkflow({
			nodes: [
				start,
				paycashlessEngineNode('Create Payout', payout(), { onError: 'continueErrorOutput' }),
				{ name: 'Failed', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
			],
			connections: {
				Start: { main: [[{ node: 'Create Payout', type: 'main', index: 0 }]] },
				'Create Payout': { main: [[], [{ node: 'Failed', type: 'main', index: 0 }]] },
			},
			input: [
				{ json: { reference: 'claim-ok-1', amount: 2500.5, account: '0123456789', bankId: accessBank } },
				{ json: { reference: 'claim-bad-2', amount: 12500.75, account: '12345', bankId: accessBank } },
				{ json: { reference: 'claim-bank-3', amount: 1000, account: '0123456789', bankId: 'bank_nosuchbank000' } },
			],
			credentials: credentials(),
		});
		expect(result.output('Create Payout', 0).map((item) => item.json.reference)).toEqual(['claim-ok-1']);
		const failed = result.output('Failed');
		expect(result.output('Create Payout', 1).map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		// A validation refusal: nothing sent, the field named, the item named. (n8n 2.x also merges
		// the input item's fields into an item of the error output: handleNodeErrorOutput.)
		expect(failed[0].json).toMatchObject({
			message: expect.stringContaining('Destination Account Number'),
			error: expect.objectContaining({ code: 'INVALID_INPUT', field: 'Destination Account Number', reference: 'claim-bad-2', amount: 12500.75, currency: 'NGN' }),
		});
		// Paycashless's refusal: its own code, the item named.
		const refused = failed[1].json.error as Record<string, unknown>;
		expect(refused).toMatchObject({ reference: 'claim-bank-3', amount: 1000, currency: 'NGN', httpCode: expect.stringMatching(/^4\d\d$/) });
		expect(refused.code).toEqual(expect.stringMatching(/^[a-z_]+$|^HTTP_4\d\d$/));
		expect(emulator.list('payouts').map((p) => p.reference)).toEqual(['claim-ok-1']);
	});

	it('a node fed a failed item says it came from the step before, with the code INVALID_INPUT behind FAILED_BEFORE', async () => {
		emulator.reset();
		const result = await runWorkflow({
			nodes: [
				start,
				paycashlessEngineNode('Create Payout', payout({ amountInSmallestUnit: true }), { onError: 'continueRegularOutput' }),
				paycashlessEngineNode('Verify Payout', { resource: 'payout', operation: 'verify', reference: '={{ $json.reference }}' }, { onError: 'continueRegularOutput' }),
			],
			connections: {
				Start: { main: [[{ node: 'Create Payout', type: 'main', index: 0 }]] },
				'Create Payout': { main: [[{ node: 'Verify Payout', type: 'main', index: 0 }]] },
			},
			input: [{ json: { reference: 'claim-kobo-1', amount: 150050, account: '12345', bankId: accessBank } }],
			credentials: credentials(),
		});
		// Amount in Smallest Unit: named in naira all the same.
		expect(result.output('Create Payout')[0].json.error).toMatchObject({ code: 'INVALID_INPUT', reference: 'claim-kobo-1', amount: 1500.5, currency: 'NGN' });
		const [verified] = result.output('Verify Payout');
		expect(verified.json.message).toBe('Item 1 is a failed item from "Create Payout": ' + String(result.output('Create Payout')[0].json.message));
		expect(verified.json.error).toMatchObject({ code: 'FAILED_BEFORE', codeBefore: 'INVALID_INPUT', description: expect.stringContaining('success output of "Create Payout"') });
		expect(String(verified.json.message)).not.toContain('Invalid Reference');
	});
});
