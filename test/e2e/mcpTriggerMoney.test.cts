/**
 * The Paycashless Tool behind the MCP Server Trigger (test/support/suites/mcpTriggerMoney.cts) in
 * n8n 2.41, one process.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeMcpTriggerMoney } from '../support/suites/mcpTriggerMoney.cjs';

describeMcpTriggerMoney(RUNTIME.e2e);
