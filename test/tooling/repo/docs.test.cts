/**
 * The Docs links n8n shows (on each node's panel and on the credential) open this package's own
 * pages, and the README's links and picture work where people read it: on GitHub and in a clone
 * (relative paths, offline too; npm's page resolves them against package.json's `repository`).
 *
 * A link to a page is `https://github.com/<owner>/<repo>/blob/main/<file>[#<anchor>]`: the file must
 * be in this repository and the anchor one of its headings (as GitHub makes anchors of headings).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import * as path from 'path';

import type { ICredentialType, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { accountExists, accountName, bankByCode, BANKS } from '../../../emulator/banks.cjs';
import { PACKAGE_DOCS_URL } from '../../../lib/api';

const ROOT = path.join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	repository: { url: string };
	homepage: string;
	n8n: { nodes: string[]; credentials: string[] };
};
/** `git+https://github.com/owner/repo.git` → `https://github.com/owner/repo`. */
const REPOSITORY = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const OWNER_REPO = new URL(REPOSITORY).pathname.slice(1);
const BLOB = `${REPOSITORY}/blob/main/`;
const RAW = `https://raw.githubusercontent.com/${OWNER_REPO}/main/`;
const README_MAX_BYTES = 12 * 1024;

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function githubSlug(heading: string): string {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // [text](url) → text
		.replace(/<[^>]+>/g, '') // inline HTML
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a Markdown file offers: one per heading (repeats get -1, -2...), outside code blocks. */
function anchorsOf(file: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let fenced = false;
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
		if (fenced) continue;
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (heading) {
			const slug = githubSlug(heading[1]);
			const count = seen.get(slug) ?? 0;
			seen.set(slug, count + 1);
			anchors.add(count === 0 ? slug : `${slug}-${count}`);
		}
		for (const explicit of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(explicit[1]);
	}
	return anchors;
}

/** What is wrong with a link to a file of this repository (`undefined`: it opens). */
function problemWithRepoFile(relative: string, anchor: string | undefined, from = 'the repository'): string | undefined {
	const file = path.join(ROOT, decodeURIComponent(relative));
	if (!relative || !existsSync(file)) return `${relative || '(no file)'} does not exist in ${from}`;
	if (anchor === undefined || anchor === '') return undefined;
	if (!file.endsWith('.md')) return `#${anchor} on ${relative}, which is not Markdown`;
	return anchorsOf(file).has(anchor) ? undefined : `${relative} has no heading for #${anchor} (it has: ${[...anchorsOf(file)].join(', ')})`;
}

/** What is wrong with a Docs link (`undefined`: it opens a page of this package). */
function problemWithPackagePage(url: string | undefined): string | undefined {
	if (!url) return 'no link';
	if (!url.startsWith(BLOB)) return `${url} is not a page of ${REPOSITORY} (${BLOB}...)`;
	const [relative, anchor] = url.slice(BLOB.length).split('#');
	return problemWithRepoFile(relative, anchor);
}

interface Codex {
	resources: { primaryDocumentation?: Array<{ url: string }>; credentialDocumentation?: Array<{ url: string }> };
}

/** The TypeScript source of a `dist/...js` entry of package.json's `n8n` section. */
function sourceOf(distPath: string): string {
	return path.join(ROOT, distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
}

/** The classes a source file exports, instantiated. */
function instancesIn<T>(source: string): T[] {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = require(source) as Record<string, unknown>;
	return Object.values(exported)
		.filter((value): value is new () => T => typeof value === 'function' && /^class\s/.test(Function.prototype.toString.call(value)))
		.map((Class) => new Class());
}

/**
 * The link behind "Docs" on a node's panel, as n8n 2.41's editor makes it (NodeSettings: the
 * description's `documentationUrl` when it is an http(s) URL, otherwise the codex file's first
 * primaryDocumentation URL with `?utm_source=n8n_app&...` appended).
 */
function editorDocsLink(description: INodeTypeDescription, codex: Codex): string | undefined {
	if (description.documentationUrl?.startsWith('http')) return description.documentationUrl;
	const primary = codex.resources.primaryDocumentation?.[0]?.url;
	return primary ? `${primary}?utm_source=n8n_app&utm_medium=node_settings_modal-credential_link&utm_campaign=${description.name}` : undefined;
}

const nodes = pkg.n8n.nodes.map((distPath) => {
	const source = sourceOf(distPath);
	const [node] = instancesIn<INodeType>(source).filter((instance) => instance.description !== undefined);
	const codex = JSON.parse(readFileSync(source.replace(/\.ts$/, '.json'), 'utf8')) as Codex;
	return { distPath, description: node.description, codex };
});
const credentials = pkg.n8n.credentials.map((distPath) => {
	const [credential] = instancesIn<ICredentialType>(sourceOf(distPath)).filter((instance) => typeof instance.name === 'string');
	return { distPath, credential };
});

describe('Docs links open this package’s pages', () => {
	it('the repository and homepage in package.json are the GitHub repository the links point at', () => {
		expect(REPOSITORY).toBe('https://github.com/paycashless/n8n-nodes-paycashless');
		expect(pkg.homepage.startsWith(REPOSITORY)).toBe(true);
		// The one base the nodes build their Docs links from.
		expect(`${PACKAGE_DOCS_URL}/`).toBe(BLOB);
		expect(nodes).toHaveLength(3);
		expect(credentials).toHaveLength(1);
	});

	it.each(nodes.map((n) => [n.description.displayName, n]))('%s: the panel’s Docs link', (_name, { description, codex }) => {
		const link = editorDocsLink(description, codex);
		expect({ link, problem: problemWithPackagePage(description.documentationUrl) }).toEqual({ link: description.documentationUrl, problem: undefined });
	});

	it.each(nodes.map((n) => [n.description.displayName, n]))('%s: the codex file’s links', (_name, { codex }) => {
		const primary = codex.resources.primaryDocumentation ?? [];
		const credential = codex.resources.credentialDocumentation ?? [];
		expect(primary.length).toBeGreaterThan(0);
		for (const { url } of [...primary, ...credential]) expect({ url, problem: problemWithPackagePage(url) }).toEqual({ url, problem: undefined });
		// n8n appends `?utm_source=...` to this one: after a `#` it would become part of the anchor.
		for (const { url } of primary) expect(url).not.toContain('#');
	});

	it('each node has its own page: the action node the README’s operations, the triggers their pages', () => {
		expect(Object.fromEntries(nodes.map((n) => [n.description.name, n.description.documentationUrl?.slice(BLOB.length)]))).toEqual({
			paycashless: 'README.md#operations',
			paycashlessTrigger: 'docs/triggers.md',
			paycashlessPollTrigger: 'docs/polling-trigger.md',
		});
	});

	it.each(credentials.map((c) => [c.credential.displayName, c]))('credential %s: its Docs link', (_name, { credential }) => {
		expect(credential.documentationUrl).toBe(`${BLOB}README.md#credentials`);
		expect(problemWithPackagePage(credential.documentationUrl)).toBeUndefined();
	});

	it('the checks catch a wrong link (control)', () => {
		expect(problemWithPackagePage('https://docs.paycashless.com/getting-api-keys')).toMatch(/is not a page of/);
		expect(problemWithPackagePage(`${BLOB}docs/nothing.md`)).toMatch(/does not exist/);
		expect(problemWithPackagePage(`${BLOB}README.md#no-such-heading`)).toMatch(/has no heading for #no-such-heading/);
		expect(githubSlug('Amounts: naira in, naira out')).toBe('amounts-naira-in-naira-out');
		expect(githubSlug('Two kinds of TypeScript: `.ts` ships, `.cts` does not')).toBe('two-kinds-of-typescript-ts-ships-cts-does-not');
		expect(githubSlug('1. Install the package in every process')).toBe('1-install-the-package-in-every-process');
	});
});

/** The links and images of a Markdown text, outside code blocks: inline, `<img>` and reference definitions. */
function linksIn(markdown: string): Array<{ image: boolean; target: string }> {
	const outside = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
	const found: Array<{ image: boolean; target: string }> = [];
	for (const match of outside.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ image: match[1] === '!', target: match[2] });
	for (const match of outside.matchAll(/<img\s[^>]*src="([^"]+)"/g)) found.push({ image: true, target: match[1] });
	// Reference-style: `[label]: target` (the image is the one whose label an `![...][label]` uses).
	const imageLabels = new Set([...outside.matchAll(/!\[[^\]]*\]\[([^\]]+)\]/g)].map((m) => m[1].toLowerCase()));
	for (const match of outside.matchAll(/^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) found.push({ image: imageLabels.has(match[1].toLowerCase()), target: match[2] });
	return found;
}

/** What is wrong with a link found in `file` (`undefined`: it opens). External links are not fetched. */
function problemWithLink(file: string, target: string): string | undefined {
	if (target.startsWith(BLOB) || target.startsWith(`${REPOSITORY}/tree/main/`)) {
		const rest = target.slice(target.indexOf('/main/') + '/main/'.length);
		const [relative, anchor] = rest.split('#');
		return problemWithRepoFile(relative.replace(/\/$/, ''), anchor);
	}
	if (target.startsWith(RAW)) return problemWithRepoFile(target.slice(RAW.length), undefined);
	if (/^[a-z]+:/i.test(target)) return undefined;
	const [relative, anchor] = target.split('#');
	const resolved = relative === '' ? path.relative(ROOT, file) : path.relative(ROOT, path.join(path.dirname(file), relative));
	return problemWithRepoFile(resolved, anchor, path.relative(ROOT, file));
}

describe('README', () => {
	const file = path.join(ROOT, 'README.md');
	const readme = readFileSync(file, 'utf8');

	it(`stays within about 12 KB (${README_MAX_BYTES} bytes)`, () => {
		expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(README_MAX_BYTES);
	});

	it('has the sections in the order an n8n user looks for them', () => {
		const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
		const wanted = ['Install', 'Credentials', 'Operations', 'Triggers', 'Examples', 'Compatibility', 'Troubleshooting'];
		const positions = wanted.map((name) => sections.findIndex((section) => section.startsWith(name)));
		expect(Object.fromEntries(wanted.map((name, i) => [name, positions[i] >= 0]))).toEqual(Object.fromEntries(wanted.map((name) => [name, true])));
		expect([...positions].sort((a, b) => a - b)).toEqual(positions);
	});

	it('shows a picture of a workflow by a relative path (opens in a clone offline; npm resolves it against `repository`)', () => {
		const images = linksIn(readme).filter((link) => link.image);
		expect(images.length).toBeGreaterThan(0);
		for (const { target } of images) {
			expect(/^[a-z]+:/i.test(target)).toBe(false);
			expect(problemWithLink(file, target)).toBeUndefined();
			// Small enough for a README (npm run docs:screenshot refuses more too).
			expect(statSync(path.join(ROOT, target)).size).toBeLessThan(200_000);
		}
	});

	it('links to this repository’s files by relative paths to files and headings that exist (no github.com addresses)', () => {
		const links = linksIn(readme).filter((link) => !link.image);
		expect(links.length).toBeGreaterThan(10);
		const problems = links
			.filter(({ target }) => !/^[a-z]+:/i.test(target) || target.startsWith(REPOSITORY) || target.startsWith(RAW))
			.map(({ target }) => ({ target, problem: /^[a-z]+:/i.test(target) ? 'absolute github.com address: use a relative path' : problemWithLink(file, target) }))
			.filter((entry) => entry.problem !== undefined);
		expect(problems).toEqual([]);
	});
});

describe('README: Try it without an account (issue 43)', () => {
	const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const tryIt = readme.slice(readme.indexOf('## Try it without an account'), readme.indexOf('## Install'));

	it('walks through the payout example, settling or failing the payout on the Pay page', () => {
		expect(tryIt).toMatch(/\*payout pipeline\*: \*\*Execute workflow\*\*/);
		expect(tryIt).toContain('**Settle (succeeded)** or **Fail**');
	});

	it('says where to put files n8n may read, and how to choose another folder', () => {
		expect(tryIt).toContain('`~/.n8n-files`');
		expect(tryIt).toContain('Access to the file is not allowed');
		expect(tryIt).toContain('N8N_RESTRICT_FILE_ACCESS_TO=');
	});

	it('lists every test bank by its code, accounts with the holders\' names Look Up gives, and how to get "not found"', () => {
		for (const bank of BANKS) expect({ bank: bank.name, listed: tryIt.includes(`\`${bank.cbnCode}\``) }).toEqual({ bank: bank.name, listed: true });
		const named = [...tryIt.matchAll(/([A-Z]{3,} [A-Z]{3,}) at\s+(\d{3,5})/g)];
		expect(named.length).toBeGreaterThanOrEqual(3);
		const account = /`(\d{10})` is /.exec(tryIt)![1];
		for (const [, holder, code] of named) expect({ code, holder }).toEqual({ code, holder: accountName(account, bankByCode(code)!.id) });
		expect(accountExists('0001234567')).toBe(false);
		expect(tryIt).toMatch(/\*\*Not found\*\*: an account starting with `000`/);
	});
});

describe('docs/ pages', () => {
	const pages = readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => path.join(ROOT, 'docs', name));

	it.each(pages.map((page) => [path.relative(ROOT, page), page]))('%s: its links to files of this repository and to headings open', (_name, page) => {
		const problems = linksIn(readFileSync(page, 'utf8'))
			.map(({ target }) => ({ target, problem: problemWithLink(page, target) }))
			.filter((entry) => entry.problem !== undefined);
		expect(problems).toEqual([]);
	});
});
