/**
 * The AI Agent with Paycashless Tool nodes and a scripted model (test/support/suites/agent.cts),
 * unchanged, against n8n 1.123.81.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeAgent } from '../support/suites/agent.cjs';

describeAgent(RUNTIME.e2e1x);
