/**
 * Money Limits, what the model is told and naira mapping (test/support/suites/agentMoney.cts),
 * unchanged, against n8n 1.123.81: the per-execution count must hold there too.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeAgentMoney } from '../support/suites/agentMoney.cjs';

describeAgentMoney(RUNTIME.e2e1x);
