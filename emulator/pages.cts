/**
 * Stand-ins for the hosted pages the API links to (`hostedInvoiceUrl`, `authorizationUrl`), so
 * a demo can click through: the page shows the amount and a button that completes the payment
 * through the control API (which sends the callbacks).
 */
import type { Reply } from './router.cjs';
import type { Store } from './store.cjs';

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An HTML answer with the emulator's heading and its "no real money moves" line. */
function htmlPage(title: string, inner: string): Reply {
	const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:sans-serif;max-width:40rem;margin:3rem auto">
<h1>${escapeHtml(title)}</h1><p><em>Paycashless emulator: no real money moves.</em></p>
${inner}
</body></html>`;
	return { status: 200, body: html, headers: { 'Content-Type': 'text/html; charset=utf-8' } };
}

/** A hosted page: what is due, and a button that completes it through the control API. */
function page(title: string, lines: string[], action: string, body: string): Reply {
	return htmlPage(
		title,
		`${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<button id="pay">Simulate payment</button><pre id="out"></pre>
<script>
document.getElementById('pay').onclick = async () => {
	const res = await fetch(${JSON.stringify(action)}, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: ${JSON.stringify(body)} });
	document.getElementById('out').textContent = res.status + ' ' + JSON.stringify(await res.json(), null, 2);
};
</script>`,
	);
}

function money(amount: number, currency: string): string {
	return `${currency} ${(amount / 100).toFixed(2)}`;
}

const AWAITING_INVOICE = new Set(['open', 'partially_paid']);
const AWAITING_PAYMENT = new Set(['initiated', 'awaiting_charge']);
/** How many of the newest invoices and payments the waiting page looks at. */
const NEWEST = 200;

/**
 * `GET /`: what is waiting to be paid, newest first (invoices and payments made in the last
 * NEWEST of each), each linked to its page with the "Simulate payment" button. What `npm start`'s
 * banner points at, so a waiting "Create and Wait" can be paid without reading the store.
 */
export function waitingPage(store: Store): Reply {
	// `order`: the row's place in its table, which breaks ties within a second (later rows are newer).
	const entries: Array<{ createdAt: number; order: number; html: string }> = [];
	for (const [order, row] of store.invoices.rows.slice(-NEWEST).entries()) {
		const invoice = row.obj;
		if (!AWAITING_INVOICE.has(invoice.status)) continue;
		const due = money(invoice.amountDue - invoice.amountPaid, invoice.currency);
		entries.push({
			createdAt: row.createdAt,
			order,
			html: `<li><a href="/pay/${encodeURIComponent(invoice.id)}">Invoice ${escapeHtml(invoice.number)}</a>: ${escapeHtml(due)} due, reference ${escapeHtml(invoice.reference)} (${escapeHtml(invoice.status)})</li>`,
		});
	}
	for (const [order, row] of store.payments.rows.slice(-NEWEST).entries()) {
		const payment = row.obj;
		if (!AWAITING_PAYMENT.has(payment.status)) continue;
		entries.push({
			createdAt: row.createdAt,
			order,
			html: `<li><a href="/checkout/${encodeURIComponent(payment.id)}">Payment ${escapeHtml(payment.reference)}</a>: ${escapeHtml(money(payment.expectedAmount, payment.currency))} (${escapeHtml(payment.status)})</li>`,
		});
	}
	entries.sort((a, b) => b.createdAt - a.createdAt || b.order - a.order);
	const list = entries.length > 0 ? `<ol>${entries.slice(0, 50).map((entry) => entry.html).join('\n')}</ol>` : '<p>Nothing is waiting to be paid.</p>';
	return htmlPage(
		'Waiting to be paid',
		`<p>Open one and click "Simulate payment": the emulator sends the signed callback, and a workflow waiting for it goes on.</p>\n${list}`,
	);
}

/** The page for `GET /pay/{invoiceId}` or `GET /checkout/{paymentId}`, if it exists. */
export function hostedPage(store: Store, path: string): Reply | undefined {
	const match = /^\/(pay|checkout)\/([^/]+)$/.exec(path);
	if (!match) return undefined;
	const id = decodeURIComponent(match[2]);
	if (match[1] === 'pay') {
		const invoice = store.invoices.get(id)?.obj;
		if (!invoice) return undefined;
		return page(
			`Invoice ${invoice.number}`,
			[invoice.description, `Due: ${money(invoice.amountDue - invoice.amountPaid, invoice.currency)} (status ${invoice.status})`],
			`/__emulator/invoices/${encodeURIComponent(id)}/pay`,
			'{}',
		);
	}
	const payment = store.payments.get(id)?.obj;
	if (!payment) return undefined;
	return page(
		`Checkout ${payment.reference}`,
		[`Amount: ${money(payment.expectedAmount, payment.currency)} (status ${payment.status})`],
		`/__emulator/payments/${encodeURIComponent(id)}/complete`,
		'{"status":"succeeded"}',
	);
}
