/**
 * `n8n-workflow` for the engine projects (jest.config.js moduleNameMapper): the one of the n8n
 * install whose engine runs (test/engine/engine.cts), so the package, n8n-core and the tests load
 * the same module, as inside n8n (its error classes are checked with instanceof).
 *
 * The first thing an engine test file loads (the package's code imports n8n-workflow), so it
 * installs that n8n line first when this machine lacks it (idempotent: a check of under a second
 * once installed; it waits when the run's shared services or another file are installing it).
 */
import * as path from 'path';

import { N8N_HOST_DIR } from '../../scripts/n8n/lab.cjs';
import { N8N_1X, installN8nLine } from '../../scripts/n8n/versions.cjs';

const line = (globalThis as { paycashlessEngineN8n?: string }).paycashlessEngineN8n === '1' ? '1' : '2';
installN8nLine(line);
// eslint-disable-next-line @typescript-eslint/no-require-imports
module.exports = require(path.join(line === '1' ? N8N_1X.hostDir : N8N_HOST_DIR, 'node_modules', 'n8n-workflow'));
