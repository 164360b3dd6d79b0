/**
 * The queue-mode suites that kill no process, in one file so that they share one queue-mode set
 * (PostgreSQL, Redis, main, two workers, a webhook processor; harness.cts `fileQueue`), each with
 * its own emulator, credentials and workflows:
 * - Create and Wait (test/support/suites/wait.cts): the execution waits in the database, the
 *   resume call reaches n8n through the front proxy, and a worker continues it;
 * - Money Limits and what the model is told (test/support/suites/agentMoney.cts): the agent's
 *   execution and its tool calls run on a worker, and the per-execution count (n8n's node context,
 *   saved with the execution) holds there too;
 * - period limits when executions race (test/support/suites/moneyHolds.cts): ten webhook
 *   executions at once spread over the workers stay within the bound docs/money.md states;
 * - last, the Poll Trigger's run (test/support/suites/pollTrigger.cts): main runs the polls and
 *   keeps the trigger's state in PostgreSQL, workers run the executions it starts, and the restart
 *   in the middle restarts main alone (after the suites above have run their tests).
 * The sweep (n8n.test.cts: it kills a worker, adds processes, updates the package) keeps a set of
 * its own.
 *
 * @cost minutes (started first on a fresh clone: test/support/setup/sequencer.js)
 */
import { RUNTIME } from '../support/e2e/harness.cjs';
import { describeAgentMoney } from '../support/suites/agentMoney.cjs';
import { describeMoneyHolds } from '../support/suites/moneyHolds.cjs';
import { describePollTrigger } from '../support/suites/pollTrigger.cjs';
import { describeWait } from '../support/suites/wait.cjs';

describeWait(RUNTIME.e2eQueue);
describeAgentMoney(RUNTIME.e2eQueue);
describeMoneyHolds(RUNTIME.e2eQueue);
describePollTrigger(RUNTIME.e2eQueue);
