/**
 * Create and Wait (test/e2e/wait.test.cts), unchanged, in n8n's queue mode: the execution waits in
 * the database, the resume call reaches n8n through the front proxy, and a worker continues it.
 */
import { selectE2eRuntime } from '../e2e/harness.cjs';
import '../e2e/wait.test.cjs';

selectE2eRuntime({ mode: 'queue' });
