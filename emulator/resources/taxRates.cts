/** POST /v1/tax_rates, PUT /v1/tax_rates/{id} */
import { invalidField, notFound } from '../errors.cjs';
import { isoTime, type TaxRate } from '../models.cjs';
import type { Core, Router } from '../router.cjs';
import { bodyObject, Fields } from '../validate.cjs';

const TAX_TYPES = ['vat', 'sales_tax'] as const;
const RATE_TYPES = ['percentage', 'fixed_amount'] as const;

/** The create response: the tax rate without `createdAt` / `updatedAt` (seed 4.6). */
function createView(rate: TaxRate): Omit<TaxRate, 'createdAt' | 'updatedAt'> {
	const { createdAt: _createdAt, updatedAt: _updatedAt, ...rest } = rate;
	return rest;
}

export function registerTaxRates(router: Router, core: Core): void {
	const { store } = core;

	router.add('POST', '/v1/tax_rates', (ctx) => {
		const f = new Fields(bodyObject(ctx.body, ctx.rawBody));
		const name = f.string('name', { required: true }) as string;
		const fixedAmount = f.number('fixedAmount', { min: 0 });
		// How a fixed-amount rate is requested is not published: `rateType: 'fixed_amount'` or a `fixedAmount` selects it.
		const rateType = f.oneOf('rateType', RATE_TYPES) ?? (fixedAmount !== undefined ? 'fixed_amount' : 'percentage');
		if (rateType === 'fixed_amount' && fixedAmount === undefined) {
			throw invalidField('fixedAmount', '`fixedAmount` is required when `rateType` is fixed_amount.');
		}
		const percentage = f.number('percentage', { required: rateType === 'percentage', min: 0, max: 100 }) ?? 0;
		const inclusive = f.boolean('inclusive') ?? false;
		const description = f.string('description') ?? '';
		const active = f.boolean('active') ?? true;
		const taxType = f.oneOf('taxType', TAX_TYPES) ?? 'vat';
		const metadata = f.metadata('metadata') ?? {};

		const now = isoTime(core.nowSeconds());
		const rate: TaxRate = {
			id: store.newId('txr_', store.taxRates),
			name,
			inclusive,
			description,
			active,
			percentage,
			taxType,
			rateType,
			fixedAmount: fixedAmount ?? 0,
			liveMode: false,
			createdAt: now,
			updatedAt: now,
			metadata,
		};
		store.taxRates.add(rate, core.nowSeconds(), undefined);
		return { status: 201, body: createView(rate) };
	});

	router.add('PUT', '/v1/tax_rates/:id', (ctx) => {
		const row = store.taxRates.get(ctx.params.id);
		if (!row) throw notFound('tax rate', ctx.params.id);
		const f = new Fields(bodyObject(ctx.body, ctx.rawBody));
		const changes: Partial<TaxRate> = {};
		const name = f.string('name');
		if (name !== undefined) changes.name = name;
		const description = f.string('description');
		if (description !== undefined) changes.description = description;
		const active = f.boolean('active');
		if (active !== undefined) changes.active = active;
		const taxType = f.oneOf('taxType', TAX_TYPES);
		if (taxType !== undefined) changes.taxType = taxType;
		const metadata = f.metadata('metadata');
		if (metadata !== undefined) changes.metadata = metadata;

		Object.assign(row.obj, changes, { updatedAt: isoTime(core.nowSeconds()) });
		return { status: 200, body: row.obj };
	});
}
