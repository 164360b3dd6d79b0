/**
 * The AI Agent with Paycashless Tool nodes and a scripted model (test/support/suites/agent.cts) in
 * n8n 2.41, one process.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeAgent } from '../support/suites/agent.cjs';

describeAgent(RUNTIME.e2e);
