/**
 * The Paycashless Poll Trigger's end-to-end test (test/e2e/pollTrigger.test.ts), unchanged, against
 * n8n 1.123.81: n8n 1.x schedules the polls, restarts, and the editor's manual run.
 */
import { selectE2eRuntime } from '../e2e/harness';
import '../e2e/pollTrigger.test';

selectE2eRuntime({ n8nLine: '1' });
