/**
 * Create and Wait (test/e2e/wait.test.ts), unchanged, in n8n's queue mode: the execution waits in
 * the database, the resume call reaches n8n through the front proxy, and a worker continues it.
 */
import { selectE2eRuntime } from '../e2e/harness';
import '../e2e/wait.test';

selectE2eRuntime({ mode: 'queue' });
