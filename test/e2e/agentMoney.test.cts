/**
 * Money Limits, what the model is told and naira mapping (test/support/suites/agentMoney.cts) in
 * n8n 2.41, one process.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeAgentMoney } from '../support/suites/agentMoney.cjs';

describeAgentMoney(RUNTIME.e2e);
