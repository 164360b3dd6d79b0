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
/**
 * The files folder written in the example files' paths (Read/Write Files from Disk): n8n 2.x's
 * default `~/.n8n-files` as n8n's Docker image has it (home /home/node). Replaced at import by the
 * folder this n8n reads (`filesFolder`), where copyExampleFiles puts the examples' data files.
 */
const EXAMPLE_FILES_FOLDER = '/home/node/.n8n-files';

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

export function loadExampleWorkflows(options: { n8nBaseUrl: string; credential: { id: string; name: string }; filesFolder?: string }): WorkflowJson[] {
	return exampleFiles().map((file) => {
		const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as WorkflowJson;
		const nodes = workflow.nodes.map((node) => {
			const rebased = rebase(node, EXAMPLE_N8N_BASE_URL, options.n8nBaseUrl.replace(/\/+$/, ''));
			const ready = options.filesFolder ? rebase(rebased, EXAMPLE_FILES_FOLDER, options.filesFolder.replace(/\/+$/, '')) : rebased;
			if (ready.credentials?.[CREDENTIAL_TYPE]) ready.credentials = { ...ready.credentials, [CREDENTIAL_TYPE]: options.credential };
			return ready;
		});
		return { ...workflow, nodes };
	});
}

/**
 * The examples' data files (examples/*.csv, e.g. payroll.csv) copied into the folder n8n reads
 * files from, each only when that folder has no file of its name: a user's edited copy stays.
 * Returns the names copied.
 */
export function copyExampleFiles(folder: string): string[] {
	const copied: string[] = [];
	for (const name of fs.readdirSync(EXAMPLES_DIR).filter((file) => file.endsWith('.csv')).sort()) {
		const target = path.join(folder, name);
		if (fs.existsSync(target)) continue;
		fs.copyFileSync(path.join(EXAMPLES_DIR, name), target, fs.constants.COPYFILE_EXCL);
		copied.push(name);
	}
	return copied;
}

/** What `n8n` commands the credential step needs: one process (lab.n8nCli) or queue mode (queue.ts). */
export interface CredentialTools {
	cli(args: string[]): string;
	import(kind: 'credentials', data: unknown): void;
	/** A folder only this user reads, for the moment n8n writes the credential out decrypted. */
	folder: string;
	/** This n8n's database was made just now (it holds no credential): no need to ask n8n (one CLI start less). */
	fresh?: boolean;
}

/** The example credential as this n8n holds it (decrypted), or undefined when it has none. */
function storedCredential(tools: CredentialTools): { name: string; data: Record<string, unknown> } | undefined {
	fs.mkdirSync(tools.folder, { recursive: true, mode: 0o700 });
	const file = path.join(tools.folder, `credential-${process.pid}-${Date.now()}.json`);
	try {
		tools.cli(['export:credentials', `--id=${EXAMPLE_CREDENTIAL.id}`, '--decrypted', `--output=${file}`]);
		const exported = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ id: string; name: string; data: Record<string, unknown> }>;
		const found = exported.find((credential) => credential.id === EXAMPLE_CREDENTIAL.id);
		return found ? { name: found.name, data: found.data ?? {} } : undefined;
	} catch {
		// n8n exits with an error when no credential has that id.
		return undefined;
	} finally {
		fs.rmSync(file, { force: true });
	}
}

/**
 * The examples' credential at a start, never resetting what the user changed: created when this
 * n8n has none; kept as it is when the user edited it (other keys, another Base URL, renamed);
 * only a credential still holding the emulator's keys follows the emulator to its address of this
 * start. Keys given in PAYCASHLESS_API_KEY / _SECRET (`fromEnvironment`) replace it: asked for at
 * this start. Returns the credential's name and the sentence that says what was done.
 */
export function keepOrImportCredential(
	tools: CredentialTools,
	wanted: { name: string; data: Record<string, string>; fromEnvironment: boolean },
): { name: string; said: string } {
	const stored = tools.fresh ? undefined : storedCredential(tools);
	const write = () => tools.import('credentials', [{ id: EXAMPLE_CREDENTIAL.id, name: wanted.name, type: CREDENTIAL_TYPE, data: wanted.data }]);
	if (!stored) {
		write();
		return { name: wanted.name, said: `created the credential "${wanted.name}"` };
	}
	const same = (key: string) => stored.data[key] === wanted.data[key];
	if (wanted.fromEnvironment) {
		write();
		return { name: wanted.name, said: `set the credential "${wanted.name}" to the keys in PAYCASHLESS_API_KEY / PAYCASHLESS_API_SECRET (replacing what it held)` };
	}
	if (stored.name === wanted.name && same('apiKey') && same('apiSecret') && Object.keys(stored.data).every((key) => key === 'baseUrl' || same(key))) {
		if (same('baseUrl')) return { name: wanted.name, said: `kept the credential "${wanted.name}"` };
		write();
		return { name: wanted.name, said: `kept the credential "${wanted.name}" (the emulator's keys) and pointed it at the emulator's address of this start, ${wanted.data.baseUrl}` };
	}
	const where = typeof stored.data.baseUrl === 'string' && stored.data.baseUrl !== '' ? stored.data.baseUrl : 'the Paycashless API';
	return {
		name: stored.name,
		said:
			`kept the credential "${stored.name}" as you edited it (Base URL ${where}; not reset to the emulator's keys). ` +
			`The examples use it. To get the emulator's credential back, delete "${stored.name}" in n8n and run npm start again`,
	};
}
