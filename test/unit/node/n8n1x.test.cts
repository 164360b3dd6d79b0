/**
 * n8n 1.x (1.123, the maintained line) resolves display conditions only between top-level
 * parameters: a top-level field shown on a collection's child (e.g. `options.skipSignatureVerification`)
 * makes n8n 1.123 refuse to activate the workflow ("Could not resolve parameter dependencies. Max
 * iterations reached!"), while 2.41 accepts it. Found by the e2e suite on 1.123 (test/e2e-1x/).
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { Paycashless } from '../../../nodes/Paycashless/Paycashless.node';
import { PaycashlessPollTrigger } from '../../../nodes/Paycashless/PaycashlessPollTrigger.node';
import { PaycashlessTrigger } from '../../../nodes/Paycashless/PaycashlessTrigger.node';

const descriptions: Array<[string, INodeTypeDescription]> = [
	['Paycashless', new Paycashless().description],
	['Paycashless Trigger', new PaycashlessTrigger().description],
	['Paycashless Poll Trigger', new PaycashlessPollTrigger().description],
];

describe.each(descriptions)('%s: display conditions n8n 1.x can resolve', (_name, description) => {
	const topLevel = new Set(description.properties.map((p) => p.name));

	it('every top-level field is shown or hidden only on top-level fields (or the node version)', () => {
		const unresolvable: string[] = [];
		for (const property of description.properties as INodeProperties[]) {
			for (const condition of [property.displayOptions?.show, property.displayOptions?.hide]) {
				for (const key of Object.keys(condition ?? {})) {
					const name = key.replace(/^\//, '');
					if (name.startsWith('@')) continue;
					// A root path (`/moneyLimits.maxAmount`, the notices of a limit added empty) is taken as
					// resolved by both lines (1.123's getParameterResolveOrder: "root level dependencies");
					// its first part must still be a top-level field.
					const field = key.startsWith('/') ? name.split('.')[0] : name;
					if (!topLevel.has(field)) unresolvable.push(`${property.name} depends on ${key}`);
				}
			}
		}
		expect(unresolvable).toEqual([]);
	});
});
