/**
 * The payroll example (test/support/suites/payrollExample.cts) in n8n 2.41, one process.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describePayrollExample } from '../support/suites/payrollExample.cjs';

describePayrollExample(RUNTIME.e2e);
