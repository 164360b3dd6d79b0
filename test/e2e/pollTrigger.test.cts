/**
 * The Paycashless Poll Trigger scheduled by n8n (test/support/suites/pollTrigger.cts) in n8n 2.41,
 * one process.
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describePollTrigger } from '../support/suites/pollTrigger.cjs';

describePollTrigger(RUNTIME.e2e);
