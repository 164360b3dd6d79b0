/**
 * The Paycashless Tool behind the MCP Server Trigger (test/e2e/mcpTriggerMoney.test.cts),
 * unchanged, against n8n 1.123.81 (MCP Server Trigger version 2 there too).
 */
import { selectE2eRuntime } from '../e2e/harness.cjs';
import '../e2e/mcpTriggerMoney.test.cjs';

selectE2eRuntime({ n8nLine: '1' });
