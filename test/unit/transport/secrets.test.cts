/**
 * The API key and secret never appear in an error (message, description, context, cause,
 * errorResponse, any own property, its JSON or a full inspect), in Continue On Fail items or in
 * the log lines, on every error path of the transport: with plain network errors and with the
 * NodeApiError-wrapped axios errors (whose `config` holds the signed request) that n8n-core throws.
 */
import type { IExecuteFunctions, IHttpRequestOptions, INodeParameters } from 'n8n-workflow';

import { type EmulatorHandle, type FaultConfig, startEmulator } from '../../../emulator/index.cjs';
import { createExecuteContext, runNode } from '../../../scripts/harness/executeContext.cjs';
import { startFakeServer } from '../../support/executeFakeServer.cjs';
import { ACCESS_BANK, FAST, payoutItem, secretLeaks } from '../../support/reliability.cjs';

const API_KEY = 'pk_test_LEAKCHECK_key_7f3a9e';
const API_SECRET = 'sk_test_LEAKCHECK_secret_91bc04';
const WRONG_SECRET = 'sk_test_LEAKCHECK_wrong_4d2e11';
const SECRETS = [API_KEY, API_SECRET, WRONG_SECRET];

let emulator: EmulatorHandle;
let closedBaseUrl: string;

beforeAll(async () => {
	emulator = await startEmulator({ apiKey: API_KEY, apiSecret: API_SECRET });
	const closed = await startFakeServer(() => ({}));
	closedBaseUrl = closed.baseUrl;
	await closed.close();
});
afterAll(async () => {
	await emulator.close();
});

interface ErrorPath {
	name: string;
	parameters: INodeParameters;
	faults?: FaultConfig;
	/** Runs first, without faults (e.g. to create the object a 409 needs). */
	before?: INodeParameters;
	baseUrl?: () => string;
	apiSecret?: string;
	/** What the error (message + description) must say: the path really was taken. */
	says: RegExp;
}

const QUICK: INodeParameters = { ...FAST, maxAttempts: 2 };
const verify = (reference: string, requestOptions = QUICK): INodeParameters => ({
	resource: 'payout',
	operation: 'verify',
	reference,
	requestOptions,
});
const taxRate: INodeParameters = { resource: 'taxRate', operation: 'create', name: 'VAT', percentage: 7.5, requestOptions: QUICK };

const PATHS: ErrorPath[] = [
	{ name: 'read: 5xx until attempts run out', parameters: verify('r1'), faults: { error5xxRate: 1 }, says: /HTTP 50[023]\)/ },
	{ name: 'read: 429 until attempts run out', parameters: verify('r1'), faults: { rateLimitRate: 1, retryAfterSeconds: 0.01 }, says: /HTTP 429\).*after 2 attempts/ },
	{ name: 'read: Retry-After longer than Max Retry Wait', parameters: verify('r1', { ...QUICK, maxRetryWait: 10 }), faults: { rateLimitRate: 1, retryAfterSeconds: 5 }, says: /asked to wait 5 s/ },
	{ name: 'read: connection dropped every time', parameters: verify('r1'), faults: { dropAfterCommitRate: 1 }, says: /Could not reach Paycashless.*tried 2 times/ },
	{ name: 'read: timeout every time', parameters: verify('r1', { ...QUICK, timeout: 20 }), faults: { latencyMs: 80 }, says: /timeout of 20ms exceeded/ },
	{ name: 'read: connection refused', parameters: verify('r1'), baseUrl: () => closedBaseUrl, says: /ECONNREFUSED/ },
	{ name: 'read: 404', parameters: verify('missing'), says: /HTTP 404\)/ },
	{ name: 'read: 401 with a wrong secret', parameters: verify('r1'), apiSecret: WRONG_SECRET, says: /HTTP 401\).*API Secret/ },
	{ name: 'list: a page failing until attempts run out', parameters: { resource: 'payout', operation: 'getAll', returnAll: true, requestOptions: QUICK }, faults: { error5xxRate: 1 }, says: /HTTP 50[023]\)/ },
	{ name: 'payout: outcome unknown (create and check fail)', parameters: payoutItem('s1', QUICK), faults: { error5xxRate: 1 }, says: /outcome is unknown/ },
	{ name: 'payout: not created (5xx, check finds none)', parameters: payoutItem('s2', QUICK), faults: { error5xxRate: 1, match: '^POST ' }, says: /nothing was created/ },
	{ name: 'payout: timeouts on create and check', parameters: payoutItem('s3', { ...QUICK, timeout: 20 }), faults: { latencyMs: 80 }, says: /timeout of 20ms exceeded.*outcome is unknown/ },
	{ name: 'payout: connection refused', parameters: payoutItem('s4', QUICK), baseUrl: () => closedBaseUrl, says: /ECONNREFUSED.*Payout → Verify/ },
	{ name: 'payout: 409 with On Repeated Reference = Error', before: payoutItem('s5', QUICK), parameters: payoutItem('s5', { ...QUICK, onRepeatedReference: 'error' }), says: /HTTP 409\).*used before/ },
	{ name: 'payout: 409, then the lookup fails', before: payoutItem('s6', QUICK), parameters: payoutItem('s6', QUICK), faults: { error5xxRate: 1, match: '^GET ' }, says: /HTTP 409\).*but that failed/ },
	{ name: 'payout: reference reused for another amount', before: payoutItem('s7', QUICK, 10), parameters: payoutItem('s7', QUICK, 20), says: /already belongs to another payout/ },
	{ name: 'payout: refused field (payout failure form)', parameters: { ...payoutItem('s8', QUICK), bankId: 'bank_doesnotexist' }, says: /HTTP 4\d\d\)/ },
	{ name: 'tax rate: outcome unknown after a 5xx', parameters: taxRate, faults: { error5xxRate: 1 }, says: /outcome is unknown/ },
	{ name: 'tax rate: dropped connection', parameters: taxRate, faults: { dropAfterCommitRate: 1 }, says: /may or may not have reached.*outcome is unknown/ },
	{ name: 'bad Request Options', parameters: payoutItem('s9', { maxAttempts: 999 }), says: /Request Options → Max Attempts/ },
];

describe.each([
	['plain network errors', false],
	['errors wrapped the way n8n-core wraps them', true],
])('no secret in errors, error items or logs (%s)', (_mode, wrapErrorsLikeN8n) => {
	it.each(PATHS.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
		emulator.reset();
		emulator.clearFaults();
		const credentials = {
			apiKey: API_KEY,
			apiSecret: path.apiSecret ?? API_SECRET,
			baseUrl: path.baseUrl ? path.baseUrl() : emulator.baseUrl,
		};
		if (path.before) await runNode({ parameters: path.before, credentials });
		if (path.faults) emulator.setFaults(path.faults);

		let thrown: unknown;
		try {
			await runNode({ parameters: path.parameters, credentials, wrapErrorsLikeN8n });
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(Error);
		const { message, description } = thrown as Error & { description?: string };
		expect(`${message} ${description ?? ''}`).toMatch(path.says);
		expect(secretLeaks(thrown, SECRETS)).toEqual([]);

		emulator.reset();
		if (path.before) {
			emulator.clearFaults();
			await runNode({ parameters: path.before, credentials });
		}
		if (path.faults) emulator.setFaults(path.faults);
		const { output, logs } = await runNode({ parameters: path.parameters, credentials, wrapErrorsLikeN8n, continueOnFail: true });
		expect(output).toHaveLength(1);
		expect(output[0].json.message).toEqual(expect.any(String));
		expect(secretLeaks([output, logs], SECRETS)).toEqual([]);
		emulator.clearFaults();
	});
});

describe('the check can fail', () => {
	it('finds the API key in the raw error n8n-core throws (its config holds the signed headers)', async () => {
		const { context } = createExecuteContext({
			parameters: { resource: 'payout', operation: 'create' },
			credentials: { apiKey: API_KEY, apiSecret: API_SECRET, baseUrl: closedBaseUrl },
			wrapErrorsLikeN8n: true,
		});
		const options: IHttpRequestOptions = { method: 'POST', url: `${closedBaseUrl}/v1/payouts`, body: { bankId: ACCESS_BANK }, json: true };
		let raw: unknown;
		try {
			await (context as IExecuteFunctions).helpers.httpRequestWithAuthentication.call(context, 'paycashlessApi', options);
		} catch (error) {
			raw = error;
		}
		expect(raw).toBeInstanceOf(Error);
		expect(secretLeaks(raw, SECRETS).length).toBeGreaterThan(0);
	});
});
