/**
 * The emulator's payout page (`GET /payout/<id or reference>`, linked from the Pay page) shows
 * where a payout came from: its narration and its metadata, the sender's own keys and the n8n run
 * details the node writes (docs/payroll.md, "Every payout leads back"), escaped as text.
 */
import { call, payoutBody } from '../../support/emulatorClient.cjs';
import { useEmulator } from '../../support/emulator.cjs';

const emulator = useEmulator();

it("a payout's page shows its narration and every metadata key, as text", async () => {
	const metadata = { department: 'ops', n8nWorkflowName: 'Payroll <November>', n8nBatch: '9f3a1c2b7d4e5f60', n8nApprovedBy: 'Funke Adebayo (funke@paycashless.test)' };
	const made = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('page-metadata', { narration: 'Salary page-metadata', metadata }) });
	const html = await (await fetch(`${emulator.baseUrl}/payout/${made.body.id}`)).text();
	expect(html).toContain('Narration: Salary page-metadata');
	expect(html).toContain('Metadata department: ops');
	expect(html).toContain('Metadata n8nWorkflowName: Payroll &#60;November&#62;');
	expect(html).toContain('Metadata n8nBatch: 9f3a1c2b7d4e5f60');
	expect(html).toContain('Metadata n8nApprovedBy: Funke Adebayo (funke@paycashless.test)');
	const bare = await call(emulator, 'POST', '/v1/payouts', { body: payoutBody('page-bare', { narration: undefined }) });
	const plain = await (await fetch(`${emulator.baseUrl}/payout/${bare.body.reference}`)).text();
	expect(plain).toContain('Narration: none');
	expect(plain).toContain('Metadata: none');
});
