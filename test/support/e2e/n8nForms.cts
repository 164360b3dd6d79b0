/**
 * Two people on one n8n, and their browsers on n8n's forms (test/support/suites/payrollExample.cts):
 * - `addMember`: a second n8n user. The owner invites a member through n8n's REST API
 *   (`POST /rest/invitations`, no e-mail needed: n8n answers with the invitation link when it
 *   sends none) and the member accepts it (`POST /rest/invitations/accept`), which logs them in;
 * - `FormBrowser`: a logged-in user's (or nobody's) cookies, opening and submitting n8n's forms.
 */
import { randomUUID } from 'crypto';

import { inviteMember, type LabUser } from '../../../scripts/n8n/examples.cjs';
import type { N8nSession } from '../../../scripts/n8n/lab.cjs';
import { freshFetch } from './freshFetch.cjs';

/** A member of this n8n, made by the owner's `session`, with its own logged-in session. */
export async function addMember(owner: N8nSession, wanted: Partial<LabUser> = {}): Promise<{ user: LabUser & { id: string }; session: N8nSession }> {
	const user: LabUser = {
		email: wanted.email ?? `approver-${randomUUID().slice(0, 8)}@paycashless.test`,
		firstName: wanted.firstName ?? 'Funke',
		lastName: wanted.lastName ?? 'Adebayo',
		password: wanted.password ?? `Approve-${randomUUID().slice(0, 12)}1`,
	};
	const member = await inviteMember(owner, user);
	if (!member) throw new Error(`n8n already has a user ${user.email}`);
	return { user: { ...user, id: member.id }, session: member.session };
}

/**
 * A browser's cookies on n8n, enough to open and submit n8n's forms as a logged-in user: an n8n
 * Form Trigger with "n8n User Auth" signs its user in through n8n's own OAuth2 (authorize, the
 * consent, the code back to the form: utils.js `authenticateFormUserOrRespond` in n8n-nodes-base's
 * Form folder) and embeds a token the form's POST sends as `x-auth-token`; a Form page after it
 * takes the session cookie (`n8n-auth`) or a page cookie. Without a login: no cookie at all.
 */
export class FormBrowser {
	private readonly jar = new Map<string, string>();

	constructor(
		readonly baseUrl: string,
		login?: string,
	) {
		if (login) this.jar.set('n8n-auth', login.slice(login.indexOf('=') + 1));
	}

	/** One request with the cookies, redirects not followed; keeps the cookies it sets. */
	async go(url: string, init: RequestInit = {}): Promise<Response> {
		const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
		// n8n binds its login cookie to the browser id the lab's sessions send (scripts/n8n/lab.cts).
		const headers = { ...(cookie ? { cookie } : {}), 'browser-id': 'paycashless-lab', ...((init.headers as Record<string, string>) ?? {}) };
		const response = await freshFetch(new URL(url, this.baseUrl), { ...init, headers });
		for (const set of response.headers.getSetCookie()) {
			const [pair] = set.split(';');
			const name = pair.slice(0, pair.indexOf('='));
			const value = pair.slice(pair.indexOf('=') + 1);
			if (value === '' || /Max-Age=0/i.test(set)) this.jar.delete(name);
			else this.jar.set(name, value);
		}
		return response;
	}

	/** Opens a form as a person's browser does (following n8n's sign-in and consent hops): the last answer. */
	async open(url: string): Promise<Response> {
		let response = await this.go(url);
		for (let hop = 0; hop < 8 && response.status === 302; hop++) {
			const location = response.headers.get('location') ?? '';
			if (location === '/oauth/consent') {
				// The consent needs an n8n login: without one, n8n's answer (401) is where a browser stops.
				const asked = await this.go('/rest/consent/details');
				if (asked.status !== 200) return asked;
				const details = (await asked.json()) as { data: { autoApproved?: boolean; redirectUrl?: string } };
				const approved = details.data.autoApproved
					? details.data
					: ((await (await this.go('/rest/consent/approve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ approved: true }) })).json()) as { data: { redirectUrl?: string } }).data;
				response = await this.go(approved.redirectUrl ?? '');
			} else if (location.startsWith('/signin')) {
				return response;
			} else response = await this.go(location);
		}
		return response;
	}

	/** Submits a form page it opened (`html`), as n8n's form page posts it: multipart, with the page's token. */
	async submit(url: string, html: string, fields: Record<string, string | Blob>, fileName = 'payroll.csv'): Promise<Response> {
		const form = new FormData();
		for (const [name, value] of Object.entries(fields)) {
			if (typeof value === 'string') form.append(name, value);
			else form.append(name, value, fileName);
		}
		const token = /const authToken = '([^']*)'/.exec(html)?.[1];
		return await this.go(url, { method: 'POST', body: form, headers: token ? { 'x-auth-token': token } : {} });
	}
}
