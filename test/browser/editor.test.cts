/**
 * What a new user clicks, in n8n's real editor in a real browser (scripts/browser/editor.cts): the
 * lab n8n with this package installed as a community package, the emulator seeded as on a fresh
 * `npm start`, the example workflows imported with their credential, the owner logged in through
 * the sign-in form. Failing steps leave screenshots in .tmp/browser-artifacts/; the time of each
 * part goes to .tmp/browser-artifacts/timings.json.
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';
import type { Page } from 'playwright-core';

import { PACKAGE_DOCS_URL } from '../../lib/api';
import { BANKS } from '../../emulator/banks.cjs';
import { call, invoiceBody } from '../support/emulatorClient.cjs';
import { copyExampleFiles, loadExampleWorkflows, type WorkflowJson } from '../../scripts/n8n/examples.cjs';
import { freshStartEmulatorOptions } from '../../scripts/n8n/fresh-start.cjs';
import { importIntoN8n, NODE_TYPE_ACTION, NODE_TYPE_TRIGGER } from '../../scripts/n8n/lab.cjs';
import { Paycashless } from '../../nodes/Paycashless/Paycashless.node';
import { PaycashlessTrigger } from '../../nodes/Paycashless/PaycashlessTrigger.node';
import { PaycashlessPollTrigger } from '../../nodes/Paycashless/PaycashlessPollTrigger.node';
import { PaycashlessApi } from '../../credentials/PaycashlessApi.credentials';
import { addNote, addPaycashlessAction, ARTIFACTS, clickToRun, droppedRunClicks, canvasNode, closeNode, openEditor, openNewWorkflow, openNode, openWorkflow, packageErrors, step, type Editor } from '../../scripts/browser/editor.cjs';
import { hasEnded, patience, settle } from '../../scripts/n8n/patience.cjs';
import { nodeOutput, paymentTotalsSince, SETUP_TIMEOUT_MS, startE2eLab, TEARDOWN_TIMEOUT_MS, type E2eLab, type Execution, waitFor } from '../support/e2e/harness.cjs';
import { signCallback } from '../support/independentSigning.cjs';
import { freshFetch } from '../support/e2e/freshFetch.cjs';

// Deadlines (scripts/n8n/patience.cts): a test takes up to 20 s alone but the pass over the examples
// (60 s); playwright's own waits take editor.cts's EDITOR_STEP_MS.
jest.setTimeout(patience(20_000));

/** Where the package's own pages are (package.json's repository; test/tooling/repo/docs.test.cts). */
const PACKAGE_PAGES = `${PACKAGE_DOCS_URL}/`;
const GTB = BANKS.find((bank) => bank.cbnCode === '058')!;
/** The action node's JSON fields (callback headers and body, business details, additional body). */
const JSON_FIELDS = jsonFieldNames(new Paycashless().description.properties);
const timings: Record<string, number> = {};
let lab: E2eLab;
let editor: Editor;
let page: Page;
let examples: WorkflowJson[];

function example(name: string): WorkflowJson {
	const found = examples.find((wf) => wf.name === `Paycashless example: ${name}`);
	if (!found) throw new Error(`no example named ${name}`);
	return found;
}

async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
	const started = Date.now();
	try {
		return await fn();
	} finally {
		timings[name] = Date.now() - started;
	}
}

/** The workflow's executions that have finished, newest first. */
async function finished(workflowId: string): Promise<Execution[]> {
	return (await lab.executions(workflowId)).filter(hasEnded);
}


/** Clicks "Execute workflow" in the open workflow and returns the execution it made. */
async function executeWorkflow(workflowId: string): Promise<Execution> {
	const known = await lab.executions(workflowId);
	const before = known.filter(hasEnded).length;
	await clickToRun(page.getByTestId('execute-workflow-button'), 'execute the workflow', async () => (await lab.executions(workflowId)).some((execution) => !known.some((old) => old.id === execution.id)));
	// A run of an example: up to 6 s alone.
	const [execution] = await waitFor(
		'the execution to finish',
		async (saw) => {
			const all = await lab.executions(workflowId);
			saw(all.slice(0, 3).map((e) => `${e.id} ${e.status}`));
			const done = all.filter(hasEnded);
			return done.length > before ? done : undefined;
		},
		patience(6_000),
	);
	expect(execution.mode).toBe('manual');
	expect(execution.status).toBe('success');
	return execution;
}

/**
 * The names of the node's JSON fields (type `json`, at any depth): the only fields n8n's editor
 * lints, 750 ms after it draws them (CodeMirror's linter delay).
 */
function jsonFieldNames(properties: INodeProperties[]): string[] {
	const names: string[] = [];
	const walk = (list: Array<INodeProperties | INodePropertyCollection | INodePropertyOptions>) => {
		for (const entry of list) {
			if ('type' in entry && entry.type === 'json') names.push(entry.name);
			if ('options' in entry && Array.isArray(entry.options)) walk(entry.options as Array<INodeProperties | INodePropertyCollection | INodePropertyOptions>);
			if ('values' in entry && Array.isArray(entry.values)) walk(entry.values);
		}
	};
	walk(properties);
	return [...new Set(names)];
}

/** The action node's top-level JSON fields, with the resource and operation that show each. */
const TOP_JSON_FIELDS = new Paycashless().description.properties.filter((property) => property.type === 'json');

/**
 * Whether a node's panel can show a JSON field, the only fields n8n's editor lints: a top-level
 * one its resource and operation show (other conditions of a field, such as Account Type, are not
 * read: a panel in doubt is opened), or one of its collections holding a JSON field.
 */
function mayShowJsonField(parameters: Record<string, unknown>): boolean {
	const shown = TOP_JSON_FIELDS.some((field) =>
		(['resource', 'operation'] as const).every((name) => {
			const allowed = field.displayOptions?.show?.[name];
			return allowed === undefined || allowed.includes(parameters[name] as string);
		}),
	);
	return shown || JSON_FIELDS.some((name) => JSON.stringify(parameters).includes(`"${name}":`));
}

/**
 * The fields of the open node panel that n8n marks in red: its JSON editor's lint marks (the
 * message is the tooltip shown on hovering the mark) and its parameter issue icons.
 */
async function fieldErrors(): Promise<Array<{ field: string; message: string }>> {
	const ndv = page.getByTestId('ndv');
	const marked = ndv
		.locator('[data-test-id^="parameter-input-"]')
		.filter({ has: page.locator('.cm-lint-marker-error, .cm-lintPoint-error, .cm-lintRange-error, [data-test-id="parameter-issues"]') });
	const errors: Array<{ field: string; message: string }> = [];
	for (const input of await marked.all()) {
		const field = (await input.getAttribute('data-test-id'))!.replace(/^parameter-input-/, '');
		const mark = input.locator('.cm-lint-marker-error, [data-test-id="parameter-issues"]').first();
		await mark.hover();
		const tooltip = page.locator('.cm-tooltip-lint, .el-popper[aria-hidden="false"]').filter({ visible: true }).last();
		const message = await tooltip.innerText({ timeout: patience(2_000) }).catch(() => '(no tooltip)');
		errors.push({ field, message: message.trim() });
		await page.mouse.move(0, 0);
	}
	return errors;
}

/** Issue markers the canvas shows on nodes (missing credential, missing required field...). */
async function nodesWithIssues(): Promise<string[]> {
	return await page
		.getByTestId('canvas-node')
		.filter({ has: page.getByTestId('node-issues') })
		.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node-name') ?? '?'));
}

beforeAll(async () => {
	const started = Date.now();
	lab = await startE2eLab({
		emulator: freshStartEmulatorOptions(Date.now()),
		// As `npm start` does: the examples, with the credential, and the trigger workflow published.
		beforeStart: (config, _emulator, good) => {
			// Its own files folder, made as `npm start` makes it: the payroll CSV copied in, the example pointed at it.
			const files = path.join(config.userFolder, 'files');
			fs.mkdirSync(files, { recursive: true });
			config.env = { ...config.env, N8N_RESTRICT_FILE_ACCESS_TO: fs.realpathSync(files) };
			copyExampleFiles(fs.realpathSync(files));
			examples = loadExampleWorkflows({ n8nBaseUrl: `http://127.0.0.1:${config.port}`, credential: good, filesFolder: fs.realpathSync(files) });
			importIntoN8n(config, 'workflow', examples);
		},
	});
	// Published as `npm start` publishes them (there with n8n's CLI before the start: the same
	// published version, without a CLI run of n8n per workflow here).
	for (const wf of examples.filter((w) => w.nodes.some((node) => node.type === NODE_TYPE_TRIGGER))) await lab.session.api('POST', `/workflows/${wf.id}/activate`);
	timings.startN8n = Date.now() - started;
	editor = await timed('launchChromiumAndLogIn', () => openEditor(lab.n8n.baseUrl));
	page = editor.page;
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	await editor?.close();
	await lab?.close();
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	// Run clicks n8n's editor dropped and clickToRun clicked again (scripts/browser/editor.cts).
	timings.droppedRunClicks = droppedRunClicks.length;
	fs.writeFileSync(path.join(ARTIFACTS, 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
}, TEARDOWN_TIMEOUT_MS);

describe('in n8n’s editor, in Chromium', () => {
	it('HTTP Request offers "Paycashless API" as a predefined credential type, and a request through it is signed', async () => {
		await timed('httpRequestPredefinedCredential', async () => {
			const created = await lab.session.api<{ id: string }>('POST', '/workflows', {
				name: 'browser: HTTP Request with the Paycashless credential',
				settings: { executionOrder: 'v1' },
				connections: { Start: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] } },
				nodes: [
					{ id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
					{
						id: randomUUID(),
						name: 'HTTP Request',
						type: 'n8n-nodes-base.httpRequest',
						typeVersion: 4.2,
						position: [240, 0],
						parameters: { url: `${lab.emulator.baseUrl}/v1/payouts?limit=1`, authentication: 'predefinedCredentialType', options: {} },
					},
				],
			});
			await step(page, 'http-request-credential-type', async () => {
				await openWorkflow(page, lab.n8n.baseUrl, created.id);
				await openNode(page, 'HTTP Request');
				await page.getByTestId('credential-select').click();
				await page.keyboard.type('Paycash');
				const options = page.getByTestId('credential-select-option').filter({ visible: true });
				// The list filters a moment after the typing (a CI run read all 322 types): only the match, once it has.
				await waitFor(
					'the credential types filtered by "Paycash" to one',
					async (saw) => {
						const texts = await options.allInnerTexts();
						saw(texts.length > 3 ? `${texts.length} types` : texts);
						return texts.length === 1 ? texts : undefined;
					},
					patience(5_000),
				).then((texts) => expect(texts).toEqual(['Paycashless API']));
				await options.first().click();
				await page.getByTestId('node-credentials-select').click();
				await page.getByTestId(`node-credentials-select-item-${lab.good.id}`).click();
				lab.emulator.clearLogs();
				await clickToRun(page.getByTestId('node-execute-button'), 'execute the HTTP Request node', async () => lab.emulator.requests.length > 0);
				await page.getByTestId('output-panel').getByText('hasMore').first().waitFor();
			});
			// The emulator checked the signature and key and answered the list.
			expect(lab.emulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v1/payouts 200']);
			await closeNode(page);
		});
	});

	/**
	 * One pass over the examples (each full page load of the editor costs seconds): every example
	 * opens without node issues, no field of its Paycashless nodes is marked in red, and the panels
	 * of the nodes whose Docs link is checked below give that link.
	 */
	const docsLinks: Record<string, string | null> = {};
	const DOCS_NODES = [
		{ example: 'invoice pipeline', node: 'Create VAT Tax Rate', url: new Paycashless().description.documentationUrl },
		{ example: 'invoice paid', node: 'Paycashless Trigger', url: new PaycashlessTrigger().description.documentationUrl },
		{ example: 'payment succeeded (polling)', node: 'Paycashless Poll Trigger', url: new PaycashlessPollTrigger().description.documentationUrl },
	];

	it('every example opens without node issues, and no field of its Paycashless nodes is marked in red (n8n\'s JSON editor marks an empty JSON field); the checks see issues and marks where there are some', async () => {
		await timed('examplesOpenWithoutIssuesOrFieldErrors', async () => {
			// Control: a Paycashless node without credential and reference shows the marker.
			const incomplete = await lab.session.api<{ id: string }>('POST', '/workflows', {
				name: 'browser: node with issues',
				settings: {},
				connections: {},
				nodes: [
					{ id: randomUUID(), name: 'Incomplete', type: NODE_TYPE_ACTION, typeVersion: 1, position: [0, 0], parameters: { resource: 'payout', operation: 'create' } },
				],
			});
			await openWorkflow(page, lab.n8n.baseUrl, incomplete.id);
			await waitFor(
				'the issue marker on node Incomplete',
				async (saw) => {
					const marked = await nodesWithIssues();
					saw({ nodesWithIssues: marked });
					return marked.includes('Incomplete') ? true : undefined;
				},
				patience(3_000),
			);
			// Control: the Verify node with Headers and Parsed Body empty, as they were before they
			// defaulted to {}: n8n's JSON editor marks both "Unexpected end of JSON input".
			const control = await lab.session.api<{ id: string }>('POST', '/workflows', {
				name: 'browser: empty JSON fields',
				settings: {},
				connections: {},
				nodes: [
					{
						id: randomUUID(),
						name: 'Empty JSON',
						type: NODE_TYPE_ACTION,
						typeVersion: 1,
						position: [0, 0],
						parameters: { resource: 'callback', operation: 'verify', expectedCallbackUrl: 'http://127.0.0.1:5678/webhook/x', callbackHeaders: '', callbackBody: '' },
						credentials: { paycashlessApi: lab.good },
					},
				],
			});
			await step(page, 'field-errors-control', async () => {
				await openWorkflow(page, lab.n8n.baseUrl, control.id);
				await openNode(page, 'Empty JSON');
				await page.getByTestId('ndv').getByText('Timestamp Tolerance (Seconds)', { exact: true }).waitFor();
				await page.getByTestId('ndv').locator('.cm-lint-marker-error').nth(1).waitFor();
				await expect(fieldErrors()).resolves.toEqual([
					{ field: 'callbackHeaders', message: 'Unexpected end of JSON input' },
					{ field: 'callbackBody', message: 'Unexpected end of JSON input' },
				]);
				await closeNode(page);
			});
			const shown: Array<{ workflow: string; node: string; errors: Array<{ field: string; message: string }> }> = [];
			let opened = 0;
			let jsonPanels = 0;
			for (const wf of examples) {
				await step(page, `open-${wf.name}`, async () => {
					await openWorkflow(page, lab.n8n.baseUrl, wf.id);
					const expected = wf.nodes.filter((n) => !n.type.endsWith('stickyNote')).length;
					await waitFor(
						`the ${expected} nodes of ${wf.name} on the canvas`,
						async (saw) => {
							const drawn = await page.getByTestId('canvas-node').count();
							saw(`${drawn} nodes drawn`);
							return drawn === expected ? true : undefined;
						},
						patience(3_000),
					);
					expect({ workflow: wf.name, issues: await nodesWithIssues() }).toEqual({ workflow: wf.name, issues: [] });
					// A panel is opened where it can show a red mark that the canvas does not: a JSON field
					// (n8n's linter marks only those); a parameter issue, the other red mark, shows on the
					// canvas as the node's issue (checked above for every node). Also the nodes whose Docs
					// link is read.
					const isDocsNode = (name: string) => DOCS_NODES.some((docs) => docs.node === name && wf.name === `Paycashless example: ${docs.example}`);
					const nodes = wf.nodes.filter(
						(node) => node.type.startsWith(NODE_TYPE_ACTION.split('.')[0]) && (mayShowJsonField(node.parameters as Record<string, unknown>) || isDocsNode(node.name)),
					);
					for (const node of nodes) {
						await openNode(page, node.name);
						// The editor lints a JSON field 750 ms after it renders (CodeMirror's linter delay):
						// a panel that shows one gets twice that, longer on a busy machine (a mark that
						// never comes cannot be waited for); issue icons show at once.
						await page.getByTestId('ndv').locator('[data-test-id^="parameter-input-"]').first().waitFor();
						const jsonInputs = page.getByTestId('ndv').locator(JSON_FIELDS.map((name) => `[data-test-id="parameter-input-${name}"]`).join(', '));
						if ((await jsonInputs.count()) > 0) {
							await settle(1_500);
							jsonPanels += 1;
						}
						shown.push({ workflow: wf.name, node: node.name, errors: await fieldErrors() });
						if (isDocsNode(node.name)) {
							const link = page.getByTestId('ndv').locator(`a[href^="${PACKAGE_PAGES}"]`);
							await link.first().waitFor();
							docsLinks[node.name] = await link.first().getAttribute('href');
						}
						opened += 1;
						await closeNode(page);
					}
				});
			}
			expect(shown.filter((entry) => entry.errors.length > 0)).toEqual([]);
			// The panels that can show a JSON field, the verify-callback one among them.
			expect(shown.map((entry) => entry.node)).toContain('Verify Callback');
			expect(opened).toBeGreaterThanOrEqual(DOCS_NODES.length + 1);
			// The verify-callback example's node shows its two JSON fields, so at least one panel was linted.
			expect(jsonPanels).toBeGreaterThanOrEqual(1);
		});
		// Every example opened: 50 to 70 s alone.
	}, patience(90_000));

	it('before the Paycashless node has run, the next node\'s input shows the fields of its output schema (served 200 from the package\'s __schema__) and maps them', async () => {
		await timed('outputSchemaPreview', async () => {
			const created = await lab.session.api<{ id: string }>('POST', '/workflows', {
				name: 'browser: output schema preview',
				settings: { executionOrder: 'v1' },
				connections: {
					Start: { main: [[{ node: 'Send Payout', type: 'main', index: 0 }]] },
					'Send Payout': { main: [[{ node: 'Next Step', type: 'main', index: 0 }]] },
				},
				nodes: [
					{ id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
					{
						id: randomUUID(),
						name: 'Send Payout',
						type: NODE_TYPE_ACTION,
						typeVersion: 1,
						position: [240, 0],
						parameters: { resource: 'payout', operation: 'create', reference: 'never-run', amount: 10, destinationAccountNumber: '0123456789', bankId: GTB.id },
						credentials: { paycashlessApi: lab.good },
					},
					{ id: randomUUID(), name: 'Next Step', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [480, 0], parameters: { mode: 'manual', assignments: { assignments: [] }, options: {} } },
				],
			});
			const schemaUrl = `/schemas/${NODE_TYPE_ACTION}/1.0.0/payout/create.json`;
			const answers: Array<{ url: string; status: number }> = [];
			const onResponse = (response: { url(): string; status(): number }) => {
				if (response.url().includes('/schemas/')) answers.push({ url: new URL(response.url()).pathname, status: response.status() });
			};
			page.on('response', onResponse);
			try {
				await step(page, 'output-schema-preview', async () => {
					await openWorkflow(page, lab.n8n.baseUrl, created.id);
					await openNode(page, 'Next Step');
					const input = page.getByTestId('ndv-input-panel');
					// n8n's words for a schema preview, then the fields of the shipped schema
					// (nodes/Paycashless/__schema__/v1.0.0/payout/create.json), the node never run.
					await input.getByText('Usually outputs the following fields', { exact: false }).waitFor();
					// The first rows (the money in naira among them, third) before any scrolling: the list
					// renders only the rows near the view.
					for (const field of ['reference', 'inMainUnits', 'destinationAccountNumber', 'metadata']) await input.getByText(field, { exact: true }).first().waitFor();
					fs.mkdirSync(ARTIFACTS, { recursive: true });
					await page.screenshot({ path: path.join(ARTIFACTS, 'output-schema-preview.png') });
					// Mapping from the preview: a field dragged into Fields to Set becomes its expression.
					const from = (await input.getByText('reference', { exact: true }).first().boundingBox())!;
					const to = (await page.getByTestId('ndv').getByText('Drag input fields here').boundingBox())!;
					await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
					await page.mouse.down();
					await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
					await page.mouse.up();
					await page.getByTestId('ndv').getByText('{{ $json.reference }}', { exact: false }).first().waitFor();
					// Scrolled to the end, the last fields: the marker of an object found again.
					await input.getByText('reference', { exact: true }).first().hover();
					await page.mouse.wheel(0, 5_000);
					for (const field of ['_paycashless', 'repeated']) await input.getByText(field, { exact: true }).first().waitFor();
					await closeNode(page);
				});
			} finally {
				page.off('response', onResponse);
			}
			expect(answers).toContainEqual({ url: schemaUrl, status: 200 });
			expect(lab.emulator.list('payouts').filter((p) => p.reference === 'never-run')).toHaveLength(0);
		});
	});

	it('transfer payment, wait for the money: the Wait for Payment panel says what to do; the Poll Trigger\'s subtitle names its event', async () => {
		await timed('waitForPaymentPanel', async () => {
			await step(page, 'wait-for-payment-panel', async () => {
				await openWorkflow(page, lab.n8n.baseUrl, example('transfer payment, wait for the money').id);
				await expect(canvasNode(page, 'Wait for Payment').innerText()).resolves.toContain('Wait for Payment: Payment');
				await openNode(page, 'Wait for Payment');
				const panel = page.getByTestId('ndv');
				// The notice tells a first-time user the three steps, with the expression to type.
				await panel.getByText('Callback URL set to the expression {{ $execution.resumeUrl }}', { exact: false }).waitFor();
				await panel.getByText('Time Limit Unit', { exact: true }).waitFor();
				const text = await panel.innerText();
				expect(text).toContain('send the customer the account or link, then wait here');
				for (const label of ['Reference', 'Time Limit', 'Time Limit Unit']) expect(text).toContain(label);
				fs.mkdirSync(ARTIFACTS, { recursive: true });
				await page.screenshot({ path: path.join(ARTIFACTS, 'wait-for-payment-panel.png') });
				await closeNode(page);
				await openNode(page, 'Create Transfer Payment');
				// The panel renders its fields in turn: wait for the one inside Additional Fields.
				await page.getByTestId('ndv').getByText('Callback URL', { exact: true }).waitFor();
				await page.screenshot({ path: path.join(ARTIFACTS, 'create-transfer-payment-panel.png') });
				await closeNode(page);
			});
			await openWorkflow(page, lab.n8n.baseUrl, example('payment succeeded (polling)').id);
			await expect(canvasNode(page, 'Paycashless Poll Trigger').innerText()).resolves.toContain('Payment Succeeded');
		});
	});

	it('the Paycashless Tool under an AI Agent: only operations that work as a tool, no smallest-unit switch, fields the model fills, Money Limits and the tool description', async () => {
		await timed('toolPanel', async () => {
			const created = await lab.session.api<{ id: string }>('POST', '/workflows', {
				name: 'browser: agent with the Paycashless Tool',
				settings: {},
				nodes: [
					{ id: randomUUID(), name: 'AI Agent', type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 3.1, position: [0, 0], parameters: { options: {} } },
					{
						id: randomUUID(),
						name: 'Pay Claim',
						type: `${NODE_TYPE_ACTION}Tool`,
						typeVersion: 1,
						position: [200, 200],
						parameters: { resource: 'payout', operation: 'create' },
						credentials: { paycashlessApi: lab.good },
					},
				],
				connections: { 'Pay Claim': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] } },
			});
			await step(page, 'tool-panel', async () => {
				await openWorkflow(page, lab.n8n.baseUrl, created.id);
				await openNode(page, 'Pay Claim');
				const panel = page.getByTestId('ndv');
				await panel.getByText('Money Limits', { exact: true }).waitFor();
				const text = await panel.innerText();
				expect(text).not.toContain('Amount in Smallest Unit');
				for (const label of ['Run Without Limits (Unsafe)', 'Simplify', 'Description']) expect(text).toContain(label);
				// The fields a model fills come as $fromAI expressions whose descriptions the user reads too.
				await panel.getByTestId('parameter-input-amount').waitFor();
				expect(await panel.getByTestId('parameter-input-amount').innerText()).toMatch(/\$fromAI\('Amount', 'Amount in MAIN units[\s\S]*Never kobo/);
				expect(await panel.locator('textarea').first().inputValue()).toMatch(/REAL MONEY leaves/);
				fs.mkdirSync(ARTIFACTS, { recursive: true });
				await page.screenshot({ path: path.join(ARTIFACTS, 'tool-panel.png') });
				await panel.getByTestId('parameter-input-operation').click();
				// The list is drawn a moment after the click: read it once its last entry is there.
				const options = await waitFor('the operation list with Custom API Call', async () => {
					const texts = await page.getByRole('option').allInnerTexts();
					return texts.some((text) => text.includes('Custom API Call')) ? texts : undefined;
				});
				// n8n's editor adds "Custom API Call" to the list of every node whose credential the HTTP
				// Request node can use; the node itself refuses it (test/unit/node/money.test.cts).
				expect(options.map((option) => option.split('\n')[0].trim())).toEqual(['Create', 'Get', 'Get Many', 'Verify', 'Custom API Call']);
				await page.keyboard.press('Escape');
				await closeNode(page);
			});
		});
	});

	it('shows readable subtitles under the Paycashless nodes', async () => {
		await openWorkflow(page, lab.n8n.baseUrl, example('payout pipeline').id);
		await expect(canvasNode(page, 'Look Up Account').innerText()).resolves.toContain('Look Up: Bank Account');
		await expect(canvasNode(page, 'Send Payout').innerText()).resolves.toContain('Create: Payout');
	});

	it('payout pipeline: pays once from the order ID; a second click returns the same payout, same shape, marked repeated', async () => {
		await timed('payoutPipelineTwice', async () => {
			const wf = example('payout pipeline');
			await step(page, 'payout-pipeline', async () => {
				await openWorkflow(page, lab.n8n.baseUrl, wf.id);
				const first = await executeWorkflow(wf.id);
				const second = await executeWorkflow(wf.id);
				const [paid] = nodeOutput(first, 'Send Payout');
				const [again] = nodeOutput(second, 'Send Payout');
				expect(paid).toMatchObject({ reference: 'payout-ORDER-1001', amount: 100000, currency: 'NGN', _paycashless: { reconciled: false, repeated: false } });
				expect(again).toMatchObject({ id: paid.id, reference: 'payout-ORDER-1001', amount: 100000, _paycashless: { reconciled: true, repeated: true } });
				// The same fields either way (the marker says which path the item took).
				expect(Object.keys(again).filter((k) => k !== '_paycashless').sort()).toEqual(Object.keys(paid).filter((k) => k !== '_paycashless').sort());
				expect(nodeOutput(second, 'Verify Payout')[0]).toMatchObject({ reference: 'payout-ORDER-1001', amount: 100000, destinationBankId: GTB.id });
				expect(lab.emulator.list('payouts').filter((p) => p.reference === 'payout-ORDER-1001')).toHaveLength(1);
			});
		});
	});

	it('invoice pipeline: returns the payment link; a second click returns the same invoice', async () => {
		await timed('invoicePipelineTwice', async () => {
			const wf = example('invoice pipeline');
			await step(page, 'invoice-pipeline', async () => {
				await openWorkflow(page, lab.n8n.baseUrl, wf.id);
				const first = await executeWorkflow(wf.id);
				const second = await executeWorkflow(wf.id);
				const [link] = nodeOutput(first, 'Payment Link');
				expect(String(link.hostedInvoiceUrl)).toMatch(/^http/);
				expect(nodeOutput(second, 'Payment Link')[0]).toMatchObject({ invoiceId: link.invoiceId, hostedInvoiceUrl: link.hostedInvoiceUrl });
				expect(nodeOutput(second, 'Create Invoice')[0]).toMatchObject({ reference: 'INV-WEB-1001', _paycashless: { repeated: true } });
				expect(lab.emulator.list('invoices').filter((inv) => inv.reference === 'INV-WEB-1001')).toHaveLength(1);
			});
		});
	});

	it('daily reconciliation: on a fresh start, totals in naira of the payments since yesterday, Lagos time', async () => {
		await timed('dailyReconciliation', async () => {
			const wf = example('daily reconciliation');
			await step(page, 'daily-reconciliation', async () => {
				await openWorkflow(page, lab.n8n.baseUrl, wf.id);
				lab.emulator.clearLogs();
				const execution = await executeWorkflow(wf.id);
				const since = Number(lab.emulator.requests.find((r) => r.path === '/v1/payments')?.query['createdAt.gte']);
				// Start of yesterday in Lagos (UTC+1 all year).
				const lagosToday = Math.floor((Date.now() / 1000 + 3600) / 86_400) * 86_400 - 3600;
				expect(since).toBe(lagosToday - 86_400);
				const expected = paymentTotalsSince(lab.emulator.list('payments'), since);
				const rows = nodeOutput(execution, 'Totals in Naira');
				expect(rows.length).toBeGreaterThan(0);
				expect(rows.length).toBe(expected.size);
				for (const row of rows) {
					const want = expected.get(`${row.currency}/${row.status}`)!;
					expect({ payments: row.payments, expectedTotal: row.expectedTotal }).toEqual({ payments: want.count, expectedTotal: want.total / 100 });
				}
			});
		});
	});

	/**
	 * The actions the node panel lists: one per operation of every resource (the node's own menus,
	 * not the tool variant's, which shows only in the Paycashless Tool: `@tool: [true]`).
	 */
	const actionCount = () =>
		new Paycashless().description.properties
			.filter((property) => property.name === 'operation' && !(property.displayOptions?.show?.['@tool'] as boolean[] | undefined)?.includes(true))
			.reduce((count, property) => count + (property.options ?? []).length, 0);

	it('the node panel shows the Paycashless entry with a text that describes it (n8n shows one entry for node and trigger)', async () => {
		await timed('nodePanel', async () => {
			await step(page, 'node-panel', async () => {
				await openNewWorkflow(page, lab.n8n.baseUrl);
				await page.getByTestId('canvas-add-button').click();
				await page.getByTestId('node-creator-search-bar').fill('Paycashless');
				const entry = page.getByTestId('node-creator').getByTestId('node-creator-item-name').filter({ hasText: /^Paycashless$/ });
				await entry.first().waitFor();
				const text = await page.getByTestId('node-creator').getByTestId('node-creator-item-description').first().innerText();
				// n8n merges "Paycashless" and "Paycashless Trigger" into one entry with the trigger's text.
				expect(text).toBe(new PaycashlessTrigger().description.description);
				expect(text).toMatch(/payouts/);
				await entry.first().click();
				// Its details: the trigger's events, and the node's actions below them.
				await page.getByTestId('node-creator').getByText('On invoice paid').waitFor();
				await page.getByTestId('node-creator').getByText(`Actions (${actionCount()})`).waitFor();
			});
		});
	});

	it('Payout → Create built in the editor runs and pays', async () => {
		await timed('payoutCreateBuiltInUi', async () => {
			const reference = `ui-${randomUUID().slice(0, 8)}`;
			await step(page, 'payout-create-ui', async () => {
				// A new workflow: a manual trigger, then "+" after it, Paycashless's Create a payout.
				await addPaycashlessAction(page, lab.n8n.baseUrl, 'Create a payout');
				await page.getByTestId('node-credentials-select').click();
				await page.getByTestId(`node-credentials-select-item-${lab.good.id}`).click();
				await page.getByTestId('parameter-input-reference').locator('input, textarea').first().fill(reference);
				await page.getByTestId('parameter-input-amount').locator('input').first().fill('2500');
				await page.getByTestId('parameter-input-destinationAccountNumber').locator('input, textarea').first().fill('0123456789');
				await page.getByTestId('parameter-input-bankId').locator('input, textarea').first().fill(GTB.id);
				await clickToRun(page.getByTestId('node-execute-button'), 'execute the Create a payout node', async () => lab.emulator.list('payouts').some((p) => p.reference === reference));
				await page.getByTestId('output-panel').getByText(reference).first().waitFor();
			});
			const payouts = lab.emulator.list('payouts').filter((p) => p.reference === reference);
			expect(payouts).toHaveLength(1);
			expect(payouts[0]).toMatchObject({ amount: 250000, currency: 'NGN', destinationAccountNumber: '0123456789' });
			await closeNode(page);
		});
	});

	it('the trigger’s Test URL receives a signed callback and shows it', async () => {
		await timed('triggerTestUrl', async () => {
			const wf = example('invoice paid');
			const trigger = wf.nodes.find((node) => node.type === NODE_TYPE_TRIGGER)!;
			const testUrl = `${lab.n8n.baseUrl}/webhook-test/${trigger.webhookId}/webhook`;
			await step(page, 'trigger-test-url', async () => {
				await openWorkflow(page, lab.n8n.baseUrl, wf.id);
				await openNode(page, trigger.name);
				// What n8n answered the editor's run request, for the failure message (a CI run waited
				// 100 s for the panel text below without a word of what the editor saw).
				const runAnswer = page
					.waitForResponse((response) => response.request().method() === 'POST' && /\/rest\/workflows\/[^/]+\/run\b/.test(response.url()), { timeout: patience(10_000) })
					.then(
						async (response) => `HTTP ${response.status()} ${(await response.text().catch(() => '')).slice(0, 300)}`,
						() => 'none seen',
					);
				// The trigger's own panel text (triggerPanel), in n8n 2.x words, before it listens; once n8n
				// says the test webhook listens, n8n's listening panel, in 1 to 2 s alone (issue 41: over
				// 60 s at load 10-15).
				await page.getByTestId('ndv').getByText('Waiting for a Paycashless callback on the Test URL').waitFor();
				const listening = page.getByTestId('ndv').getByTestId('trigger-listening');
				await clickToRun(page.getByTestId('node-execute-button'), 'listen for a test event', async () => (await listening.count()) > 0);
				await listening
					.waitFor({ timeout: patience(10_000) })
					.catch(async (error: unknown) => {
						addNote(error, `\n(the editor's run request: ${await runAnswer})`);
						throw error;
					});
				const data = { id: 'inv_browser0000000000000001', number: 'INV-0001', reference: 'INV-BROWSER-1', amountPaid: 123450, currency: 'NGN', status: 'paid' };
				const dataJson = JSON.stringify(data);
				const timestamp = String(Math.floor(Date.now() / 1000));
				const response = await waitFor('the Test URL to listen', async (saw) => {
					const answer = await freshFetch(testUrl, {
						method: 'POST',
						headers: {
							'content-type': 'application/json',
							'Request-Signature': signCallback(lab.emulator.apiSecret, testUrl, dataJson, timestamp),
							'Request-Timestamp': timestamp,
						},
						body: `{"event":"INVOICE_PAID","data":${dataJson}}`,
					});
					saw(`HTTP ${answer.status}`);
					return answer.status === 404 ? undefined : answer;
				}, patience(3_000));
				expect(response.status).toBe(200);
				await page.getByTestId('output-panel').getByText('INV-BROWSER-1').first().waitFor({ timeout: patience(10_000) });
			});
			await closeNode(page);
		});
	});

	it('the credential Test names /v1 for a Base URL ending in it, and says to correct a Base URL without https://', async () => {
		const stored = await lab.session.rest<{ id: string; name: string; type: string; data: Record<string, unknown> }>(
			'GET',
			`/rest/credentials/${lab.good.id}?includeData=true`,
		);
		const test = (baseUrl: string) =>
			lab.session.rest<{ status: string; message: string }>('POST', '/rest/credentials/test', {
				credentials: { id: stored.id, name: stored.name, type: stored.type, data: { ...stored.data, baseUrl } },
			});
		// The credential signs only for its Base URL's origin: one it cannot read is refused before sending, saying what to correct.
		await expect(test(lab.emulator.baseUrl.replace(/^http:\/\//, ''))).resolves.toEqual({ status: 'Error', message: expect.stringMatching(/Base URL is not a web address starting with https:\/\/.*Correct the Base URL/) });
		await expect(test(`${lab.emulator.baseUrl}/v1`)).resolves.toMatchObject({ status: 'Error', message: expect.stringMatching(/without \/v1 at the end/) });
		await expect(test(lab.emulator.baseUrl)).resolves.toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	it('each node’s Docs link and the credential’s docs link open this package’s pages (test/tooling/repo/docs.test.cts checks they exist)', async () => {
		// The nodes' links were read in the pass over the examples above.
		expect(docsLinks).toEqual(Object.fromEntries(DOCS_NODES.map(({ node, url }) => [node, url])));
		await step(page, 'credential-docs-link', async () => {
			await page.goto(`${lab.n8n.baseUrl}/home/credentials/${lab.good.id}`);
			const link = page.locator(`a[href^="${PACKAGE_PAGES}"]`);
			await link.first().waitFor();
			expect(await link.first().getAttribute('href')).toBe(new PaycashlessApi().documentationUrl);
		});
		await page.keyboard.press('Escape');
	});

	it('a waiting invoice is paid from the page npm start names (the emulator\'s /): its link, "Simulate payment", then the page says paid and that the callback arrived', async () => {
		const invoice = await call(lab.emulator, 'POST', '/v1/invoices', { body: invoiceBody(`browser-pay-${randomUUID()}`, { autoFinalize: true, callbackUrl: `${lab.n8n.baseUrl}/webhook/no-such-hook` }) });
		expect(invoice.status).toBe(201);
		const payPage = await editor.context.newPage();
		try {
			await step(payPage, 'pay-from-waiting-page', async () => {
				await payPage.goto(`${lab.emulator.baseUrl}/`);
				await payPage.getByRole('link', { name: `Invoice ${invoice.body.number}` }).click();
				// Thousands separators in what is due.
				expect(await payPage.locator('p.state').last().innerText()).toMatch(/^Due: NGN \d{1,3}(,\d{3})+\.\d\d \(status open\)$/);
				await payPage.getByRole('button', { name: 'Simulate payment' }).click();
				// The page shows itself again with the new state: paid, no button, no raw JSON, and what became of the callback.
				await payPage.getByRole('heading', { name: `Invoice ${invoice.body.number} (paid)` }).waitFor();
				expect(await payPage.locator('p.state').last().innerText()).toMatch(/^Paid: NGN [\d,]+\.\d\d \(status paid\)$/);
				expect(await payPage.getByRole('button', { name: 'Simulate payment' }).count()).toBe(0);
				expect(await payPage.locator('#callbacks').innerText()).toContain('found no workflow listening (HTTP 404)');
				expect(await payPage.content()).not.toContain('"status"');
			});
		} finally {
			await payPage.close();
		}
		expect(lab.emulator.list('invoices').find((found) => found.id === invoice.body.id)?.status).toBe('paid');
	});

	it('the invoice wait example starts and is paid from the browser alone: "Execute workflow" waits, the Pay page pays, the run goes on', async () => {
		const wf = example('invoice, wait for payment');
		await step(page, 'wait-example-execute', async () => {
			await openWorkflow(page, lab.n8n.baseUrl, wf.id);
			const button = page.getByTestId('execute-workflow-button');
			// Two triggers (the order form and the shop's webhook): n8n's editor picks the Form Trigger first.
			await expect(button.innerText()).resolves.toContain('Order Form');
			// n8n opens the form in a new tab, the sample order filled in: submit it.
			const tabs: Page[] = [];
			const opened = (tab: Page) => tabs.push(tab);
			editor.context.on('page', opened);
			// The button turns busy as n8n waits for the form, before the tab opens.
			const form = await clickToRun(button, 'open the order form', async () => tabs.length > 0)
				.then(() => waitFor('the order form\'s tab', () => tabs[0], patience(3_000)))
				.finally(() => editor.context.off('page', opened));
			await form.waitForLoadState();
			expect(await form.getByLabel('Order ID').inputValue()).toBe('A-1001');
			// Closed once n8n has answered the submission.
			await Promise.all([form.waitForResponse((response) => response.request().method() === 'POST'), form.getByRole('button', { name: /submit/i }).click()]);
			await form.close();
		});
		const waiting = await waitFor(
			'the run to wait for the payment',
			async (saw) => {
				const all = await lab.executions(wf.id);
				saw(all.slice(0, 3).map((e) => `${e.id} ${e.status}`));
				return all.find((execution) => execution.status === 'waiting');
			},
			patience(6_000),
		);
		const payPage = await editor.context.newPage();
		try {
			await step(payPage, 'wait-example-pay', async () => {
				await payPage.goto(`${lab.emulator.baseUrl}/`);
				await payPage.locator('li', { hasText: 'reference order-A-1001' }).getByRole('link').click();
				expect(await payPage.locator('p.state').last().innerText()).toBe('Due: NGN 1,500.50 (status open)');
				await payPage.getByRole('button', { name: 'Simulate payment' }).click();
				await payPage.getByRole('heading', { name: /\(paid\)$/ }).waitFor();
				// The callback reached the waiting run.
				expect(await payPage.locator('#callbacks').innerText()).toMatch(/INVOICE_PAID to \S+\/webhook-waiting\/\S+: reached it \(HTTP 200\)/);
			});
		} finally {
			await payPage.close();
		}
		const done = await waitFor(
			`the waiting run ${waiting.id} to finish`,
			async (saw) => {
				const all = await lab.executions(wf.id);
				saw(all.find((execution) => execution.id === waiting.id)?.status ?? 'not listed');
				return (await finished(wf.id)).find((execution) => execution.id === waiting.id);
			},
			patience(6_000),
		);
		expect(done.status).toBe('success');
		expect(nodeOutput(done, 'Order Paid')).toEqual([{ orderReference: 'order-A-1001', invoiceNumber: expect.any(String), amountPaidNaira: 1500.5, howWeKnow: 'paid' }]);
	});

	it('issue 43: the Pay page lists the test banks and accounts, and the payouts with their state; "Settle (succeeded)" settles one and sends its callback', async () => {
		const reference = `browser-payout-${randomUUID().slice(0, 8)}`;
		const created = await call(lab.emulator, 'POST', '/v1/payouts', {
			body: { reference, amount: { value: 250_000, currency: 'NGN' }, destinationAccountNumber: '0123456789', bankId: GTB.id, callbackUrl: `${lab.n8n.baseUrl}/webhook/no-such-hook` },
		});
		expect(created.status).toBe(202);
		const payPage = await editor.context.newPage();
		try {
			await step(payPage, 'pay-page-payouts', async () => {
				await payPage.goto(`${lab.emulator.baseUrl}/`);
				// The test banks with their codes, and accounts with the holder's name Look Up gives.
				const gtbRow = payPage.locator('#banks tr', { hasText: GTB.name });
				await expect(gtbRow.innerText()).resolves.toContain('058');
				const account = payPage.locator('#accounts tr', { hasText: 'Guaranty Trust Bank (058)' }).first();
				const [accountNumber, , holder] = (await account.locator('td').allInnerTexts()).map((cell) => cell.trim());
				const lookUp = await call(lab.emulator, 'GET', `/v1/banks/account_lookup?accountNumber=${accountNumber}&bankCode=058`);
				expect(lookUp.body.accountName).toBe(holder);
				await expect(payPage.locator('#not-found').innerText()).resolves.toContain('starting with 000');
				fs.mkdirSync(ARTIFACTS, { recursive: true });
				await payPage.screenshot({ path: path.join(ARTIFACTS, 'pay-page.png'), fullPage: true });
				// The payout, pending, then settled from its page.
				const row = payPage.locator('#payouts li', { hasText: reference });
				await expect(row.innerText()).resolves.toMatch(/NGN 2,500\.00 to 0123456789 at Guaranty Trust Bank \(pending\)/);
				await row.getByRole('link').click();
				await payPage.getByRole('button', { name: 'Settle (succeeded)' }).click();
				await payPage.getByRole('heading', { name: `Payout ${reference} (succeeded)` }).waitFor();
				expect(await payPage.getByRole('button').count()).toBe(0);
				expect(await payPage.locator('#callbacks').innerText()).toContain('PAYOUT_SUCCEEDED to');
				await payPage.screenshot({ path: path.join(ARTIFACTS, 'payout-settled.png'), fullPage: true });
				await payPage.goto(`${lab.emulator.baseUrl}/`);
				await expect(payPage.locator('#payouts li', { hasText: reference }).innerText()).resolves.toContain('(succeeded)');
			});
		} finally {
			await payPage.close();
		}
		expect(lab.emulator.list('payouts').find((payout) => payout.reference === reference)?.status).toBe('succeeded');
	});

	it('issue 43: Money Limits show in the order one sets them, the amounts without a forced .00, with a hint in naira', async () => {
		const created = await lab.session.api<{ id: string }>('POST', '/workflows', {
			name: 'browser: money limits',
			settings: { executionOrder: 'v1' },
			connections: { Start: { main: [[{ node: 'Pay Supplier', type: 'main', index: 0 }]] } },
			nodes: [
				{ id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: randomUUID(),
					name: 'Pay Supplier',
					type: NODE_TYPE_ACTION,
					typeVersion: 1,
					position: [240, 0],
					// Saved in the order a person added them: the daily total first, then the per-payout amount.
					parameters: { resource: 'payout', operation: 'create', reference: 'limits-view', amount: 10, destinationAccountNumber: '0123456789', bankId: GTB.id, moneyLimits: { periodTotal: 3_000_000, maxAmount: 50_000, currency: 'NGN' } },
					credentials: { paycashlessApi: lab.good },
				},
			],
		});
		await step(page, 'money-limits', async () => {
			await openWorkflow(page, lab.n8n.baseUrl, created.id);
			await openNode(page, 'Pay Supplier');
			const ndv = page.getByTestId('ndv');
			const maxAmount = ndv.getByTestId('parameter-input-maxAmount');
			await maxAmount.scrollIntoViewIfNeeded();
			const names = await ndv
				.locator('[data-test-id^="parameter-input-"]')
				.evaluateAll((inputs) => inputs.map((input) => input.getAttribute('data-test-id')!.replace('parameter-input-', '')));
			// The payout's own Currency field comes first in the panel; the Limits Currency right before the amounts.
			expect(names.lastIndexOf('currency')).toBe(names.indexOf('maxAmount') - 1);
			expect(names.indexOf('maxAmount')).toBeLessThan(names.indexOf('periodTotal'));
			await expect(maxAmount.locator('input').first().inputValue()).resolves.toBe('50000');
			await expect(ndv.getByTestId('parameter-input-periodTotal').locator('input').first().inputValue()).resolves.toBe('3000000');
			// The hints under the fields (n8n gives a static hint no test id: found by its text).
			await ndv.getByText('1000000 is NGN 1,000,000 (one million)', { exact: false }).first().waitFor();
			await ndv.getByText('3000000 is NGN 3,000,000 (three million)', { exact: false }).first().waitFor();
			fs.mkdirSync(ARTIFACTS, { recursive: true });
			await page.screenshot({ path: path.join(ARTIFACTS, 'money-limits.png') });
			await closeNode(page);
		});
	});

	it('issue 43: Get Many’s Created From takes a typed {{ $today }}: the list is filtered from today, never silently unfiltered', async () => {
		const created = await lab.session.api<{ id: string }>('POST', '/workflows', {
			name: 'browser: created after today',
			settings: { executionOrder: 'v1' },
			connections: { Start: { main: [[{ node: 'Payouts Today', type: 'main', index: 0 }]] } },
			nodes: [
				{ id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: randomUUID(),
					name: 'Payouts Today',
					type: NODE_TYPE_ACTION,
					typeVersion: 1,
					position: [240, 0],
					parameters: { resource: 'payout', operation: 'getAll', returnAll: false, limit: 5, filters: { createdOnOrAfter: '' } },
					credentials: { paycashlessApi: lab.good },
				},
			],
		});
		const before = lab.emulator.requests.length;
		const outcome = await step(page, 'created-after-today', async () => {
			await openWorkflow(page, lab.n8n.baseUrl, created.id);
			await openNode(page, 'Payouts Today');
			const field = page.getByTestId('ndv').getByTestId('parameter-input-createdOnOrAfter');
			await expect(field.locator('input').first().getAttribute('placeholder')).resolves.toContain('{{ $today }}');
			// What the user typed: the expression as text, in the field as it opens (not switched to Expression).
			await field.locator('input').first().fill('{{ $today }}');
			const output = page.getByTestId('output-panel');
			await clickToRun(page.getByTestId('node-execute-button'), 'execute Get Many', async () =>
				lab.emulator.requests.slice(before).some((request) => request.path === '/v1/payouts') || (await output.getByText('Invalid Created From').count()) > 0,
			);
			// The run's end: the list asked for (its items shown), or the field's error shown.
			await waitFor(
				'the Get Many run to list or refuse',
				async () =>
					lab.emulator.requests.slice(before).some((request) => request.path === '/v1/payouts') || (await output.getByText('Invalid Created From').count()) > 0 ? true : undefined,
				patience(6_000),
			);
			await output.getByText(/Invalid Created From|reference/).first().waitFor();
			fs.mkdirSync(ARTIFACTS, { recursive: true });
			await page.screenshot({ path: path.join(ARTIFACTS, 'created-after-today.png') });
			const text = await output.innerText();
			await closeNode(page);
			return text;
		});
		const listed = lab.emulator.requests.slice(before).filter((request) => request.method === 'GET' && request.path === '/v1/payouts');
		if (listed.length > 0) {
			// n8n took it as an expression: the list asked from the start of today.
			const since = Number(listed[0].query['createdAt.gte']);
			expect(Date.now() / 1000 - since).toBeGreaterThanOrEqual(0);
			expect(Date.now() / 1000 - since).toBeLessThan(50 * 3600);
		} else {
			// Left as text: refused, naming the field and what to do, nothing listed.
			expect(outcome).toContain('Invalid Created From "{{ $today }}": this is an expression n8n did not work out: switch the field to Expression');
		}
	});

	it('no console errors from the package', () => {
		const errors = packageErrors(editor.consoleErrors);
		expect(errors).toEqual([]);
	});
});
