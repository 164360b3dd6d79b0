/**
 * The one reader of an invoice create body (`POST /v1/invoices`) for the Money Limits: the sum of
 * its items (price × quantity, quantity 1 when absent, in kobo or cents), its currency and its
 * customer. An item whose price or quantity is not a number leaves the sum unread (the limits then
 * refuse the invoice); so does an invoice without items. Pure: no n8n, no I/O.
 */
import { isJsonObject } from './payoutBody';
import type { CustomerMoney } from './paymentBody';

export function readInvoiceBody(body: Record<string, unknown>): CustomerMoney {
	const items = Array.isArray(body.items) ? (body.items as unknown[]) : [];
	let minor: number | undefined = 0;
	for (const item of items) {
		const price = isJsonObject(item) ? item.price : undefined;
		const quantity = isJsonObject(item) ? (item.quantity ?? 1) : undefined;
		minor = typeof price === 'number' && typeof quantity === 'number' && minor !== undefined ? minor + price * quantity : undefined;
	}
	const customer = isJsonObject(body.customer) ? body.customer : {};
	return { minor: items.length > 0 ? minor : undefined, currency: String(body.currency ?? '').toUpperCase(), customer: String(customer.email ?? '') };
}
