/**
 * Period limits when executions race (test/support/suites/moneyHolds.cts) in n8n 1.123, one process.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeMoneyHolds } from '../support/suites/moneyHolds.cjs';

describeMoneyHolds(RUNTIME.e2e1x);
