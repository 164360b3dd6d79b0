import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	additionalBodyJsonField,
	additionalFieldsCollection,
	callbackUrlField,
	currencyField,
} from '../fields/common';
import { BANK, DEDICATED_ACCOUNT } from '../../catalog/objects';
import { compact, mergeAdditionalBody } from '../../helpers/body';
import { BVN_DIGITS, invalid, NUBAN_DIGITS, optionalText, optionalUrl, parseJsonObject, requireCalendarDate, requireDigits, requireEmail, requireId, requireText } from '../../helpers/validation';
import type { PaycashlessApi } from '../../transport';
import type { OperationDeclaration, OperationOption } from '../types';

const individual = { show: { accountType: ['individual'] } };
const business = { show: { accountType: ['business'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Account Type',
		name: 'accountType',
		type: 'options',
		options: [
			{
				name: 'Individual',
				value: 'individual',
				description: 'An account for a person, with their KYC profile',
			},
			{
				name: 'Business',
				value: 'business',
				description: 'An account for a company; its details are given as JSON',
			},
		],
		default: 'individual',
	},
	currencyField,
	{
		displayName: 'Preferred Bank',
		name: 'preferredBank',
		type: 'string',
		required: true,
		default: 'safehaven_mfb',
		description: 'The bank that should hold the account, as Paycashless names it (e.g. safehaven_mfb)',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: 'The customer’s e-mail address; Paycashless asks the customer to consent there',
		displayOptions: individual,
	},
	{
		displayName: 'First Name',
		name: 'firstName',
		type: 'string',
		required: true,
		default: '',
		displayOptions: individual,
	},
	{
		displayName: 'Last Name',
		name: 'lastName',
		type: 'string',
		required: true,
		default: '',
		displayOptions: individual,
	},
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+2348012345678',
		displayOptions: individual,
	},
	{
		displayName: 'Date of Birth',
		name: 'dateOfBirth',
		type: 'string',
		required: true,
		default: '',
		placeholder: '1990-04-25',
		description: 'Written YYYY-MM-DD',
		displayOptions: individual,
	},
	{
		displayName: 'BVN',
		name: 'bvn',
		type: 'string',
		required: true,
		default: '',
		placeholder: '22212345678',
		description: 'The customer’s Bank Verification Number (11 digits)',
		displayOptions: individual,
	},
	{
		displayName: 'Business Details (JSON)',
		name: 'businessDetailsJson',
		type: 'json',
		required: true,
		default: '{}',
		description:
			'The business account request as Paycashless expects it (its fields are not published; ask Paycashless). Sent with accountType "business", the currency and the preferred bank.',
		displayOptions: business,
	},
	{
		...additionalFieldsCollection(
			[
				{
					displayName: 'Bank Account Number',
					name: 'bankAccountNumber',
					type: 'string',
					default: '',
					description: 'An existing bank account of the customer, for identity checks',
				},
				{
					displayName: 'Bank ID',
					name: 'bankId',
					type: 'string',
					default: '',
					placeholder: 'bank_...',
					description: 'Paycashless bank ID of that existing account (starts with bank_)',
					hint: 'From Bank Account → Look Up: {{ $json.bank.id }}',
				},
				{
					displayName: 'Country of Origin',
					name: 'countryOfOrigin',
					type: 'string',
					default: '',
					placeholder: 'NG',
					description: 'Two-letter country code (ISO 3166-1 alpha-2)',
				},
				{
					displayName: 'Gender',
					name: 'gender',
					type: 'options',
					options: [
						{ name: 'Female', value: 'female' },
						{ name: 'Male', value: 'male' },
					],
					default: 'female',
				},
				{
					displayName: 'Other Name',
					name: 'otherName',
					type: 'string',
					default: '',
					description: 'Middle name',
				},
			],
			'kycFields',
		),
		displayName: 'Additional KYC Fields',
		displayOptions: individual,
	},
	additionalFieldsCollection([
		{
			displayName: 'Account Name',
			name: 'accountName',
			type: 'string',
			default: '',
			description: 'Name to give the account',
		},
		callbackUrlField,
		additionalBodyJsonField,
	]),
];

export const option: OperationOption = { name: 'Create', description: 'Request a dedicated virtual account (a bank account number of its own) for a customer', action: 'Create a dedicated account' };

export const declaration: OperationDeclaration = { kind: 'write', check: { with: { resource: 'dedicatedAccount', operation: 'getAll' }, text: '(or in the Paycashless dashboard) whether the account was requested' } };

function readKycProfile(this: IExecuteFunctions, i: number): IDataObject {
	const kyc = this.getNodeParameter('kycFields', i, {}) as IDataObject;
	const countryOfOrigin = optionalText(kyc.countryOfOrigin)?.toUpperCase();
	if (countryOfOrigin !== undefined && !/^[A-Z]{2}$/.test(countryOfOrigin)) {
		invalid('Country of Origin', kyc.countryOfOrigin, 'use a two-letter country code such as NG');
	}
	const bankId = optionalText(kyc.bankId);
	return compact({
		firstName: requireText(this.getNodeParameter('firstName', i), 'First Name'),
		lastName: requireText(this.getNodeParameter('lastName', i), 'Last Name'),
		otherName: optionalText(kyc.otherName),
		phoneNumber: requireText(this.getNodeParameter('phoneNumber', i), 'Phone Number'),
		dateOfBirth: requireCalendarDate(this.getNodeParameter('dateOfBirth', i), 'Date of Birth'),
		gender: optionalText(kyc.gender),
		countryOfOrigin,
		identities: [{ type: 'bvn', number: requireDigits(this.getNodeParameter('bvn', i), 'BVN', '22212345678', BVN_DIGITS) }],
		bankAccountNumber:
			kyc.bankAccountNumber === undefined || kyc.bankAccountNumber === ''
				? undefined
				: requireDigits(kyc.bankAccountNumber, 'Bank Account Number', '0123456789', NUBAN_DIGITS),
		bankId: bankId === undefined ? undefined : requireId(bankId, BANK.idPrefix, 'Bank ID'),
	});
}

export async function execute(this: IExecuteFunctions, i: number, api: PaycashlessApi): Promise<IDataObject> {
	const accountType = this.getNodeParameter('accountType', i) as string;
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const common = compact({
		accountType,
		currency: this.getNodeParameter('currency', i) as string,
		preferredBank: requireText(this.getNodeParameter('preferredBank', i), 'Preferred Bank'),
		accountName: optionalText(fields.accountName),
		callbackUrl: optionalUrl(fields.callbackUrl, 'Callback URL'),
	});
	let body: IDataObject;
	if (accountType === 'business') {
		const details = parseJsonObject(this.getNodeParameter('businessDetailsJson', i), 'Business Details (JSON)');
		if (Object.keys(details).length === 0) {
			invalid('Business Details (JSON)', details, 'give the business account details as a JSON object');
		}
		body = { ...common, ...details };
	} else {
		body = {
			...common,
			email: requireEmail(this.getNodeParameter('email', i), 'Email'),
			kycProfile: readKycProfile.call(this, i),
		};
	}
	body = mergeAdditionalBody(body, fields.additionalBodyJson);
	return await api.request({ method: 'POST', path: DEDICATED_ACCOUNT.path, body });
}

/** What running it as an AI agent's tool does to people. */
export const asTool = { effect: "It gives a customer a bank account number to pay into; the customer's BVN and details are sent to Paycashless." };

/** Its row in docs/operations.md (npm run docs). */
export const docs = { notes: 'Individual (KYC profile, BVN) or business (details as JSON)' };
