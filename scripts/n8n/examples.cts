/**
 * The example workflows in examples/*.json, made ready for a given n8n: their Paycashless
 * credential references point at the credential `npm start` (or a test) imported, and the
 * placeholder n8n address in callback URLs becomes the real one. Used by `npm start` and by
 * the e2e test that checks the examples run.
 */
import * as fs from 'fs';
import * as path from 'path';

import { CREDENTIAL_TYPE, ROOT } from './lab.cjs';

export const EXAMPLES_DIR = path.join(ROOT, 'examples');
/** The credential the example files refer to (users pick their own when importing by hand). */
export const EXAMPLE_CREDENTIAL = { id: 'paycashlessExmpl1', name: 'Paycashless account' };
/** The n8n address written in the example files' callback URLs. */
export const EXAMPLE_N8N_BASE_URL = 'http://127.0.0.1:5678';

export interface WorkflowNodeJson {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	webhookId?: string;
	credentials?: Record<string, { id: string; name: string }>;
	[key: string]: unknown;
}

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: WorkflowNodeJson[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

export function exampleFiles(): string[] {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => path.join(EXAMPLES_DIR, name));
}

/** Replaces the placeholder n8n address in every string of `value`, recursively. */
function rebase<T>(value: T, from: string, to: string): T {
	if (typeof value === 'string') return value.split(from).join(to) as T;
	if (Array.isArray(value)) return value.map((element) => rebase(element, from, to)) as T;
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebase(v, from, to)])) as T;
	}
	return value;
}

export function loadExampleWorkflows(options: { n8nBaseUrl: string; credential: { id: string; name: string } }): WorkflowJson[] {
	return exampleFiles().map((file) => {
		const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as WorkflowJson;
		const nodes = workflow.nodes.map((node) => {
			const ready = rebase(node, EXAMPLE_N8N_BASE_URL, options.n8nBaseUrl.replace(/\/+$/, ''));
			if (ready.credentials?.[CREDENTIAL_TYPE]) ready.credentials = { ...ready.credentials, [CREDENTIAL_TYPE]: options.credential };
			return ready;
		});
		return { ...workflow, nodes };
	});
}
