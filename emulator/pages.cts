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

function page(title: string, lines: string[], action: string, body: string): Reply {
	const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto">
<h1>${escapeHtml(title)}</h1><p><em>Paycashless emulator: no real money moves.</em></p>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<button id="pay">Simulate payment</button><pre id="out"></pre>
<script>
document.getElementById('pay').onclick = async () => {
	const res = await fetch(${JSON.stringify(action)}, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: ${JSON.stringify(body)} });
	document.getElementById('out').textContent = res.status + ' ' + JSON.stringify(await res.json(), null, 2);
};
</script></body></html>`;
	return { status: 200, body: html, headers: { 'Content-Type': 'text/html; charset=utf-8' } };
}

function money(amount: number, currency: string): string {
	return `${currency} ${(amount / 100).toFixed(2)}`;
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
