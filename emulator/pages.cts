/**
 * Stand-ins for the hosted pages the API links to (`hostedInvoiceUrl`, `authorizationUrl`), so
 * a demo can click through: the page shows the amount and a button that completes the payment
 * through the control API (which sends the callbacks), then the new state and whether each
 * callback reached the workflow.
 */
import type { Reply } from './router.cjs';
import type { Store } from './store.cjs';
import type { CallbackAttempt } from './types.cjs';

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

/** What one callback attempt means for the person paying: did it reach the workflow? */
function deliveryLine(attempt: CallbackAttempt): string {
	const where = `${attempt.event} to ${attempt.url.replace(/\?.*$/, '')}`;
	const status = attempt.status;
	let said: string;
	if (status >= 200 && status < 300) said = `reached it (HTTP ${status})`;
	else if (status === 0) said = 'could not reach it (nothing listening there, or n8n is not running)';
	else if (status === 401) said = 'was refused (HTTP 401): the signature did not match that URL (a Callback URL copied wrongly, or another secret)';
	else if (status === 404) said = 'found no workflow listening (HTTP 404): publish (activate) the workflow, or the execution is no longer waiting';
	else said = `was answered HTTP ${status}`;
	return `${where}${attempt.attempt > 1 ? ` (attempt ${attempt.attempt})` : ''}: ${said}`;
}

/** The callbacks sent about object `id` (newest last), as lines for its page. */
function deliveries(callbacks: readonly CallbackAttempt[], id: string): string[] {
	return callbacks
		.filter((attempt) => {
			try {
				const data = (JSON.parse(attempt.body) as { data?: { id?: unknown; invoiceId?: unknown } }).data;
				return data?.id === id || data?.invoiceId === id;
			} catch {
				return false;
			}
		})
		.map(deliveryLine);
}

/**
 * A hosted page: what is due and a button that completes it through the control API, or, once it
 * is settled, its state and no button; and what became of the callbacks sent about it. After the
 * button, the page waits for the callbacks' first attempts and shows itself again, with the new state.
 */
function page(title: string, lines: string[], pay: { action: string; body: string } | undefined, sent: { callbackUrl: string | null; lines: string[] }): Reply {
	const callbacks = !sent.callbackUrl
		? '<p id="callbacks">No Callback URL was given when this was created: no workflow is told when it is paid.</p>'
		: sent.lines.length === 0
			? '<p id="callbacks">No callback sent yet.</p>'
			: `<h2>Callbacks</h2><ul id="callbacks">${sent.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n')}</ul>`;
	const button = !pay
		? ''
		: `<button id="pay">Simulate payment</button><p id="out"></p>
<script>
document.getElementById('pay').onclick = async () => {
	const button = document.getElementById('pay');
	button.disabled = true;
	document.getElementById('out').textContent = 'Paying ...';
	const res = await fetch(${JSON.stringify(pay.action)}, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: ${JSON.stringify(pay.body)} });
	if (!res.ok) {
		const answer = await res.json().catch(() => ({}));
		document.getElementById('out').textContent = 'Not paid: ' + ((answer.error && answer.error.message) || ('HTTP ' + res.status));
		button.disabled = false;
		return;
	}
	document.getElementById('out').textContent = 'Paid. Sending the callbacks ...';
	// The first attempt of each callback (a few seconds at most), then the page again with the new state.
	await Promise.race([fetch('/__emulator/callbacks/first-attempts').catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 15000))]);
	location.reload();
};
</script>`;
	return htmlPage(title, `${lines.map((line) => `<p class="state">${escapeHtml(line)}</p>`).join('\n')}\n${button}\n${callbacks}`);
}

/** An amount in the smallest unit as the main unit with thousands separators: NGN 12,500.75. */
function money(amount: number, currency: string): string {
	return `${currency} ${(amount / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
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
export function hostedPage(store: Store, path: string, callbacks: readonly CallbackAttempt[]): Reply | undefined {
	const match = /^\/(pay|checkout)\/([^/]+)$/.exec(path);
	if (!match) return undefined;
	const id = decodeURIComponent(match[2]);
	if (match[1] === 'pay') {
		const row = store.invoices.get(id);
		if (!row) return undefined;
		const invoice = row.obj;
		const open = AWAITING_INVOICE.has(invoice.status);
		const state = open
			? `Due: ${money(invoice.amountDue - invoice.amountPaid, invoice.currency)} (status ${invoice.status})`
			: invoice.status === 'paid'
				? `Paid: ${money(invoice.amountPaid, invoice.currency)} (status paid)`
				: `Status ${invoice.status}: nothing to pay.`;
		return page(
			`Invoice ${invoice.number}${open ? '' : ` (${invoice.status})`}`,
			[invoice.description, state],
			open ? { action: `/__emulator/invoices/${encodeURIComponent(id)}/pay`, body: '{}' } : undefined,
			{ callbackUrl: row.meta.callbackUrl, lines: deliveries(callbacks, invoice.id) },
		);
	}
	const payment = store.payments.get(id)?.obj;
	if (!payment) return undefined;
	const open = AWAITING_PAYMENT.has(payment.status);
	return page(
		`Checkout ${payment.reference}${open ? '' : ` (${payment.status})`}`,
		[open ? `Amount: ${money(payment.expectedAmount, payment.currency)} (status ${payment.status})` : `Status ${payment.status}: ${money(payment.chargedAmount || payment.expectedAmount, payment.currency)}. Nothing to pay.`],
		open ? { action: `/__emulator/payments/${encodeURIComponent(id)}/complete`, body: '{"status":"succeeded"}' } : undefined,
		{ callbackUrl: payment.callbackUrl, lines: deliveries(callbacks, payment.id) },
	);
}
