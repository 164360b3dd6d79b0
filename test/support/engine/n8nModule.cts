/**
 * A module of the n8n install whose engine runs (test/support/engine/engine.cts), for the engine projects'
 * moduleNameMapper (jest.config.js: `n8n-workflow` and `luxon`). Inside n8n a community package
 * gets these from n8n's own install (n8n puts its module folders on NODE_PATH when it loads
 * packages, load-nodes-and-credentials.js), and the package, n8n-core and the tests must share one
 * n8n-workflow (its error classes are checked with instanceof): so here too.
 *
 * The first module an engine test file loads (the package's code imports n8n-workflow), so it
 * installs that n8n line first when this machine lacks it (idempotent: a check of under a second
 * once installed; it waits while the run's shared services or another file install it).
 */
import * as path from 'path';

import { N8N_HOST_DIR } from '../../../scripts/n8n/lab.cjs';
import { N8N_1X, installN8nLine } from '../../../scripts/n8n/versions.cjs';

const line = (globalThis as { paycashlessEngineN8n?: string }).paycashlessEngineN8n === '1' ? '1' : '2';
let installed = false;

export function engineN8nModule(name: string): unknown {
	if (!installed) installN8nLine(line);
	installed = true;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(path.join(line === '1' ? N8N_1X.hostDir : N8N_HOST_DIR, 'node_modules', name));
}
