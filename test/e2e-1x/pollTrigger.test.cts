/**
 * The Paycashless Poll Trigger's end-to-end test (test/support/suites/pollTrigger.cts), unchanged, against
 * n8n 1.123.81: n8n 1.x schedules the polls, restarts, and the editor's manual run.
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describePollTrigger } from '../support/suites/pollTrigger.cjs';

describePollTrigger(RUNTIME.e2e1x);
