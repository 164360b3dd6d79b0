/**
 * The example examples/ai-agent/agent-pays-claim-with-approval.json in a real n8n, as a user
 * imports it: a chat message → the AI Agent (the scripted model) reads the claim into
 * fields → Look Up Account → Ask the Approver (n8n's Send Email node, Send and Wait for Response,
 * through a local SMTP server this test starts) → Approved? → Pay Claim. What is checked:
 * - the approval goes by e-mail to the approver's address, not back to the chat;
 * - it shows the account holder's name from Paycashless's lookup (a name the model never wrote),
 *   the amount in naira, the account and the claim as written;
 * - the e-mail holds one link, to a form (Send and Wait, Response Type Custom Form): opening it (a
 *   GET, what a mail scanner does) approves nothing; only the form submitted as n8n's form page
 *   submits it (multipart POST to the same URL) goes on;
 * - nothing is paid while the execution waits; a submitted Approve pays once (to the account and
 *   bank the lookup returned) and the answer (decision, approver's name) is in the execution;
 *   Decline pays nothing.
 * n8n 2.41 (the example's AI Agent is version 3.1, which n8n 1.123 does not have).
 */
import { randomUUID } from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';

import { accountName } from '../../emulator/banks.cjs';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtpSink.cjs';
import { ACCESS_BANK } from '../support/reliability.cjs';
import { AGENT_TYPE, BROWSER_USER_AGENT, CHAT_MODEL_TYPE, CHAT_TRIGGER_TYPE, chatTriggerRegistered, connectScriptedModel, NODE_TYPE_TOOL, OPENAI_CREDENTIAL_TYPE, type ScriptedModelInN8n } from '../support/e2e/agentHarness.cjs';
import { patience, untilEnded } from '../../scripts/n8n/patience.cjs';
import { SETUP_TIMEOUT_MS, startE2eLab, waitFor, type CredentialRef, type E2eLab, type Execution, type WorkflowNode } from '../support/e2e/harness.cjs';
import { PACKAGE_NAME } from '../../scripts/n8n/lab.cjs';
import type { ChatRequest } from '../support/e2e/scriptedModel.cjs';
import { freshFetch } from '../support/e2e/freshFetch.cjs';

jest.setTimeout(SETUP_TIMEOUT_MS);

const ACCOUNT = '0123456789';
const APPROVER = 'approver@claims.test';
const EMAIL_TYPE = 'n8n-nodes-base.emailSend';

let lab: E2eLab;
let scripted: ScriptedModelInN8n;
let smtp: SmtpSink;
let workflowId: string;
let chatUrl: string;

interface Example {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
}
const example = JSON.parse(readFileSync(join(__dirname, '..', '..', 'examples', 'ai-agent', 'agent-pays-claim-with-approval.json'), 'utf8')) as Example;

/** The example as a user sets it up: their model (here the scripted one), SMTP, approver address, Paycashless credential. */
function setUp(chatId: string, smtpCredential: CredentialRef): WorkflowNode[] {
	return example.nodes.map((node): WorkflowNode => {
		switch (node.type) {
			case CHAT_TRIGGER_TYPE:
				return { ...node, webhookId: chatId, parameters: { ...node.parameters, public: true, mode: 'hostedChat', authentication: 'none' } };
			case CHAT_MODEL_TYPE:
				return { ...node, parameters: { ...node.parameters, model: { __rl: true, mode: 'id', value: scripted.model.modelId }, responsesApiEnabled: false }, credentials: { [OPENAI_CREDENTIAL_TYPE]: scripted.credential } };
			case `${PACKAGE_NAME}.paycashless`:
			case NODE_TYPE_TOOL:
				return { ...node, credentials: { paycashlessApi: lab.good } };
			case EMAIL_TYPE:
				return { ...node, parameters: { ...node.parameters, toEmail: APPROVER }, credentials: { smtp: smtpCredential } };
			default:
				return node;
		}
	});
}

beforeAll(async () => {
	lab = await startE2eLab();
	scripted = await connectScriptedModel(lab);
	smtp = await startSmtpSink();
	const created = await lab.session.api<{ id: string; name: string }>('POST', '/credentials', {
		name: `SMTP sink ${randomUUID().slice(0, 8)}`,
		type: 'smtp',
		data: { user: '', password: '', host: smtp.host, port: smtp.port, secure: false, disableStartTls: true, hostName: '' },
	});
	const chatId = randomUUID();
	workflowId = await lab.createActiveWorkflow(`e2e ${example.name} ${chatId.slice(0, 8)}`, setUp(chatId, { id: created.id, name: created.name }), example.connections, []);
	chatUrl = await chatTriggerRegistered(lab, chatId);
});

afterAll(async () => {
	await smtp?.close();
	await scripted?.close();
	await lab?.close();
});

const payoutsWithReference = (reference: string) => lab.emulator.list('payouts').filter((payout) => payout.reference === reference);
const execution = async (executionId: string) => (await lab.executions(workflowId)).find((e) => String(e.id) === executionId);

/** The claim as the model reads it: one call of n8n's format_final_json_response tool (the Structured Output Parser). */
const readClaim = (fields: Record<string, unknown>) => [{ toolCalls: [{ name: 'format_final_json_response', arguments: { output: fields } }] }, { text: 'done' }];

/** Sends a chat message; returns the execution once it waits (or has ended) and the e-mails sent meanwhile. */
async function sendClaim(message: string, fields: Record<string, unknown>): Promise<{ executionId: string; waiting: Execution; mails: ReceivedMail[] }> {
	const mailsBefore = smtp.mails.length;
	scripted.model.script(readClaim(fields));
	const response = await freshFetch(chatUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ action: 'sendMessage', sessionId: randomUUID(), chatInput: message }),
	});
	const started = (await response.json()) as { executionId?: string };
	if (!started.executionId) throw new Error(`the chat did not start an execution: HTTP ${response.status} ${JSON.stringify(started)}`);
	const executionId = String(started.executionId);
	const waiting = await waitFor(
		`execution ${executionId} to wait for the approver (or end)`,
		async (saw) => {
			const found = await execution(executionId);
			saw(found?.status ?? 'not listed');
			return found && !['new', 'running'].includes(found.status) ? found : undefined;
		},
		// The agent's run and the e-mail: a few seconds alone (scripts/n8n/patience.cts).
		patience(6_000),
	);
	return { executionId, waiting, mails: smtp.mails.slice(mailsBefore) };
}

/** The e-mail's link to the approval form (n8n's signed resume URL). */
function formLink(mail: ReceivedMail): string {
	const links = [...new Set([...mail.text.matchAll(/href="([^"]+)"/g)].map((match) => match[1].replace(/&amp;/g, '&')))].filter((href) => href.includes('/webhook-waiting/'));
	if (links.length !== 1) throw new Error(`expected one link to the approval form in the e-mail: ${links.join(', ')}`);
	return links[0];
}

/** Opens the link as a browser (or a mail scanner) does: a GET. */
async function open(href: string): Promise<{ status: number; html: string }> {
	const response = await freshFetch(href, { headers: { 'user-agent': BROWSER_USER_AGENT } });
	return { status: response.status, html: await response.text() };
}

/** The approver's answer, posted as n8n's form page posts it: multipart, the fields in order (field-0, field-1), to the page's own URL. */
async function submit(href: string, decision: 'Approve' | 'Decline', approver: string): Promise<number> {
	const form = new FormData();
	form.append('field-0', decision);
	form.append('field-1', approver);
	return (await freshFetch(href, { method: 'POST', body: form, headers: { 'user-agent': BROWSER_USER_AGENT } })).status;
}

/** What the form step gave the next node: `data` with the form's fields. */
function answer(run: Execution): Record<string, unknown> | undefined {
	const runs = run.data?.resultData.runData['Ask the Approver'];
	return runs?.at(-1)?.data?.main[0]?.[0]?.json.data as Record<string, unknown> | undefined;
}

async function ended(executionId: string): Promise<Execution> {
	return await untilEnded(`execution ${executionId}`, () => execution(executionId), patience(6_000));
}

describe('the example "an AI agent reads a claim, an approver approves on a form sent by e-mail" (examples/ai-agent/), as imported', () => {
	const holder = accountName(ACCOUNT, ACCESS_BANK);

	it('the approval goes to the approver by e-mail with the holder\'s name from the lookup; opening the link approves nothing; the submitted Approve pays once', async () => {
		const claimId = `CLM-${randomUUID().slice(0, 8)}`;
		// The requester names someone else: the approver must see who really holds the account.
		const { executionId, waiting, mails } = await sendClaim(`Claim ${claimId}: pay NGN 1,500.50 to Ada Obi, account ${ACCOUNT}, bank code 044`, {
			claimId,
			amountNaira: 1500.5,
			accountNumber: ACCOUNT,
			bankCode: '044',
			nameOnClaim: 'Ada Obi',
		});
		expect(waiting.status).toBe('waiting');
		expect(mails).toHaveLength(1);
		const [mail] = mails;
		expect(mail.to).toEqual([APPROVER]);
		expect(mail.headers.subject).toBe(`Approve claim ${claimId}: NGN 1,500.50?`);
		expect(mail.text).toContain(`Account holder (from Paycashless): ${holder}`);
		expect(mail.text).toContain('Name on the claim: Ada Obi');
		expect(mail.text).toContain(`Pay NGN 1,500.50 for claim ${claimId}?`);
		expect(mail.text).toContain(`Account: ${ACCOUNT} at Access Bank (bank code 044)`);
		// The model was never told the holder's name: it cannot have written it.
		expect(JSON.stringify(scripted.model.chatRequests())).not.toContain(holder);
		expect(payoutsWithReference(claimId)).toHaveLength(0);

		// Opening the link (a GET, as a mail scanner does) shows the form and approves nothing.
		const href = formLink(mail);
		const page = await open(href);
		expect(page.status).toBe(200);
		expect(page.html).toContain('Approve or decline this claim');
		expect(page.html).toContain('Decision');
		await open(href);
		// Some scanners send HEAD: it does not answer the form either.
		await freshFetch(href, { method: 'HEAD', headers: { 'user-agent': BROWSER_USER_AGENT } });
		expect((await execution(executionId))!.status).toBe('waiting');
		expect(payoutsWithReference(claimId)).toHaveLength(0);

		expect(await submit(href, 'Approve', 'Bola Adeyemi')).toBe(200);
		const run = await ended(executionId);
		expect(run.status).toBe('success');
		expect(answer(run)).toMatchObject({ Decision: 'Approve', 'Approved by': 'Bola Adeyemi' });
		expect(payoutsWithReference(claimId)).toEqual([expect.objectContaining({ amount: 150050, destinationAccountNumber: ACCOUNT, destinationBankId: ACCESS_BANK })]);
		// The used link again (opened, or the form posted again) does not pay again.
		await open(href);
		await submit(href, 'Approve', 'Bola Adeyemi');
		expect(payoutsWithReference(claimId)).toHaveLength(1);
	});

	it('a submitted Decline pays nothing, and the execution ends', async () => {
		const claimId = `CLM-${randomUUID().slice(0, 8)}`;
		const { executionId, mails } = await sendClaim(`Claim ${claimId}: pay NGN 200 to ${ACCOUNT} at bank 044`, {
			claimId,
			amountNaira: 200,
			accountNumber: ACCOUNT,
			bankCode: '044',
			nameOnClaim: 'Somebody Else',
		});
		expect(mails.map((mail) => mail.to)).toEqual([[APPROVER]]);
		expect(await submit(formLink(mails[0]), 'Decline', 'Bola Adeyemi')).toBe(200);
		const run = await ended(executionId);
		expect(run.status).toBe('success');
		expect(answer(run)).toMatchObject({ Decision: 'Decline', 'Approved by': 'Bola Adeyemi' });
		expect(payoutsWithReference(claimId)).toHaveLength(0);
	});

	it('the model is offered no tool that moves money: only the format of its answer', () => {
		const offered = (scripted.model.chatRequests() as ChatRequest[]).flatMap((request) => (request.tools ?? []).map((tool) => tool.function.name));
		expect([...new Set(offered)]).toEqual(['format_final_json_response']);
		expect(example.nodes.filter((node) => node.type === AGENT_TYPE)).toHaveLength(1);
	});
});
