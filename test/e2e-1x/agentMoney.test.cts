/**
 * Money Limits, what the model is told and naira mapping (test/e2e/agentMoney.test.cts),
 * unchanged, against n8n 1.123.81: the per-execution count must hold there too.
 */
import { selectE2eRuntime } from '../e2e/harness.cjs';
import '../e2e/agentMoney.test.cjs';

selectE2eRuntime({ n8nLine: '1' });
