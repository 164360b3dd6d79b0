/**
 * The AI Agent with Paycashless Tool nodes and a scripted model (test/e2e/agent.test.ts),
 * unchanged, against n8n 1.123.81.
 */
import { selectE2eRuntime } from '../e2e/harness';
import '../e2e/agent.test';

selectE2eRuntime({ n8nLine: '1' });
