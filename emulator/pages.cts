/**
 * Stand-ins for the hosted pages the API links to (`hostedInvoiceUrl`, `authorizationUrl`), so
 * a demo can click through: the page shows the amount and a button that completes the payment
 * through the control API (which sends the callbacks), then the new state and whether each
 * callback reached the workflow.
 */
import { accountName, BANKS, bankById, lookUpAccount } from './banks.cjs';
import { TEST_STAFF_PATH } from './testStaff.cjs';
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

/** A button of a hosted page: what it posts to the control API, and what the page says meanwhile. */
interface PageAction {
	label: string;
	action: string;
	body: string;
	busy: string;
	done: string;
	refused: string;
}

/** "Simulate payment" on an invoice's or a payment's page. */
function payAction(action: string, body: string): PageAction {
	return { label: 'Simulate payment', action, body, busy: 'Paying ...', done: 'Paid. Sending the callbacks ...', refused: 'Not paid: ' };
}

/**
 * A hosted page: what is due and a button that completes it through the control API, or, once it
 * is settled, its state and no button; and what became of the callbacks sent about it. After the
 * button, the page waits for the callbacks' first attempts and shows itself again, with the new state.
 */
function page(title: string, lines: string[], actions: PageAction[], sent: { callbackUrl: string | null; lines: string[] }): Reply {
	const callbacks = !sent.callbackUrl
		? '<p id="callbacks">No Callback URL was given when this was created: no workflow is told when it is paid.</p>'
		: sent.lines.length === 0
			? '<p id="callbacks">No callback sent yet.</p>'
			: `<h2>Callbacks</h2><ul id="callbacks">${sent.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n')}</ul>`;
	const button =
		actions.length === 0
			? ''
			: `${actions.map((action, index) => `<button class="act" data-index="${index}">${escapeHtml(action.label)}</button>`).join(' ')}<p id="out"></p>
<script>
const ACTIONS = ${JSON.stringify(actions).replace(/</g, '\\u003c')};
for (const button of document.querySelectorAll('button.act')) button.onclick = async () => {
	const action = ACTIONS[Number(button.dataset.index)];
	const all = document.querySelectorAll('button.act');
	for (const other of all) other.disabled = true;
	document.getElementById('out').textContent = action.busy;
	const res = await fetch(action.action, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: action.body });
	if (!res.ok) {
		const answer = await res.json().catch(() => ({}));
		document.getElementById('out').textContent = action.refused + ((answer.error && answer.error.message) || ('HTTP ' + res.status));
		for (const other of all) other.disabled = false;
		return;
	}
	document.getElementById('out').textContent = action.done;
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
/** Payouts a person can still settle or fail from their page. */
const PAYOUT_OPEN = new Set(['pending', 'sent']);
/** How many of the newest invoices and payments the waiting page looks at. */
const NEWEST = 200;

/**
 * `GET /`: what is waiting to be paid, newest first (invoices and payments made in the last
 * NEWEST of each), each linked to its page with the "Simulate payment" button. What `npm start`'s
 * banner points at, so a waiting "Create and Wait" can be paid without reading the store.
 */
export function waitingPage(store: Store, query: Record<string, string> = {}): Reply {
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
		`<p id="jump">On this page: <a href="#waiting">waiting to be paid</a> · <a href="#payouts-heading">payouts</a> · <a href="#test-data">test banks and accounts</a> · <a href="#look-up">look up an account</a> · <a href="${TEST_STAFF_PATH}">test staff (CSV)</a></p>\n` +
			`<p id="waiting">Open one and click "Simulate payment": the emulator sends the signed callback, and a workflow waiting for it goes on.</p>\n${list}\n${payoutsSection(store)}\n${testDataSection(query)}`,
	);
}

/** The newest payouts (any state, newest first), each linked to its page with "Settle" and "Fail". */
function payoutsSection(store: Store): string {
	const rows = store.payouts.rows.slice(-NEWEST).map((row, order) => ({ row, order }));
	rows.sort((a, b) => b.row.createdAt - a.row.createdAt || b.order - a.order);
	const items = rows.slice(0, 50).map(({ row }) => {
		const payout = row.obj;
		const bank = bankById(payout.destinationBankId)?.name ?? payout.destinationBankId;
		return `<li><a href="/payout/${encodeURIComponent(payout.id)}">Payout ${escapeHtml(payout.reference)}</a>: ${escapeHtml(money(payout.amount, payout.currency))} to ${escapeHtml(payout.destinationAccountNumber)} at ${escapeHtml(bank)} (<span class="status">${escapeHtml(payout.status)}</span>)</li>`;
	});
	const list = items.length > 0 ? `<ol id="payouts">${items.join('\n')}</ol>` : '<p id="payouts">No payouts yet.</p>';
	return `<h2 id="payouts-heading">Payouts</h2>\n<p>A payout stays pending until you settle or fail it: open one and click "Settle (succeeded)" or "Fail": the emulator sends PAYOUT_SUCCEEDED or PAYOUT_FAILED to its Callback URL.</p>\n${list}`;
}

/** Account numbers shown per test bank: any other 10 digits work too (the name is derived from them). */
const SAMPLE_ACCOUNTS = ['0123456789', '2234567890'];

/**
 * The test banks with their codes, a few accounts with their holders' names, how to get "not
 * found", a look-up box for any account (`?accountNumber=…&bankCode=…`, answered as Bank Account →
 * Look Up would be), and the test staff CSV.
 */
function testDataSection(query: Record<string, string> = {}): string {
	const banks = BANKS.map(
		(bank) => `<tr><td>${escapeHtml(bank.name)}</td><td>${bank.cbnCode}</td><td>${bank.nibssCode}</td><td><code>${bank.id}</code></td></tr>`,
	);
	const accounts = BANKS.slice(0, 5).flatMap((bank) =>
		SAMPLE_ACCOUNTS.map((number) => `<tr><td>${number}</td><td>${escapeHtml(bank.name)} (${bank.cbnCode})</td><td>${escapeHtml(accountName(number, bank.id))}</td></tr>`),
	);
	return `<h2 id="test-data">Test banks and accounts</h2>
<p>Bank Account &rarr; Look Up takes the account number and either bank code; Payout &rarr; Create takes the bank's id (Look Up returns it as <code>bank.id</code>).</p>
<table id="banks" border="1" cellpadding="4" style="border-collapse:collapse"><thead><tr><th>Bank</th><th>Bank code (CBN)</th><th>NIBSS code</th><th>Bank id</th></tr></thead><tbody>
${banks.join('\n')}
</tbody></table>
<p>Every 10-digit account number exists at every bank, and always has the same holder's name; some of them:</p>
<table id="accounts" border="1" cellpadding="4" style="border-collapse:collapse"><thead><tr><th>Account number</th><th>Bank</th><th>Holder's name</th></tr></thead><tbody>
${accounts.join('\n')}
</tbody></table>
<p id="not-found">For a "not found": an account number starting with 000 (e.g. 0001234567) does not exist (Look Up answers 404, a payout is refused); an unknown bank code (e.g. 999) is not found either; an account number that is not 10 digits is refused.</p>
${lookUpSection(query)}
<h2 id="test-staff">Test staff</h2>
<p><a id="test-staff-csv" href="${TEST_STAFF_PATH}" download="paycashless-test-staff.csv">Download test staff (CSV)</a>: 12 people in the payroll example's columns (staffId, name, accountNumber, bankCode, amountNaira, reference), each named as Look Up names their account, none of them the example's, every amount within the example's Money Limits. Use it in place of the example's CSV for a payroll of your own.</p>`;
}

/** The look-up box: any account's holder, as Bank Account → Look Up answers (banks.cts lookUpAccount). */
function lookUpSection(query: Record<string, string>): string {
	const accountNumber = (query.accountNumber ?? '').trim();
	const bankCode = (query.bankCode ?? '').trim();
	const options = BANKS.map((bank) => `<option value="${bank.cbnCode}"${bank.cbnCode === bankCode ? ' selected' : ''}>${escapeHtml(bank.name)} (${bank.cbnCode})</option>`);
	let answer = '';
	if (accountNumber !== '' || bankCode !== '') {
		const found = lookUpAccount(accountNumber, bankCode);
		answer = found.found
			? `<p id="look-up-answer"><strong>${escapeHtml(found.accountName)}</strong>: account ${escapeHtml(found.accountNumber)} at ${escapeHtml(found.bank.name)} (${found.bank.cbnCode}), bank id <code>${found.bank.id}</code>. This is the name Look Up returns (its <code>accountName</code>).</p>`
			: `<p id="look-up-answer"><strong>${found.status === 404 ? 'Not found' : 'Refused'}</strong>: ${escapeHtml(found.message.replace(/`/g, ''))} Look Up answers ${found.status} for it, and a payout to it is refused.</p>`;
	}
	return `<h2 id="look-up">Look up an account</h2>
<p>Type any account number and pick its bank: the page shows the holder's name Paycashless would return, or "not found" (account numbers starting with 000).</p>
<form id="look-up-form" method="get" action="/#look-up">
<label>Account number <input name="accountNumber" inputmode="numeric" maxlength="10" placeholder="0123456789" value="${escapeHtml(accountNumber)}"></label>
<label>Bank <select name="bankCode">${options.join('')}</select></label>
<button type="submit">Look up</button>
</form>
${answer}`;
}

/** A payout's page: its state, and buttons that settle or fail it (sending the callback) while it is open. */
function payoutPage(store: Store, id: string, callbacks: readonly CallbackAttempt[]): Reply | undefined {
	const row = store.payouts.find(id);
	if (!row) return undefined;
	const payout = row.obj;
	const open = PAYOUT_OPEN.has(payout.status);
	const bank = bankById(payout.destinationBankId);
	const complete = `/__emulator/payouts/${encodeURIComponent(payout.id)}/complete`;
	const actions: PageAction[] = open
		? [
				{ label: 'Settle (succeeded)', action: complete, body: '{"status":"succeeded"}', busy: 'Settling ...', done: 'Settled. Sending the callback ...', refused: 'Not settled: ' },
				{ label: 'Fail', action: complete, body: '{"status":"failed"}', busy: 'Failing ...', done: 'Failed. Sending the callback ...', refused: 'Not failed: ' },
			]
		: [];
	const lines = [
		`${money(payout.amount, payout.currency)} to ${payout.destinationAccountNumber} at ${bank ? `${bank.name} (${bank.cbnCode})` : payout.destinationBankId}${bank ? `, ${accountName(payout.destinationAccountNumber, bank.id)}` : ''}`,
		// The failure message ends its own sentence: one full stop before "Nothing to settle" (issue 51).
		`Status ${payout.status}${payout.failureMessage ? `: ${payout.failureMessage.replace(/\.+\s*$/, '')}` : ''}${open ? '' : '. Nothing to settle.'}`,
		payout.narration ? `Narration: ${payout.narration}` : 'Narration: none',
		// Where the payout came from: the sender's own metadata, and the n8n run details the node writes (n8nWorkflowName, n8nBatch…).
		...(payout.metadata && Object.keys(payout.metadata).length > 0
			? Object.entries(payout.metadata).map(([key, value]) => `Metadata ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
			: ['Metadata: none']),
		`Created ${payout.createdAt}`,
	];
	return page(`Payout ${payout.reference}${open ? '' : ` (${payout.status})`}`, lines, actions, { callbackUrl: payout.callbackUrl, lines: deliveries(callbacks, payout.id) });
}

/** The page for `GET /pay/{invoiceId}`, `GET /checkout/{paymentId}` or `GET /payout/{payoutId}`, if it exists. */
export function hostedPage(store: Store, path: string, callbacks: readonly CallbackAttempt[]): Reply | undefined {
	const match = /^\/(pay|checkout|payout)\/([^/]+)$/.exec(path);
	if (!match) return undefined;
	const id = decodeURIComponent(match[2]);
	if (match[1] === 'payout') return payoutPage(store, id, callbacks);
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
			open ? [payAction(`/__emulator/invoices/${encodeURIComponent(id)}/pay`, '{}')] : [],
			{ callbackUrl: row.meta.callbackUrl, lines: deliveries(callbacks, invoice.id) },
		);
	}
	const payment = store.payments.get(id)?.obj;
	if (!payment) return undefined;
	const open = AWAITING_PAYMENT.has(payment.status);
	return page(
		`Checkout ${payment.reference}${open ? '' : ` (${payment.status})`}`,
		[open ? `Amount: ${money(payment.expectedAmount, payment.currency)} (status ${payment.status})` : `Status ${payment.status}: ${money(payment.chargedAmount || payment.expectedAmount, payment.currency)}. Nothing to pay.`],
		open ? [payAction(`/__emulator/payments/${encodeURIComponent(id)}/complete`, '{"status":"succeeded"}')] : [],
		{ callbackUrl: payment.callbackUrl, lines: deliveries(callbacks, payment.id) },
	);
}
