/**
 * The Paycashless Poll Trigger's end-to-end test (test/e2e/pollTrigger.test.cts) in n8n's queue
 * mode: the main process runs the polls and keeps the trigger's state in PostgreSQL, workers run
 * the executions it starts, and the restart in the middle restarts main alone.
 */
import { selectE2eRuntime } from '../e2e/harness.cjs';
import '../e2e/pollTrigger.test.cjs';

selectE2eRuntime({ mode: 'queue' });
