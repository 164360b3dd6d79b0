/**
 * The docs a finance or operations person reads say what happens in sentences, not in source files
 * (issue 51): no path of this package's code, no n8n source file, no name of a constant of ours.
 * Where the code is, and which n8n code the docs were checked against: docs/architecture.md
 * ("Where the user docs' rules live", "Waits: what n8n allows"), which must name them.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const USER_DOCS = [
	'README.md',
	'docs/money.md',
	'docs/payroll.md',
	'docs/wait-for-payment.md',
	'docs/triggers.md',
	'docs/polling-trigger.md',
	'docs/ai-agent.md',
	'examples/README.md',
];
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/**
 * A source file: a path into this package's code (`nodes/…`, `lib/…`, `credentials/…`) or a
 * lower-case `.ts`/`.js` file name (n8n's `waiting-webhooks.js`); not Node.js, not the tests
 * (`.cts`, how a reader checks a claim), not n8n's settings or the example files.
 */
const SOURCE = /(?:\b(?:nodes\/Paycashless|lib|credentials)\/[\w./-]+|\b[a-z][\w-]*(?:\/[\w.-]+)*\.(?:ts|js)\b)/g;
/** Names of the package's own constants and functions that the docs used to cite. */
const CODE_NAMES = /\b(?:enforceMoneyLimits|SAME_NAME|BUSINESS_WORDS|LOOKS_LIKE_BUSINESS|payoutBody|payoutCeiling)\b/g;

describe('the docs for people who run payouts cite no source files', () => {
	it.each(USER_DOCS)('%s: no path of the code, no n8n source file, no constant of ours', (file) => {
		const text = read(file);
		expect({ file, source: text.match(SOURCE) ?? [], names: text.match(CODE_NAMES) ?? [] }).toEqual({ file, source: [], names: [] });
	});

	it('the check can fail: it finds the paths the docs used to cite', () => {
		const before = 'the list is `SAME_NAME` in `nodes/Paycashless/helpers/names.ts`; `lib/payoutBody.ts`; n8n\'s `waiting-webhooks.js`; Node.js 20; test/e2e/wait.test.cts';
		expect(before.match(SOURCE)).toEqual(['nodes/Paycashless/helpers/names.ts', 'lib/payoutBody.ts', 'waiting-webhooks.js']);
		expect(before.match(CODE_NAMES)).toEqual(['SAME_NAME', 'payoutBody']);
	});

	it('docs/architecture.md names where each rule lives, and the n8n code the docs were checked against', () => {
		const architecture = read('docs/architecture.md');
		for (const where of [
			'money/limits.ts',
			'enforceMoneyLimits',
			'lib/payoutBody.ts',
			'lib/payoutCeiling.ts',
			'money/names.ts',
			'SAME_NAME',
			'BUSINESS_WORDS',
			'LOOKS_LIKE_BUSINESS',
			'callbacks/evaluate.ts',
			'lib/signing.ts',
			'webhook-context.js',
			'run-execution-data-factory.js',
			'waiting-webhooks.js',
			'poll-trigger-executor.js',
			'n8n-nodes-base/dist/utils/sendAndWait/',
		]) {
			expect({ where, named: architecture.includes(where) }).toEqual({ where, named: true });
		}
		// Each named file of the package exists.
		for (const file of architecture.match(/`((?:money|helpers|callbacks|actions)\/\w+\.ts|lib\/\w+\.ts|credentials\/[\w.]+\.ts)`/g) ?? []) {
			const relative = file.slice(1, -1);
			const full = relative.startsWith('lib/') || relative.startsWith('credentials/') ? path.join(ROOT, relative) : path.join(ROOT, 'nodes/Paycashless', relative);
			expect({ file: relative, exists: fs.existsSync(full) }).toEqual({ file: relative, exists: true });
		}
	});
});
