/**
 * The Paycashless Trigger's versions 1 and 2 side by side (test/support/suites/triggerVersions.cts) in n8n 1.123, one process.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeTriggerVersions } from '../support/suites/triggerVersions.cjs';

describeTriggerVersions(RUNTIME.e2e1x);
