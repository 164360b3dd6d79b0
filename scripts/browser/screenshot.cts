/**
 * Takes the README's picture: the invoice pipeline example (examples/invoice-pipeline.json) in the
 * real n8n editor, after a run, cropped to the workflow on the canvas. `npm run docs:screenshot`.
 *
 * It starts what `npm start` starts, from the same parts (scripts/n8n/): this package built, packed
 * and installed into an n8n user folder of its own (lab.cts), the emulator seeded as on a fresh
 * `npm start` with the examples' credential (fresh-start.cts), the example (examples.cts), n8n 2.41
 * and its owner; then the editor in Debian's chromium driven by playwright-core, logged in as the
 * owner (editor.cts, which the browser tests use too). The PNG goes to docs/images/ (the README
 * links it by its GitHub raw address, because npm and n8n show the README from the npm registry,
 * where relative image paths break).
 */
import * as fs from 'fs';
import * as path from 'path';

import type { EmulatorHandle } from '../../emulator/types.cjs';
import { EXAMPLE_CREDENTIAL, loadExampleWorkflows } from '../n8n/examples.cjs';
import { exampleCredential } from '../n8n/fresh-start.cjs';
import { CREDENTIAL_TYPE, LAB, N8nSession, ROOT, buildAndPack, freePort, importIntoN8n, installPackageIntoN8n, startN8n, type RunningN8n } from '../n8n/lab.cjs';
import { patience, untilEnded } from '../n8n/patience.cjs';
import { installN8nLine } from '../n8n/versions.cjs';
import { openEditor, openWorkflow, type Editor } from './editor.cjs';

const EXAMPLE = 'Paycashless example: invoice pipeline';
export const SCREENSHOT = path.join(ROOT, 'docs', 'images', 'invoice-pipeline.png');
/** Room around the nodes, in CSS pixels (the trigger's mark and the handles stick out of a node's box). */
const MARGIN = { x: 48, y: 28 };

function say(message: string): void {
	process.stdout.write(`[screenshot] ${message}\n`);
}

async function main(): Promise<void> {
	let emulator: EmulatorHandle | undefined;
	let n8n: RunningN8n | undefined;
	let editor: Editor | undefined;
	try {
		installN8nLine('2', { quiet: true });
		say('building and packing n8n-nodes-paycashless ...');
		const userFolder = path.join(LAB, 'screenshot');
		fs.rmSync(userFolder, { recursive: true, force: true });
		installPackageIntoN8n(await buildAndPack({ quiet: true }), userFolder);

		const credential = await exampleCredential(undefined, say);
		emulator = credential.emulator;
		const config = { userFolder, port: await freePort(), brokerPort: await freePort() };
		importIntoN8n(config, 'credentials', [{ ...EXAMPLE_CREDENTIAL, name: credential.name, type: CREDENTIAL_TYPE, data: credential.data }]);
		const wf = loadExampleWorkflows({ n8nBaseUrl: `http://127.0.0.1:${config.port}`, credential: { id: EXAMPLE_CREDENTIAL.id, name: credential.name } }).find(
			(workflow) => workflow.name === EXAMPLE,
		);
		if (!wf) throw new Error(`no example named ${EXAMPLE}`);
		// Without its note: the picture shows the nodes.
		importIntoN8n(config, 'workflow', [{ ...wf, nodes: wf.nodes.filter((node) => !node.type.endsWith('stickyNote')) }]);

		say(`starting n8n on port ${config.port} (log: ${path.relative(ROOT, path.join(userFolder, 'n8n.log'))}) ...`);
		n8n = await startN8n(config);
		const session = new N8nSession(n8n.baseUrl);
		await session.ownerSetupAndLogin();
		await session.createApiKey('screenshot');

		editor = await openEditor(n8n.baseUrl);
		const { page } = editor;
		// Wide and low, like the workflow (one device pixel per CSS pixel keeps the PNG small).
		await page.setViewportSize({ width: 1600, height: 520 });
		await openWorkflow(page, n8n.baseUrl, wf.id);

		// Run it as a user would, so the canvas shows the items each node passed on.
		await page.getByTestId('execute-workflow-button').click();
		// The example's five nodes against the emulator: a few seconds alone.
		await untilEnded(
			'the run',
			async () => (await session.api<{ data: Array<{ status: string }> }>('GET', `/executions?workflowId=${wf.id}&limit=1`)).data[0],
			patience(6_000),
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
		await n8n?.stop();
		await emulator?.close();
	}
}

if (require.main === module) {
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
