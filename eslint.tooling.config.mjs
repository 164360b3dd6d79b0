// The tooling that never runs inside n8n (tests, emulator, benchmarks, lab scripts: the `.cts`
// files) is linted here, with typescript-eslint's recommended rules. n8n's own config
// (eslint.config.mjs, checked by `n8n-node lint`) covers the `.ts` code that ships: its n8n Cloud
// rules (no process, file access, child processes or timers) are about code n8n loads.
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.n8n-lab/**', '.tmp/**'] },
	{
		files: ['**/*.cts'],
		extends: [tseslint.configs.recommended],
		linterOptions: { reportUnusedDisableDirectives: 'error' },
		rules: {
			// `_name` marks a value taken out on purpose (a rest copy without it).
			'@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
		},
	},
	{
		// Assertions read the JSON answers of the emulator and of n8n, whose shape is the thing under test.
		files: ['test/**/*.cts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
);
