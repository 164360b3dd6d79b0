/**
 * Takes the README's picture: the invoice pipeline example (examples/invoice-pipeline.json) in the
 * real n8n editor, after a run, cropped to the workflow on the canvas. `npm run docs:screenshot`.
 *
 * It uses the e2e lab (test/support/e2e/harness.cts: the lab n8n with this package installed, the emulator
 * seeded as on a fresh `npm start`) and the browser helpers of the browser tests
 * (scripts/browser/editor.cts: Debian's chromium driven by playwright-core, logged in as the owner).
 * The PNG goes to docs/images/ (the README links it by its GitHub raw address, because npm and
 * n8n show the README from the npm registry, where relative image paths break).
 */
import * as fs from 'fs';
import * as path from 'path';

import { loadExampleWorkflows, type WorkflowJson } from '../n8n/examples.cjs';
import { freshStartEmulatorOptions } from '../n8n/fresh-start.cjs';
import { importIntoN8n, ROOT } from '../n8n/lab.cjs';
import { startE2eLab, waitFor, type E2eLab } from '../../test/support/e2e/harness.cjs';
import { openEditor, openWorkflow, type Editor } from './editor.cjs';

const EXAMPLE = 'Paycashless example: invoice pipeline';
export const SCREENSHOT = path.join(ROOT, 'docs', 'images', 'invoice-pipeline.png');
/** Room around the nodes, in CSS pixels (the trigger's mark and the handles stick out of a node's box). */
const MARGIN = { x: 48, y: 28 };

async function main(): Promise<void> {
	let workflow: WorkflowJson | undefined;
	let lab: E2eLab | undefined;
	let editor: Editor | undefined;
	try {
		lab = await startE2eLab({
			emulator: freshStartEmulatorOptions(Date.now()),
			beforeStart: (config, _emulator, good) => {
				workflow = loadExampleWorkflows({ n8nBaseUrl: `http://127.0.0.1:${config.port}`, credential: good }).find((wf) => wf.name === EXAMPLE);
				if (!workflow) throw new Error(`no example named ${EXAMPLE}`);
				// Without its note: the picture shows the nodes.
				importIntoN8n(config, 'workflow', [{ ...workflow, nodes: workflow.nodes.filter((node) => !node.type.endsWith('stickyNote')) }]);
			},
		});
		const running = lab;
		const wf = workflow!;
		editor = await openEditor(running.n8n.baseUrl);
		const { page } = editor;
		// Wide and low, like the workflow (one device pixel per CSS pixel keeps the PNG small).
		await page.setViewportSize({ width: 1600, height: 520 });
		await openWorkflow(page, running.n8n.baseUrl, wf.id);

		// Run it as a user would, so the canvas shows the items each node passed on.
		await page.getByTestId('execute-workflow-button').click();
		await waitFor(
			'the run to finish',
			async () => {
				const [execution] = await running.executions(wf.id);
				return execution && !['running', 'new', 'waiting'].includes(execution.status) ? execution : undefined;
			},
			60_000,
		).then((execution) => {
			if (execution.status !== 'success') throw new Error(`the run ended ${execution.status}`);
		});
		await page.getByTestId('canvas-node-status-success').last().waitFor();
		// Fit the workflow to the canvas (n8n's "Zoom to fit"), then let the view settle.
		await page.getByTestId('zoom-to-fit').click();
		await page.waitForTimeout(800);
		// The editor's hover hints and the mouse out of the way.
		await page.mouse.move(0, 0);

		// The nodes and the "+" after the last one.
		const boxes = await page.locator('[data-test-id="canvas-node"], [data-test-id="canvas-handle-plus"]').evaluateAll((nodes) =>
			nodes.map((node) => {
				const r = node.getBoundingClientRect();
				return { x: r.x, y: r.y, right: r.right, bottom: r.bottom };
			}),
		);
		if (boxes.length === 0) throw new Error('no node on the canvas');
		const left = Math.min(...boxes.map((b) => b.x)) - MARGIN.x;
		const top = Math.min(...boxes.map((b) => b.y)) - MARGIN.y;
		const right = Math.max(...boxes.map((b) => b.right)) + MARGIN.x;
		// The labels under the nodes (name and subtitle) are outside the node's box.
		const bottom = Math.max(...boxes.map((b) => b.bottom)) + MARGIN.y + 48;
		const viewport = page.viewportSize()!;
		const clip = {
			x: Math.max(0, left),
			y: Math.max(0, top),
			width: Math.min(viewport.width, right) - Math.max(0, left),
			height: Math.min(viewport.height, bottom) - Math.max(0, top),
		};
		fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
		await page.screenshot({ path: SCREENSHOT, clip });
		const size = fs.statSync(SCREENSHOT).size;
		console.log(`${path.relative(ROOT, SCREENSHOT)}: ${Math.round(clip.width)}x${Math.round(clip.height)} CSS px, ${size} bytes`);
		if (size > 200_000) throw new Error(`${path.relative(ROOT, SCREENSHOT)} is ${size} bytes: keep the README's picture under 200 KB`);
	} finally {
		await editor?.close();
		await lab?.close();
	}
}

if (require.main === module) {
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
