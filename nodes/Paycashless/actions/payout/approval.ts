/**
 * Who approved a batch, as n8n says it (Payout → Create's Batch Options, docs/payroll.md). n8n 2.41's
 * Form Trigger (version 2.6) with Authentication "n8n User Auth" outputs the n8n user who submitted
 * it (`user`: id, email, names); a Form page after it re-authenticates whoever opens it (their n8n
 * login, on an address signed for this execution) and outputs that user too. So one execution
 * holds two identities: the preparer (the Form Trigger's `user`) and the approver (the page's
 * `user`). The payment reads both from the execution itself, never from a field an expression
 * fills, and pays nothing when the page did not run, names no n8n user, names the preparer, or
 * names someone not among the Approvers. "Approve Without Login (Unsafe)" lets Approved Batch
 * Hash alone do (n8n 1.x: a Wait form behind Basic Auth, a shared secret, not a person).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isObject } from '../../helpers/body';

const FORM_TRIGGER = 'n8n-nodes-base.formTrigger';
const FORM_PAGE = 'n8n-nodes-base.form';

/** An n8n user as a Form Trigger or Form page outputs them. */
export interface N8nUser {
	id: string;
	email: string;
	name?: string;
}

/** The approval of a run: who prepared and who approved, as n8n said it, or that it was given without a login. */
export interface Approval {
	preparedBy?: N8nUser;
	approvedBy?: N8nUser;
	withoutLogin?: boolean;
}

/** Why the approval does not count: the refusal's code, message and advice (nothing is sent). */
export interface ApprovalRefusal {
	code: string;
	message: string;
	description: string;
}

export function userLabel(user: N8nUser): string {
	return user.name ? `${user.name} (${user.email})` : user.email;
}

function userOf(value: unknown): N8nUser | undefined {
	if (!isObject(value)) return undefined;
	const user = value as IDataObject;
	if (typeof user.id !== 'string' || user.id === '' || typeof user.email !== 'string' || user.email === '') return undefined;
	const name = [user.firstName, user.lastName].filter((part) => typeof part === 'string' && part.trim() !== '').join(' ');
	return { id: user.id, email: user.email, ...(name ? { name } : {}) };
}

/** The first output item of node `name` in this execution, or undefined when it did not run. */
function outputOf(this: IExecuteFunctions, name: string): IDataObject | undefined {
	try {
		const json = this.evaluateExpression(`{{ $(${JSON.stringify(name)}).first().json }}`, 0);
		return isObject(json) ? (json as IDataObject) : undefined;
	} catch {
		return undefined;
	}
}

/** The Approvers field: e-mail addresses, separated by commas, spaces or new lines. */
export function approverList(text: unknown): string[] {
	return typeof text === 'string' ? text.split(/[\s,;]+/).map((entry) => entry.trim().toLowerCase()).filter(Boolean) : [];
}

const AGAIN = 'Nothing was sent. Run the payroll again and have it approved on its approval page by';

/**
 * The approval on page `pageName` (a Form node upstream of this one), checked: a refusal, or who
 * prepared and who approved.
 */
export function approvalOnPage(this: IExecuteFunctions, pageName: string, approvers: string[]): { approval: Approval } | { refusal: ApprovalRefusal } {
	const refuse = (code: string, message: string, description: string) => ({ refusal: { code, message, description } });
	let parents: Array<{ name: string; type: string; parameters?: IDataObject }> = [];
	try {
		parents = this.getParentNodes(this.getNode().name, { includeNodeParameters: true });
	} catch {
		parents = [];
	}
	const page = parents.find((node) => node.name === pageName);
	if (!page || page.type !== FORM_PAGE || page.parameters?.operation === 'completion') {
		return refuse(
			'APPROVAL_PAGE_INVALID',
			`Refused: Batch Options → Approval Form Page "${pageName}" is not an n8n Form page before this node`,
			`Nothing was sent. Name the n8n Form node (Next Form Page) on which the approver approves, placed after an n8n Form Trigger whose Authentication is "n8n User Auth", and connected before this node.`,
		);
	}
	let triggers: Array<{ name: string; type: string; parameters?: IDataObject }> = [];
	try {
		triggers = this.getParentNodes(pageName, { includeNodeParameters: true }).filter((node) => node.type === FORM_TRIGGER);
	} catch {
		triggers = [];
	}
	const trigger = triggers.find((node) => outputOf.call(this, node.name) !== undefined);
	if (!trigger || trigger.parameters?.authentication !== 'n8nUserAuth') {
		return refuse(
			'APPROVAL_WITHOUT_LOGIN',
			`Refused: the approval page "${pageName}" does not ask for an n8n login, so nobody's approval can be told apart`,
			`Nothing was sent. Set the n8n Form Trigger before "${pageName}" to Authentication "n8n User Auth" (n8n 2.x, Form Trigger version 2.6 or later): then only n8n users open the form and its pages, and n8n says who submitted each one.`,
		);
	}
	const preparedBy = userOf(outputOf.call(this, trigger.name)?.user);
	const pageOutput = outputOf.call(this, pageName);
	const approvedBy = userOf(pageOutput?.user);
	if (!pageOutput) {
		return refuse('APPROVAL_MISSING', `Refused: nobody approved this batch on "${pageName}"`, `${AGAIN} an n8n user other than the one who prepared it.`);
	}
	if (!approvedBy || !preparedBy) {
		return refuse(
			'APPROVAL_WITHOUT_LOGIN',
			`Refused: n8n named no ${approvedBy ? 'preparer' : 'approver'} for this batch`,
			`Nothing was sent. The Form Trigger "${trigger.name}" must keep its option "Include User in Output" on, so that n8n says who prepared the batch and who approved it.`,
		);
	}
	if (approvedBy.id === preparedBy.id || approvedBy.email.toLowerCase() === preparedBy.email.toLowerCase()) {
		return refuse(
			'APPROVER_IS_PREPARER',
			`Refused: ${userLabel(approvedBy)} prepared this batch and approved it too, so nothing was sent`,
			`${AGAIN} another n8n user: send them the approval page's address. An approval counts only from someone other than the person who started the payroll.`,
		);
	}
	if (approvers.length > 0 && !approvers.includes(approvedBy.email.toLowerCase())) {
		return refuse(
			'NOT_AN_APPROVER',
			`Refused: ${userLabel(approvedBy)} is not among this node's Approvers, so nothing was sent`,
			`${AGAIN} one of the Approvers (Batch Options → Approvers: ${approvers.join(', ')}).`,
		);
	}
	return { approval: { preparedBy, approvedBy } };
}
