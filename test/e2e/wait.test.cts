/**
 * Create and Wait (test/support/suites/wait.cts) in n8n 2.41, one process.
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeWait } from '../support/suites/wait.cjs';

describeWait(RUNTIME.e2e);
