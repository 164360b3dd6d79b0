/**
 * The end-to-end suite of test/support/suites/n8n.cts (credential Test, n8n's HTTP Request node with
 * the credential, the operations, the trigger, the examples) in n8n 2.41, one process.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeN8n } from '../support/suites/n8n.cjs';

describeN8n(RUNTIME.e2e);
