/**
 * The packed package holds every output schema (test/schemas.test.cts checks the files), unchanged,
 * where n8n looks for them: beside the compiled node, dist/nodes/Paycashless/__schema__/v1.0.0/
 * <resource>/<operation>.json (docs/development.md, "Output schemas"). Here, not in the fast tier,
 * because it builds and packs; the browser test sees n8n serve one from the installed package.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';

import { buildAndPack } from '../../scripts/n8n/lab.cjs';
import { schemaPath } from '../../scripts/output-schemas.cjs';
import { nodeOperations } from '../helpers/operationOutputs.cjs';

jest.setTimeout(180_000);

describe('output schemas in the package', () => {
	it('the packed package holds every schema, unchanged, beside the compiled node', async () => {
		const operations = nodeOperations();
		expect(operations).toHaveLength(24);
		const tgz = await buildAndPack({ quiet: true });
		const listed = execFileSync('tar', ['-tzf', tgz], { encoding: 'utf8' }).split('\n');
		for (const { resource, operation } of operations) {
			const inPackage = `package/dist/nodes/Paycashless/__schema__/v1.0.0/${resource}/${operation}.json`;
			expect(listed).toContain(inPackage);
			const text = execFileSync('tar', ['-xzOf', tgz, inPackage], { encoding: 'utf8' });
			expect(text).toBe(fs.readFileSync(schemaPath(resource, operation), 'utf8'));
		}
		expect(listed).toContain('package/dist/nodes/Paycashless/Paycashless.node.js');
	});
});
