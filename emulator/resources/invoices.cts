/**
 * POST /v1/invoices, GET /v1/invoices, GET /v1/invoices/{id}, POST /v1/invoices/{id}/cancel,
 * and the emulator-side payment of an invoice (INVOICE_PAYMENT_SUCCEEDED, then INVOICE_PAID).
 */
import { customerId } from '../customers.cjs';
import { apiError, duplicateReference, invalidField, invalidState, notFound } from '../errors.cjs';
import { listPage } from '../lists.cjs';
import { CURRENCIES, INVOICE_STATUSES, isoTime, type Invoice, type InvoiceItem, type InvoiceMeta, type TaxRate } from '../models.cjs';
import type { Core, Router } from '../router.cjs';
import type { Row, Store } from '../store.cjs';
import { bodyObject, Fields } from '../validate.cjs';

const DAY = 86_400;

interface InvoiceTotals {
	amountDue: number;
	totalInclusiveTaxAmount: number;
	totalExclusiveTaxAmount: number;
}

/**
 * Subtotal = Σ quantity × price. A percentage rate that is exclusive adds `subtotal × p / 100`
 * to the amount due; an inclusive one is already in the prices (`subtotal × p / (100 + p)` is
 * reported, nothing added). A fixed-amount rate counts its `fixedAmount` once. Rounded to units.
 */
function invoiceTotals(items: Array<Pick<InvoiceItem, 'quantity' | 'price'>>, rates: TaxRate[]): InvoiceTotals {
	const subtotal = items.reduce((sum, item) => sum + item.quantity * item.price, 0);
	let inclusive = 0;
	let exclusive = 0;
	for (const rate of rates) {
		let tax: number;
		if (rate.rateType === 'fixed_amount') tax = Math.round(rate.fixedAmount);
		else if (rate.inclusive) tax = Math.round((subtotal * rate.percentage) / (100 + rate.percentage));
		else tax = Math.round((subtotal * rate.percentage) / 100);
		if (rate.inclusive) inclusive += tax;
		else exclusive += tax;
	}
	return { amountDue: subtotal + exclusive, totalInclusiveTaxAmount: inclusive, totalExclusiveTaxAmount: exclusive };
}

/** The invoice as GET answers it: the stored fields plus `taxRates`. */
export function invoiceView(store: Store, invoice: Invoice): Invoice & { taxRates: Array<{ id: string; name: string; percentage: number }> } {
	const taxRates = invoice.taxRateIds.map((id) => {
		const rate = store.taxRates.get(id)?.obj;
		return { id, name: rate?.name ?? '', percentage: rate?.percentage ?? 0 };
	});
	return { ...invoice, taxRates };
}

function findInvoice(store: Store, idOrReference: string): Row<Invoice, InvoiceMeta> {
	const row = store.invoices.find(idOrReference);
	if (!row) throw notFound('invoice', idOrReference);
	return row;
}

export function registerInvoices(router: Router, core: Core): void {
	const { store } = core;

	router.add('POST', '/v1/invoices', (ctx) => {
		const f = new Fields(bodyObject(ctx.body, ctx.rawBody));
		const reference = f.string('reference', { required: true }) as string;
		const description = f.string('description', { required: true }) as string;
		const currency = f.oneOf('currency', CURRENCIES, { required: true }) as Invoice['currency'];
		const customerFields = f.object('customer', { required: true }) as Fields;
		const customer = {
			email: customerFields.email('email', { required: true }) as string,
			name: customerFields.string('name') ?? '',
			address: customerFields.string('address') ?? null,
		};
		const items = (f.objects('items', { required: true, minItems: 1 }) as Fields[]).map((item) => ({
			name: item.string('name', { required: true }) as string,
			quantity: item.integer('quantity', { required: true, min: 1 }) as number,
			price: item.amount('price', { required: true }) as number,
			description: item.string('description'),
		}));
		const daysUntilDue = f.integer('daysUntilDue', { required: true, min: 1, max: 1800 }) as number;
		const acceptPartialPayments = f.boolean('acceptPartialPayments') ?? false;
		const maxInstallments = f.integer('maxInstallments', { required: acceptPartialPayments, min: 1 });
		const sendEmail = f.boolean('sendEmail') ?? false;
		const autoFinalize = f.boolean('autoFinalize') ?? false;
		const callbackUrl = f.url('callbackUrl') ?? null;
		const returnUrl = f.url('returnUrl') ?? null;
		const taxRateIds = f.strings('taxRateIds') ?? [];
		const metadata = f.metadata('metadata') ?? {};
		const rates = taxRateIds.map((id, index) => {
			const rate = store.taxRates.get(id)?.obj;
			if (!rate) throw invalidField(`taxRateIds[${index}]`, `\`taxRateIds[${index}]\`: no tax rate ${JSON.stringify(id)} exists.`);
			if (!rate.active) throw invalidField(`taxRateIds[${index}]`, `\`taxRateIds[${index}]\`: tax rate ${JSON.stringify(id)} is not active.`);
			return rate;
		});
		if (store.invoices.getByReference(reference)) throw duplicateReference('invoice', reference);

		const now = core.nowSeconds();
		const id = store.newId('inv_', store.invoices);
		const invoice = buildInvoice({
			id,
			status: autoFinalize ? 'open' : 'draft',
			customerId: customerId(customer.email),
			description,
			currency,
			reference,
			sendEmail,
			dueDate: isoTime(now + daysUntilDue * DAY),
			number: store.nextInvoiceNumber(),
			amountPaid: 0,
			taxRates: rates,
			items: items.map((item) => ({ id: `item_${store.hex(24)}`, name: item.name, quantity: item.quantity, price: item.price })),
			hostedInvoiceUrl: `${core.baseUrl}/pay/${id}`,
			maxInstallments: acceptPartialPayments ? (maxInstallments as number) : 1,
		});
		store.invoices.add(invoice, now, {
			updatedAt: now,
			customer,
			acceptPartialPayments,
			callbackUrl,
			returnUrl,
			metadata,
			cancellationReason: null,
		});
		return { status: 201, body: invoice };
	});

	router.add('GET', '/v1/invoices', (ctx) => ({
		status: 200,
		body: listPage(store.invoices, ctx.query, {
			name: 'invoices',
			statuses: INVOICE_STATUSES,
			filters: {
				currency: (row, value) => row.obj.currency === value,
				reference: (row, value) => row.obj.reference === value,
				number: (row, value) => row.obj.number === value,
				customerId: (row, value) => row.obj.customerId === value,
			},
			present: (row) => invoiceView(store, row.obj),
		}),
	}));

	router.add('GET', '/v1/invoices/:id', (ctx) => {
		const row = store.invoices.get(ctx.params.id);
		if (!row) throw notFound('invoice', ctx.params.id);
		return { status: 200, body: invoiceView(store, row.obj) };
	});

	router.add('POST', '/v1/invoices/:id/cancel', (ctx) => {
		const row = store.invoices.get(ctx.params.id);
		if (!row) throw notFound('invoice', ctx.params.id);
		const f = new Fields(bodyObject(ctx.body, ctx.rawBody));
		const cancellationReason = f.string('cancellationReason', { required: true }) as string;
		if (row.obj.status !== 'draft' && row.obj.status !== 'open') {
			throw invalidState(`Invoice ${row.obj.id} is ${row.obj.status}; only draft or open invoices can be cancelled.`);
		}
		row.obj.status = 'cancelled';
		row.meta.cancellationReason = cancellationReason;
		row.meta.updatedAt = core.nowSeconds();
		const view = invoiceView(store, row.obj);
		core.dispatcher.send(row.meta.callbackUrl, 'INVOICE_CANCELLED', view);
		return { status: 200, body: view };
	});
}

/** Every invoice, created or seeded, is built here (field order of seed 2.1). */
export function buildInvoice(input: Omit<Invoice, 'liveMode' | 'amountDue' | 'totalInclusiveTaxAmount' | 'totalExclusiveTaxAmount' | 'taxRateIds'> & { taxRates: TaxRate[] }): Invoice {
	const totals = invoiceTotals(input.items, input.taxRates);
	return {
		id: input.id,
		status: input.status,
		customerId: input.customerId,
		description: input.description,
		currency: input.currency,
		reference: input.reference,
		sendEmail: input.sendEmail,
		dueDate: input.dueDate,
		liveMode: false,
		number: input.number,
		amountDue: totals.amountDue,
		amountPaid: input.amountPaid,
		totalInclusiveTaxAmount: totals.totalInclusiveTaxAmount,
		totalExclusiveTaxAmount: totals.totalExclusiveTaxAmount,
		taxRateIds: input.taxRates.map((rate) => rate.id),
		items: input.items,
		hostedInvoiceUrl: input.hostedInvoiceUrl,
		maxInstallments: input.maxInstallments,
	};
}

export interface PayInvoiceOptions {
	/** Record the payment but send no callback. */
	loseCallbacks?: boolean;
}

/**
 * Records one payment against an open or partially paid invoice (default: everything still
 * due). Sends INVOICE_PAYMENT_SUCCEEDED, then INVOICE_PAID once the invoice is fully paid;
 * with `loseCallbacks` sends nothing (a callback lost on the way: only a lookup finds the payment).
 */
export function payInvoice(
	core: Core,
	idOrReference: string,
	amount?: number,
	options: PayInvoiceOptions = {},
): ReturnType<typeof invoiceView> {
	const { store } = core;
	const row = findInvoice(store, idOrReference);
	const invoice = row.obj;
	if (invoice.status !== 'open' && invoice.status !== 'partially_paid') {
		throw invalidState(`Invoice ${invoice.id} is ${invoice.status}; only open or partially paid invoices can be paid.`);
	}
	const remaining = invoice.amountDue - invoice.amountPaid;
	const paying = amount ?? remaining;
	if (!Number.isSafeInteger(paying) || paying <= 0 || paying > remaining) {
		throw apiError(400, 'invalid_request_error', 'parameter_invalid', `\`amount\` must be a positive integer of at most ${remaining} (still due).`, ['amount']);
	}
	if (paying < remaining && !row.meta.acceptPartialPayments) {
		throw apiError(400, 'invalid_request_error', 'parameter_invalid', `Invoice ${invoice.id} does not accept partial payments: pay ${remaining}.`, ['amount']);
	}
	const now = core.nowSeconds();
	invoice.amountPaid += paying;
	invoice.status = invoice.amountPaid >= invoice.amountDue ? 'paid' : 'partially_paid';
	row.meta.updatedAt = now;

	const paymentEvent = {
		amountPaid: paying,
		amountRequested: paying,
		createdAt: isoTime(now),
		currency: invoice.currency,
		id: `ipay_${store.hex(24)}`,
		intentId: `pi_${store.hex(24)}`,
		invoiceId: invoice.id,
		liveMode: false,
		paid: true,
		updatedAt: isoTime(now),
	};
	const view = invoiceView(store, invoice);
	if (options.loseCallbacks) return view;
	core.dispatcher.send(row.meta.callbackUrl, 'INVOICE_PAYMENT_SUCCEEDED', paymentEvent);
	if (invoice.status === 'paid') core.dispatcher.send(row.meta.callbackUrl, 'INVOICE_PAID', view);
	return view;
}
