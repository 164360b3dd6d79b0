/**
 * `npm run emulator -- [options]`: starts the emulator and prints what a client needs.
 *
 *   --port <n>                  PORT            default 4010 (0: any free port)
 *   --host <addr>               HOST            default 127.0.0.1
 *   --seed payouts=1000,payments=50             EMULATOR_SEED (same form)
 *   --seed-value <n>            EMULATOR_SEED_VALUE            default 1
 *   --callback-retry-delay <ms> EMULATOR_CALLBACK_RETRY_DELAY_MS default 60000
 *   --callback-retries <n>      EMULATOR_CALLBACK_RETRIES      default 3
 *   --api-key <key>             EMULATOR_API_KEY  ('' disables the bearer check)
 *   --api-secret <secret>       EMULATOR_API_SECRET
 *   --bodiless-signing <documented|emptyObjectHash|either>  EMULATOR_BODILESS_SIGNING
 *   --timestamp-tolerance <s>   EMULATOR_TIMESTAMP_TOLERANCE   default 300
 *   --list-lag <ms>             EMULATOR_LIST_LAG_MS           default 0 (lists show a new object this late)
 */
import { startEmulator } from './index.cjs';
import type { Collection, EmulatorOptions } from './types.cjs';

const COLLECTION_NAMES: Record<string, Collection> = {
	invoices: 'invoices',
	payments: 'payments',
	payouts: 'payouts',
	dedicatedAccounts: 'dedicatedAccounts',
	dedicated_accounts: 'dedicatedAccounts',
	dedicatedaccounts: 'dedicatedAccounts',
};

export function parseSeed(text: string): Partial<Record<Collection, number>> {
	const seed: Partial<Record<Collection, number>> = {};
	for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
		const [name, value] = part.split('=');
		const collection = COLLECTION_NAMES[name?.trim()] ?? COLLECTION_NAMES[name?.trim().toLowerCase()];
		if (!collection) throw new Error(`--seed: unknown collection "${name}" (invoices, payments, payouts, dedicatedAccounts).`);
		const count = Number(value);
		if (!Number.isInteger(count) || count < 0) throw new Error(`--seed: "${part}" needs a whole number, e.g. payouts=1000.`);
		seed[collection] = count;
	}
	return seed;
}

function integer(name: string, value: string | undefined): number | undefined {
	if (value === undefined || value === '') return undefined;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number (got "${value}").`);
	return n;
}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): EmulatorOptions {
	const flags: Record<string, string> = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (!arg.startsWith('--')) throw new Error(`Unexpected argument "${arg}".`);
		const eq = arg.indexOf('=');
		if (eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
		else flags[arg.slice(2)] = argv[++i] ?? '';
	}
	const known = ['port', 'host', 'seed', 'seed-value', 'callback-retry-delay', 'callback-retries', 'api-key', 'api-secret', 'bodiless-signing', 'timestamp-tolerance', 'list-lag'];
	for (const name of Object.keys(flags)) if (!known.includes(name)) throw new Error(`Unknown option --${name}.`);
	const pickValue = (flag: string, variable: string) => flags[flag] ?? env[variable];
	const bodiless = pickValue('bodiless-signing', 'EMULATOR_BODILESS_SIGNING');
	if (bodiless && !['documented', 'emptyObjectHash', 'either'].includes(bodiless)) {
		throw new Error('--bodiless-signing must be documented, emptyObjectHash or either.');
	}
	const seedText = pickValue('seed', 'EMULATOR_SEED');
	return {
		port: integer('--port', pickValue('port', 'PORT')) ?? 4010,
		host: pickValue('host', 'HOST') || undefined,
		seed: seedText ? parseSeed(seedText) : undefined,
		seedValue: integer('--seed-value', pickValue('seed-value', 'EMULATOR_SEED_VALUE')),
		callbackRetryDelayMs: integer('--callback-retry-delay', pickValue('callback-retry-delay', 'EMULATOR_CALLBACK_RETRY_DELAY_MS')),
		callbackRetries: integer('--callback-retries', pickValue('callback-retries', 'EMULATOR_CALLBACK_RETRIES')),
		apiKey: pickValue('api-key', 'EMULATOR_API_KEY'),
		apiSecret: pickValue('api-secret', 'EMULATOR_API_SECRET') || undefined,
		bodilessSigning: bodiless as EmulatorOptions['bodilessSigning'],
		timestampToleranceSeconds: integer('--timestamp-tolerance', pickValue('timestamp-tolerance', 'EMULATOR_TIMESTAMP_TOLERANCE')),
		listLagMs: integer('--list-lag', pickValue('list-lag', 'EMULATOR_LIST_LAG_MS')),
	};
}

async function main(): Promise<void> {
	let options: EmulatorOptions;
	try {
		options = parseArgs(process.argv.slice(2), process.env);
	} catch (error) {
		console.error(`paycashless-emulator: ${(error as Error).message}`);
		process.exitCode = 2;
		return;
	}
	const started = Date.now();
	const emulator = await startEmulator(options);
	const seeded = Object.entries(options.seed ?? {}).map(([name, count]) => `${name}=${count}`).join(', ') || 'none';
	console.log(`Paycashless emulator listening on ${emulator.baseUrl}  (started in ${Date.now() - started} ms)`);
	console.log(`  Base URL (credential "Base URL"): ${emulator.baseUrl}`);
	console.log(`  API key:     ${emulator.apiKey || '(none: bearer check off)'}`);
	// The built-in test secret is printed so a client can be set up; a secret passed in is not echoed.
	const secretText = options.apiSecret ? '(the one passed with --api-secret / EMULATOR_API_SECRET)' : `${emulator.apiSecret}   (emulator test secret; never a real one)`;
	console.log(`  API secret:  ${secretText}`);
	for (const other of emulator.otherKeys) console.log(`  Same account, another key: ${other.apiKey} / ${other.apiSecret}   (emulator test key pair)`);
	if (options.listLagMs) console.log(`  List lag:    ${options.listLagMs} ms (lists show a new object this long after its create)`);
	console.log(`  Control API: ${emulator.baseUrl}/__emulator  (health, reset, requests, callbacks, faults, store, complete/pay/activate)`);
	console.log(`  Seeded:      ${seeded}`);
	const stop = () => {
		void emulator.close().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

if (require.main === module) void main();
