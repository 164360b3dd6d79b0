/**
 * A local npm registry (Verdaccio, installed from the npm registry by install-registry.sh) so that
 * the package reaches n8n the way users get it: published to a registry, then installed by n8n's
 * own community-package installer (Settings → Community Nodes, `POST /rest/community-packages`).
 *
 * - `startRegistry()` runs Verdaccio on a free 127.0.0.1 port with its own storage under the given
 *   folder: this package is served only from there (published anonymously, never looked up
 *   upstream); every other package comes from the public registry through Verdaccio's uplink.
 * - `publish()` publishes a packed tarball (lab.buildAndPack()) under a chosen version, so a test
 *   can publish 0.1.0 and later 0.1.1 of the same build.
 * - `npmShimDir`: n8n passes `--registry=<its registry>` to every npm command it runs and refuses
 *   another registry than npmjs.org without an enterprise licence (N8N_COMMUNITY_PACKAGES_REGISTRY,
 *   n8n's community-packages.service.js `getNpmRegistry`). The shim, first on an n8n process's PATH,
 *   is an `npm` that replaces only that flag with the local registry and runs the real npm.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { patience, waitedNote } from './patience.cjs';
import { NODE24_BIN, PACKAGE_NAME, type N8nSession, TOOLS, delay, freePort, install, spawnDetached, stopProcessGroup, tail } from './lab.cjs';

/** Also in scripts/n8n/install-registry.sh. */
export const VERDACCIO_VERSION = '6.10.4';
export const VERDACCIO_DIR = path.join(TOOLS, `verdaccio-${VERDACCIO_VERSION}`);

export interface LocalRegistry {
	/** `http://127.0.0.1:<port>` (no trailing slash). */
	url: string;
	/** Put first on an n8n process's PATH: its `npm` talks to this registry. */
	npmShimDir: string;
	/**
	 * Publishes the tarball as `version` (the tarball's own version when omitted); returns the version.
	 * `edit` may change the unpacked files first (a test marks a newer build to see it loaded).
	 */
	publish(tgz: string, version?: string, edit?: (packageDir: string) => void): string;
	/**
	 * The same publish, but the way a maintainer would from a laptop: `RELEASE_MODE` set, scripts
	 * skipped, provenance as package.json's publishConfig says (not turned off). Returns npm's answer.
	 */
	publishAsFromLaptop(tgz: string, version: string): { status: number | null; output: string };
	/** The versions of this package the registry holds, and its `latest`. */
	versions(): Promise<{ versions: string[]; latest?: string }>;
	logTail(lines?: number): string;
	stop(): Promise<void>;
}

/** Runs scripts/n8n/install-registry.sh (idempotent: a version check when installed). */
export function installRegistry(quiet = true): void {
	install('registry', { quiet });
}

/** The real npm: the first `npm` on this process's PATH that is not a lab shim. */
function realNpm(): string {
	for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
		const candidate = path.join(dir, 'npm');
		if (dir && !dir.includes('npm-shim') && fs.existsSync(candidate)) return candidate;
	}
	throw new Error('npm not found on PATH');
}

function config(storage: string, port: number): string {
	// Verdaccio's YAML; the package itself is local only (no `proxy`), so a package of the same name
	// upstream can never be mixed in. Anonymous publish: a lab registry on the loopback interface.
	return [
		`storage: ${JSON.stringify(storage)}`,
		'auth:',
		'  htpasswd:',
		`    file: ${JSON.stringify(path.join(storage, '..', 'htpasswd'))}`,
		'    max_users: -1',
		'uplinks:',
		'  npmjs:',
		'    url: https://registry.npmjs.org/',
		'    timeout: 60s',
		'packages:',
		`  '${PACKAGE_NAME}':`,
		'    access: $all',
		'    publish: $anonymous',
		'    unpublish: $anonymous',
		"  '**':",
		'    access: $all',
		'    publish: $authenticated',
		'    proxy: npmjs',
		'web:',
		'  enable: false',
		'server:',
		'  keepAliveTimeout: 60',
		'max_body_size: 50mb',
		'log: { type: stdout, format: pretty, level: warn }',
		`listen: 127.0.0.1:${port}`,
		'',
	].join('\n');
}

function writeShim(dir: string, registryUrl: string): void {
	fs.mkdirSync(dir, { recursive: true });
	const shim = path.join(dir, 'npm');
	fs.writeFileSync(
		shim,
		[
			'#!/usr/bin/env bash',
			'# The lab\'s npm for n8n (scripts/n8n/registry.cts): n8n\'s community-package installer passes',
			'# --registry=<npmjs.org>; this points it at the local registry and changes nothing else.',
			`registry=${JSON.stringify(registryUrl)}`,
			'args=()',
			'skip=0',
			'for arg in "$@"; do',
			'  if [ "$skip" = 1 ]; then skip=0; args+=("$registry"); continue; fi',
			'  case "$arg" in',
			'    --registry=*) args+=("--registry=$registry") ;;',
			'    --registry) skip=1; args+=("$arg") ;;',
			'    *) args+=("$arg") ;;',
			'  esac',
			'done',
			// `npm outdated` (the update check) runs without --registry: the environment covers it.
			'export npm_config_registry="$registry"',
			// A packument fetched before a newer version was published must not be reused from the cache.
			'export npm_config_prefer_online=true',
			`exec ${JSON.stringify(realNpm())} "\${args[@]}"`,
			'',
		].join('\n'),
		{ mode: 0o755 },
	);
}

export async function startRegistry(options: { root: string; log?: (message: string) => void }): Promise<LocalRegistry> {
	installRegistry();
	const root = options.root;
	fs.rmSync(root, { recursive: true, force: true });
	fs.mkdirSync(path.join(root, 'storage'), { recursive: true });
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const configFile = path.join(root, 'config.yaml');
	fs.writeFileSync(configFile, config(path.join(root, 'storage'), port));
	const logFile = path.join(root, 'verdaccio.log');
	const bin = path.join(VERDACCIO_DIR, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	const env = { ...process.env };
	for (const key of Object.keys(env)) if (key.startsWith('npm_') || key === 'NODE_OPTIONS' || key === 'JEST_WORKER_ID') delete env[key];
	const started = Date.now();
	// Verdaccio 6.10 needs Node 22+: the lab's Node 24 (install.sh) runs it.
	const child = spawnDetached(path.join(NODE24_BIN, 'node'), [bin, '--config', configFile, '--listen', `127.0.0.1:${port}`], env, logFile, root);
	for (;;) {
		if (child.exitCode !== null || child.signalCode !== null) throw new Error(`Verdaccio exited during start-up:\n${tail(logFile, 30)}`);
		const ok = await fetch(`${url}/-/ping`).then(
			(r) => r.ok,
			() => false,
		);
		if (ok) break;
		// A few seconds alone (scripts/n8n/patience.cts).
		if (Date.now() - started > patience(6_000)) {
			const waited = waitedNote(started);
			await stopProcessGroup(child, 5_000);
			throw new Error(`Verdaccio did not answer /-/ping, ${waited}:\n${tail(logFile, 30)}`);
		}
		await delay(150);
	}
	options.log?.(`local npm registry (Verdaccio ${VERDACCIO_VERSION}) on ${url}, ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	const npmShimDir = path.join(root, 'npm-shim');
	writeShim(npmShimDir, url);
	const publishRoot = path.join(root, 'publish');
	let published = 0;

	/**
	 * An unpacked copy of the tarball with the version rewritten (the same files under another
	 * version), published with its own .npmrc: anonymous publish still needs some token for npm to
	 * send the request. `labOnly`: --ignore-scripts skips prepublishOnly (n8n-node prerelease guards
	 * real releases) and --provenance=false (provenance needs a CI identity; publishConfig sets it for
	 * real releases). Otherwise as from a laptop: RELEASE_MODE set by hand, scripts skipped, no CI.
	 */
	const npmPublish = (tgz: string, options: { version?: string; edit?: (packageDir: string) => void; labOnly: boolean }) => {
		published += 1;
		const work = path.join(publishRoot, String(published));
		fs.rmSync(work, { recursive: true, force: true });
		fs.mkdirSync(work, { recursive: true });
		const untar = spawnSync('tar', ['-xzf', tgz, '-C', work], { encoding: 'utf8' });
		if (untar.status !== 0) throw new Error(`tar -xzf ${tgz}: ${untar.stderr}`);
		const dir = path.join(work, 'package');
		const manifestFile = path.join(dir, 'package.json');
		const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { version: string };
		if (options.version) manifest.version = options.version;
		fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
		options.edit?.(dir);
		const host = url.replace(/^http:/, '');
		const npmrc = path.join(work, '.npmrc');
		fs.writeFileSync(npmrc, `registry=${url}/\n${host}/:_authToken=paycashless-lab-anonymous\n`);
		const env: NodeJS.ProcessEnv = { ...process.env };
		for (const key of Object.keys(env)) if (key.startsWith('npm_') || key === 'CI' || key === 'GITHUB_ACTIONS') delete env[key];
		if (!options.labOnly) env.RELEASE_MODE = 'true';
		const flags = options.labOnly ? ['--provenance=false', '--access=public', '--tag=latest'] : [];
		const result = spawnSync(realNpm(), ['publish', dir, `--registry=${url}/`, `--userconfig=${npmrc}`, '--ignore-scripts', ...flags, '--no-audit', '--loglevel=error'], {
			cwd: work,
			env,
			encoding: 'utf8',
		});
		return { result, version: manifest.version };
	};

	const registry: LocalRegistry = {
		url,
		npmShimDir,
		publish(tgz, version, edit) {
			const { result, version: published } = npmPublish(tgz, { version, edit, labOnly: true });
			if (result.status !== 0) throw new Error(`npm publish ${published} to ${url} failed:\n${result.stdout}\n${result.stderr}\n${tail(logFile, 20)}`);
			return published;
		},
		publishAsFromLaptop(tgz, version) {
			const { result } = npmPublish(tgz, { version, labOnly: false });
			return { status: result.status, output: `${result.stdout}${result.stderr}` };
		},
		async versions() {
			const response = await fetch(`${url}/${PACKAGE_NAME}`);
			if (response.status === 404) return { versions: [] };
			const body = (await response.json()) as { versions?: Record<string, unknown>; 'dist-tags'?: { latest?: string } };
			return { versions: Object.keys(body.versions ?? {}), latest: body['dist-tags']?.latest };
		},
		logTail: (lines = 30) => tail(logFile, lines),
		stop: () => stopProcessGroup(child, 5_000),
	};
	return registry;
}

/** The next patch version (0.1.0 → 0.1.1): what a test publishes as "a newer version". */
export function nextPatch(version: string): string {
	const [major, minor, patch] = version.split(/[.-]/).map(Number);
	return `${major}.${minor}.${patch + 1}`;
}

/** A package as n8n's Settings → Community Nodes lists it (`GET /rest/community-packages`). */
export interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	installedNodes: Array<{ name: string; type: string; latestVersion: number }>;
	/** The registry's `latest` when it is newer (n8n runs `npm outdated` in its nodes folder). */
	updateAvailable?: string;
	failedLoading?: boolean;
}

/**
 * n8n's own community-package installer, called as the editor's Settings → Community Nodes does
 * (n8n's community-packages.controller.js; the same routes on 1.123 and 2.41).
 */
export const communityPackages = {
	list: (session: N8nSession) => session.rest<InstalledPackage[]>('GET', '/rest/community-packages'),
	/** Install: `{ name, version? }` (no version: the registry's latest). */
	install: (session: N8nSession, version?: string) =>
		session.rest<InstalledPackage>('POST', '/rest/community-packages', { name: PACKAGE_NAME, ...(version ? { version } : {}) }),
	/** Update in place (the editor's Update button): no version means the registry's latest. */
	update: (session: N8nSession, version?: string) =>
		session.rest<InstalledPackage>('PATCH', '/rest/community-packages', { name: PACKAGE_NAME, ...(version ? { version } : {}) }),
	uninstall: (session: N8nSession) => session.rest<unknown>('DELETE', `/rest/community-packages?name=${encodeURIComponent(PACKAGE_NAME)}`),
};
