/** The command line: flags, environment variables and the seed syntax. */
import { parseArgs, parseSeed } from '../../../emulator/cli.cjs';

describe('emulator cli', () => {
	it('defaults to port 4010 and the built-in key pair', () => {
		expect(parseArgs([], {})).toMatchObject({ port: 4010, seed: undefined, apiKey: undefined, apiSecret: undefined });
	});

	it('reads flags in both forms', () => {
		const options = parseArgs(['--port', '5000', '--seed=payouts=1000,payments=50', '--callback-retry-delay', '250', '--bodiless-signing', 'documented'], {});
		expect(parseArgs(['--list-lag', '3000'], {}).listLagMs).toBe(3000);
		expect(parseArgs([], { EMULATOR_LIST_LAG_MS: '1500' }).listLagMs).toBe(1500);
		expect(options).toMatchObject({ port: 5000, seed: { payouts: 1000, payments: 50 }, callbackRetryDelayMs: 250, bodilessSigning: 'documented' });
	});

	it('falls back to the environment; flags win', () => {
		const env = { PORT: '6000', EMULATOR_SEED: 'invoices=3,dedicated_accounts=4', EMULATOR_SEED_VALUE: '9', EMULATOR_CALLBACK_RETRY_DELAY_MS: '10' };
		expect(parseArgs([], env)).toMatchObject({ port: 6000, seed: { invoices: 3, dedicatedAccounts: 4 }, seedValue: 9, callbackRetryDelayMs: 10 });
		expect(parseArgs(['--port', '7000'], env).port).toBe(7000);
	});

	it('refuses unknown options, collections and bad numbers', () => {
		expect(() => parseArgs(['--prot', '1'], {})).toThrow(/--prot/);
		expect(() => parseSeed('customers=5')).toThrow(/customers/);
		expect(() => parseSeed('payouts=lots')).toThrow(/payouts=lots/);
		expect(() => parseArgs(['--port', '-1'], {})).toThrow(/--port/);
		expect(() => parseArgs(['--bodiless-signing', 'sometimes'], {})).toThrow(/bodiless/);
	});
});
