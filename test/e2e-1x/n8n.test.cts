/**
 * The end-to-end suite of test/support/suites/n8n.cts (credential Test, n8n's HTTP Request node with the
 * credential, the trigger with production and test URLs, the examples), unchanged, against n8n
 * 1.123.81, the maintained 1.x line (scripts/n8n/host-1x/, installed beside 2.41 by
 * `scripts/n8n/install.sh --n8n-1x`). The operations suite runs in 1.123's engine in the test
 * process instead (test/engine/operations.test.cts, jest project engine-1x). By hand, any e2e file
 * runs on 1.x with PAYCASHLESS_E2E_N8N=1.
 */
import { currentE2eLab, RUNTIME } from '../support/e2e/harness.cjs';
import { describeN8n } from '../support/suites/n8n.cjs';

describeN8n(RUNTIME.e2e1x);

describe('n8n 1.x line', () => {
	it('the suite above ran on n8n 1.123', async () => {
		const lab = currentE2eLab();
		expect(lab.n8nVersion).toBe('1.123.81');
		const settings = await lab.session.rest<{ versionCli: string }>('GET', '/rest/settings');
		expect(settings.versionCli).toBe('1.123.81');
	});
});
