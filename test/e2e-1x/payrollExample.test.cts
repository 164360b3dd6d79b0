/**
 * The payroll example for n8n 1.x (test/support/suites/payrollExampleN8n1.cts) in n8n 1.123, one process.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describePayrollExampleN8n1 } from '../support/suites/payrollExampleN8n1.cjs';

describePayrollExampleN8n1(RUNTIME.e2e1x);
