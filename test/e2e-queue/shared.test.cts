/**
 * The queue-mode suites that neither kill nor restart a process, in one file so that they share
 * one queue-mode set (PostgreSQL, Redis, main, two workers, a webhook processor; harness.cts
 * `fileQueue`), each with its own emulator, credentials and workflows:
 * - Create and Wait (test/support/suites/wait.cts), unchanged: the execution waits in the database, the
 *   resume call reaches n8n through the front proxy, and a worker continues it;
 * - Money Limits and what the model is told (test/support/suites/agentMoney.cts), unchanged: the agent's
 *   execution and its tool calls run on a worker, and the per-execution count (n8n's node context,
 *   saved with the execution) holds there too.
 * The sweep (n8n.test.cts: it kills a worker, adds processes, updates the package) and the poll
 * run (pollTrigger.test.cts: it restarts main) keep sets of their own.
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeAgentMoney } from '../support/suites/agentMoney.cjs';
import { describeWait } from '../support/suites/wait.cjs';

describeWait(RUNTIME.e2eQueue);
describeAgentMoney(RUNTIME.e2eQueue);
