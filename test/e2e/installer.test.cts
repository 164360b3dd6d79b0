/**
 * The package through n8n's own community-package installer, as a user gets it: published to a
 * registry (a local Verdaccio, scripts/n8n/registry.cts), installed in Settings → Community Nodes
 * (`POST /rest/community-packages`), used in a workflow, updated to a newer version (`PATCH`) and
 * uninstalled (`DELETE`), in one n8n 2.41 process started with an empty nodes folder. n8n's npm
 * commands reach the local registry through the npm shim first on n8n's PATH. By hand on n8n 1.123:
 * PAYCASHLESS_E2E_N8N=1 npx jest test/e2e/installer.test.cts
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { accountName, BANKS } from '../../emulator/banks.cjs';
import type { EmulatorHandle, EmulatorOptions } from '../../emulator/types.cjs';
import {
	CREDENTIAL_TYPE,
	LAB,
	N8nSession,
	NODE_TYPE_ACTION,
	NODE_TYPE_TRIGGER,
	PACKAGE_NAME,
	buildAndPack,
	freePort,
	importIntoN8n,
	startN8n,
	waitForProductionWebhook,
	type RunningN8n,
} from '../../scripts/n8n/lab.cjs';
import { communityPackages, nextPatch, startRegistry, type LocalRegistry } from '../../scripts/n8n/registry.cjs';
import { N8N_1X, installN8nLine } from '../../scripts/n8n/versions.cjs';
import { e2eRuntime, SETUP_TIMEOUT_MS, webhookNode } from '../support/e2e/harness.cjs';
import { freshFetch } from '../support/e2e/freshFetch.cjs';

jest.setTimeout(SETUP_TIMEOUT_MS);

const GTB = BANKS.find((bank) => bank.cbnCode === '058')!;
const MARK = 'lab build of the newer version';
const figures: Record<string, number> = {};
const root = path.join(LAB, 'e2e', `installer-${process.pid}`);
let registry: LocalRegistry;
let n8n: RunningN8n;
let session: N8nSession;
let emulator: EmulatorHandle;
let tgz: string;
let firstVersion: string;
let newerVersion: string;
const credential = { id: 'installerCredential', name: 'Paycashless (emulator)' };

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

beforeAll(async () => {
	const started = Date.now();
	installN8nLine(e2eRuntime().n8nLine);
	tgz = await buildAndPack({ quiet: true });
	fs.rmSync(root, { recursive: true, force: true });
	registry = await startRegistry({ root: path.join(root, 'registry') });
	firstVersion = registry.publish(tgz);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { startEmulator } = require('../../emulator/index.cjs') as { startEmulator: (o: EmulatorOptions) => Promise<EmulatorHandle> };
	emulator = await startEmulator({ port: 0, callbackRetries: 0 });
	const config = { n8n: e2eRuntime().n8nLine === '1' ? N8N_1X : undefined, userFolder: path.join(root, 'n8n'), port: await freePort(), brokerPort: await freePort(), pathPrefix: [registry.npmShimDir] };
	importIntoN8n(config, 'credentials', [
		{ ...credential, type: CREDENTIAL_TYPE, data: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl: emulator.baseUrl, bodilessSigning: 'documented' } },
	]);
	n8n = await startN8n(config);
	session = new N8nSession(n8n.baseUrl);
	await session.ownerSetupAndLogin();
	await session.createApiKey('installer');
	figures.setupSeconds = seconds(started);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await n8n?.stop();
	await emulator?.close();
	await registry?.stop();
	fs.mkdirSync(path.join(LAB, 'e2e'), { recursive: true });
	fs.writeFileSync(path.join(LAB, 'e2e', `installer-figures-${e2eRuntime().n8nLine === '1' ? N8N_1X.version : '2.41.1'}.json`), `${JSON.stringify(figures, null, 2)}\n`);
});

const installedDir = () => path.join(root, 'n8n', '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
const versionOnDisk = () => (JSON.parse(fs.readFileSync(path.join(installedDir(), 'package.json'), 'utf8')) as { version: string }).version;

/** The descriptions n8n has loaded for the node types (what the editor gets). */
async function loadedDescriptions(): Promise<Array<{ name: string; description: string }>> {
	const found: Array<{ name: string; description: string }> = [];
	for (const name of [NODE_TYPE_ACTION, NODE_TYPE_TRIGGER]) {
		// n8n's node-types.controller.js: an unknown type is an error, a known one its description.
		const response = await session.request<{ data: Array<{ name: string; description: string }> }>('POST', '/rest/node-types', { nodeInfos: [{ name, version: 1 }] });
		// The description's own `name` is the package-less one (paycashless): keep the type asked for.
		if (response.status === 200 && response.body.data[0]) found.push({ name, description: response.body.data[0].description });
	}
	return found;
}

/** Webhook → Paycashless Bank Account → Look Up against the emulator; returns the node's output. */
async function lookUpThroughAWorkflow(): Promise<Array<Record<string, unknown>>> {
	const webhookPath = `installer-${randomUUID().slice(0, 8)}`;
	const created = await session.api<{ id: string }>('POST', '/workflows', {
		name: `installer ${webhookPath}`,
		nodes: [
			{ id: randomUUID(), position: [0, 0], ...webhookNode(webhookPath) },
			{
				id: randomUUID(),
				position: [240, 0],
				name: 'Look Up',
				type: NODE_TYPE_ACTION,
				typeVersion: 1,
				credentials: { [CREDENTIAL_TYPE]: credential },
				parameters: { resource: 'bankAccount', operation: 'lookUp', accountNumber: '0123456789', bankCode: GTB.nibssCode },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Look Up', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	await session.api('POST', `/workflows/${created.id}/activate`);
	await waitForProductionWebhook(n8n.baseUrl, webhookPath);
	const response = await freshFetch(`${n8n.baseUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
	const text = await response.text();
	if (response.status !== 200) throw new Error(`workflow answered HTTP ${response.status}: ${text.slice(0, 1000)}`);
	await session.api('POST', `/workflows/${created.id}/deactivate`);
	const parsed = JSON.parse(text) as unknown;
	return (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
}

it('n8n starts without the package: Settings → Community Nodes lists nothing, the node type is unknown', async () => {
	expect(await communityPackages.list(session)).toEqual([]);
	expect(await loadedDescriptions()).toEqual([]);
	expect(fs.existsSync(installedDir())).toBe(false);
});

it('installs it from the registry through n8n (POST /rest/community-packages): 3 nodes, the published version, loaded at once', async () => {
	const started = Date.now();
	// As the editor sends it: the name only (the registry's latest). n8n 1.123 first asks
	// registry.npmjs.org over HTTP whether `<name>/latest` exists; the package is not there, and its
	// fallback (`npm view <name>@latest version`, through the shim) accepts only an answer equal to
	// "latest": on 1.x the lab names the version (2.41 accepts any version npm resolves).
	const installed = await communityPackages.install(session, e2eRuntime().n8nLine === '1' ? firstVersion : undefined);
	figures.installSeconds = seconds(started);
	expect(installed).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: firstVersion });
	const listed = await communityPackages.list(session);
	expect(listed).toHaveLength(1);
	expect(listed[0]).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: firstVersion });
	// 2.41 says whether the nodes loaded (1.123 has no such field).
	expect(listed[0].failedLoading ?? false).toBe(false);
	expect(listed[0].updateAvailable).toBeUndefined();
	expect(listed[0].installedNodes.map((node) => node.type).sort()).toEqual(
		[NODE_TYPE_ACTION, `${PACKAGE_NAME}.paycashlessPollTrigger`, NODE_TYPE_TRIGGER].sort(),
	);
	expect(versionOnDisk()).toBe(firstVersion);
	// n8n's own layout: the package unpacked in its nodes folder, recorded in that folder's package.json.
	const ledger = JSON.parse(fs.readFileSync(path.join(root, 'n8n', '.n8n', 'nodes', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
	expect(ledger.dependencies[PACKAGE_NAME]).toBe(firstVersion);
	expect((await loadedDescriptions()).map((d) => d.name).sort()).toEqual([NODE_TYPE_ACTION, NODE_TYPE_TRIGGER].sort());
});

it('a workflow with the installed Paycashless node runs against the emulator', async () => {
	const [item] = await lookUpThroughAWorkflow();
	expect(item).toMatchObject({ accountNumber: '0123456789', accountName: accountName('0123456789', GTB.id), bank: { id: GTB.id } });
});

it('a newer version published: n8n shows the update; PATCH updates in place and n8n runs the new build without a restart', async () => {
	newerVersion = nextPatch(firstVersion);
	// The newer build carries a mark in the node's description, to see which code n8n has loaded.
	registry.publish(tgz, newerVersion, (dir) => {
		const file = path.join(dir, 'dist', 'nodes', 'Paycashless', 'Paycashless.node.js');
		const code = fs.readFileSync(file, 'utf8');
		const marked = code.replace("description: 'Collect payments", `description: '${MARK}: Collect payments`);
		if (marked === code) throw new Error('the description to mark was not found in the built node');
		fs.writeFileSync(file, marked);
	});
	expect((await registry.versions()).latest).toBe(newerVersion);
	const [listed] = await communityPackages.list(session);
	expect(listed).toMatchObject({ installedVersion: firstVersion, updateAvailable: newerVersion });
	const before = (await loadedDescriptions()).find((d) => d.name === NODE_TYPE_ACTION);
	expect(before?.description).not.toContain(MARK);

	const started = Date.now();
	const updated = await communityPackages.update(session, newerVersion);
	figures.updateSeconds = seconds(started);
	expect(updated).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: newerVersion });
	const [after] = await communityPackages.list(session);
	expect(after).toMatchObject({ installedVersion: newerVersion });
	expect(after.failedLoading ?? false).toBe(false);
	expect(after.updateAvailable).toBeUndefined();
	expect(versionOnDisk()).toBe(newerVersion);
	const loaded = (await loadedDescriptions()).find((d) => d.name === NODE_TYPE_ACTION);
	expect(loaded?.description).toContain(MARK);
	const [item] = await lookUpThroughAWorkflow();
	expect(item).toMatchObject({ accountNumber: '0123456789', accountName: accountName('0123456789', GTB.id) });
});

it('uninstall (DELETE /rest/community-packages): the list is empty, the files are gone, the node type is unknown', async () => {
	const started = Date.now();
	await communityPackages.uninstall(session);
	figures.uninstallSeconds = seconds(started);
	expect(await communityPackages.list(session)).toEqual([]);
	expect(fs.existsSync(installedDir())).toBe(false);
	expect(await loadedDescriptions()).toEqual([]);
	// A workflow using the node can no longer be activated.
	const webhookPath = `installer-gone-${randomUUID().slice(0, 8)}`;
	const created = await session.api<{ id: string }>('POST', '/workflows', {
		name: 'installer after uninstall',
		nodes: [
			{ id: randomUUID(), position: [0, 0], ...webhookNode(webhookPath) },
			{ id: randomUUID(), position: [240, 0], name: 'Look Up', type: NODE_TYPE_ACTION, typeVersion: 1, credentials: { [CREDENTIAL_TYPE]: credential }, parameters: { resource: 'bankAccount', operation: 'lookUp' } },
		],
		connections: { Webhook: { main: [[{ node: 'Look Up', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	const activate = await session.request('POST', `/api/v1/workflows/${created.id}/activate`);
	expect(activate.status).toBeGreaterThanOrEqual(400);
	expect(activate.text).toMatch(/Unrecognized node type|n8n-nodes-paycashless\.paycashless/);
});

it('a publish that is not the GitHub Actions release is refused, and nothing reaches the registry (publishConfig.provenance)', async () => {
	// As from a maintainer's laptop: RELEASE_MODE set by hand and scripts skipped, so the
	// prepublishOnly guard does not run; npm itself refuses, as it cannot make a provenance statement.
	const publish = registry.publishAsFromLaptop(tgz, '99.0.0');
	expect(publish.status).not.toBe(0);
	expect(publish.output).toMatch(/provenance generation not supported/i);
	expect((await registry.versions()).versions).not.toContain('99.0.0');
});
