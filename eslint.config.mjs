// n8n's own lint rules for community packages: @n8n/eslint-plugin-community-nodes (recommended,
// the n8n Cloud set) and eslint-plugin-n8n-nodes-base, on the shipped code and package.json only.
import tseslint from 'typescript-eslint';
import * as jsoncParser from 'jsonc-eslint-parser';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'emulator/**', 'bench/**', 'scripts/**', 'examples/**', '.n8n-lab/**', '*.js', '*.mjs'] },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
	},
	{ files: ['package.json'], languageOptions: { parser: jsoncParser } },
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: ['credentials/**/*.ts', 'nodes/**/*.ts', 'package.json'] },
	{
		files: ['package.json'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Written for n8n's own credentials, whose documentationUrl is a slug of n8n's docs; a
			// community credential links to its service's docs with a full URL (n8n's starter turns
			// this rule off for the same reason; the community plugin checks the URL instead).
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.nodes.rules },
	},
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts'],
		rules: { 'no-console': 'error' },
	},
];
