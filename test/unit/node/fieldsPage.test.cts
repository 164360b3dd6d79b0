/**
 * docs/fields.md, the page where a maintainer reads every field of an operation, is generated from
 * the node's description (scripts/docs/fields.cts); test/tooling/repo/generatedDocs.test.cts keeps
 * the committed page the generator's. Here: what the page shows.
 */
import { fieldsPage } from '../../../scripts/docs/fields.cjs';

describe('docs/fields.md', () => {
	const page = fieldsPage();

	it('shows every field of Payout → Create with its parameter, and what the tool variant fills with $fromAI', () => {
		const section = page.split('### Payout → Create\n')[1].split('\n### ')[0];
		for (const parameter of ['reference', 'amount', 'amountInSmallestUnit', 'currency', 'destinationAccountNumber', 'bankId', 'narration', 'allOrNothing', 'maxAmount', 'onRepeatedReference', 'concurrency']) {
			expect(section).toContain(`| \`${parameter}\` |`);
		}
		const tool = section.split("**As an AI agent's tool**")[1];
		expect(tool).toMatch(/\| Destination Account Number \| `destinationAccountNumber` \| default `=\{\{ \$fromAI\('Account_Number'/);
		expect(tool).toContain('| Amount in Smallest Unit | `amountInSmallestUnit` | not in the tool |');
	});

	it('says which fields show only with another value, and which operations are no tool', () => {
		expect(page).toMatch(/\| Limit \| `limit` \| number \| `50` \|  \| returnAll is false \|/);
		expect(page.split('### Payout → Create and Wait for Final Status\n')[1].split('\n### ')[0]).toContain("**As an AI agent's tool** (Paycashless Tool): not offered.");
	});
});
