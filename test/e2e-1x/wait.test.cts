/**
 * Create and Wait (test/support/suites/wait.cts), unchanged, against n8n 1.123.81: its resume URLs carry
 * no n8n token, so the Paycashless signature is the only guard there.
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeWait } from '../support/suites/wait.cjs';

describeWait(RUNTIME.e2e1x);
