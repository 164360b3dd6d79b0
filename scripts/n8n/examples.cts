/**
 * The example workflows in examples/*.json, made ready for a given n8n: their Paycashless
 * credential references point at the credential `npm start` (or a test) imported, and the
 * placeholder n8n address in callback URLs becomes the real one. Used by `npm start` and by
 * the e2e test that checks the examples run.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { CREDENTIAL_TYPE, N8nSession, ROOT } from './lab.cjs';

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

/**
 * The name an example's data file has in the files folder: its own name with this clone's id
 * (`payroll.csv` → `payroll-3f2a9c1e.csv`, from the clone's folder), so that the files folder, which
 * belongs to the user and not to one clone, never hands this clone's example another clone's file.
 */
export function exampleFileName(name: string): string {
	const clone = createHash('sha256').update(fs.realpathSync(ROOT)).digest('hex').slice(0, 8);
	return `${path.basename(name, path.extname(name))}-${clone}${path.extname(name)}`;
}

/** The examples' data files (examples/*.csv). */
function exampleDataFiles(): string[] {
	return fs.readdirSync(EXAMPLES_DIR).filter((file) => file.endsWith('.csv')).sort();
}

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

/** The examples for n8n 1.x only (examples/n8n1/*.json: what n8n 1.123 has instead of 2.x's nodes). */
export function exampleFilesForN8n1(): string[] {
	const folder = path.join(EXAMPLES_DIR, 'n8n1');
	return fs
		.readdirSync(folder)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => path.join(folder, name));
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

export function loadExampleWorkflows(options: { n8nBaseUrl: string; credential: { id: string; name: string }; filesFolder?: string; files?: string[] }): WorkflowJson[] {
	return (options.files ?? exampleFiles()).map((file) => {
		const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as WorkflowJson;
		const nodes = workflow.nodes.map((node) => {
			const rebased = rebase(node, EXAMPLE_N8N_BASE_URL, options.n8nBaseUrl.replace(/\/+$/, ''));
			// Each data file under its own name in the files folder (exampleFileName), then the folder itself.
			const named = exampleDataFiles().reduce((current, name) => rebase(current, `${EXAMPLE_FILES_FOLDER}/${name}`, `${EXAMPLE_FILES_FOLDER}/${exampleFileName(name)}`), rebased);
			const ready = options.filesFolder ? rebase(named, EXAMPLE_FILES_FOLDER, options.filesFolder.replace(/\/+$/, '')) : named;
			if (ready.credentials?.[CREDENTIAL_TYPE]) ready.credentials = { ...ready.credentials, [CREDENTIAL_TYPE]: options.credential };
			return ready;
		});
		return { ...workflow, nodes };
	});
}

/**
 * The examples' data files (examples/*.csv, e.g. payroll.csv) copied into the folder n8n reads
 * files from under this clone's own names (exampleFileName), each only when that folder has no
 * file of that name: a user's edited copy stays. Returns the names copied.
 */
export function copyExampleFiles(folder: string): string[] {
	const copied: string[] = [];
	for (const file of exampleDataFiles()) {
		const name = exampleFileName(file);
		const target = path.join(folder, name);
		if (fs.existsSync(target)) continue;
		fs.copyFileSync(path.join(EXAMPLES_DIR, file), target, fs.constants.COPYFILE_EXCL);
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

/** An n8n user of a lab: what the owner invites and the invitation is accepted with. */
export interface LabUser {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

/**
 * The payroll example's approver (examples/payroll.json): a second n8n user, since an approval
 * counts only from an n8n user other than the one who prepared the payroll. `npm start` makes it.
 */
export const PAYROLL_APPROVER: LabUser = { email: 'approver@paycashless.local', firstName: 'Funke', lastName: 'Adebayo', password: 'Paycashless-approver-1' };

/**
 * A member of this n8n, invited by the owner's `owner` session through n8n's REST API
 * (`POST /rest/invitations`: with no e-mail set up, n8n answers with the invitation link) and
 * accepted (`POST /rest/invitations/accept`, which signs them in): their id and their session.
 * `undefined` when n8n already has a user with that e-mail address.
 */
export async function inviteMember(owner: N8nSession, user: LabUser): Promise<{ id: string; session: N8nSession } | undefined> {
	const invited = await owner.request<{ data?: Array<{ user: { id: string; email: string; inviteAcceptUrl?: string }; error?: string }> }>('POST', '/rest/invitations', [{ email: user.email, role: 'global:member' }]);
	if (invited.status >= 300) throw new Error(`inviting ${user.email}: HTTP ${invited.status} ${invited.text.slice(0, 500)}`);
	const link = invited.body.data?.find((entry) => entry.user.email === user.email)?.user.inviteAcceptUrl;
	// n8n gives no link for an address that is already a user.
	if (!link) return undefined;
	const token = new URL(link).searchParams.get('token');
	if (!token) throw new Error(`the invitation link of ${user.email} has no token: ${link}`);
	const session = new N8nSession(owner.baseUrl);
	const accepted = await session.request<{ data: { id: string } }>('POST', '/rest/invitations/accept', { token, firstName: user.firstName, lastName: user.lastName, password: user.password });
	if (accepted.status !== 200 || !session.login) throw new Error(`accepting the invitation of ${user.email}: HTTP ${accepted.status} ${accepted.text.slice(0, 500)}`);
	return { id: accepted.body.data.id, session };
}
