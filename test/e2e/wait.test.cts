/**
 * Create and Wait (test/support/suites/wait.cts) in n8n 2.41, one process.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeWait } from '../support/suites/wait.cjs';

describeWait(RUNTIME.e2e);
