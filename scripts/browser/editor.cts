/**
 * A real Chromium (Debian's `chromium` package, installed by scripts/browser/install.sh) driven
 * by playwright-core, which never downloads a browser of its own, against the editor of a real
 * n8n: the browser tests' (test/browser/, their n8n from test/support/e2e/harness.cts) and the docs
 * screenshot's (scripts/browser/screenshot.cts). Each test step that fails leaves a screenshot and
 * the page's HTML in `.tmp/browser-artifacts/` (git-ignored; CI keeps it as an artefact), and its
 * message says what the page showed.
 *
 * Every playwright wait (a click, a fill, a locator's waitFor, a page load) has the deadline of a step
 * of the editor that takes up to 5 s alone (scripts/n8n/patience.cts): `{ timeout }` only where a step
 * takes longer.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { chromium, selectors, type BrowserContext, type Locator, type Page } from 'playwright-core';

import { LAB_OWNER, ROOT, install } from '../n8n/lab.cjs';
import { patience, waitFor } from '../n8n/patience.cjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(ROOT, '.tmp', 'browser-artifacts');

/** Flags for a quiet, reproducible headless Chromium (no sandbox: CI runs as root in a container). */
const FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-dev-shm-usage',
];

function installChromium(): void {
	install('chromium');
}

/** The deadline of one step of the editor (a page load, a panel drawn, a click): up to 5 s alone. */
const EDITOR_STEP_MS = patience(5_000);

export interface ConsoleMessage {
	type: string;
	text: string;
	url: string;
}

export interface Editor {
	page: Page;
	context: BrowserContext;
	/** Every console error and page error since the start. */
	consoleErrors: ConsoleMessage[];
	close(): Promise<void>;
}

/** Launches Chromium with a fresh profile and logs in to n8n through its sign-in form (as the lab's owner, or `user`). */
export async function openEditor(n8nBaseUrl: string, user: { email: string; password: string } = LAB_OWNER): Promise<Editor> {
	installChromium();
	// n8n marks its elements with data-test-id.
	selectors.setTestIdAttribute('data-test-id');
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'paycashless-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: FLAGS,
		viewport: { width: 1440, height: 900 },
		// n8n's editor keeps animating some of what it shows (measured: 5 s of CPU in 30 s of an idle
		// editor after a panel was opened and closed, none with reduced motion).
		reducedMotion: 'reduce',
		timeout: patience(10_000),
	});
	context.setDefaultTimeout(EDITOR_STEP_MS);
	const page = context.pages()[0] ?? (await context.newPage());
	const consoleErrors: ConsoleMessage[] = [];
	page.on('console', (message) => {
		if (message.type() === 'error') consoleErrors.push({ type: 'console', text: message.text(), url: message.location().url });
	});
	page.on('pageerror', (error) => consoleErrors.push({ type: 'pageerror', text: `${error.message}\n${error.stack ?? ''}`, url: '' }));

	// Not until "load" (every script and font of the editor): the sign-in form is what is needed.
	await page.goto(`${n8nBaseUrl}/signin`, { waitUntil: 'domcontentloaded' });
	await page.fill('input[name=emailOrLdapLoginId]', user.email);
	await page.fill('input[name=password]', user.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL((url) => !url.pathname.includes('signin'));
	return {
		page,
		context,
		consoleErrors,
		close: async () => {
			await context.close();
			fs.rmSync(profile, { recursive: true, force: true });
		},
	};
}

/** Whether `probe` gives a value within `timeoutMs` (patience.cts `waitFor`, whose time-out here is an answer, not a failure). */
async function seen(what: string, probe: () => Promise<true | undefined>, timeoutMs: number): Promise<boolean> {
	return waitFor(what, probe, timeoutMs).then(
		() => true,
		() => false,
	);
}

/** The run clicks n8n's editor dropped in this process and `clickToRun` clicked again (what each was to do), for a test's report. */
export const droppedRunClicks: string[] = [];

/**
 * Clicks a button that starts a run in n8n's editor ("Execute workflow", a node's "Execute step" or
 * "Listen for test event") and makes sure the editor took the click. n8n 2.41's editor drops such a
 * click without a word at two moments (its useRunWorkflow, checked in the installed editor): before
 * its push connection to n8n is up, on a page just opened (it refuses: "No active connection to the
 * server"), and right after a run, while the finished run is still its active execution (the button
 * is enabled again before the editor lets go of the run). On a busy machine both last seconds, and
 * two CI runs failed on a click that started nothing. A person clicks again; so does this: it waits
 * up to 20 s alone for a sign that the editor took the click, then clicks again, three clicks at
 * most. The signs: the button turned busy or disabled (the editor marks it so at once when it starts
 * a run), or is gone (n8n swaps it for another while a trigger listens), or `took` (what the caller
 * sees of the run: an execution in n8n, the panel listening). A dropped click leaves the button as
 * it was. A click the editor took is not repeated unless the editor shows none of those signs for
 * 20 s alone.
 */
export async function clickToRun(button: Locator, what: string, took: () => Promise<boolean>): Promise<void> {
	// Read without waiting: no element, no wait.
	const changed = async () =>
		button
			.evaluateAll((found) => found.length === 0 || found.some((element) => ['aria-busy', 'aria-disabled', 'disabled'].some((name) => ![null, 'false'].includes(element.getAttribute(name)))))
			.catch(() => false);
	const sign = async () => ((await changed()) || (await took().catch(() => false)) ? true : undefined);
	for (let click = 1; ; click += 1) {
		await button.click();
		if (await seen(`a sign that the editor took the click to ${what}`, sign, patience(2_000))) return;
		if (click === 3) throw new Error(`n8n's editor took none of 3 clicks to ${what} (waited ${patience(2_000) / 1000} s after each)`);
		droppedRunClicks.push(what);
	}
}

/**
 * Adds `note` to a thrown error where a failed test shows it: jest prints the error's stack, which
 * holds the message as it was when the error was made, so the note goes into both.
 */
export function addNote(error: unknown, note: string): void {
	if (!(error instanceof Error)) return;
	const before = error.message;
	// Read first: V8 writes an error's stack out when it is first read, with the message of then.
	const stack = error.stack;
	error.message += note;
	if (typeof stack !== 'string') return;
	error.stack = stack.includes(before) && before !== '' ? stack.replace(before, error.message) : `${stack}${note}`;
}

/** Runs one step; when it throws, keeps a screenshot and the HTML named after the step; its error says what the page showed. */
export async function step<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
	try {
		return await fn();
	} catch (error) {
		fs.mkdirSync(ARTIFACTS, { recursive: true });
		const base = path.join(ARTIFACTS, `${new Date().toISOString().replace(/[:.]/g, '-')}-${name.replace(/[^A-Za-z0-9]+/g, '-')}`);
		await page.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => undefined);
		await page
			.content()
			.then((html) => fs.writeFileSync(`${base}.html`, html))
			.catch(() => undefined);
		const text = await page
			.locator('body')
			.innerText({ timeout: EDITOR_STEP_MS })
			.catch(() => '(no text: the page did not answer)');
		const shown = `${new URL(page.url()).pathname}: ${text.replace(/\s+/g, ' ').slice(0, 600)}`;
		addNote(error, `\n(the page showed: ${shown})\n(screenshot: ${path.relative(ROOT, base)}.png)`);
		throw error;
	}
}

/**
 * Shows the editor's page `route` (a path such as /workflow/ID) and waits until `shown` says the page
 * shows it. In an editor already open in `page`, the editor's own router changes the page, as a
 * click in the editor does (a workflow in the list, "Create workflow"): no new load of the editor, which
 * costs Chromium some 12 s of a core each time on a quiet machine (measured: six loads of a workflow
 * took 77 s of CPU, six changes by the router 6 s), and keeps the editor's push connection to n8n up.
 * Otherwise, or when the router does not get there in 10 s alone (a question about unsaved changes,
 * say), the page is loaded at that address.
 */
async function showInEditor(page: Page, n8nBaseUrl: string, route: string, shows: () => Promise<boolean>): Promise<void> {
	const shown = async () => ((await shows().catch(() => false)) ? true : undefined);
	const here = new URL(page.url());
	if (here.origin === new URL(n8nBaseUrl).origin && !here.pathname.startsWith('/signin') && !here.pathname.startsWith('/form')) {
		// In the page (a script of the page's own, hence a string: this file is not built for the browser).
		await page.evaluate(`history.pushState(null, '', ${JSON.stringify(route)}); dispatchEvent(new PopStateEvent('popstate', { state: null }));`);
		if (await seen(`the editor's router to show ${route}`, shown, patience(1_000))) return;
	}
	await page.goto(`${n8nBaseUrl}${route}`);
	await waitFor(`the editor to show ${route} after loading it`, shown, EDITOR_STEP_MS);
}

/** The names of a workflow's nodes that its canvas draws (not its sticky notes), asked of n8n as the editor asks, with its session; undefined when n8n does not say. */
async function drawnNodeNames(page: Page, n8nBaseUrl: string, workflowId: string): Promise<string[] | undefined> {
	if (new URL(page.url()).origin !== new URL(n8nBaseUrl).origin) return undefined;
	// The editor sends its browser ID with every request; n8n checks it against the session.
	const script = `fetch(${JSON.stringify(`${n8nBaseUrl}/rest/workflows/${workflowId}`)}, { credentials: 'include', headers: { 'browser-id': localStorage.getItem('n8n-browserId') ?? '' } })
		.then((answer) => (answer.ok ? answer.json() : undefined))`;
	const body = (await page.evaluate(script).catch(() => undefined)) as { data?: { nodes?: Array<{ name: string; type: string }> } } | undefined;
	return body?.data?.nodes?.filter((node) => !node.type.endsWith('stickyNote')).map((node) => node.name);
}

/** The names of the nodes the canvas draws now. */
async function canvasNodeNames(page: Page): Promise<string[]> {
	return page.getByTestId('canvas-node').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node-name') ?? ''));
}

/** A new, empty workflow in the editor (showInEditor): its canvas shows the "+" to add a first node. */
export async function openNewWorkflow(page: Page, n8nBaseUrl: string): Promise<void> {
	await showInEditor(page, n8nBaseUrl, '/workflow/new', async () => (await page.getByTestId('canvas-node').count()) === 0 && (await page.getByTestId('canvas-add-button').isVisible()));
}

/** A new workflow with n8n's manual trigger, its "+" clicked: the node panel open for the next node. */
export async function newWorkflowThenAdd(page: Page, n8nBaseUrl: string): Promise<void> {
	await openNewWorkflow(page, n8nBaseUrl);
	await page.getByTestId('canvas-add-button').click();
	await page.getByTestId('node-creator-search-bar').fill('Manual');
	await page.getByTestId('node-creator-node-item').first().click();
	await page.keyboard.press('Escape');
	await page.getByTestId('canvas-handle-plus').first().click();
}

/** In the open node panel: Paycashless, then its action named `action`; the node's panel open. */
export async function pickPaycashlessAction(page: Page, action: string): Promise<void> {
	await page.getByTestId('node-creator-search-bar').fill('Paycashless');
	await page.getByTestId('node-creator-item-name').filter({ hasText: /^Paycashless$/ }).first().click();
	await page.getByTestId('node-creator-item-name').filter({ hasText: new RegExp(`^${action}$`) }).click();
	await page.getByTestId('ndv').waitFor();
}

/** A new workflow with n8n's manual trigger, then Paycashless's action `action` after it: its panel open. */
export async function addPaycashlessAction(page: Page, n8nBaseUrl: string, action: string): Promise<void> {
	await newWorkflowThenAdd(page, n8nBaseUrl);
	await pickPaycashlessAction(page, action);
}

/** Opens a workflow in the editor (showInEditor) and waits for its canvas: every node of it drawn, and no other. */
export async function openWorkflow(page: Page, n8nBaseUrl: string, workflowId: string): Promise<void> {
	const names = await drawnNodeNames(page, n8nBaseUrl, workflowId);
	const expected = names ? JSON.stringify([...names].sort()) : undefined;
	const route = `/workflow/${workflowId}`;
	await showInEditor(page, n8nBaseUrl, route, async () => {
		if (new URL(page.url()).pathname !== route) return false;
		const drawn = await canvasNodeNames(page);
		return expected === undefined ? drawn.length > 0 : JSON.stringify(drawn.sort()) === expected;
	});
}

export function canvasNode(page: Page, name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/** Opens a node's panel (NDV) by double-clicking it on the canvas. */
export async function openNode(page: Page, name: string): Promise<void> {
	await canvasNode(page, name).dblclick();
	await page.getByTestId('ndv').waitFor();
}

export async function closeNode(page: Page): Promise<void> {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

/**
 * Console errors that come from this package (its node or credential types, its icons). Not
 * counted: the editor's own look-up of the package on registry.npmjs.org (n8n's node panel asks
 * the registry about every community package; offline or behind a proxy that fails, whatever the
 * package).
 */
export function packageErrors(errors: ConsoleMessage[]): ConsoleMessage[] {
	return errors.filter((e) => /paycashless/i.test(`${e.text} ${e.url}`) && !e.url.startsWith('https://registry.npmjs.org/'));
}
