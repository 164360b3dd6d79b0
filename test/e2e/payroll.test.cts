/**
 * Payroll: Check Batch and All or Nothing (test/support/suites/payroll.cts) in n8n 2.41, one process.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describePayroll } from '../support/suites/payroll.cjs';

describePayroll(RUNTIME.e2e);
