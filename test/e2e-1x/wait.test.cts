/**
 * Create and Wait (test/e2e/wait.test.cts), unchanged, against n8n 1.123.81: its resume URLs carry
 * no n8n token, so the Paycashless signature is the only guard there.
 */
import { selectE2eRuntime } from '../e2e/harness.cjs';
import '../e2e/wait.test.cjs';

selectE2eRuntime({ n8nLine: '1' });
