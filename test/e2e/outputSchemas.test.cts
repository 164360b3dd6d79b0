/**
 * The packed package holds every output schema (test/unit/node/schemas.test.cts checks the files), unchanged,
 * where n8n looks for them: beside the compiled node, dist/nodes/Paycashless/__schema__/v1.0.0/
 * <resource>/<operation>.json (docs/development.md, "Output schemas"); and a real n8n with the
 * package installed serves each at the URL its editor asks for. Here, not in the fast tier, because
 * it builds, packs and starts n8n (PAYCASHLESS_E2E_N8N=1: on n8n 1.123).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';

import { operationPairs } from '../../nodes/Paycashless/actions/registry';
import { RESOURCES } from '../../nodes/Paycashless/poll/events';
import { buildAndPack, NODE_TYPE_ACTION, NODE_TYPE_TRIGGER, PACKAGE_NAME } from '../../scripts/n8n/lab.cjs';
import { pollSchemaPath, schemaPath, TRIGGER_SCHEMA_FILE } from '../../scripts/output-schemas.cjs';
import { nodeOperations } from '../../scripts/harness/operationOutputs.cjs';
import { patience } from '../../scripts/n8n/patience.cjs';
import { SETUP_TIMEOUT_MS, startE2eLab } from '../support/e2e/harness.cjs';
import { freshFetch } from '../support/e2e/freshFetch.cjs';

// A test takes up to 20 s alone (scripts/n8n/patience.cts).
jest.setTimeout(patience(20_000));

describe('output schemas in the package', () => {
	it('the packed package holds every schema, unchanged, beside the compiled node', async () => {
		const operations = nodeOperations();
		expect(operations).toHaveLength(operationPairs().length);
		const tgz = await buildAndPack({ quiet: true });
		const listed = execFileSync('tar', ['-tzf', tgz], { encoding: 'utf8' }).split('\n');
		for (const { resource, operation } of operations) {
			const inPackage = `package/dist/nodes/Paycashless/__schema__/v1.0.0/${resource}/${operation}.json`;
			expect(listed).toContain(inPackage);
			const text = execFileSync('tar', ['-xzOf', tgz, inPackage], { encoding: 'utf8' });
			expect(text).toBe(fs.readFileSync(schemaPath(resource, operation), 'utf8'));
		}
		expect(listed).toContain('package/dist/nodes/Paycashless/Paycashless.node.js');
		expect(listed).toContain('package/dist/nodes/Paycashless/__schema__/v1.0.0.json');
		for (const resource of Object.keys(RESOURCES)) expect(listed).toContain(`package/dist/nodes/Paycashless/__schema__/v1.0.0/${resource}.json`);
	});
});

describe('output schemas served by n8n', () => {
	it('every operation\'s and both triggers\' schemas at the URLs the editor asks for (typeVersion 1 as 1.0.0), 200 and the file\'s JSON', async () => {
		const lab = await startE2eLab();
		try {
			const answers: Record<string, number> = {};
			for (const { resource, operation } of nodeOperations()) {
				const response = await freshFetch(`${lab.n8n.baseUrl}/schemas/${NODE_TYPE_ACTION}/1.0.0/${resource}/${operation}.json`);
				answers[`${resource}/${operation}`] = response.status;
				if (response.status === 200) expect(await response.json()).toEqual(JSON.parse(fs.readFileSync(schemaPath(resource, operation), 'utf8')));
			}
			expect(Object.values(answers).every((status) => status === 200) ? 'all 200' : answers).toBe('all 200');
			// The triggers' schemas at the URLs the editor asks for them (no operation; the Poll Trigger's resource).
			const trigger = await freshFetch(`${lab.n8n.baseUrl}/schemas/${NODE_TYPE_TRIGGER}/1.0.0.json`);
			expect(trigger.status).toBe(200);
			expect(await trigger.json()).toEqual(JSON.parse(fs.readFileSync(TRIGGER_SCHEMA_FILE, 'utf8')));
			for (const resource of Object.keys(RESOURCES)) {
				const poll = await freshFetch(`${lab.n8n.baseUrl}/schemas/${PACKAGE_NAME}.paycashlessPollTrigger/1.0.0/${resource}.json`);
				expect({ resource, status: poll.status }).toEqual({ resource, status: 200 });
				expect(await poll.json()).toEqual(JSON.parse(fs.readFileSync(pollSchemaPath(resource), 'utf8')));
			}
			// Control: an operation the node lacks.
			expect((await freshFetch(`${lab.n8n.baseUrl}/schemas/${NODE_TYPE_ACTION}/1.0.0/payout/noSuchOperation.json`)).status).toBe(404);
		} finally {
			await lab.close();
		}
	}, SETUP_TIMEOUT_MS);
});
