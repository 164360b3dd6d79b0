/**
 * The generated regions of the docs (README.md's and docs/operations.md's Operations tables, from
 * the node's declarations; docs/fields.md; docs/ai-agent.md's tables of what the tool offers:
 * scripts/docs/) are what the generators write today.
 */
import { generatedDocs } from '../../../scripts/docs/index.cjs';
import { withRegion } from '../../../scripts/docs/regions.cjs';

jest.setTimeout(60_000);

describe('generated docs', () => {
	it('are committed as npm run docs writes them', async () => {
		const files = await generatedDocs();
		expect(files.map(({ file }) => file)).toEqual(expect.arrayContaining(['README.md', 'docs/operations.md']));
		for (const { file, current, written } of files) {
			expect({ file, upToDate: current === written ? true : 'no: run npm run docs, then commit the result' }).toEqual({ file, upToDate: true });
		}
	});

	it('list every operation of the registry in both tables, with the request its dry run sends', async () => {
		const [readme, detail] = await Promise.all(['README.md', 'docs/operations.md'].map(async (file) => (await generatedDocs()).find((found) => found.file === file)!.written));
		expect(readme).toMatch(/\| Payout \| Check Batch, Create, Create and Wait for Final Status, Get, Get Batch Status, Get Many, Verify \|/);
		expect(detail).toContain('| Payout | Get | `GET /v1/payouts/{id}` |');
		expect(detail).toContain('| Payout | Create and Wait for Final Status | `POST /v1/payouts`, then waits |');
		expect(detail).toContain('| Dedicated Account | Get Request Status | `GET /v1/dedicated_accounts/requests/{code}/status` |');
	});

	it('docs/ai-agent.md lists what the tool variant offers and every `$fromAI` key the model is asked for, from the description', async () => {
		const page = (await generatedDocs()).find((found) => found.file === 'docs/ai-agent.md')!.written;
		expect(page).toContain('| Payout | Create, Get, Get Many, Verify | Check Batch, Create and Wait for Final Status, Get Batch Status |');
		expect(page).toContain('| Callback |  | Verify |');
		expect(page).toMatch(/\| `Bank_ID` \| string \| The Paycashless bank ID, starting with bank_\. .* \| \*Bank ID\*: Payout → Create \|/);
		expect(page).toMatch(/\| `Account_Number` \| string \| .* \| \*Account Number\*: Bank Account → Look Up; \*Destination Account Number\*: Payout → Create \|/);
	});

	it('replace only the text between the markers, and refuse a file without them', () => {
		const region = { file: 'x.md', name: 'operations', text: 'new' };
		expect(withRegion('a\n<!-- generated: operations -->\nold\n<!-- end: operations -->\nb', region)).toBe('a\n<!-- generated: operations -->\nnew\n<!-- end: operations -->\nb');
		expect(() => withRegion('a table without markers', region)).toThrow('x.md lacks the markers');
	});
});
