/**
 * The AI Agent with Paycashless Tool nodes and a scripted model (test/e2e/agent.test.cts),
 * unchanged, against n8n 1.123.81.
 */
import { selectE2eRuntime } from '../e2e/harness.cjs';
import '../e2e/agent.test.cjs';

selectE2eRuntime({ n8nLine: '1' });
