/**
 * Money Limits and what the model is told (test/e2e/agentMoney.test.cts), unchanged, in n8n's queue
 * mode: the agent's execution and its tool calls run on a worker, and the per-execution count
 * (n8n's node context, saved with the execution) holds there too.
 */
import { selectE2eRuntime } from '../e2e/harness.cjs';
import '../e2e/agentMoney.test.cjs';

selectE2eRuntime({ mode: 'queue' });
