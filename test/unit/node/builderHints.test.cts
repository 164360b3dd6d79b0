/**
 * What the nodes declare for AI builders (n8n's builderHint, codex aliases), checked on the
 * descriptions; test/e2e/mcp.test.cts checks what n8n 2.41's MCP server makes of them.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { INodeProperties, INodePropertyOptions, INodeTypeDescription, UsableAsToolDescription } from 'n8n-workflow';

import { registry } from '../../../nodes/Paycashless/actions/registry';
import { moneyKind } from '../../../nodes/Paycashless/actions/types';
import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { PaycashlessPollTrigger } from '../../../nodes/Paycashless/PaycashlessPollTrigger.node';
import { PaycashlessTrigger } from '../../../nodes/Paycashless/PaycashlessTrigger.node';

const action = new Paycashless().description;
const tool = (action.usableAsTool as UsableAsToolDescription).replacements as unknown as Pick<INodeTypeDescription, 'properties' | 'builderHint'>;
const descriptions = { action, tool: { ...action, ...tool }, trigger: new PaycashlessTrigger().description, poll: new PaycashlessPollTrigger().description };

/** Every string inside a `builderHint` value anywhere in `value`, with where it was found. */
function hintTexts(value: unknown, at = '', inHint = false): Array<{ at: string; text: string }> {
	if (typeof value === 'string') return inHint ? [{ at, text: value }] : [];
	if (Array.isArray(value)) return value.flatMap((item, index) => hintTexts(item, `${at}[${index}]`, inHint));
	if (value && typeof value === 'object') {
		return Object.entries(value).flatMap(([key, item]) => hintTexts(item, `${at}.${key}`, inHint || key === 'builderHint'));
	}
	return [];
}

/** The properties shown for one operation of the regular node, nested ones included. */
function fieldsOf(resource: string, operation: string): INodeProperties[] {
	const shown = action.properties.filter((p) => {
		const show = p.displayOptions?.show ?? {};
		return (
			(show.resource as string[] | undefined)?.includes(resource) !== false &&
			(show.operation as string[] | undefined)?.includes(operation) !== false &&
			!(show['@tool'] as boolean[] | undefined)?.includes(true)
		);
	});
	return shown.flatMap((p) => [p, ...((p.type === 'collection' ? p.options : []) as INodeProperties[])]);
}

describe('builder hints (n8n-workflow builderHint) and codex aliases', () => {
	it('no hint leaks wire-format expressions or connection-type names (community lint rule no-builder-hint-leakage)', () => {
		for (const [node, description] of Object.entries(descriptions)) {
			const texts = hintTexts(description);
			expect({ node, count: texts.length > 0 }).toEqual({ node, count: true });
			for (const { at, text } of texts) {
				expect({ node, at, leaks: /={{/.test(text) || /\bai_(agent|chain|document|embedding|languageModel|memory|outputParser|retriever|reranker|textSplitter|tool|vectorStore)\b/.test(text) }).toEqual({ node, at, leaks: false });
			}
		}
	});

	it('hints sit on the Resource and Operation options, never on those properties (n8n 2.41 then fails to load the node)', () => {
		for (const description of Object.values(descriptions)) {
			for (const property of description.properties.filter((p) => p.name === 'resource' || p.name === 'operation')) {
				expect(property.builderHint).toBeUndefined();
			}
		}
		// Each Resource option has a description: n8n takes it as the caption of that resource's operation types.
		const resource = action.properties.find((p) => p.name === 'resource')!;
		for (const option of resource.options as INodePropertyOptions[]) expect(option.description).toMatch(new RegExp(`^${option.name}: `));
	});

	it('the node says what it is for, the look-up-then-pay pattern, naira not kobo, a stable reference and Money Limits', () => {
		const hint = action.builderHint!;
		expect(hint.searchHint).toMatch(/naira/);
		expect(hint.searchHint).toMatch(/never kobo/);
		expect(hint.searchHint).toMatch(/Bank Account → Look Up .* then Payout → Create with bankId/);
		expect(hint.searchHint).toMatch(/Never \$now, \$execution\.id, a random value/);
		expect(hint.searchHint).toMatch(/Money Limits/);
		expect(hint.relatedNodes!.map((r) => r.nodeType)).toEqual(
			expect.arrayContaining(['n8n-nodes-paycashless.paycashlessTrigger', 'n8n-nodes-paycashless.paycashlessPollTrigger', 'n8n-nodes-base.wait', 'n8n-nodes-base.slack']),
		);
		// One variation per operation, shown only in its own type; patterns for the money operations.
		const variations = hint.extraTypeDefContent!;
		const operations = Object.entries(registry).flatMap(([resource, ops]) => Object.keys(ops).map((operation) => ({ resource, operation })));
		expect(variations).toHaveLength(operations.length);
		for (const { resource, operation } of operations) {
			const own = variations.filter((v) => (v.displayOptions?.show?.resource as string[])[0] === resource && (v.displayOptions?.show?.operation as string[])[0] === operation);
			expect(own).toHaveLength(1);
		}
		const payout = variations.find((v) => v.content.startsWith('Payout → Create:'))!.content;
		expect(payout).toMatch(/<pattern title=/);
		expect(payout).toMatch(/bankId: expr\('\{\{ \$json\.bank\.id \}\}'\)/);
		expect(tool.builderHint!.searchHint).toMatch(/Money Limits set a Maximum Amount and a Maximum Total per Period/);
		expect(descriptions.trigger.builderHint!.searchHint).toMatch(/Production URL/);
		expect(descriptions.poll.builderHint!.searchHint).toMatch(/no public n8n URL needed/);
	});

	it('every operation that moves money or waits has an option hint; its fields say unit, reference and bank ID', () => {
		for (const [resource, operations] of Object.entries(registry)) {
			const list = action.properties.find((p) => p.name === 'operation' && (p.displayOptions?.show?.resource as string[] | undefined)?.includes(resource))!;
			for (const [value, operation] of Object.entries(operations)) {
				const option = (list.options as INodePropertyOptions[]).find((o) => o.value === value)!;
				if (moneyKind(operation.declaration) || operation.wait) expect({ value, hint: option.builderHint?.propertyHint }).toEqual({ value, hint: expect.any(String) });
			}
		}
		const payout = fieldsOf('payout', 'create');
		const field = (name: string) => payout.find((p) => p.name === name)!;
		expect(field('reference').builderHint).toMatchObject({ placeholderSupported: false, propertyHint: expect.stringMatching(/stable ID/) });
		expect(field('bankId').builderHint).toMatchObject({ placeholderSupported: false, propertyHint: expect.stringMatching(/Look Up/) });
		expect(field('amount').builderHint?.propertyHint).toMatch(/naira/);
		expect(field('callbackUrl').builderHint?.propertyHint).toMatch(/Paycashless Trigger/);
		expect(field('moneyLimits').builderHint).toMatchObject({ placeholderSupported: false });
		// A Verify's Reference is the one given at create time, not a new one.
		expect(fieldsOf('payout', 'verify').find((p) => p.name === 'reference')!.builderHint?.propertyHint).toMatch(/created with/);
	});

	it('codex aliases: the words people use for it', () => {
		const codex = JSON.parse(readFileSync(join(__dirname, '../../../nodes/Paycashless/Paycashless.node.json'), 'utf8')) as { alias: string[] };
		for (const word of ['transfer', 'disbursement', 'bank payout', 'NGN', 'naira', 'virtual account', 'invoice', 'checkout']) expect(codex.alias).toContain(word);
		for (const file of ['PaycashlessTrigger.node.json', 'PaycashlessPollTrigger.node.json']) {
			const trigger = JSON.parse(readFileSync(join(__dirname, '../../../nodes/Paycashless', file), 'utf8')) as { alias: string[] };
			expect(trigger.alias).toEqual(expect.arrayContaining(['naira', 'NGN']));
		}
	});

	it('codex aliases (issue 43): plurals and adjectives too, since n8n matches a query word only inside a longer word; no word of another service', () => {
		const codex = JSON.parse(readFileSync(join(__dirname, '../../../nodes/Paycashless/Paycashless.node.json'), 'utf8')) as { alias: string[] };
		// n8n's search (sublimeSearch per query word) finds "invoice" in "invoices" but not "invoices" in "invoice".
		for (const word of ['Nigerian', 'invoices', 'payouts', 'payments', 'transfers', 'suppliers', 'disbursements', 'customer payments', 'customer invoices', 'bank account']) {
			expect({ word, listed: codex.alias.includes(word) }).toEqual({ word, listed: true });
		}
		// Words that name other services, or everyday words alone that other nodes own (CRMs' customers, e-mail's send).
		const lower = codex.alias.map((alias) => alias.toLowerCase());
		for (const word of ['customer', 'customers', 'send', 'email', 'stripe', 'paypal', 'paystack', 'flutterwave', 'crm']) {
			expect({ word, claimed: lower.includes(word) }).toEqual({ word, claimed: false });
		}
		expect(new Set(lower).size).toBe(lower.length);
	});
});
