/**
 * Who may be paid, against the emulator: the name rule's table of cases from
 * docs/money.md run as written; Allowed Destination Accounts bound to a bank; the name check
 * telling the holder's name to the person (regular node) and never to the model (tool); a lookup without a bank refusing; the expected
 * values refused when the model ($fromAI) or the lookup being checked fills them. Every refusal:
 * no payout request sent.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { INodeParameters } from 'n8n-workflow';

import { untrustedSource } from '../../../nodes/Paycashless/money/beneficiary';
import { BUSINESS_WORDS, SAME_NAME } from '../../../nodes/Paycashless/money/nameLists';
import { namesMatch, readsAsName } from '../../../nodes/Paycashless/money/names';
import { useEmulator } from '../../support/emulator.cjs';
import { runNode, type RunResult } from '../../../scripts/harness/executeContext.cjs';
import { startFakeServer } from '../../support/executeFakeServer.cjs';

const emulator = useEmulator();
beforeEach(() => emulator.reset({ payouts: 0 }));

const ACCESS_BANK = 'bank_538ed2056326432ba8e6853b613997bb';
const ACCOUNT = '0123456789';

const payout = (reference: string, moneyLimits: INodeParameters): INodeParameters => ({
	resource: 'payout',
	operation: 'create',
	reference,
	amount: 10,
	currency: 'NGN',
	destinationAccountNumber: ACCOUNT,
	bankId: ACCESS_BANK,
	moneyLimits,
});

async function run(parameters: INodeParameters, baseUrl = emulator.baseUrl, asTool = false): Promise<RunResult> {
	return await runNode({ parameters, credentials: { apiKey: emulator.apiKey, apiSecret: emulator.apiSecret, baseUrl }, asTool });
}

async function refusal(parameters: INodeParameters, baseUrl?: string): Promise<{ message: string; description: string }> {
	const error = await run(parameters, baseUrl).then(
		() => undefined,
		(thrown: Error & { description?: string }) => thrown,
	);
	expect(error).toBeInstanceOf(Error);
	return { message: error!.message, description: String(error!.description ?? '') };
}

const posts = () => emulator.requests.filter((request) => request.method === 'POST');
const holderName = async (bankCode = '044') =>
	String((await run({ resource: 'bankAccount', operation: 'lookUp', accountNumber: ACCOUNT, bankCode })).output[0].json.accountName);

describe('the name rule: every case of the table in docs/money.md', () => {
	const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'money.md'), 'utf8');
	const table = doc.split('<!-- name-rule-cases -->')[1].split('<!-- /name-rule-cases -->')[0];
	const rows = table
		.split('\n')
		.filter((line) => line.startsWith('|') && !line.startsWith('|---') && !line.startsWith('| Expected'))
		.map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));

	it('the table has cases of both kinds, with middle names off and on (guards against a table the test cannot read)', () => {
		expect(rows.length).toBeGreaterThanOrEqual(60);
		expect(rows.every((row) => row.length === 5 && ['off', 'on'].includes(row[2]) && ['yes', 'no'].includes(row[3]))).toBe(true);
		for (const middle of ['off', 'on']) {
			expect(rows.filter((row) => row[2] === middle && row[3] === 'yes').length).toBeGreaterThanOrEqual(3);
			expect(rows.filter((row) => row[2] === middle && row[3] === 'no').length).toBeGreaterThanOrEqual(3);
		}
	});

	it.each(rows)('"%s" against %s, middle names %s: pays %s (%s)', (expected, holder, middle, pays) => {
		expect(namesMatch(expected, holder, { allowMiddleNames: middle === 'on' })).toBe(pays === 'yes');
	});

	it('every business word: an initial never stands for it (either way round), and it is never a middle name', () => {
		const passed: string[] = [];
		for (const word of BUSINESS_WORDS) {
			if (namesMatch(`Ada ${word[0]}. Obi`, `ADA OBI ${word}`)) passed.push(`"Ada ${word[0]}. Obi" paid ADA OBI ${word}`);
			if (namesMatch(`Ada Obi ${word}`, `ADA OBI ${word[0]}`)) passed.push(`"Ada Obi ${word}" paid ADA OBI ${word[0]}`);
			if (namesMatch('Ada Obi', `ADA OBI ${word}`, { allowMiddleNames: true })) passed.push(`middle names: "Ada Obi" paid ADA OBI ${word}`);
			if (readsAsName(word)) passed.push(`${word} reads as a name`);
		}
		expect(passed).toEqual([]);
		expect(BUSINESS_WORDS.size).toBeGreaterThan(250);
	});

	it('every spelling in SAME_NAME reads as a name and pays its name, in both directions; the names themselves are no business words', () => {
		const failed: string[] = [];
		for (const [spelling, name] of Object.entries(SAME_NAME)) {
			if (!namesMatch(`${spelling} Okafor`, `OKAFOR ${name}`) || !namesMatch(`${name} Okafor`, `${spelling} OKAFOR`)) failed.push(`${spelling} = ${name}`);
			if (!readsAsName(spelling) || !readsAsName(name)) failed.push(`${spelling} or ${name} does not read as a name`);
		}
		expect(failed).toEqual([]);
	});

	it('what reads as a name: the shapes of a code refused, the shapes of Nigerian names kept', () => {
		for (const word of ['LTD', 'BDC', 'MFB', 'FCMB', 'NG', 'KC', 'NIG', 'ENT', 'ABC', 'GTB', 'A2B', '123456', 'OBITECH', 'ADAMART', 'OBISTORES', 'AGROALLIED']) expect([word, readsAsName(word)]).toEqual([word, false]);
		for (const word of ['OBI', 'ADA', 'EZE', 'IBE', 'UDO', 'ALI', 'ISA', 'JOY', 'CHIOMA', 'NGOZI', 'OLUWASEUN', 'IBRAHIM', 'YUSUF', 'BLESSING', 'NNAMDI', 'GBENGA', 'NWANKWO', 'ADEBAYO'])
			expect([word, readsAsName(word)]).toEqual([word, true]);
	});

	it('without options, middle names are off', () => {
		expect(namesMatch('Ada Obi', 'ADA CHIOMA OBI')).toBe(false);
		expect(namesMatch('Ada Obi', 'ADA CHIOMA OBI', { allowMiddleNames: true })).toBe(true);
	});
});

describe('Expected Account Name against the account lookup', () => {
	it('a matching name (any order and case) pays; another name is refused, naming the holder to the person, never to the tool', async () => {
		const name = await holderName();
		emulator.reset({ payouts: 0 });
		await run(payout('name-ok', { expectedAccountName: name.split(' ').reverse().join(' ').toLowerCase(), beneficiaryBankCode: '044' }));
		expect(emulator.list('payouts')).toHaveLength(1);

		const wrong = await refusal(payout('name-wrong', { expectedAccountName: 'Somebody Else', beneficiaryBankCode: '044' }));
		expect(wrong.message).toBe(`Refused: the holder of account ${ACCOUNT} (bank code 044) does not match Expected Account Name`);
		// The regular node: the person sees whom Paycashless names, in the error's description only.
		expect(wrong.description).toContain(`Paycashless names the holder "${name}"`);
		for (const word of name.split(' ')) expect(wrong.message.toUpperCase()).not.toContain(word);

		// The tool: the model reads the refusal, never the holder's name.
		const asTool = await run({ ...payout('name-tool', { expectedAccountName: 'Somebody Else', beneficiaryBankCode: '044', maxAmount: 100, periodTotal: 1000 }) }, undefined, true);
		const told = JSON.stringify(asTool.output[0].json);
		expect(told).toMatch(/does not match Expected Account Name/);
		expect(told).toMatch(/Bank Account → Look Up/);
		for (const word of name.split(' ')) expect(told.toUpperCase()).not.toContain(word);
		expect(emulator.list('payouts')).toHaveLength(1);
	});

	it('a business account does not pass for the person: ADA OBI VENTURES LTD is refused for "Ada Obi"', async () => {
		const lookup = await startFakeServer((request) =>
			request.path === '/v1/banks/account_lookup'
				? { body: { accountNumber: ACCOUNT, accountName: 'ADA OBI VENTURES LTD', bank: { id: ACCESS_BANK } } }
				: { status: 500, body: { message: 'no payout may reach this server' } },
		);
		try {
			const business = await refusal(payout('name-biz', { expectedAccountName: 'Ada Obi', beneficiaryBankCode: '044' }), lookup.baseUrl);
			expect(business.message).toMatch(/does not match Expected Account Name/);
			expect(business.message).not.toMatch(/VENTURES/i);
			expect(lookup.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/banks/account_lookup']);
		} finally {
			await lookup.close();
		}
	});

	it('a middle name refuses by default; with Allow Middle Names in Account Name on, the payout goes on to Paycashless', async () => {
		const lookup = await startFakeServer((request) =>
			request.path === '/v1/banks/account_lookup'
				? { body: { accountNumber: ACCOUNT, accountName: 'ADA CHIOMA OBI', bank: { id: ACCESS_BANK } } }
				: { status: 400, body: { message: 'the test stops here: the name check passed' } },
		);
		try {
			const strict = await refusal(payout('name-middle', { expectedAccountName: 'Ada Obi', beneficiaryBankCode: '044' }), lookup.baseUrl);
			expect(strict.message).toBe(`Refused: the holder of account ${ACCOUNT} (bank code 044) does not match Expected Account Name`);
			expect(strict.message).not.toMatch(/CHIOMA/i);
			expect(lookup.requests.filter((request) => request.method === 'POST')).toHaveLength(0);

			await refusal(payout('name-middle-on', { expectedAccountName: 'Ada Obi', beneficiaryBankCode: '044', allowMiddleNames: true }), lookup.baseUrl);
			expect(lookup.requests.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual(['/v1/payouts']);
		} finally {
			await lookup.close();
		}
	});

	it('Allow Middle Names in Account Name is typed in only: an expression or a value that is not on/off refuses before any lookup', async () => {
		const byModel = await refusal(payout('middle-ai', { expectedAccountName: 'Ada Obi', beneficiaryBankCode: '044', allowMiddleNames: "={{ $fromAI('Middle_Names', '', 'boolean') }}" }));
		expect(byModel.message).toBe('Refused: Money Limits → Allow Middle Names in Account Name is an expression');
		const notBoolean = await refusal(payout('middle-text', { expectedAccountName: 'Ada Obi', beneficiaryBankCode: '044', allowMiddleNames: 'yes' }));
		expect(notBoolean.message).toBe('Refused: Money Limits → Allow Middle Names in Account Name is set but is "yes"');
		expect(emulator.requests).toHaveLength(0);
	});

	it('the account at another bank than Bank ID is refused', async () => {
		const name = await holderName('058');
		const otherBank = await refusal(payout('name-bank', { expectedAccountName: name, beneficiaryBankCode: '058' }));
		expect(otherBank.message).toBe(`Refused: account ${ACCOUNT} was looked up at bank code 058, but the payout goes to another bank`);
		expect(posts()).toHaveLength(0);
	});

	it('a lookup that names no bank refuses (nothing to compare Bank ID with), and so does a failed lookup', async () => {
		const noBank = await startFakeServer((request) =>
			request.path === '/v1/banks/account_lookup' ? { body: { accountNumber: ACCOUNT, accountName: 'ADA OBI' } } : { status: 500, body: {} },
		);
		try {
			const refused = await refusal(payout('no-bank', { expectedAccountName: 'Ada Obi', beneficiaryBankCode: '044' }), noBank.baseUrl);
			expect(refused.message).toBe(`Refused: Paycashless's lookup of account ${ACCOUNT} at bank code 044 named no bank`);
			expect(noBank.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
		} finally {
			await noBank.close();
		}
		const missing = await refusal({ ...payout('missing', { expectedAccountName: 'Ada Obi', beneficiaryBankCode: '044' }), destinationAccountNumber: '0001234567' });
		expect(missing.message).toBe('Refused: account 0001234567 could not be looked up at bank code 044');
		expect(posts()).toHaveLength(0);
	});
});

describe('Allowed Destination Accounts: an account and its bank', () => {
	it('an entry without a bank refuses every payout and says how to write it; nothing is looked up or sent', async () => {
		const refused = await refusal(payout('allow-nobank', { allowedAccounts: `${ACCOUNT}, 1111111111@058` }));
		expect(refused.message).toBe(`Refused: the Allowed Destination Accounts entry "${ACCOUNT}" is not account@bank code`);
		expect(refused.description).toMatch(/0123456789@058/);
		expect(emulator.requests).toHaveLength(0);
	});

	it('the account listed at another bank is refused; at the payout\'s bank it pays; the list is never shown', async () => {
		const elsewhere = await refusal(payout('allow-other', { allowedAccounts: `${ACCOUNT}@058, 2222222222@044` }));
		expect(elsewhere.message).toBe(`Refused: account ${ACCOUNT} at the payout's bank is not among this node's Allowed Destination Accounts`);
		expect(`${elsewhere.message} ${elsewhere.description}`).not.toContain('2222222222');
		expect(posts()).toHaveLength(0);
		const unlisted = await refusal(payout('allow-none', { allowedAccounts: '2222222222@044' }));
		expect(unlisted.message).toMatch(/is not among this node's Allowed Destination Accounts/);
		expect(posts()).toHaveLength(0);

		await run(payout('allow-ok', { allowedAccounts: `${ACCOUNT}@058\n${ACCOUNT}@044` }));
		expect(emulator.list('payouts')).toEqual([expect.objectContaining({ reference: 'allow-ok', destinationBankId: ACCESS_BANK })]);
	});

	it('the name check uses the bank of the allow-list entry when Payee Bank Code is empty', async () => {
		const name = await holderName();
		emulator.reset({ payouts: 0 });
		await run(payout('allow-name', { allowedAccounts: `${ACCOUNT}@044`, expectedAccountName: name }));
		expect(emulator.list('payouts')).toHaveLength(1);
		// One lookup for both checks (same account and bank code).
		expect(emulator.requests.filter((request) => request.path === '/v1/banks/account_lookup')).toHaveLength(1);
	});
});

describe('where the expected values come from (the field as typed, before expressions)', () => {
	it('$fromAI in Expected Account Name or Allowed Destination Accounts is refused before any lookup', async () => {
		const byModel = await refusal(payout('src-ai', { expectedAccountName: "={{ $fromAI('Account_Name', 'the name on the claim', 'string') }}", beneficiaryBankCode: '044' }));
		expect(byModel.message).toBe('Refused: Money Limits → Expected Account Name is filled by the AI model ($fromAI)');
		const listByModel = await refusal(payout('src-ai-2', { allowedAccounts: "={{ $fromAI('Accounts') }}" }));
		expect(listByModel.message).toBe('Refused: Money Limits → Allowed Destination Accounts is filled by the AI model ($fromAI)');
		const fromLookup = await refusal(payout('src-lookup', { expectedAccountName: "={{ $('Look Up Account').item.json.accountName }}", beneficiaryBankCode: '044' }));
		expect(fromLookup.message).toBe('Refused: Money Limits → Expected Account Name reads accountName, the name an account lookup returns');
		expect(emulator.requests).toHaveLength(0);
	});

	it('what counts as untrusted: $fromAI (any spelling), accountName, an account-lookup node by name; fixed text and own records pass', () => {
		const lookups = ['Look Up Account'];
		expect(untrustedSource("={{ $fromAi('x') }}", 'expectedAccountName', [])).toMatch(/\$fromAI/);
		expect(untrustedSource("={{ $json.accountName }}", 'expectedAccountName', [])).toMatch(/accountName/);
		expect(untrustedSource('={{ $node["Look Up Account"].json.name }}', 'expectedAccountName', lookups)).toBe('reads the account-lookup node "Look Up Account"');
		expect(untrustedSource("={{ $('Look Up Account').item.json.bank.name }}", 'expectedAccountName', lookups)).toMatch(/Look Up Account/);
		expect(untrustedSource('={{ $json.claimantName }}', 'expectedAccountName', lookups)).toBeUndefined();
		expect(untrustedSource('Ada Obi', 'expectedAccountName', lookups)).toBeUndefined();
		// Text that only looks like an expression is not one (n8n evaluates only values starting with "=").
		expect(untrustedSource("$fromAI('x')", 'expectedAccountName', [])).toBeUndefined();
		expect(untrustedSource('={{ $json.accountNumber }}@058', 'allowedAccounts', lookups)).toBeUndefined();
	});
});

describe('Allowed Destination Accounts shows the format it takes', () => {
	it('its placeholder is a list the check accepts (account@bank code)', async () => {
		const { Paycashless } = await import('../../../nodes/Paycashless/Paycashless.node');
		const limits = new Paycashless().description.properties.find((property) => property.name === 'moneyLimits' && JSON.stringify(property.displayOptions).includes('payout'));
		const field = (limits?.options as Array<{ name: string; placeholder?: string }> | undefined)?.find((option) => option.name === 'allowedAccounts');
		expect(field?.placeholder).toBeDefined();
		for (const entry of String(field?.placeholder).split(/[\s,;]+/).filter(Boolean)) expect(entry).toMatch(/^\d{10}@\d{3,6}$/);
	});
});
