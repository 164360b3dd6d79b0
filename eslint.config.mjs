// n8n's own lint rules for community packages, set up like n8n's community-package scanner
// (@n8n/scan-community-package, `buildScanConfig`): @n8n/eslint-plugin-community-nodes
// (recommended, the n8n Cloud set), eslint-plugin-n8n-nodes-base's community, credentials and
// nodes rulesets with the scanner's own off-overrides, and no-console. Like the scanner, inline
// `eslint-disable` comments are not honoured: a finding must be fixed, not silenced.
import tseslint from 'typescript-eslint';
import * as jsoncParser from 'jsonc-eslint-parser';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const shipped = ['credentials/**/*.ts', 'nodes/**/*.ts', 'lib/**/*.ts', 'package.json'];

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'emulator/**', 'bench/**', 'scripts/**', 'examples/**', '.n8n-lab/**', '*.js', '*.mjs'] },
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
	},
	{ files: ['package.json'], languageOptions: { parser: jsoncParser } },
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: shipped },
	{ files: shipped, plugins: { 'n8n-nodes-base': n8nNodesBase }, rules: { 'no-console': 'error' } },
	{
		files: ['package.json'],
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Off in n8n's scanner too: a community credential links its service's docs with a URL.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			// Off in n8n's scanner too: the community plugin's credential-password-field is more accurate.
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Off in n8n's scanner too: inputs and outputs use NodeConnectionTypes, not the string 'main'.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
];
