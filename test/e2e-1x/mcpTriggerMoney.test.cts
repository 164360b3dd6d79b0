/**
 * The Paycashless Tool behind the MCP Server Trigger (test/support/suites/mcpTriggerMoney.cts),
 * unchanged, against n8n 1.123.81 (MCP Server Trigger version 2 there too).
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeMcpTriggerMoney } from '../support/suites/mcpTriggerMoney.cjs';

describeMcpTriggerMoney(RUNTIME.e2e1x);
