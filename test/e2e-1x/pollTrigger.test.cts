/**
 * The Paycashless Poll Trigger's end-to-end test (test/e2e/pollTrigger.test.cts), unchanged, against
 * n8n 1.123.81: n8n 1.x schedules the polls, restarts, and the editor's manual run.
 */
import { selectE2eRuntime } from '../e2e/harness.cjs';
import '../e2e/pollTrigger.test.cjs';

selectE2eRuntime({ n8nLine: '1' });
