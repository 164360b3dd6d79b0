/**
 * The Paycashless Poll Trigger's end-to-end test (test/support/suites/pollTrigger.cts) in n8n's queue
 * mode: the main process runs the polls and keeps the trigger's state in PostgreSQL, workers run
 * the executions it starts, and the restart in the middle restarts main alone.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describePollTrigger } from '../support/suites/pollTrigger.cjs';

describePollTrigger(RUNTIME.e2eQueue);
