/**
 * Period limits when executions race (test/support/suites/periodRace.cts) in n8n 2.41, one process.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describePeriodRace } from '../support/suites/periodRace.cjs';

describePeriodRace(RUNTIME.e2e);
